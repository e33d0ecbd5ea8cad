// riscv64 Sv39 page-table entries and address-space switching.
#include "kernel.h"

extern pte_t boot_pgd[];

pte_t *arch_kernel_pgd(void) { return boot_pgd; }

// Load a page table into satp. The kernel half of every page table is the
// same, so the kernel keeps running across the switch.
void arch_switch_mm(pte_t *pgd)
{
  u64 satp = (8UL << 60) | (__pa(pgd) >> PAGE_SHIFT);
  if (csr_read(satp) != satp) {
    asm volatile("sfence.vma zero, zero");
    csr_write(satp, satp);
    asm volatile("sfence.vma zero, zero");
  }
}

void arch_flush_tlb(void) { asm volatile("sfence.vma zero, zero"); }

pte_t arch_mk_pte(u64 pa, int prot)
{
  pte_t pte = ((pa >> PAGE_SHIFT) << 10) | PTE_V | PTE_A | PTE_D;
  if (prot & VM_READ)  pte |= PTE_R;
  if (prot & VM_WRITE) pte |= PTE_W | PTE_R;
  if (prot & VM_EXEC)  pte |= PTE_X;
  if (prot & VM_USER)  pte |= PTE_U;
  return pte;
}

pte_t arch_mk_table(u64 pa) { return ((pa >> PAGE_SHIFT) << 10) | PTE_V; }
bool arch_pte_present(pte_t pte) { return pte & PTE_V; }
bool arch_pte_leaf(pte_t pte) { return pte & (PTE_R | PTE_W | PTE_X); }
u64  arch_pte_pa(pte_t pte) { return (pte >> 10) << PAGE_SHIFT; }

int arch_pte_prot(pte_t pte)
{
  int prot = 0;
  if (pte & PTE_R) prot |= VM_READ;
  if (pte & PTE_W) prot |= VM_WRITE;
  if (pte & PTE_X) prot |= VM_EXEC;
  if (pte & PTE_U) prot |= VM_USER;
  return prot;
}

// QEMU virt: -m 128M puts RAM at 0x80000000..0x88000000. Kept simple:
// the Makefile always passes -m 128M.
u64 arch_phys_ram_end(void) { return PHYS_RAM_BASE + 128UL * 1024 * 1024; }
