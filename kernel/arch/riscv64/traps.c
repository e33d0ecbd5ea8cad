// riscv64 trap dispatch, interrupt control, timer and the per-task
// register hooks of kernel/arch.h.
#include "task.h"
#include "signal_abi.h"

void handle_kernel_trap(void);
void ret_from_fork(void);
void plic_init_hart(void);
int  plic_claim(void);
void plic_complete(int irq);
void uart_intr(void);
void virtio_blk_intr(void);
void virtio_console_intr(void);

#define CAUSE_INTR        (1UL << 63)
#define IRQ_S_TIMER       5
#define IRQ_S_EXT         9
#define EXC_ILLEGAL       2
#define EXC_BREAKPOINT    3
#define EXC_LOAD_MISALIGN 4
#define EXC_LOAD_ACCESS   5
#define EXC_STORE_MISALIGN 6
#define EXC_STORE_ACCESS  7
#define EXC_ECALL_U       8
#define EXC_INST_PAGE     12
#define EXC_LOAD_PAGE     13
#define EXC_STORE_PAGE    15

// Handle an interrupt; from_user says which mode it interrupted.
static void handle_irq(u64 irq, bool from_user)
{
  if (irq == IRQ_S_TIMER) {
    kstat_incr_irq(IRQ_SRC_TIMER);
    arch_timer_next();
    do_timer_tick(from_user);
  } else if (irq == IRQ_S_EXT) {
    int n = plic_claim();
    if (n == UART0_IRQ) {
      kstat_incr_irq(IRQ_SRC_UART);
      uart_intr();
    } else if (n == VIRTIO0_IRQ) {
      kstat_incr_irq(IRQ_SRC_DISK);
      virtio_blk_intr();
    } else if (n == VIRTIO1_IRQ) {
      virtio_console_intr();   // not counted: /proc/interrupts lists ttyS0 alone
    }
    if (n)
      plic_complete(n);
  } else {
    printk("unexpected interrupt %lu\n", irq);
  }
}

// Called from handle_user_trap with interrupts off and regs saved.
// Returns to trap.S, which leaves through irqentry_exit_to_user_mode().
void riscv_user_trap(struct pt_regs *regs)
{
  u64 cause = regs->cause;

  if (cause & CAUSE_INTR) {
    handle_irq(cause & ~CAUSE_INTR, true);
    return;
  }
  switch (cause) {
  case EXC_ECALL_U:
    regs->epc += 4;
    regs->orig_a0 = regs->a0;
    arch_irq_enable();
    do_syscall(regs);
    break;
  case EXC_ILLEGAL:
    do_user_fault(regs, SIGILL, regs->badaddr, "illegal instruction");
    break;
  case EXC_BREAKPOINT:
    do_user_fault(regs, SIGTRAP, regs->epc, "breakpoint");
    break;
  case EXC_LOAD_MISALIGN:
  case EXC_STORE_MISALIGN:
    do_user_fault(regs, SIGBUS, regs->badaddr, "misaligned access");
    break;
  default:
    do_user_fault(regs, SIGSEGV, regs->badaddr, "bad memory access");
    break;
  }
}

// Called from handle_kernel_trap: interrupts, or a kernel bug.
void riscv_kernel_trap(void)
{
  u64 cause = csr_read(scause);

  if (!(csr_read(sstatus) & SSTATUS_SPP))
    panic("kernel trap from user mode");
  if (!(cause & CAUSE_INTR))
    panic("kernel trap: scause %lx sepc %lx stval %lx task %d",
          cause, csr_read(sepc), csr_read(stval), current->tid);
  handle_irq(cause & ~CAUSE_INTR, false);
  preempt_check();
}

// Arm this hart's timer for the next tick (Sstc stimecmp).
void arch_timer_next(void)
{
  csr_write(0x14d, csr_read(time) + TIMEBASE_HZ / HZ);
}

// The tick count the time CSR gives: it counts from QEMU's start, which
// is our boot.
u64 arch_clock_jiffies(void)
{
  return csr_read(time) / (TIMEBASE_HZ / HZ);
}

