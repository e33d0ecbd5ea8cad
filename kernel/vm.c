// Page tables and user memory, for any architecture whose tables are a
// tree of PT_LEVELS levels of 512 entries (Sv39: 3, x86_64: 4). The top
// slots from PGD_KERNEL_FIRST up map the kernel and are the same in every
// page table; the slots below belong to the process.
#include "task.h"

#define PTRS_PER_TABLE 512

static int pt_index(u64 va, int level)
{
  return (va >> (PAGE_SHIFT + 9 * level)) & (PTRS_PER_TABLE - 1);
}

// A new page table: empty user half, the kernel's own kernel half.
pte_t *pgd_alloc(void)
{
  pte_t *pgd = alloc_page();
  if (!pgd)
    return NULL;
  pte_t *k = arch_kernel_pgd();
  for (int i = PGD_KERNEL_FIRST; i < PTRS_PER_TABLE; i++)
    pgd[i] = k[i];
  return pgd;
}

// Free a table at the given level and everything below it: lower tables
// and the user pages their leaves map.
static void free_table(pte_t *table, int level)
{
  for (int i = 0; i < PTRS_PER_TABLE; i++) {
    pte_t e = table[i];
    if (!arch_pte_present(e))
      continue;
    if (level == 0)
      free_page(__va(arch_pte_pa(e)));
    else if (arch_pte_leaf(e))
      panic("free_table: huge page in user half");
    else
      free_table(__va(arch_pte_pa(e)), level - 1);
  }
  free_page(table);
}

// Free a page table with every user page it maps.
void pgd_free(pte_t *pgd)
{
  for (int i = 0; i < PGD_KERNEL_FIRST; i++)
    if (arch_pte_present(pgd[i]))
      free_table(__va(arch_pte_pa(pgd[i])), PT_LEVELS - 2);
  free_page(pgd);
}

// The leaf entry for user address va, allocating tables when alloc is
// set. NULL if va is not a user address or memory runs out.
static pte_t *walk(pte_t *pgd, u64 va, bool alloc)
{
  if (va >= USER_TOP)
    return NULL;
  pte_t *table = pgd;
  for (int level = PT_LEVELS - 1; level > 0; level--) {
    pte_t *e = &table[pt_index(va, level)];
    if (arch_pte_present(*e)) {
      if (arch_pte_leaf(*e))
        panic("walk: huge page in user half");
      table = __va(arch_pte_pa(*e));
      continue;
    }
    if (!alloc)
      return NULL;
    pte_t *next = alloc_page();
    if (!next)
      return NULL;
    *e = arch_mk_table(__pa(next));
    table = next;
  }
  return &table[pt_index(va, 0)];
}

// The present leaf for va, or NULL.
pte_t *lookup_pte(pte_t *pgd, u64 va)
{
  pte_t *e = walk(pgd, va, false);
  return e && arch_pte_present(*e) ? e : NULL;
}

// Map page (a linear-map address) at user address va. Returns 0,
// -ENOMEM, or -EEXIST if va is mapped already (the caller chose a bad
// place; a layout a program chose must not panic the kernel).
int map_user_page(pte_t *pgd, u64 va, void *page, int prot)
{
  pte_t *e = walk(pgd, va, true);
  if (!e)
    return -ENOMEM;
  if (arch_pte_present(*e))
    return -EEXIST;
  *e = arch_mk_pte(__pa(page), prot | VM_USER);
  return 0;
}

// Give dst a private copy of src's pages in [va, va+len), same
// protections. On -ENOMEM the pages copied so far stay mapped in dst.
int copy_user_range(pte_t *dst, pte_t *src, u64 va, u64 len)
{
  for (u64 a = PAGE_ALIGN_DOWN(va); a < va + len; a += PAGE_SIZE) {
    pte_t *e = lookup_pte(src, a);
    if (!e)
      continue;
    void *page = alloc_page();
    if (!page)
      return -ENOMEM;
    memcpy(page, __va(arch_pte_pa(*e)), PAGE_SIZE);
    if (map_user_page(dst, a, page, arch_pte_prot(*e)) < 0) {
      free_page(page);
      return -ENOMEM;
    }
  }
  return 0;
}

