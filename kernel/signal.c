// Signals with Linux's semantics: per-thread and shared pending sets,
// blocked masks, handlers, default actions, group exit, group stop and
// SIGCONT. Sending happens anywhere (send_signal); acting on a signal
// happens only in the receiving thread, in get_signal(), on its way back
// to user mode. Every field here is guarded by the group's siglock.
#include "task.h"
#include "ptrace.h"

// SIGKILL and SIGSTOP: never caught, blocked or ignored.
bool sig_kernel_only(int sig)
{
  return sig == SIGKILL || sig == SIGSTOP;
}

// Default action: stop the group.
static bool sig_kernel_stop(int sig)
{
  return sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU;
}

// Default action: nothing (SIGCONT's work is done when it is sent).
static bool sig_kernel_ignore(int sig)
{
  return sig == SIGCHLD || sig == SIGCONT || sig == 23 /* SIGURG */ || sig == 28 /* SIGWINCH */;
}

static struct k_sigaction *sig_action(struct task *t, int sig)
{
  return &t->sighand->action[sig - 1];
}

// Would sig be thrown away on arrival? Blocked signals are kept: the
// handler may change before they are unblocked. A tracee's are kept too:
// its tracer sees every signal but SIGKILL, even one to be ignored.
static bool sig_ignored(struct task *t, int sig)
{
  if (t->blocked & sigmask(sig))
    return false;
  if (t->ptrace && sig != SIGKILL)
    return false;
  u64 h = sig_action(t, sig)->handler;
  return h == SIG_IGN || (h == SIG_DFL && sig_kernel_ignore(sig));
}

// Set or clear TIF_SIGPENDING for t from its pending sets and job
// control state. Caller holds siglock.
void recalc_sigpending(struct task *t)
{
  if (((t->pending | t->signal->shared_pending) & ~t->blocked) ||
      (t->jobctl & JOBCTL_STOP_PENDING) || (t->signal->flags & SIGNAL_GROUP_EXIT))
    set_tsk_thread_flag(t, TIF_SIGPENDING);
  else
    clear_tsk_thread_flag(t, TIF_SIGPENDING);
}

// Tell t a signal is pending and end an interruptible sleep; with resume,
// also end a stop (SIGKILL, SIGCONT).
void signal_wake_up(struct task *t, bool resume)
{
  int states = 1 << TASK_INTERRUPTIBLE;
  if (resume)
    states |= (1 << TASK_STOPPED) | (1 << TASK_TRACED);
  set_tsk_thread_flag(t, TIF_SIGPENDING);
  wake_up_state(t, states);
}

// Side effects of sending sig to t's group that happen at once, whether
// or not anyone takes the signal yet: a stop signal cancels a pending
// SIGCONT; SIGCONT cancels pending stops and resumes a stopped group.
// Returns false if sig is to be dropped. Caller holds siglock.
static bool prepare_signal(struct task *t, int sig)
{
  struct signal_struct *sig_s = t->signal;
  struct task *o;
  // init gets only the signals it has handlers for, or it would take
  // the whole system down with it.
  if ((sig_s->flags & SIGNAL_UNKILLABLE) && sig_action(t, sig)->handler == SIG_DFL)
    return false;
  if (sig_s->flags & SIGNAL_GROUP_EXIT)
    return sig == SIGKILL;
  if (sig_kernel_stop(sig)) {
    sig_s->shared_pending &= ~sigmask(SIGCONT);
    for_each_thread(sig_s, o)
      o->pending &= ~sigmask(SIGCONT);
  } else if (sig == SIGCONT) {
    const sigset_t stops = sigmask(SIGSTOP) | sigmask(SIGTSTP) | sigmask(SIGTTIN) | sigmask(SIGTTOU);
    sig_s->shared_pending &= ~stops;
    for_each_thread(sig_s, o) {
      o->pending &= ~stops;
      o->jobctl &= ~(JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME);
      recalc_sigpending(o);
      wake_up_state(o, 1 << TASK_STOPPED);
    }
    if (sig_s->flags & SIGNAL_STOP_STOPPED)
      sig_s->flags = (sig_s->flags & SIGNAL_UNKILLABLE) |
                     SIGNAL_STOP_CONTINUED | SIGNAL_CLD_CONTINUED;
    sig_s->group_stop_count = 0;
  }
  return !sig_ignored(t, sig);
}

