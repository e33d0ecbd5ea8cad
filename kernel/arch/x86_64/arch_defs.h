// x86_64 (QEMU pc: i440fx, LAPIC/IOAPIC, 16550, IDE) types and constants
// for kernel/arch.h.
#ifndef TASKLAB_ARCH_DEFS_H
#define TASKLAB_ARCH_DEFS_H

// Kernel linear map: physical 0..1 GiB at PAGE_OFFSET (2 MiB pages). The
// kernel image is linked inside it, at PAGE_OFFSET + its load address, so
// kernel symbols are linear-map addresses and __pa/__va are plain offsets.
#define PAGE_OFFSET     0xFFFFFFFF80000000
#define PHYS_RAM_BASE   0x0
#define KERNEL_PHYS     0x100000          // where multiboot loads the image
#define LINEAR_MAP_SIZE 0x40000000        // 1 GiB
#define USER_TOP        0x800000000000    // lower canonical half: 128 TiB
#define PT_LEVELS       4
#define PGD_KERNEL_FIRST 256              // top-level slots from here are the kernel's

// Device window: physical 3..4 GiB (LAPIC, IOAPIC, PCI holes) mapped
// uncached at IO_VIRT_BASE, outside the linear map.
#define IO_PHYS_BASE    0xC0000000
#define IO_VIRT_BASE    0xFFFFFFFF40000000
#define ARCH_DISK_NAME  "hda"             // the primary IDE master, as Linux's ide driver named it
#define ARCH_DISK_MAJOR 3                 // IDE0_MAJOR
#define ARCH_SERIAL2_NAME "COM2 (0x2f8, irq 3)"   // the second serial line
#define LAPIC_PHYS      0xFEE00000
#define IOAPIC_PHYS     0xFEC00000

// Interrupt vectors: 0..31 exceptions, then our device interrupts.
#define VEC_TIMER       32
#define VEC_COM1        33
#define VEC_IDE         34
#define VEC_COM2        35
#define VEC_SPURIOUS    255
#define IRQ_COM1        4                 // ISA IRQ = IOAPIC pin on QEMU pc
#define IRQ_COM2        3
#define IRQ_IDE         14
// /proc/interrupts's lines, as Linux prints them on QEMU pc: the LAPIC
// timer as LOC, the UART and the IDE disk through the IOAPIC.
#define ARCH_IRQ_DESCS { \
  [IRQ_SRC_TIMER] = { "LOC", "Local timer interrupts" }, \
  [IRQ_SRC_UART]  = { "  4", "IO-APIC   4-edge      ttyS0" }, \
  [IRQ_SRC_DISK]  = { " 14", "IO-APIC  14-edge      ide0" } }

// GDT selectors. The order kdata, udata, ucode is what syscall/sysret
// require (STAR: kernel CS, CS+8; user base+8 = SS, base+16 = CS).
#define KERNEL_CS       0x08
#define KERNEL_DS       0x10
#define USER_DS         (0x18 | 3)
#define USER_CS         (0x20 | 3)
#define TSS_SEL         0x28
#define BOOT_CS32       0x18              // boot GDT only: 32-bit code

// Offsets into struct thread_info, for trap.S.
#define TI_FLAGS    0
#define TI_REGS     8
#define TI_SP0      16
#define TI_CONTEXT  24
// Offsets into struct context.
#define CTX_RSP 0
#define CTX_RIP 8
#define CTX_RBX 16
#define CTX_RBP 24
#define CTX_R12 32
#define CTX_R13 40
#define CTX_R14 48
#define CTX_R15 56
// Offsets into struct x86_cpu, reached through %gs in the kernel.
#define PCPU_CURRENT  0
#define PCPU_SP0      8
#define PCPU_USER_SP  16
#define PCPU_TSS      32
#define PCPU_TSS_RSP0 (PCPU_TSS + 4)
#define X86_CPU_SIZE  4096

// pt_regs word offsets, for trap.S (see struct pt_regs).
#define PT_ORIG_RAX (15 * 8)
#define PT_RIP      (16 * 8)
#define PT_CS       (17 * 8)
#define PT_RSP      (19 * 8)
#define PT_FS_BASE  (21 * 8)

// Model-specific registers.
#define MSR_EFER          0xC0000080
#define MSR_STAR          0xC0000081
#define MSR_LSTAR         0xC0000082
#define MSR_SFMASK        0xC0000084
#define MSR_GS_BASE       0xC0000101
#define MSR_KERNEL_GS_BASE 0xC0000102
#define EFER_SCE  (1 << 0)
#define EFER_LME  (1 << 8)
#define EFER_NXE  (1 << 11)

