// Signals, first cut: a per-task pending set; every signal's action is to
// terminate. Delivery happens on the way back to user mode (do_signal).
#include "task.h"
#include "signal_nr.h"

// Wake t so it notices a new signal: an interruptible sleep ends early.
void signal_wake_up(struct task *t)
{
  set_tsk_thread_flag(t, TIF_SIGPENDING);
  wake_up_state(t, 1 << TASK_INTERRUPTIBLE);
}

// Queue sig for t and wake it. Returns 0.
int send_signal(struct task *t, int sig)
{
  spin_lock(&t->siglock);
  t->pending |= sigmask(sig);
  spin_unlock(&t->siglock);
  signal_wake_up(t);
  return 0;
}

bool fatal_signal_pending(struct task *t)
{
  return signal_pending(t) && (READ_ONCE(t->pending) & sigmask(SIGKILL));
}

// Take the lowest pending signal, or 0. Clears TIF_SIGPENDING when none is left.
static int dequeue_signal(struct task *t)
{
  spin_lock(&t->siglock);
  int sig = 0;
  if (t->pending) {
    for (sig = 1; !(t->pending & sigmask(sig)); sig++)
      ;
    t->pending &= ~sigmask(sig);
  }
  if (!t->pending)
    clear_tsk_thread_flag(t, TIF_SIGPENDING);
  spin_unlock(&t->siglock);
  return sig;
}

// On the way to user mode with TIF_SIGPENDING set: act on pending signals.
void do_signal(struct pt_regs *regs)
{
  (void)regs;
  int sig = dequeue_signal(current);
  if (sig)
    do_exit(sig);
}

// A user-mode fault: the task dies of sig, with a line on the console.
void do_user_fault(struct pt_regs *regs, int sig, u64 addr, const char *what)
{
  printk("%s[%d]: %s at %lx, pc %lx: killed by signal %d\n",
         current->comm, current->tid, what, addr, arch_user_pc(regs), sig);
  send_signal(current, sig);
}