// Can t take sig now?
static bool wants_signal(int sig, struct task *t)
{
  if ((t->blocked & sigmask(sig)) || (t->flags & TF_EXITING) || t->exit_state)
    return false;
  if (sig == SIGKILL)
    return true;
  if (READ_ONCE(t->state) == TASK_STOPPED || READ_ONCE(t->state) == TASK_TRACED)
    return false;
  return t == current || !signal_pending(t);
}

// Is sig, arriving at t, going to kill the whole group?
static bool sig_fatal(struct task *t, int sig)
{
  u64 h = sig_action(t, sig)->handler;
  return sig == SIGKILL ||
         (h == SIG_DFL && !sig_kernel_ignore(sig) && !sig_kernel_stop(sig));
}

// A queued signal needs a thread to act on it: pick one and wake it. A
// fatal one is turned into a group exit at once (every thread gets
// SIGKILL), as Linux does. Caller holds siglock.
static void complete_signal(int sig, struct task *p, bool group)
{
  struct signal_struct *sig_s = p->signal;
  struct task *t = NULL, *o;
  if (wants_signal(sig, p)) {
    t = p;
  } else if (group) {
    for_each_thread(sig_s, o)
      if (wants_signal(sig, o)) {
        t = o;
        break;
      }
  }
  if (!t)
    return;   // stays pending until a thread unblocks it
  if (sig_fatal(t, sig) && !signal_group_exit(sig_s) && (sig == SIGKILL || !t->ptrace) &&
      !(t->blocked & sigmask(sig))) {
    sig_s->flags = (sig_s->flags & SIGNAL_UNKILLABLE) | SIGNAL_GROUP_EXIT;
    sig_s->group_exit_code = sig;
    sig_s->group_stop_count = 0;
    for_each_thread(sig_s, o) {
      o->jobctl &= ~(JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME);
      o->pending |= sigmask(SIGKILL);
      signal_wake_up(o, true);
    }
    return;
  }
  signal_wake_up(t, sig == SIGKILL);
}

// Queue sig for t: for t alone, or (group) for any thread of its process.
// Kernel threads take no signals. Returns 0.
int send_signal(struct task *t, int sig, bool group)
{
  if (sig <= 0 || sig > NSIG || (t->flags & TF_KTHREAD))
    return 0;
  spin_lock(&t->sighand->siglock);
  if (prepare_signal(t, sig)) {
    if (group)
      t->signal->shared_pending |= sigmask(sig);
    else
      t->pending |= sigmask(sig);
    complete_signal(sig, t, group);
  }
  spin_unlock(&t->sighand->siglock);
  return 0;
}

// May the current task send sig to t? Returns 0 or -errno.
static int check_kill_permission(int sig, struct task *t)
{
  if (sig < 0 || sig > NSIG)
    return -EINVAL;
  (void)t;   // every task runs as root
  return 0;
}

// kill(pid, sig) for pid > 0: the process containing task pid.
// Caller holds tasklist_lock.
static int kill_task_group(struct task *t, int sig)
{
  int err = check_kill_permission(sig, t);
  if (err == 0 && sig)
    send_signal(t, sig, true);
  return err;
}

int kill_pid_info(int pid, int sig)
{
  spin_lock(&tasklist_lock);
  struct task *t = find_task_by_tid(pid);
  int err = t ? kill_task_group(t, sig) : -ESRCH;
  spin_unlock(&tasklist_lock);
  return err;
}

// Signal every process of process group pgrp. -ESRCH if it is empty.
int kill_pgrp(int pgrp, int sig)
{
  int err = -ESRCH;
  spin_lock(&tasklist_lock);
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->attached && !t->exit_state && thread_group_leader(t) &&
        t->signal->pgrp == pgrp && !(t->flags & TF_KTHREAD))
      err = kill_task_group(t, sig);
  spin_unlock(&tasklist_lock);
  return err;
}

