// x86_64 trap dispatch (IDT), system call entry and exit, interrupt
// control, and the per-task register hooks of kernel/arch.h.
#include "task.h"
#include "signal_abi.h"

extern char x86_vector_stubs[];
void ret_from_fork(void);
void lapic_eoi(void);
void uart_intr(void);
void uart2_intr(void);
void ide_intr(void);
bool x86_stale_single_step(struct pt_regs *regs);   // ptrace.c
void x86_cpu_load_tables(void);

// Exception vectors that have a name in messages and a signal for user mode.
static const struct {
  const char *what;
  int sig;
} exceptions[32] = {
  [0]  = { "divide error", SIGFPE },
  [1]  = { "debug trap", SIGTRAP },
  [2]  = { "NMI", 0 },
  [3]  = { "breakpoint", SIGTRAP },
  [4]  = { "overflow", SIGSEGV },
  [5]  = { "bound range exceeded", SIGSEGV },
  [6]  = { "illegal instruction", SIGILL },
  [7]  = { "FPU not available", SIGILL },
  [8]  = { "double fault", 0 },
  [10] = { "invalid TSS", SIGSEGV },
  [11] = { "segment not present", SIGBUS },
  [12] = { "stack segment fault", SIGBUS },
  [13] = { "general protection fault", SIGSEGV },
  [14] = { "bad memory access", SIGSEGV },
  [16] = { "floating-point error", SIGFPE },
  [17] = { "alignment check", SIGBUS },
  [18] = { "machine check", 0 },
  [19] = { "SIMD floating-point error", SIGFPE },
};

// One IDT gate: 64-bit interrupt gate (interrupts off on entry).
struct idt_gate {
  u16 off_lo, sel;
  u8 ist, type;
  u16 off_mid;
  u32 off_hi, zero;
};
static struct idt_gate idt[256] __aligned(16);

// The address of the last page fault.
static u64 read_cr2(void)
{
  u64 v;
  asm volatile("mov %%cr2, %0" : "=r"(v));
  return v;
}

// Fill the IDT once (boot CPU): every vector goes to its stub. int3 and
// into may be used from user mode (DPL 3); the double fault runs on its
// own stack (IST 1) so that a broken kernel stack still reaches panic().
void x86_idt_init(void)
{
  for (int v = 0; v < 256; v++) {
    u64 a = (u64)x86_vector_stubs + 16 * v;
    int dpl = (v == 3 || v == 4) ? 3 : 0;
    idt[v] = (struct idt_gate){ a & 0xffff, KERNEL_CS, v == 8 ? 1 : 0,
                                0x8E | (dpl << 5), (a >> 16) & 0xffff, a >> 32, 0 };
  }
}

// Load the IDT on this CPU.
void x86_idt_load(void)
{
  struct { u16 limit; u64 base; } __attribute__((packed)) d = { sizeof(idt) - 1, (u64)idt };
  asm volatile("lidt %0" :: "m"(d));
}

// A device interrupt; from_user says which mode it interrupted. The EOI
// goes first: a handler may reschedule, and the LAPIC holds back every
// interrupt of this priority until it sees the EOI.
static void handle_irq(u64 vec, bool from_user)
{
  if (vec == VEC_SPURIOUS)
    return;                     // no EOI for the spurious vector
  lapic_eoi();
  switch (vec) {
  case VEC_TIMER:
    kstat_incr_irq(IRQ_SRC_TIMER);
    arch_timer_next();
    do_timer_tick(from_user);
    break;
  case VEC_COM1:
    kstat_incr_irq(IRQ_SRC_UART);
    uart_intr();
    break;
  case VEC_COM2:
    uart2_intr();   // not counted in /proc/interrupts, which lists ttyS0 alone
    break;
  case VEC_IDE:
    kstat_incr_irq(IRQ_SRC_DISK);
    ide_intr();
    break;
  default:
    printk("unexpected interrupt %lu\n", vec);
  }
}

