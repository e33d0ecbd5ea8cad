// riscv64 (Sv39, QEMU virt) types and constants for kernel/arch.h.
#ifndef TASKLAB_ARCH_DEFS_H
#define TASKLAB_ARCH_DEFS_H

// Kernel linear map: all of physical memory below 4 GiB at PAGE_OFFSET.
#define PAGE_OFFSET     0xFFFFFFC000000000UL
#define PHYS_RAM_BASE   0x80000000UL
#define KERNEL_LINK     (PAGE_OFFSET + PHYS_RAM_BASE)
#define USER_TOP        0x4000000000UL   // Sv39 lower half: 256 GiB
#define PT_LEVELS       3
#define PGD_KERNEL_FIRST 256             // top-level slots from here are the kernel's

// Physical addresses of QEMU virt devices.
#define VIRT_TEST       0x00100000UL     // sifive test device (poweroff)
#define VIRT_PLIC       0x0C000000UL
#define VIRT_UART0      0x10000000UL
#define VIRT_VIRTIO0    0x10001000UL
#define UART0_IRQ       10
#define VIRTIO0_IRQ     1
#define VIRT_VIRTIO1    0x10002000UL     // the second transport: the virtio console
#define VIRTIO1_IRQ     2
#define ARCH_DISK_NAME  "vda"           // a virtio disk, as Linux names it
#define ARCH_SERIAL2_NAME "virtio console"  // the second serial line
#define ARCH_DISK_MAJOR 254             // virtblk's usual dynamic major
// /proc/interrupts's lines, as Linux prints them on QEMU virt: the
// supervisor timer through the hart's local controller, the UART and the
// disk through the PLIC.
#define ARCH_IRQ_DESCS { \
  [IRQ_SRC_TIMER] = { "  5", "RISC-V INTC   5 Edge      riscv-timer" }, \
  [IRQ_SRC_UART]  = { " 10", "SiFive PLIC  10 Edge      ttyS0" }, \
  [IRQ_SRC_DISK]  = { "  1", "SiFive PLIC   1 Edge      virtio0" } }
#define TIMEBASE_HZ     10000000UL       // QEMU virt mtime frequency

// Offsets into struct thread_info, for trap.S.
#define TI_FLAGS    0
#define TI_USER_SP  8
#define TI_REGS     16
#define TI_CONTEXT  24

#ifndef __ASSEMBLER__
#include "types.h"

// User registers, saved at the top of the kernel stack on every trap from
// user mode. The first 32 words are laid out like Linux's riscv
// user_regs_struct (pc, then x1..x31), which is what PTRACE_GETREGS copies.
struct pt_regs {
  u64 epc;
  u64 ra, sp, gp, tp, t0, t1, t2, s0, s1;
  u64 a0, a1, a2, a3, a4, a5, a6, a7;
  u64 s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
  u64 t3, t4, t5, t6;
  // kernel-only from here
  u64 status;
  u64 badaddr;
  u64 cause;
  u64 orig_a0;            // a0 at syscall entry, for restarts
};

// Callee-saved registers, saved by arch_switch_to().
struct context {
  u64 ra, sp;
  u64 s[12];
};

// A frame (gcc -fno-omit-frame-pointer): s0 points just above the saved
// return address and, below it, the caller's s0.
#define FRAME_RA_OFFSET (-8)
#define FRAME_FP_OFFSET (-16)

// Per-task words trap.S reaches through tp. Must stay first in struct task.
struct thread_info {
  u64 flags;              // TIF_* bits, changed atomically
  u64 user_sp;            // scratch for the user sp during trap entry
  struct pt_regs *regs;   // top of this task's kernel stack
  struct context context; // saved by arch_switch_to()
};

// Sv39 page-table entry bits.
#define PTE_V (1UL << 0)
#define PTE_R (1UL << 1)
#define PTE_W (1UL << 2)
#define PTE_X (1UL << 3)
#define PTE_U (1UL << 4)
#define PTE_G (1UL << 5)
#define PTE_A (1UL << 6)
#define PTE_D (1UL << 7)

#define csr_read(csr) ({ u64 __v; asm volatile("csrr %0, " #csr : "=r"(__v) :: "memory"); __v; })
#define csr_write(csr, val) asm volatile("csrw " #csr ", %0" :: "rK"((u64)(val)) : "memory")
#define csr_set(csr, val) asm volatile("csrs " #csr ", %0" :: "rK"((u64)(val)) : "memory")
#define csr_clear(csr, val) asm volatile("csrc " #csr ", %0" :: "rK"((u64)(val)) : "memory")

#define SSTATUS_SIE  (1UL << 1)
#define SSTATUS_SPIE (1UL << 5)
#define SSTATUS_SPP  (1UL << 8)
#define SSTATUS_SUM  (1UL << 18)
#define SIE_SSIE (1UL << 1)
#define SIE_STIE (1UL << 5)
#define SIE_SEIE (1UL << 9)

// Current task lives in tp while in the kernel.
static inline struct task *get_current(void)
{
  struct task *t;
  asm("mv %0, tp" : "=r"(t));
  return t;
}
static inline void set_current(struct task *t)
{
  asm volatile("mv tp, %0" :: "r"(t));
}
#define current get_current()
#endif
#endif