// RFLAGS bits.
#define X86_EFLAGS_CF   0x00000001
#define X86_EFLAGS_FIXED 0x00000002       // always 1
#define X86_EFLAGS_PF   0x00000004
#define X86_EFLAGS_AF   0x00000010
#define X86_EFLAGS_ZF   0x00000040
#define X86_EFLAGS_SF   0x00000080
#define X86_EFLAGS_TF   0x00000100
#define X86_EFLAGS_IF   0x00000200
#define X86_EFLAGS_DF   0x00000400
#define X86_EFLAGS_OF   0x00000800
#define X86_EFLAGS_IOPL 0x00003000
#define X86_EFLAGS_NT   0x00004000
#define X86_EFLAGS_RF   0x00010000
#define X86_EFLAGS_AC   0x00040000

#ifndef __ASSEMBLER__
#include "types.h"

// User registers, saved at the top of the kernel stack on every entry from
// user mode. Laid out exactly like Linux's x86_64 user_regs_struct, which
// is what PTRACE_GETREGS copies. From orig_rax up it is also the frame the
// CPU pushes (error code in orig_rax, then rip cs eflags rsp ss), so the
// TSS's rsp0 points at fs_base. orig_rax is the system call number while
// in a system call and -1 otherwise (as on Linux). The last six words are
// never loaded: tasklab keeps no user segment state (zero).
struct pt_regs {
  u64 r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
  u64 rax, rcx, rdx, rsi, rdi, orig_rax;
  u64 rip, cs, eflags, rsp, ss;
  u64 fs_base, gs_base, ds, es, fs, gs;
};

// Callee-saved registers and where to resume, saved by arch_switch_to().
struct context {
  u64 rsp, rip;
  u64 rbx, rbp, r12, r13, r14, r15;
};

// A frame: rbp points at the caller's rbp, with the return address above.
#define FRAME_RA_OFFSET 8
#define FRAME_FP_OFFSET 0

// Per-task words trap.S reaches. Must stay first in struct task.
struct thread_info {
  u64 flags;              // TIF_* bits, changed atomically
  struct pt_regs *regs;   // top of this task's kernel stack
  u64 sp0;                // &regs->fs_base: kernel stack on entry from user
  struct context context; // saved by arch_switch_to()
};

// x86 TIF_* bits, above the core's (task.h):
#define TIF_SINGLESTEP (1UL << 8)   // PTRACE_SINGLESTEP: trap after one instruction
#define TIF_FORCED_TF  (1UL << 9)   // TF set by ptrace, not by the program

// x86_64 page-table entry bits.
#define PTE_P    (1UL << 0)
#define PTE_W    (1UL << 1)
#define PTE_U    (1UL << 2)
#define PTE_PWT  (1UL << 3)
#define PTE_PCD  (1UL << 4)
#define PTE_A    (1UL << 5)
#define PTE_D    (1UL << 6)
#define PTE_PS   (1UL << 7)
#define PTE_G    (1UL << 8)
#define PTE_NX   (1UL << 63)
#define PTE_ADDR_MASK 0x000FFFFFFFFFF000UL

// A device register: physical address inside the uncached device window.
#define IO_VA(pa) ((void *)((u64)(pa) - IO_PHYS_BASE + IO_VIRT_BASE))

static inline u8 inb(u16 port)
{ u8 v; asm volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port)
{ u16 v; asm volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline void outb(u16 port, u8 v)
{ asm volatile("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v)
{ asm volatile("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v)
{ asm volatile("outl %0, %1" :: "a"(v), "Nd"(port)); }

static inline u64 rdmsr(u32 msr)
{
  u32 lo, hi;
  asm volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
  return ((u64)hi << 32) | lo;
}
static inline u64 rdtsc(void)
{
  u32 lo, hi;
  asm volatile("rdtsc" : "=a"(lo), "=d"(hi));
  return ((u64)hi << 32) | lo;
}
static inline void wrmsr(u32 msr, u64 v)
{
  asm volatile("wrmsr" :: "c"(msr), "a"((u32)v), "d"((u32)(v >> 32)) : "memory");
}

// The current task is the first word of this CPU's struct x86_cpu, which
// %gs points at while in the kernel (swapgs on every entry from user).
static inline struct task *get_current(void)
{
  struct task *t;
  asm("movq %%gs:0, %0" : "=r"(t));
  return t;
}
static inline void set_current(struct task *t)
{
  asm volatile("movq %0, %%gs:0" :: "r"(t) : "memory");
}
#define current get_current()
#endif
#endif