// Called from trap_common for every interrupt and exception, interrupts
// off. From user mode, returns to trap.S, which leaves through the exit
// work; from kernel mode only interrupts are expected.
void x86_trap(struct pt_regs *regs, u64 vec)
{
  bool from_user = regs->cs & 3;
  u64 err = regs->orig_rax;
  regs->orig_rax = -1;          // not in a system call (as Linux)

  if (vec >= 32) {
    handle_irq(vec, from_user);
    if (!from_user)
      preempt_check();
    return;
  }
  const char *what = exceptions[vec].what ? exceptions[vec].what : "exception";
  if (!from_user || !exceptions[vec].sig)
    panic("kernel trap %lu (%s) error %lx rip %lx rsp %lx cr2 %lx task %d",
          vec, what, err, regs->rip, regs->rsp, read_cr2(), current ? current->tid : -1);
  if (vec == 1 && x86_stale_single_step(regs))
    return;   // the step of a tracer that has let go since
  u64 addr = vec == 14 ? read_cr2() : regs->rip;
  do_user_fault(regs, exceptions[vec].sig, addr, what);
}

// The syscall instruction, from entry_syscall: registers saved, number in
// orig_rax (and rax).
void x86_syscall(struct pt_regs *regs)
{
  arch_irq_enable();
  do_syscall(regs);
  // TF traps after the instruction that follows sysret/iretq, so a step
  // over the syscall instruction is reported here (Linux's
  // user_single_step_report()).
  if (test_tsk_thread_flag(current, TIF_SINGLESTEP))
    send_signal(current, SIGTRAP, false);
}

// Last C on the way to user mode, interrupts off: the exit work, then
// whether the fast sysret is safe (1) or iretq is needed (0). sysret
// loads rip from rcx and rflags from r11, so it serves only when those
// hold rip and eflags (after a system call; not after an interrupt or a
// signal frame). A rip outside user space is never returned to: iretq
// would fault in the kernel, and sysret to a non-canonical rip would be
// worse (the Intel sysret erratum).
int x86_exit_to_user(struct pt_regs *regs)
{
  irqentry_exit_to_user_mode(regs);
  x86_stale_single_step(regs);
  if (regs->rip >= USER_TOP) {
    arch_irq_enable();
    printk("%s[%d]: return to bad pc %lx: killed\n", current->comm, current->tid, regs->rip);
    do_group_exit(SIGSEGV);
  }
  regs->cs = USER_CS;
  regs->ss = USER_DS;
  return regs->rcx == regs->rip && regs->r11 == regs->eflags &&
         !(regs->eflags & (X86_EFLAGS_TF | X86_EFLAGS_RF));
}

// Per-CPU trap setup: GDT, TSS and IDT, system call MSRs, LAPIC and timer.
void arch_cpu_init(void)
{
  static bool idt_done;
  if (!idt_done) {
    x86_idt_init();
    idt_done = true;
  }
  x86_cpu_load_tables();
  x86_idt_load();
}

void arch_irq_enable(void)  { asm volatile("sti" ::: "memory"); }
void arch_irq_disable(void) { asm volatile("cli" ::: "memory"); }

// Is IF set in RFLAGS?
bool arch_irqs_enabled(void)
{
  u64 f;
  asm volatile("pushfq; popq %0" : "=r"(f));
  return (f & X86_EFLAGS_IF) != 0;
}

// Called with interrupts off. sti takes effect only after the next
// instruction, so an interrupt cannot slip in between it and hlt: hlt
// always wakes for it. Returns with interrupts off again, as wfi does.
void arch_wait_for_interrupt(void)
{
  asm volatile("sti; hlt; cli" ::: "memory");
}

// t's user registers: the top of its kernel stack.
struct pt_regs *task_pt_regs(struct task *t)
{
  return (struct pt_regs *)((char *)t->kstack + KSTACK_SIZE) - 1;
}

// Prepare a new task's first switch: into ret_from_fork, which runs
// fn(arg) for a kernel or I/O thread (fn != NULL) or returns to user mode.
// Such a thread has no user state: its saved user registers are zero,
// as Linux sets them for PF_KTHREAD and, since 5.12-rc1 (4727dc20e042),
// for PF_IO_WORKER. A debugger that reads an I/O thread sees pc 0 and
// a code segment of 0.
void arch_copy_thread(struct task *t, void (*fn)(void *), void *arg)
{
  struct pt_regs *regs = task_pt_regs(t);
  t->ti.regs = regs;
  if (fn)
    memset(regs, 0, sizeof(*regs));
  t->ti.sp0 = (u64)&regs->fs_base;
  memset(&t->ti.context, 0, sizeof(t->ti.context));
  t->ti.context.rip = (u64)ret_from_fork;
  t->ti.context.rsp = (u64)regs - 8;      // 16-byte aligned for its calls
  t->ti.context.r12 = (u64)fn;
  t->ti.context.r13 = (u64)arg;
}

