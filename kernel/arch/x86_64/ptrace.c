// x86_64 registers for PTRACE_GETREGS/SETREGS: Linux's x86_64
// user_regs_struct, which is exactly struct pt_regs.
#include "task.h"

// RFLAGS bits a debugger may change (those user code could change itself).
#define USER_EFLAGS (X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | \
                     X86_EFLAGS_SF | X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_OF | \
                     X86_EFLAGS_AC | X86_EFLAGS_RF)

// Copy t's user registers into regs; returns their size in bytes.
long arch_ptrace_getregs(struct task *t, u64 *regs)
{
  memcpy(regs, task_pt_regs(t), sizeof(struct pt_regs));
  return sizeof(struct pt_regs);
}

// Set t's user registers: the general registers, orig_rax (a debugger may
// change or cancel the system call), rip, rsp and the user RFLAGS bits.
// CS and SS stay the user segments and the privileged RFLAGS bits stay as
// they are, so a tracer gains nothing a signal frame could not. A rip
// outside user space kills the task on its way out (x86_exit_to_user()).
void arch_ptrace_setregs(struct task *t, const u64 *regs)
{
  struct pt_regs *p = task_pt_regs(t);
  const struct pt_regs *n = (const struct pt_regs *)regs;
  u64 eflags = (p->eflags & ~USER_EFLAGS) | (n->eflags & USER_EFLAGS);
  memcpy(p, n, offsetof(struct pt_regs, cs));   // r15 .. orig_rax, rip
  p->rsp = n->rsp;
  p->eflags = eflags;
  p->cs = USER_CS;
  p->ss = USER_DS;
}
