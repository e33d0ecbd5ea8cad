// Machine-mode setup, run once per hart with paging off, before anything
// else. Everything the kernel needs from machine mode is configured here,
// so the rest of the kernel runs in supervisor mode only.
#include "types.h"
#include "arch_defs.h"

void s_entry(void);

#define MSTATUS_MPP_MASK (3UL << 11)
#define MSTATUS_MPP_S    (1UL << 11)
#define MENVCFG_STCE     (1UL << 63)   // Sstc: supervisor stimecmp

// Delegate every trap and interrupt to supervisor mode, open all of
// physical memory to it, let it own the timer (Sstc) and read the time
// CSR, then mret into s_entry(hartid) in supervisor mode.
// Uses no global data: bss is not cleared yet and addresses are physical.
void __noreturn riscv_setup_machine_mode(u64 hartid)
{
  u64 st = csr_read(mstatus);
  st = (st & ~MSTATUS_MPP_MASK) | MSTATUS_MPP_S;
  csr_write(mstatus, st);
  csr_write(mepc, (u64)s_entry);
  csr_write(satp, 0);
  csr_write(medeleg, 0xffff);
  csr_write(mideleg, 0xffff);
  csr_write(pmpaddr0, 0x3fffffffffffffUL);
  csr_write(pmpcfg0, 0xf);            // TOR, R W X
  csr_set(0x30a, MENVCFG_STCE);       // menvcfg
  csr_write(mcounteren, 7);           // cycle, time, instret
  csr_write(0x14d, ~0UL);             // stimecmp: no timer until armed
  asm volatile("mv a0, %0\n\tmret" :: "r"(hartid) : "a0");
  __builtin_unreachable();
}
