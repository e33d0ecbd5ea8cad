// The physical page allocator: a free list of 4 KiB pages, from the end of
// the kernel image to the end of RAM, addressed through the linear map.
//
// Page poisoning (on by default, /proc/sys/kernel/page_poison), in the
// spirit of Linux's page_poison: a freed page is filled with PAGE_POISON,
// and alloc_page() checks that nothing wrote it while it was free. The
// byte is chosen so that a stale read is loud too: 0x6b...6b read as a
// page table entry is present, on either port, and names an address
// far past the end of RAM, so a walk through a freed page table faults at
// once instead of reading the old, still-plausible entries. (Linux's page
// poisoning, a boot option, writes 0xaa; 0xaa as an entry is "not
// present" on both ports, so a stale walk would fail quietly. 0x6b is
// Linux's slab poison for freed objects, POISON_FREE in
// include/linux/poison.h.)
#include "kernel.h"
#include "spinlock.h"

extern char _end[];

#define PAGE_POISON 0x6b
#define POISON_WORD 0x6b6b6b6b6b6b6b6bUL

struct free_page { struct free_page *next; };

// One bit per page from the end of the kernel to the end of RAM: set
// while the page is on the free list. It lets free_page() catch a page
// freed twice, and page_is_free() tell a use of freed memory (BUG_ON).
#define MAX_PAGES ((1UL << 30) / PAGE_SIZE)   // 1 GiB of RAM at most

static struct {
  struct spinlock lock;   // guards list, nr_free, poison and free_map
  struct free_page *list;
  long nr_free;
  bool poison;            // every page on list is poisoned while set
} pages = { .poison = true };
static u64 free_map[MAX_PAGES / 64];   // in .bss, unlike pages

// The bit of free_map for page va, or -1 if va is no page of ours.
static long page_index(const void *va)
{
  u64 a = (u64)va, start = PAGE_ALIGN((u64)_end);
  if (a < start || a >= (u64)__va(arch_phys_ram_end()))
    return -1;
  return (a - start) / PAGE_SIZE;
}

// Is va's page on the free list? For invariant checks: a pointer that
// must be live never points into a free page. No lock: a check that
// races with a free may miss it, never report a live page.
bool page_is_free(const void *va)
{
  long i = page_index((const void *)((u64)va & ~(PAGE_SIZE - 1)));
  return i >= 0 && (READ_ONCE(free_map[i / 64]) >> (i % 64) & 1);
}

void page_alloc_init(void)
{
  spin_lock_init(&pages.lock, "pages");
  u64 start = PAGE_ALIGN((u64)_end);
  u64 end = (u64)__va(arch_phys_ram_end());
  if ((end - start) / PAGE_SIZE > MAX_PAGES)
    panic("page_alloc: more RAM than free_map covers");
  for (u64 p = start; p + PAGE_SIZE <= end; p += PAGE_SIZE)
    free_page((void *)p);
}

// Panic unless the free page p still holds the poison everywhere but its
// list link: something wrote it after free_page(). pages.lock not needed:
// p is off the list.
static void check_poison(struct free_page *p)
{
  u64 *w = (u64 *)p;
  for (int i = 1; i < PAGE_SIZE / 8; i++)
    if (w[i] != POISON_WORD)
      panic("page_alloc: page %p written after it was freed: offset %d holds %lx",
            p, i * 8, w[i]);
}

// A zeroed page, or NULL when memory is exhausted.
void *alloc_page(void)
{
  spin_lock(&pages.lock);
  struct free_page *p = pages.list;
  bool poisoned = pages.poison;
  if (p) {
    pages.list = p->next;
    long i = page_index(p);
    free_map[i / 64] &= ~(1UL << (i % 64));
    pages.nr_free--;
  }
  spin_unlock(&pages.lock);
  if (!p)
    return NULL;
  if (poisoned)
    check_poison(p);
  memset(p, 0, PAGE_SIZE);
  return p;
}

// Give back a page of alloc_page()'s. The poison is written before the
// lock is taken, except when page_poison was turned on meanwhile. Panics
// on a page freed twice.
void free_page(void *va)
{
  u64 a = (u64)va;
  long i = page_index(va);
  if ((a & (PAGE_SIZE - 1)) || i < 0)
    panic("free_page: bad page %p", va);
  struct free_page *p = va;
  bool poisoned = READ_ONCE(pages.poison);
  if (page_is_free(va))   // before the poison wipes its list link
    panic("free_page: page %p freed twice", va);
  if (poisoned)
    memset(p, PAGE_POISON, PAGE_SIZE);
  spin_lock(&pages.lock);
  if (free_map[i / 64] >> (i % 64) & 1)
    panic("free_page: page %p freed twice", va);
  free_map[i / 64] |= 1UL << (i % 64);
  if (pages.poison && !poisoned)
    memset(p, PAGE_POISON, PAGE_SIZE);
  p->next = pages.list;
  pages.list = p;
  pages.nr_free++;
  spin_unlock(&pages.lock);
}

long nr_free_pages(void)
{
  return READ_ONCE(pages.nr_free);
}

// /proc/sys/kernel/page_poison: 1 if freed pages are poisoned and checked.
int page_poison_get(void)
{
  return READ_ONCE(pages.poison);
}

// Turn poisoning on (1) or off (0). Turning it on poisons every free page
// first, under pages.lock, so that alloc_page() never checks a page that
// was freed unpoisoned. Returns 0.
int page_poison_set(int on)
{
  spin_lock(&pages.lock);
  if (on && !pages.poison)
    for (struct free_page *p = pages.list; p; p = p->next) {
      struct free_page *next = p->next;
      memset(p, PAGE_POISON, PAGE_SIZE);
      p->next = next;
    }
  pages.poison = on;
  spin_unlock(&pages.lock);
  return 0;
}
