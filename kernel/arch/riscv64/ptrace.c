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

// RISC-V has no single-step trap for user mode (nor has Linux's port):
// GDB steps in software, with breakpoints on the next instructions.
bool arch_has_single_step(void) { return false; }

// Never called: ptrace checks arch_has_single_step() first.
void user_enable_single_step(struct task *t) { panic("user_enable_single_step: riscv64 cannot step"); }

void user_disable_single_step(struct task *t) { }
