// Per-CPU state of the x86_64 port: struct x86_cpu (reached through %gs),
// each CPU's GDT and TSS, and the system call MSRs.
#include "task.h"

void entry_syscall(void);
void lapic_init_cpu(void);
static void x86_protect_user_pages(void);

// The 64-bit task state segment: only rsp0 (kernel stack for entries
// from user mode) and ist[0] (the double-fault stack) are used.
struct tss {
  u32 reserved0;
  u64 rsp[3];
  u64 reserved1;
  u64 ist[7];
  u64 reserved2;
  u16 reserved3;
  u16 iomap_base;               // past the limit: no I/O ports for user mode
} __attribute__((packed));

// One CPU's private state. The first words are reached from trap.S at
// fixed %gs offsets (PCPU_*). One page each (X86_CPU_SIZE in entry.S).
struct x86_cpu {
  struct task *cur_task;        // PCPU_CURRENT: what "current" reads
  u64 sp0;                      // PCPU_SP0: current task's entry stack
  u64 user_sp;                  // PCPU_USER_SP: scratch in entry_syscall
  u64 id;
  struct tss tss;               // PCPU_TSS
  u64 gdt[7];
  u8 df_stack[4096 - 192] __aligned(16);   // double faults run here
} __aligned(4096);

struct x86_cpu x86_cpus[NCPU];

_Static_assert(offsetof(struct x86_cpu, cur_task) == PCPU_CURRENT, "PCPU_CURRENT");
_Static_assert(offsetof(struct x86_cpu, sp0) == PCPU_SP0, "PCPU_SP0");
_Static_assert(offsetof(struct x86_cpu, user_sp) == PCPU_USER_SP, "PCPU_USER_SP");
_Static_assert(offsetof(struct x86_cpu, tss) == PCPU_TSS, "PCPU_TSS");
_Static_assert(offsetof(struct x86_cpu, tss.rsp[0]) == PCPU_TSS_RSP0, "PCPU_TSS_RSP0");
_Static_assert(offsetof(struct x86_cpu, df_stack) == 192, "x86_cpu layout");
_Static_assert(sizeof(struct tss) == 104, "TSS size");
_Static_assert(sizeof(struct x86_cpu) == X86_CPU_SIZE, "X86_CPU_SIZE");

// A code or data segment descriptor: in long mode only the type, DPL,
// present and L/D bits matter.
#define SEG_KCODE64 0x00AF9A000000FFFFUL
#define SEG_KDATA   0x00CF92000000FFFFUL
#define SEG_UDATA   0x00CFF2000000FFFFUL
#define SEG_UCODE64 0x00AFFA000000FFFFUL

// Load this CPU's GDT (the boot GDT's kernel segments plus user segments
// and the TSS), its TSS and the system call MSRs; then its LAPIC. The
// selectors in use keep their meaning, so no segment register reloads.
void x86_cpu_load_tables(void)
{
  struct x86_cpu *c = &x86_cpus[smp_processor_id()];
  c->id = smp_processor_id();
  c->tss.iomap_base = sizeof(struct tss);
  c->tss.ist[0] = (u64)c->df_stack + sizeof(c->df_stack);
  c->tss.rsp[0] = c->sp0;
  u64 tss = (u64)&c->tss;
  c->gdt[0] = 0;
  c->gdt[KERNEL_CS / 8] = SEG_KCODE64;
  c->gdt[KERNEL_DS / 8] = SEG_KDATA;
  c->gdt[USER_DS / 8] = SEG_UDATA;
  c->gdt[USER_CS / 8] = SEG_UCODE64;
  // A 16-byte system descriptor: available 64-bit TSS (type 9), present.
  c->gdt[TSS_SEL / 8] = (sizeof(struct tss) - 1) | ((tss & 0xffffff) << 16) |
                        (0x89UL << 40) | (((tss >> 24) & 0xff) << 56);
  c->gdt[TSS_SEL / 8 + 1] = tss >> 32;
  struct { u16 limit; u64 base; } __attribute__((packed)) d = { sizeof(c->gdt) - 1, (u64)c->gdt };
  asm volatile("lgdt %0" :: "m"(d));
  asm volatile("ltr %w0" :: "r"(TSS_SEL));

  // syscall: CS = KERNEL_CS, SS = +8. sysretq: SS = base + 8, CS = base + 16.
  wrmsr(MSR_STAR, ((u64)((USER_DS & ~3) - 8) << 48) | ((u64)KERNEL_CS << 32));
  wrmsr(MSR_LSTAR, (u64)entry_syscall);
  wrmsr(MSR_SFMASK, X86_EFLAGS_IF | X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_IOPL |
                    X86_EFLAGS_NT | X86_EFLAGS_AC | X86_EFLAGS_RF);
  wrmsr(MSR_KERNEL_GS_BASE, 0);   // user GS base: tasklab has no TLS
  x86_protect_user_pages();
  lapic_init_cpu();
}

#define CR4_SMEP (1UL << 20)
#define CR4_SMAP (1UL << 21)

// SMEP and SMAP where the CPU has them (CPUID leaf 7: EBX bits 7 and 20):
// the kernel then faults if it runs code from a user page, or touches
// one. It reaches user memory only through the direct map
// (access_process_vm()), never through a user address, so it never needs
// to lift SMAP (no stac/clac); entries from user mode clear EFLAGS.AC,
// which would lift it (trap.S, and MSR_SFMASK for system calls). CPU 0
// says which are on, read back from CR4.
static void x86_protect_user_pages(void)
{
  u32 a = 0, b, c, d;
  asm volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0));
  u64 cr4, want = 0;
  if (a >= 7) {
    asm volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(7), "c"(0));
    want = ((b & (1U << 7)) ? CR4_SMEP : 0) | ((b & (1U << 20)) ? CR4_SMAP : 0);
  }
  asm volatile("movq %%cr4, %0" : "=r"(cr4));
  cr4 |= want;
  asm volatile("movq %0, %%cr4" :: "r"(cr4) : "memory");
  asm volatile("movq %%cr4, %0" : "=r"(cr4));
  if (smp_processor_id() == 0)
    printk("x86: SMEP %s, SMAP %s\n", (cr4 & CR4_SMEP) ? "on" : "off (the CPU has none)",
           (cr4 & CR4_SMAP) ? "on" : "off (the CPU has none)");
}
