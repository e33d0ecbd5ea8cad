// x86_64 registers for PTRACE_GETREGS/SETREGS: Linux's x86_64
// user_regs_struct, which is exactly struct pt_regs. And single-step:
// the trap flag (TF), set for the tracee and hidden from the debugger,
// as Linux's arch/x86/kernel/step.c does.
#include "task.h"

// RFLAGS bits a debugger may change (those user code could change itself).
#define USER_EFLAGS (X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | \
                     X86_EFLAGS_SF | X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_OF | \
                     X86_EFLAGS_AC | X86_EFLAGS_RF)

// Copy t's user registers into regs; returns their size in bytes. A TF
// that ptrace set is not shown: the program did not set it.
long arch_ptrace_getregs(struct task *t, u64 *regs)
{
  struct pt_regs *p = (struct pt_regs *)regs;
  memcpy(p, task_pt_regs(t), sizeof(struct pt_regs));
  if (test_tsk_thread_flag(t, TIF_FORCED_TF))
    p->eflags &= ~X86_EFLAGS_TF;
  return sizeof(struct pt_regs);
}

// Set t's user registers: the general registers, orig_rax (a debugger may
// change or cancel the system call), rip, rsp and the user RFLAGS bits.
// CS and SS stay the user segments and the privileged RFLAGS bits stay as
// they are, so a tracer gains nothing a signal frame could not. A rip
// outside user space kills the task on its way out (x86_exit_to_user()).
// While ptrace steps t, TF stays set whatever the debugger writes.
void arch_ptrace_setregs(struct task *t, const u64 *regs)
{
  struct pt_regs *p = task_pt_regs(t);
  const struct pt_regs *n = (const struct pt_regs *)regs;
  u64 eflags = (p->eflags & ~USER_EFLAGS) | (n->eflags & USER_EFLAGS);
  if (test_tsk_thread_flag(t, TIF_FORCED_TF))
    eflags |= X86_EFLAGS_TF;
  memcpy(p, n, offsetof(struct pt_regs, cs));   // r15 .. orig_rax, rip
  p->rsp = n->rsp;
  p->eflags = eflags;
  p->cs = USER_CS;
  p->ss = USER_DS;
}

bool arch_has_single_step(void) { return true; }

// Trap after t's next user instruction: set TF (remembering that we did,
// if the program had not). t is stopped, so its saved registers are still.
void user_enable_single_step(struct task *t)
{
  struct pt_regs *p = task_pt_regs(t);
  set_tsk_thread_flag(t, TIF_SINGLESTEP);
  if (!(p->eflags & X86_EFLAGS_TF)) {
    p->eflags |= X86_EFLAGS_TF;
    set_tsk_thread_flag(t, TIF_FORCED_TF);
  }
}

// Stop stepping t. t may be running (a tracer that exits lets go of
// running tracees), so its registers are not touched here: t clears a
// forced TF itself, on its next way out (x86_exit_to_user()) or at the
// one debug trap it may still take (x86_stale_single_step()).
void user_disable_single_step(struct task *t)
{
  clear_tsk_thread_flag(t, TIF_SINGLESTEP);
}

// The current task leaves the kernel or took a debug trap: if ptrace set
// TF and no longer steps it, clear TF. Returns whether it did.
bool x86_stale_single_step(struct pt_regs *regs)
{
  struct task *t = current;
  if (!test_tsk_thread_flag(t, TIF_FORCED_TF) || test_tsk_thread_flag(t, TIF_SINGLESTEP))
    return false;
  regs->eflags &= ~X86_EFLAGS_TF;
  clear_tsk_thread_flag(t, TIF_FORCED_TF);
  return true;
}
