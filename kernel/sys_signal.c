// System calls about signals, threads and process groups.
#include "task.h"
#include "syscall.h"
#include "fs.h"

long sys_rt_sigaction(struct pt_regs *regs)
{
  int sig = ARG(0);
  u64 uact = ARG(1), uold = ARG(2);
  struct k_sigaction act, old;
  struct task *t = current;
  if (sig < 1 || sig > NSIG || (uact && sig_kernel_only(sig)))
    return -EINVAL;
  if (uact && copy_from_user(&act, (void *)uact, sizeof(act)) < 0)
    return -EFAULT;
  spin_lock(&t->sighand->siglock);
  old = t->sighand->action[sig - 1];
  if (uact) {
    act.mask &= ~SIG_UNBLOCKABLE;
    t->sighand->action[sig - 1] = act;
    // POSIX: setting SIG_IGN (or SIG_DFL for a default-ignored signal)
    // discards it where it is pending.
    if (act.handler == SIG_IGN || (act.handler == SIG_DFL &&
        (sig == SIGCHLD || sig == SIGCONT || sig == 23 || sig == 28))) {
      struct task *o;
      t->signal->shared_pending &= ~sigmask(sig);
      for_each_thread(t->signal, o) {
        o->pending &= ~sigmask(sig);
        recalc_sigpending(o);
      }
    }
  }
  spin_unlock(&t->sighand->siglock);
  if (uold && copy_to_user((void *)uold, &old, sizeof(old)) < 0)
    return -EFAULT;
  return 0;
}

long sys_sigprocmask(struct pt_regs *regs)
{
  int how = ARG(0);
  u64 uset = ARG(1), uold = ARG(2);
  sigset_t set, old = current->blocked;
  if (uset) {
    if (copy_from_user(&set, (void *)uset, sizeof(set)) < 0)
      return -EFAULT;
    switch (how) {
    case SIG_BLOCK:   set = old | set; break;
    case SIG_UNBLOCK: set = old & ~set; break;
    case SIG_SETMASK: break;
    default: return -EINVAL;
    }
  }
  if (uold && copy_to_user((void *)uold, &old, sizeof(old)) < 0)
    return -EFAULT;
  if (uset)
    set_current_blocked(set);
  return 0;
}

long sys_sigpending(struct pt_regs *regs)
{
  struct task *t = current;
  spin_lock(&t->sighand->siglock);
  sigset_t set = (t->pending | t->signal->shared_pending) & t->blocked;
  spin_unlock(&t->sighand->siglock);
  return copy_to_user((void *)ARG(0), &set, sizeof(set));
}

// Sleep until a signal is delivered; the old mask comes back when the
// handler returns (saved_sigmask). Always ends in -EINTR after a handler.
long sys_sigsuspend(struct pt_regs *regs)
{
  struct task *t = current;
  sigset_t mask;
  if (copy_from_user(&mask, (void *)ARG(0), sizeof(mask)) < 0)
    return -EFAULT;
  spin_lock(&t->sighand->siglock);
  t->saved_sigmask = t->blocked;
  t->restore_sigmask = true;
  t->blocked = mask & ~SIG_UNBLOCKABLE;
  recalc_sigpending(t);
  while (!signal_pending(t))
    sleep_in_state(&t->sighand->siglock, TASK_INTERRUPTIBLE);
  spin_unlock(&t->sighand->siglock);
  return -ERESTARTNOHAND;
}

long sys_pause(struct pt_regs *regs)
{
  struct task *t = current;
  spin_lock(&t->sighand->siglock);
  while (!signal_pending(t))
    sleep_in_state(&t->sighand->siglock, TASK_INTERRUPTIBLE);
  spin_unlock(&t->sighand->siglock);
  return -ERESTARTNOHAND;
}

long sys_kill(struct pt_regs *regs)
{
  int pid = ARG(0), sig = ARG(1);
  if (sig < 0 || sig > NSIG)
    return -EINVAL;
  if (pid > 0)
    return kill_pid_info(pid, sig);
  if (pid == -1)
    return kill_all(sig);
  spin_lock(&tasklist_lock);
  int pgrp = pid == 0 ? current->signal->pgrp : -pid;
  spin_unlock(&tasklist_lock);
  return kill_pgrp(pgrp, sig);
}

long sys_tgkill(struct pt_regs *regs)
{
  return do_tkill(ARG(0), ARG(1), ARG(2));
}

long sys_rt_sigreturn(struct pt_regs *regs)
{
  sigset_t mask;
  if (arch_restore_sigframe(regs, &mask) < 0)
    do_group_exit(SIGSEGV);   // a frame we cannot read: as Linux, SIGSEGV
  set_current_blocked(mask);
  return arch_syscall_get_return(regs);   // keep the restored a0 / rax
}

long sys_gettid(struct pt_regs *regs) { return current->tid; }

// clone(flags, stack, ctid): fork (flags 0) or a new thread.
long sys_clone(struct pt_regs *regs)
{
  struct kernel_clone_args args = { .flags = ARG(0), .stack = ARG(1), .ctid = ARG(2) };
  return kernel_clone(&args);
}

long sys_exit_thread(struct pt_regs *regs)
{
  do_exit((ARG(0) & 0xff) << 8);
}

#define FUTEX_WAIT 0
#define FUTEX_WAKE 1

long sys_futex(struct pt_regs *regs)
{
  switch (ARG(1)) {
  case FUTEX_WAIT: return futex_wait(ARG(0), ARG(2));
  case FUTEX_WAKE: return futex_wake(ARG(0), ARG(2));
  default: return -ENOSYS;
  }
}

// setpgid(pid, pgid): pid 0 is the caller, pgid 0 means pgid = pid. Only
// the caller or its own children may be moved.
long sys_setpgid(struct pt_regs *regs)
{
  int pid = ARG(0), pgid = ARG(1);
  if (pid < 0 || pgid < 0)
    return -EINVAL;
  spin_lock(&tasklist_lock);
  struct task *t = pid ? find_task_by_tid(pid) : current->group_leader;
  int err = 0;
  if (!t || !thread_group_leader(t) ||
      (!same_thread_group(t, current) && t->parent != current->group_leader &&
       (!t->parent || !same_thread_group(t->parent, current))))
    err = -ESRCH;
  else
    t->signal->pgrp = pgid ? pgid : t->tid;
  spin_unlock(&tasklist_lock);
  return err;
}

long sys_getpgrp(struct pt_regs *regs)
{
  return current->signal->pgrp;
}

// The console is the only terminal; fd must be open on it.
static int console_fd(long fd)
{
  struct file *f = fget(fd);
  if (!f)
    return -EBADF;
  int err = f->type == FD_DEVICE && f->major == CONSOLE_MAJOR ? 0 : -ENOTTY;
  fileclose(f);
  return err;
}

long sys_tcsetpgrp(struct pt_regs *regs)
{
  int err = console_fd(ARG(0));
  if (err < 0)
    return err;
  if (ARG_INT(1) <= 0)
    return -EINVAL;
  console_set_pgrp(ARG(1));
  return 0;
}

long sys_tcgetpgrp(struct pt_regs *regs)
{
  int err = console_fd(ARG(0));
  return err < 0 ? err : console_pgrp();
}