// Per-hart trap setup: kernel vector, timer, external interrupts.
void arch_cpu_init(void)
{
  csr_write(stvec, (u64)handle_kernel_trap);
  csr_write(sscratch, 0);
  csr_write(scounteren, 7);   // user mode may read cycle, time, instret
  csr_set(sie, SIE_STIE | SIE_SEIE);
  plic_init_hart();
  arch_timer_next();
}

void arch_irq_enable(void)  { csr_set(sstatus, SSTATUS_SIE); }
void arch_irq_disable(void) { csr_clear(sstatus, SSTATUS_SIE); }
bool arch_irqs_enabled(void) { return (csr_read(sstatus) & SSTATUS_SIE) != 0; }

// wfi returns when an interrupt is pending, even with SIE clear.
void arch_wait_for_interrupt(void) { asm volatile("wfi"); }

struct pt_regs *task_pt_regs(struct task *t)
{
  return (struct pt_regs *)((char *)t->kstack + KSTACK_SIZE) - 1;
}

// Prepare a new task's first switch: into ret_from_fork, which runs
// fn(arg) for a kernel or I/O thread (fn != NULL) or returns to user mode.
// Such a thread has no user state: its saved user registers are zero,
// as Linux sets them for PF_KTHREAD and, since 5.12-rc1 (4727dc20e042),
// for PF_IO_WORKER. A debugger that reads an I/O thread sees pc 0.
void arch_copy_thread(struct task *t, void (*fn)(void *), void *arg)
{
  struct pt_regs *regs = task_pt_regs(t);
  t->ti.regs = regs;
  if (fn)
    memset(regs, 0, sizeof(*regs));
  memset(&t->ti.context, 0, sizeof(t->ti.context));
  t->ti.context.ra = (u64)ret_from_fork;
  t->ti.context.sp = (u64)regs;
  t->ti.context.s[1] = (u64)fn;
  t->ti.context.s[2] = (u64)arg;
}

// Where a stack trace of sleeping t starts: the s0 and ra that
// arch_switch_to() saved.
void arch_switched_frame(const struct task *t, u64 *fp, u64 *pc)
{
  *fp = t->ti.context.s[0];
  *pc = t->ti.context.ra;
}

// The child of fork or clone returns 0 from the same system call as the
// parent; a new thread starts on its own stack (sp != 0).
void arch_fork_regs(struct pt_regs *child, const struct pt_regs *parent, u64 sp)
{
  *child = *parent;
  child->a0 = 0;
  if (sp)
    child->sp = sp;
}

// Registers for a fresh user program (exec): only pc, sp and arguments.
void arch_start_user(struct pt_regs *regs, u64 pc, u64 sp, u64 argc, u64 argv)
{
  memset(regs, 0, sizeof(*regs));
  regs->epc = pc;
  regs->sp = sp;
  regs->a0 = argc;
  regs->a1 = argv;
  regs->status = (csr_read(sstatus) & ~(SSTATUS_SPP | SSTATUS_SIE)) | SSTATUS_SPIE;
}

long arch_syscall_nr(const struct pt_regs *regs) { return regs->a7; }
void arch_syscall_set_return(struct pt_regs *regs, long val) { regs->a0 = val; }
long arch_syscall_get_return(const struct pt_regs *regs) { return regs->a0; }
u64  arch_user_pc(const struct pt_regs *regs) { return regs->epc; }

long arch_syscall_arg(const struct pt_regs *regs, int n)
{
  const u64 *a = &regs->a0;
  return a[n];
}

_Static_assert(offsetof(struct task, ti) == 0, "thread_info first");
_Static_assert(offsetof(struct thread_info, flags) == TI_FLAGS, "TI_FLAGS");
_Static_assert(offsetof(struct thread_info, user_sp) == TI_USER_SP, "TI_USER_SP");
_Static_assert(offsetof(struct thread_info, regs) == TI_REGS, "TI_REGS");
_Static_assert(offsetof(struct thread_info, context) == TI_CONTEXT, "TI_CONTEXT");
_Static_assert(sizeof(struct pt_regs) == 36 * 8, "pt_regs layout for trap.S");
