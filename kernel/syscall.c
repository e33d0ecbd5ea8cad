// System call dispatch: the table comes from syscalls.h, the same list the
// user library's stubs are generated from.
#include "task.h"
#include "syscall.h"

#define SYSCALL(nr, name) [nr] = sys_##name,
static long (*const syscall_table[])(struct pt_regs *) = {
#include "syscalls.h"
};
#undef SYSCALL

// Run the call named in regs and put its result (or -errno) in regs.
void do_syscall(struct pt_regs *regs)
{
  long nr = arch_syscall_nr(regs);
  long ret = -ENOSYS;
  if (nr > 0 && nr < (long)ARRAY_SIZE(syscall_table) && syscall_table[nr])
    ret = syscall_table[nr](regs);
  arch_syscall_set_return(regs, ret);
}

// The way back to user mode, interrupts off: reschedule and act on signals
// until neither is wanted. The common case is one test of one word.
void irqentry_exit_to_user_mode(struct pt_regs *regs)
{
  const u64 work = TIF_SIGPENDING | TIF_NEED_RESCHED;
  u64 flags;
  touch_softlockup_watchdog();
  while ((flags = READ_ONCE(current->ti.flags)) & work) {
    arch_irq_enable();
    if (flags & TIF_NEED_RESCHED)
      schedule();
    if (flags & TIF_SIGPENDING)
      do_signal(regs);
    arch_irq_disable();
  }
}
