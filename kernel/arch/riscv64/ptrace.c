// riscv64 registers for PTRACE_GETREGS/SETREGS: Linux's riscv
// user_regs_struct, pc then x1..x31, the first 32 words of pt_regs.
#include "task.h"

#define USER_REGS_WORDS 32

// Copy t's user registers into regs; returns their size in bytes.
long arch_ptrace_getregs(struct task *t, u64 *regs)
{
  memcpy(regs, task_pt_regs(t), USER_REGS_WORDS * sizeof(u64));
  return USER_REGS_WORDS * sizeof(u64);
}

// Set t's user registers. None of them is privileged: sstatus and the
// rest of the kernel-only state are not in the set, so nothing to check.
void arch_ptrace_setregs(struct task *t, const u64 *regs)
{
  memcpy(task_pt_regs(t), regs, USER_REGS_WORDS * sizeof(u64));
}
