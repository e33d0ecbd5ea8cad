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

static struct {
  struct spinlock lock;   // guards list, nr_free and poison
  struct free_page *list;
  long nr_free;
  bool poison;            // every page on list is poisoned while set
} pages = { .poison = true };

void page_alloc_init(void)
{
  spin_lock_init(&pages.lock, "pages");
  u64 start = PAGE_ALIGN((u64)_end);
  u64 end = (u64)__va(arch_phys_ram_end());
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
// lock is taken, except when page_poison was turned on meanwhile.
void free_page(void *va)
{
  u64 a = (u64)va;
  if ((a & (PAGE_SIZE - 1)) || a < PAGE_ALIGN((u64)_end) ||
      a >= (u64)__va(arch_phys_ram_end()))
    panic("free_page: bad page %p", va);
  struct free_page *p = va;
  bool poisoned = READ_ONCE(pages.poison);
  if (poisoned)
    memset(p, PAGE_POISON, PAGE_SIZE);
  spin_lock(&pages.lock);
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