// Where a stack trace of sleeping t starts: the rbp and rip that
// arch_switch_to() saved.
void arch_switched_frame(const struct task *t, u64 *fp, u64 *pc)
{
  *fp = t->ti.context.rbp;
  *pc = t->ti.context.rip;
}

// The child of fork or clone returns 0 from the same system call as the
// parent; a new thread starts on its own stack (sp != 0).
void arch_fork_regs(struct pt_regs *child, const struct pt_regs *parent, u64 sp)
{
  *child = *parent;
  child->rax = 0;
  if (sp)
    child->rsp = sp;
}

// Registers for a fresh user program (exec): only rip, rsp and arguments
// (rdi = argc, rsi = argv), user segments, interrupts on.
void arch_start_user(struct pt_regs *regs, u64 pc, u64 sp, u64 argc, u64 argv)
{
  memset(regs, 0, sizeof(*regs));
  regs->rip = pc;
  regs->rsp = sp;
  regs->rdi = argc;
  regs->rsi = argv;
  regs->cs = USER_CS;
  regs->ss = USER_DS;
  regs->eflags = X86_EFLAGS_IF | X86_EFLAGS_FIXED;
  regs->orig_rax = -1;
}

long arch_syscall_nr(const struct pt_regs *regs) { return regs->orig_rax; }
void arch_syscall_set_return(struct pt_regs *regs, long val) { regs->rax = val; }
long arch_syscall_get_return(const struct pt_regs *regs) { return regs->rax; }
u64  arch_user_pc(const struct pt_regs *regs) { return regs->rip; }

// Linux's argument registers; the stubs move the 4th from rcx (which
// syscall overwrites with rip) to r10.
static u64 *syscall_arg_reg(struct pt_regs *regs, int n)
{
  switch (n) {
  case 0: return &regs->rdi;
  case 1: return &regs->rsi;
  case 2: return &regs->rdx;
  case 3: return &regs->r10;
  case 4: return &regs->r8;
  default: return &regs->r9;
  }
}

// System call argument n (0..5), as the user passed it.
long arch_syscall_arg(const struct pt_regs *regs, int n)
{
  return *syscall_arg_reg((struct pt_regs *)regs, n);
}

// Change argument n for a restart of the call.
void arch_syscall_set_arg(struct pt_regs *regs, int n, long val)
{
  *syscall_arg_reg(regs, n) = val;
}

_Static_assert(offsetof(struct task, ti) == 0, "thread_info first");
_Static_assert(offsetof(struct thread_info, flags) == TI_FLAGS, "TI_FLAGS");
_Static_assert(offsetof(struct thread_info, regs) == TI_REGS, "TI_REGS");
_Static_assert(offsetof(struct thread_info, sp0) == TI_SP0, "TI_SP0");
_Static_assert(offsetof(struct thread_info, context) == TI_CONTEXT, "TI_CONTEXT");
_Static_assert(offsetof(struct context, rip) == CTX_RIP, "CTX_RIP");
_Static_assert(offsetof(struct context, r15) == CTX_R15, "CTX_R15");
_Static_assert(offsetof(struct pt_regs, orig_rax) == PT_ORIG_RAX, "PT_ORIG_RAX");
_Static_assert(offsetof(struct pt_regs, rip) == PT_RIP, "PT_RIP");
_Static_assert(offsetof(struct pt_regs, cs) == PT_CS, "PT_CS");
_Static_assert(offsetof(struct pt_regs, rsp) == PT_RSP, "PT_RSP");
_Static_assert(offsetof(struct pt_regs, fs_base) == PT_FS_BASE, "PT_FS_BASE");
_Static_assert(sizeof(struct pt_regs) == 27 * 8, "user_regs_struct layout");
_Static_assert(sizeof(struct idt_gate) == 16, "IDT gate");