// The kernel address of user address va's byte, if va is mapped for the
// user (and writable, if write is set); NULL otherwise.
void *user_page(pte_t *pgd, u64 va, bool write)
{
  pte_t *e = lookup_pte(pgd, va);
  if (!e)
    return NULL;
  int prot = arch_pte_prot(*e);
  if (!(prot & VM_USER) || (write && !(prot & VM_WRITE)))
    return NULL;
  return (char *)__va(arch_pte_pa(*e)) + (va & (PAGE_SIZE - 1));
}

// Copy between kernel memory and the user memory of mm, page by page,
// checking each page (force: a write may go to a read-only page, as a
// debugger's breakpoint does). Holds mm->lock, so another thread's sbrk cannot
// free a page under the copy. Returns 0 or -EFAULT (a prefix may have
// been copied).
int access_process_vm(struct mm_struct *mm, u64 uaddr, void *buf, size_t n, bool write,
                      bool force)
{
  char *k = buf;
  int err = 0;
  if (uaddr + n < uaddr)
    return -EFAULT;
  spin_lock(&mm->lock);
  while (n > 0) {
    char *p = user_page(mm->pgd, uaddr, write && !force);
    if (!p) {
      err = -EFAULT;
      break;
    }
    size_t chunk = PAGE_SIZE - (uaddr & (PAGE_SIZE - 1));
    if (chunk > n)
      chunk = n;
    if (write)
      memcpy(p, k, chunk);
    else
      memcpy(k, p, chunk);
    k += chunk;
    uaddr += chunk;
    n -= chunk;
  }
  spin_unlock(&mm->lock);
  return err;
}

int copy_to_user(void *udst, const void *src, size_t n)
{
  return access_process_vm(current->mm, (u64)udst, (void *)src, n, true, false);
}

int copy_from_user(void *dst, const void *usrc, size_t n)
{
  return access_process_vm(current->mm, (u64)usrc, dst, n, false, false);
}

int get_user_u64(u64 *val, u64 uaddr) { return copy_from_user(val, (void *)uaddr, 8); }
int put_user_u64(u64 uaddr, u64 val) { return copy_to_user((void *)uaddr, &val, 8); }

// Copy a NUL-terminated string of at most max bytes (NUL included).
// Returns its length, -EFAULT, or -ENAMETOOLONG if no NUL within max.
long strncpy_from_user(char *dst, const void *usrc, size_t max)
{
  struct mm_struct *mm = current->mm;
  u64 ua = (u64)usrc;
  long ret = -ENAMETOOLONG;
  spin_lock(&mm->lock);
  for (size_t i = 0; i < max && ret == -ENAMETOOLONG; ) {
    char *p = user_page(mm->pgd, ua + i, false);
    if (!p) {
      ret = -EFAULT;
      break;
    }
    size_t chunk = PAGE_SIZE - ((ua + i) & (PAGE_SIZE - 1));
    for (; chunk && i < max; chunk--, i++, p++) {
      dst[i] = *p;
      if (*p == 0) {
        ret = i;
        break;
      }
    }
  }
  spin_unlock(&mm->lock);
  return ret;
}

// Unmap [va, va+len) of mm, safely for threads of mm running on other
// CPUs: this returns only once every such CPU has flushed its stale
// translations, and only then frees the pages, if free is set (a caller
// that owns the pages, like io_uring, frees them itself after the call).
// Caller holds no spinlock, and mm->mmap_lock if the range is the heap.
void unmap_user_pages_sync(struct mm_struct *mm, u64 va, u64 len, bool free)
{
  u64 a = PAGE_ALIGN_DOWN(va), end = va + len;
  while (a < end) {
    void *batch[64];
    int n = 0;
    spin_lock(&mm->lock);
    for (; a < end && n < (int)ARRAY_SIZE(batch); a += PAGE_SIZE) {
      pte_t *e = lookup_pte(mm->pgd, a);
      if (e) {
        batch[n++] = __va(arch_pte_pa(*e));
        *e = 0;
      }
    }
    u64 gen = ++mm->tlb_gen;
    spin_unlock(&mm->lock);
    switch_mm_sync(current->mm);
    if (READ_ONCE(mm->users) > 1)
      tlb_shootdown_wait(mm, gen);
    while (free && n > 0)
      free_page(batch[--n]);
    if (a < end)
      cond_resched();   // a long range: let others run between batches
  }
}
