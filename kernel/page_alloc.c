// The physical page allocator: a free list of 4 KiB pages, from the end of
// the kernel image to the end of RAM, addressed through the linear map.
#include "kernel.h"
#include "spinlock.h"

extern char _end[];

struct free_page { struct free_page *next; };

static struct {
  struct spinlock lock;   // guards list and nr_free
  struct free_page *list;
  long nr_free;
} pages;

void page_alloc_init(void)
{
  spin_lock_init(&pages.lock, "pages");
  u64 start = PAGE_ALIGN((u64)_end);
  u64 end = (u64)__va(arch_phys_ram_end());
  for (u64 p = start; p + PAGE_SIZE <= end; p += PAGE_SIZE)
    free_page((void *)p);
}

// A zeroed page, or NULL when memory is exhausted.
void *alloc_page(void)
{
  spin_lock(&pages.lock);
  struct free_page *p = pages.list;
  if (p) {
    pages.list = p->next;
    pages.nr_free--;
  }
  spin_unlock(&pages.lock);
  if (p)
    memset(p, 0, PAGE_SIZE);
  return p;
}

void free_page(void *va)
{
  u64 a = (u64)va;
  if ((a & (PAGE_SIZE - 1)) || a < PAGE_ALIGN((u64)_end) ||
      a >= (u64)__va(arch_phys_ram_end()))
    panic("free_page: bad page %p", va);
  struct free_page *p = va;
  spin_lock(&pages.lock);
  p->next = pages.list;
  pages.list = p;
  pages.nr_free++;
  spin_unlock(&pages.lock);
}

long nr_free_pages(void)
{
  return READ_ONCE(pages.nr_free);
}