// kill(-1, sig): every process but init and the caller's own.
int kill_all(int sig)
{
  int err = -ESRCH;
  spin_lock(&tasklist_lock);
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->attached && !t->exit_state && thread_group_leader(t) && t != init_task &&
        !same_thread_group(t, current) && !(t->flags & TF_KTHREAD))
      err = kill_task_group(t, sig);
  spin_unlock(&tasklist_lock);
  return err;
}

// tgkill: sig for thread tid, which must belong to process tgid.
int do_tkill(int tgid, int tid, int sig)
{
  if (sig < 0 || sig > NSIG || tid <= 0 || tgid <= 0)
    return -EINVAL;
  spin_lock(&tasklist_lock);
  struct task *t = find_task_by_tid(tid);
  int err = -ESRCH;
  if (t && t->tgid == tgid && (err = check_kill_permission(sig, t)) == 0 && sig)
    send_signal(t, sig, false);
  spin_unlock(&tasklist_lock);
  return err;
}

bool fatal_signal_pending(struct task *t)
{
  return signal_pending(t) && (READ_ONCE(t->pending) & sigmask(SIGKILL));
}

// Kill every other thread of t's group. Caller holds siglock.
void zap_other_threads(struct task *t)
{
  struct task *o;
  for_each_thread(t->signal, o) {
    if (o == t || o->exit_state)
      continue;
    o->jobctl &= ~(JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME);
    o->pending |= sigmask(SIGKILL);
    signal_wake_up(o, true);
  }
}

// The lowest unblocked pending signal of t, removed from its set (the
// thread's own first, then the group's); 0 if none. Caller holds siglock.
static int dequeue_signal(struct task *t)
{
  sigset_t *sets[2] = { &t->pending, &t->signal->shared_pending };
  for (int i = 0; i < 2; i++) {
    sigset_t ready = *sets[i] & ~t->blocked;
    if (!ready)
      continue;
    int sig = 1;
    while (!(ready & sigmask(sig)))
      sig++;
    *sets[i] &= ~sigmask(sig);
    return sig;
  }
  return 0;
}

// Tell t's parent process that t's group stopped or continued (it reads
// which in wait()): SIGCHLD, and a wakeup for its wait(). Takes tasklist_lock:
// call with no locks held.
void do_notify_parent_cldstop(struct task *t)
{
  spin_lock(&tasklist_lock);
  struct task *parent = t->group_leader->parent;
  if (parent && !parent->exit_state) {
    send_signal(parent, SIGCHLD, true);
    wakeup(parent->signal);
  }
  spin_unlock(&tasklist_lock);
}

// Ask t to take part in a group stop: set mask in t->jobctl unless t is
// on its way out. Returns whether it was set. Caller holds siglock.
bool task_set_jobctl_pending(struct task *t, u32 mask)
{
  if (fatal_signal_pending(t) || (t->flags & TF_EXITING) || t->exit_state)
    return false;
  t->jobctl |= mask;
  return true;
}

// A thread born into a group that is stopping joins the stop.
// Caller holds siglock.
void task_join_group_stop(struct task *t)
{
  struct signal_struct *sig = t->signal;
  if (sig->group_stop_count > 0 &&
      task_set_jobctl_pending(t, JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME)) {
    sig->group_stop_count++;
    set_tsk_thread_flag(t, TIF_SIGPENDING);
  }
}

