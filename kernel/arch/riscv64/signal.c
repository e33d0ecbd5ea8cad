// riscv64 signal frames and system-call restart.
//
// A handler runs on the user stack below a frame holding the interrupted
// registers and mask; its return address (ra) is the restorer, which calls
// rt_sigreturn. Only user registers live in the frame: sstatus never comes
// from user memory, so a forged frame cannot return to supervisor mode.
#include "task.h"

#define SIGFRAME_MAGIC 0x5349474652414d45UL   // "SIGFRAME"
#define EXC_ECALL_U 8

struct rt_sigframe {
  u64 regs[32];        // pc, then x1..x31, as in struct pt_regs
  sigset_t mask;       // blocked mask to restore
  u64 magic;
  u64 pad[2];          // keeps the frame a multiple of 16 bytes
};

int arch_setup_sigframe(struct pt_regs *regs, int sig, const struct k_sigaction *ka,
                        sigset_t saved_mask)
{
  struct rt_sigframe f;
  memcpy(f.regs, regs, sizeof(f.regs));
  f.mask = saved_mask;
  f.magic = SIGFRAME_MAGIC;
  f.pad[0] = f.pad[1] = 0;
  u64 sp = (regs->sp - sizeof(f)) & ~15UL;
  if (!(ka->flags & SA_RESTORER) || copy_to_user((void *)sp, &f, sizeof(f)) < 0)
    return -EFAULT;
  regs->sp = sp;
  regs->epc = ka->handler;
  regs->ra = ka->restorer;
  regs->a0 = sig;
  regs->a1 = 0;
  regs->a2 = sp;
  regs->s0 = 0;        // backtraces end at the handler
  return 0;
}

int arch_restore_sigframe(struct pt_regs *regs, sigset_t *mask)
{
  struct rt_sigframe f;
  if (copy_from_user(&f, (void *)regs->sp, sizeof(f)) < 0)
    return -EFAULT;
  memcpy(regs, f.regs, sizeof(f.regs));   // user registers only
  *mask = f.mask;
  arch_syscall_done(regs);                // rt_sigreturn never restarts
  return 0;
}

bool arch_in_syscall(const struct pt_regs *regs) { return regs->cause == EXC_ECALL_U; }

void arch_syscall_restart(struct pt_regs *regs)
{
  regs->a0 = regs->orig_a0;
  regs->epc -= 4;
}

void arch_syscall_done(struct pt_regs *regs) { regs->cause = ~0UL; }

void arch_syscall_set_arg(struct pt_regs *regs, int n, long val)
{
  if (n == 0)
    regs->orig_a0 = val;
  else
    (&regs->a0)[n] = val;
}
