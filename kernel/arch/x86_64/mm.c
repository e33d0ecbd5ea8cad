// x86_64 4-level page-table entries and address-space switching.
#include "kernel.h"

extern pte_t boot_pml4[];
extern u32 x86_nx_enabled;

pte_t *arch_kernel_pgd(void) { return boot_pml4; }

// The physical address of the page table in use.
static u64 read_cr3(void)
{
  u64 v;
  asm volatile("mov %%cr3, %0" : "=r"(v));
  return v;
}

// Load a page table into cr3, which also drops the old user translations.
// The kernel half of every page table is the same, so the kernel keeps
// running across the switch.
void arch_switch_mm(pte_t *pgd)
{
  u64 pa = __pa(pgd);
  if (read_cr3() != pa)
    asm volatile("mov %0, %%cr3" :: "r"(pa) : "memory");
}

// Reloading cr3 flushes every translation not marked global (tasklab
// marks none).
void arch_flush_tlb(void)
{
  asm volatile("mov %0, %%cr3" :: "r"(read_cr3()) : "memory");
}

// A 4 KiB leaf. x86 pages are always readable; no-execute needs EFER.NXE,
// which entry.S sets when the CPU has it (otherwise everything executes).
pte_t arch_mk_pte(u64 pa, int prot)
{
  pte_t pte = (pa & PTE_ADDR_MASK) | PTE_P | PTE_A | PTE_D;
  if (prot & VM_WRITE) pte |= PTE_W;
  if (prot & VM_USER)  pte |= PTE_U;
  if (!(prot & VM_EXEC) && x86_nx_enabled) pte |= PTE_NX;
  return pte;
}

// Upper levels allow everything; the leaf decides.
pte_t arch_mk_table(u64 pa) { return (pa & PTE_ADDR_MASK) | PTE_P | PTE_W | PTE_U; }
bool arch_pte_present(pte_t pte) { return pte & PTE_P; }
// Only asked of upper-level entries: a 2 MiB or 1 GiB page.
bool arch_pte_leaf(pte_t pte) { return pte & PTE_PS; }
u64  arch_pte_pa(pte_t pte) { return pte & PTE_ADDR_MASK; }

// The VM_* bits of a leaf.
int arch_pte_prot(pte_t pte)
{
  int prot = VM_READ;
  if (pte & PTE_W)   prot |= VM_WRITE;
  if (!(pte & PTE_NX)) prot |= VM_EXEC;
  if (pte & PTE_U)   prot |= VM_USER;
  return prot;
}