// Start a group stop for signr if none is under way, then take part in
// it: the thread sleeps in TASK_STOPPED until SIGCONT or SIGKILL. The last
// thread to stop tells the parent. Called and returns with siglock held.
static void do_signal_stop(int signr)
{
  struct task *t = current, *o;
  struct signal_struct *sig = t->signal;
  if (!(t->jobctl & JOBCTL_STOP_PENDING)) {
    // First thread to act on the stop signal: enlist everyone.
    sig->group_stop_sig = signr;
    sig->group_stop_count = 0;
    sig->flags &= ~(SIGNAL_STOP_STOPPED | SIGNAL_STOP_REPORTED | SIGNAL_STOP_CONTINUED);
    for_each_thread(sig, o) {
      if (!task_set_jobctl_pending(o, JOBCTL_STOP_PENDING | JOBCTL_STOP_CONSUME))
        continue;
      sig->group_stop_count++;
      if (o != t)
        signal_wake_up(o, false);
    }
  }
  t->jobctl &= ~JOBCTL_STOP_PENDING;
  bool last = false;
  if (t->jobctl & JOBCTL_STOP_CONSUME) {
    t->jobctl &= ~JOBCTL_STOP_CONSUME;
    BUG_ON(sig->group_stop_count <= 0);   // each consumer was counted once
    if (--sig->group_stop_count == 0) {
      sig->flags = (sig->flags & ~SIGNAL_STOP_CONTINUED) | SIGNAL_STOP_STOPPED;
      last = true;
    }
  }
  recalc_sigpending(t);
  // TASK_STOPPED before the parent is told, so that a parent whose wait
  // returns finds every thread in T; no preemption until the sleep.
  push_off();
  set_special_state(TASK_STOPPED);
  if (last) {
    spin_unlock(&t->sighand->siglock);
    do_notify_parent_cldstop(t);
    spin_lock(&t->sighand->siglock);
  }
  pop_off();
  // Sleep while the group is stopped (or still stopping) and nothing
  // fatal came; SIGCONT clears both conditions and wakes us. A stop that
  // began after that SIGCONT, before we ran again, enlisted us anew
  // (JOBCTL_STOP_PENDING): we go back to get_signal() to be counted in
  // it, or it would wait for us for ever and never be reported.
  while (((sig->flags & SIGNAL_STOP_STOPPED) || sig->group_stop_count > 0) &&
         !(t->jobctl & JOBCTL_STOP_PENDING) &&
         !(sig->flags & SIGNAL_GROUP_EXIT) && !(t->pending & sigmask(SIGKILL)) &&
         !(t->ptrace && (t->pending & ~t->blocked)))   // a tracer's SIGSTOP
    sleep_in_state(&t->sighand->siglock, TASK_STOPPED);
  set_special_state(TASK_RUNNING);
}

// On the way to user mode: act on pending signals until one needs a user
// handler (returns true with *ka and *signr set) or none is left (false).
// Default actions happen here: ignore, stop, or end the group.
bool get_signal(struct k_sigaction *ka, int *signr)
{
  struct task *t = current;
  struct signal_struct *sig = t->signal;
  int code;
  for (;;) {
    spin_lock(&t->sighand->siglock);
    if (sig->flags & SIGNAL_CLD_CONTINUED) {
      sig->flags &= ~SIGNAL_CLD_CONTINUED;
      spin_unlock(&t->sighand->siglock);
      do_notify_parent_cldstop(t);
      continue;
    }
    if (signal_group_exit(sig)) {
      code = sig->group_exit_code;
      spin_unlock(&t->sighand->siglock);
      goto fatal;
    }
    if (t->jobctl & JOBCTL_STOP_PENDING) {
      do_signal_stop(0);
      spin_unlock(&t->sighand->siglock);
      continue;
    }
    int s = dequeue_signal(t);
    if (!s) {
      recalc_sigpending(t);
      spin_unlock(&t->sighand->siglock);
      return false;
    }
    if (t->ptrace && s != SIGKILL && !(s = ptrace_stop(s))) {
      spin_unlock(&t->sighand->siglock);   // the tracer cancelled it
      continue;
    }
    struct k_sigaction *act = sig_action(t, s);
    if (act->handler == SIG_IGN) {
      spin_unlock(&t->sighand->siglock);
      continue;
    }
    if (act->handler != SIG_DFL) {
      *ka = *act;
      *signr = s;
      if (act->flags & SA_RESETHAND)
        act->handler = SIG_DFL;
      spin_unlock(&t->sighand->siglock);
      return true;
    }
    if (sig_kernel_ignore(s)) {
      spin_unlock(&t->sighand->siglock);
      continue;
    }
    if (sig_kernel_stop(s)) {
      do_signal_stop(s);
      spin_unlock(&t->sighand->siglock);
      continue;
    }
    spin_unlock(&t->sighand->siglock);
    code = s;   // the default action: terminate
    goto fatal;
  }
fatal:
  do_group_exit(code);
}

// Replace the blocked mask (SIGKILL and SIGSTOP stay unblocked).
void set_current_blocked(sigset_t mask)
{
  struct task *t = current;
  spin_lock(&t->sighand->siglock);
  t->blocked = mask & ~SIG_UNBLOCKABLE;
  recalc_sigpending(t);
  spin_unlock(&t->sighand->siglock);
}

// exec: caught signals go back to their default action; ignored ones
// stay ignored; the mask and pending signals are kept.
void flush_signal_handlers(struct task *t)
{
  spin_lock(&t->sighand->siglock);
  for (int i = 0; i < NSIG; i++) {
    struct k_sigaction *ka = &t->sighand->action[i];
    if (ka->handler != SIG_IGN)
      ka->handler = SIG_DFL;
    ka->flags = 0;
    ka->restorer = 0;
    ka->mask = 0;
  }
  spin_unlock(&t->sighand->siglock);
}

// A user-mode fault: the task dies of sig, with a line on the console
// (not for the SIGTRAP of a traced task: a debugger's breakpoint or
// step, which the debugger reports).
// A handler may catch it, except when it is blocked (then it kills).
void do_user_fault(struct pt_regs *regs, int sig, u64 addr, const char *what)
{
  struct task *t = current;
  if (!(sig == SIGTRAP && t->ptrace))
    printk("%s[%d]: %s at %lx, pc %lx: signal %d\n",
           t->comm, t->tid, what, addr, arch_user_pc(regs), sig);
  spin_lock(&t->sighand->siglock);
  if (t->blocked & sigmask(sig) || sig_action(t, sig)->handler == SIG_IGN) {
    t->blocked &= ~sigmask(sig);
    sig_action(t, sig)->handler = SIG_DFL;
  }
  spin_unlock(&t->sighand->siglock);
  send_signal(t, sig, false);
}

// An interrupted system call meets a signal: restart it or make it fail
// with -EINTR, by Linux's rules. handler: a user handler is about to run.
static void syscall_restart(struct pt_regs *regs, bool handler, u64 sa_flags)
{
  if (!arch_in_syscall(regs))
    return;
  long ret = arch_syscall_get_return(regs);
  if (ret == -ERESTARTNOHAND || ret == -ERESTARTSYS) {
    if (!handler || (ret == -ERESTARTSYS && (sa_flags & SA_RESTART)))
      arch_syscall_restart(regs);
    else
      arch_syscall_set_return(regs, -EINTR);
  }
  arch_syscall_done(regs);
}

// On the way to user mode with TIF_SIGPENDING set: act on the signals,
// and if one has a handler, arrange for it to run when we return.
void do_signal(struct pt_regs *regs)
{
  struct task *t = current;
  struct k_sigaction ka;
  int sig;
  if (!get_signal(&ka, &sig)) {
    syscall_restart(regs, false, 0);
    if (t->restore_sigmask) {
      t->restore_sigmask = false;
      set_current_blocked(t->saved_sigmask);
    }
    return;
  }
  syscall_restart(regs, true, ka.flags);
  sigset_t old = t->restore_sigmask ? t->saved_sigmask : t->blocked;
  t->restore_sigmask = false;
  if (arch_setup_sigframe(regs, sig, &ka, old) < 0) {
    printk("%s[%d]: cannot set up a frame for signal %d: killed\n", t->comm, t->tid, sig);
    do_group_exit(SIGSEGV);
  }
  sigset_t block = ka.mask;
  if (!(ka.flags & SA_NODEFER))
    block |= sigmask(sig);
  set_current_blocked(t->blocked | block);
}
