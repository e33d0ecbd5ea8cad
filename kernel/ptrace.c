// ptrace, per thread, with Linux's request numbers and function names.
//
// PTRACE_ATTACH makes the caller the tracer of one thread and sends that
// thread SIGSTOP. From then on every signal the thread is about to act on
// (except SIGKILL) first stops it in TASK_TRACED (ptrace_stop()); the
// tracer sees the stop with waitpid(tid, ..., __WALL) and resumes it with
// PTRACE_CONT, PTRACE_SINGLESTEP or PTRACE_DETACH, choosing which signal,
// if any, it gets. A debugger starts a program with PTRACE_TRACEME in
// its child (exec then stops it with SIGTRAP), and follows new threads
// with PTRACE_O_TRACECLONE (PTRACE_EVENT_CLONE stops, PTRACE_GETEVENTMSG).
// Links (tracer, ptrace) are guarded by tasklist_lock; stop state by the
// tracee's siglock.
#include "task.h"
#include "ptrace.h"
#include "syscall.h"

// Tell t's tracer, if any, that t stopped: SIGCHLD and a wakeup for its
// waitpid(). The tracer looks for the stop and goes to sleep all under
// tasklist_lock, so the wakeup must come under it too, or it could fall
// between the look and the sleep and be lost (the tracer would wait
// forever). Like do_notify_parent_cldstop(), with t's siglock dropped
// for the while: tasklist_lock comes first. Caller holds t's siglock.
static void ptrace_notify_tracer(struct task *t)
{
  spin_unlock(&t->sighand->siglock);
  spin_lock(&tasklist_lock);
  struct task *tracer = t->tracer;
  if (tracer) {
    send_signal(tracer, SIGCHLD, true);
    wakeup(tracer->signal);   // its waitpid sleeps there
  }
  spin_unlock(&tasklist_lock);
  spin_lock(&t->sighand->siglock);
}

// Stop the current (traced) thread to report sig to its tracer, until
// the tracer resumes it. Called from get_signal() with siglock held, and
// returns with it held (dropping it meanwhile). Returns the signal to act
// on now (0: none). The state is TASK_TRACED before the tracer is told:
// a tracer whose waitpid() returns finds the thread in t, never in R.
int ptrace_stop(int sig)
{
  struct task *t = current;
  BUG_ON(!t->ptrace || !t->tracer);   // get_signal() looked under our siglock
  t->ptrace_sig = sig;
  t->ptrace_stopped = true;
  t->ptrace_reported = false;
  push_off();   // no preemption until the sleep (set_special_state())
  set_special_state(TASK_TRACED);
  ptrace_notify_tracer(t);
  pop_off();
  while (t->ptrace_stopped && t->ptrace && !(t->pending & sigmask(SIGKILL)) &&
         !(t->signal->flags & SIGNAL_GROUP_EXIT))
    sleep_in_state(&t->sighand->siglock, TASK_TRACED);
  set_special_state(TASK_RUNNING);
  t->ptrace_stopped = false;
  return t->ptrace_sig;
}

// A PTRACE_EVENT stop: if the current task is traced with the option for
// event, stop with (event << 8) | SIGTRAP and msg for PTRACE_GETEVENTMSG
// until the tracer resumes us. A signal the tracer resumes us with is
// dropped (Linux may drop it too). Caller holds no locks.
void ptrace_event(int event, u64 msg)
{
  struct task *t = current;
  spin_lock(&t->sighand->siglock);
  if ((t->ptrace & PT_EVENT_FLAG(event)) && t->tracer) {
    t->ptrace_message = msg;
    ptrace_stop((event << 8) | SIGTRAP);
  }
  spin_unlock(&t->sighand->siglock);
}

// A new thread of a tracee traced with PTRACE_O_TRACECLONE: it has the
// same tracer and options, and a SIGSTOP stops it before its first
// instruction, for the tracer to see. Caller (copy_process() of the
// current task) holds tasklist_lock and the group's siglock.
void ptrace_init_task(struct task *child)
{
  BUG_ON(!current->tracer);
  child->tracer = current->tracer;
  child->ptrace = current->ptrace;
  child->pending |= sigmask(SIGSTOP);
  set_tsk_thread_flag(child, TIF_SIGPENDING);
}

// May the current task attach to t? Returns 0 or -EPERM.
// Caller holds tasklist_lock.
static int ptrace_may_attach(struct task *t)
{
  if (same_thread_group(t, current) || t->tgid == 1 || t->ptrace ||
      (t->flags & (TF_KTHREAD | TF_IO_WORKER)) || t->exit_state)
    return -EPERM;
  return 0;
}

// PTRACE_ATTACH: trace t and send it SIGSTOP. Caller holds tasklist_lock.
int ptrace_attach(struct task *t)
{
  int err = ptrace_may_attach(t);
  if (err)
    return err;
  BUG_ON(t->tracer);   // ptrace and tracer are set and cleared together
  t->tracer = current;
  t->ptrace = PT_PTRACED;
  send_signal(t, SIGSTOP, false);
  // A thread already in a group stop would sleep on with the SIGSTOP
  // pending (a stopped thread is not woken for a signal), and the
  // tracer's waitpid() would never see a stop. Wake it: do_signal_stop()
  // lets a traced thread with a signal pending go, and it reports the
  // SIGSTOP from a tracing stop (Linux's JOBCTL_TRAP_STOP on attach).
  wake_up_state(t, 1 << TASK_STOPPED);
  return 0;
}

// PTRACE_TRACEME: the caller's parent (the thread that forked it) traces
// it from now on; a debugger's child calls this before exec. Fails with
// -EPERM if the caller is traced already, is init, or its parent is
// exiting (exit_ptrace() would miss us). Caller holds tasklist_lock.
static int ptrace_traceme(void)
{
  struct task *t = current, *p = t->parent;
  if (t->ptrace || t->tgid == 1 || !p || (READ_ONCE(p->flags) & (TF_EXITING | TF_KTHREAD)) ||
      p->exit_state)
    return -EPERM;
  BUG_ON(t->tracer);
  t->tracer = p;
  t->ptrace = PT_PTRACED;
  return 0;
}

// Is t traced by the caller and stopped for it? Caller holds tasklist_lock.
static bool ptrace_check_attach(struct task *t)
{
  return t->ptrace && t->tracer == current && READ_ONCE(t->ptrace_stopped);
}

// Resume a stopped tracee with signal sig (0: none), for one instruction
// if step (the caller checked the arch can); detach it first if asked.
// exit_ptrace() also lets go of running tracees this way. Caller holds
// tasklist_lock.
static void ptrace_resume(struct task *t, int sig, bool detach, bool step)
{
  BUG_ON(t->tracer != current);   // only its tracer resumes a tracee
  spin_lock(&t->sighand->siglock);
  if (detach) {
    t->ptrace = 0;
    t->tracer = NULL;
    // Its group is stopped: it goes back to the group stop rather than
    // run while its parent thinks it stopped (Linux's __ptrace_unlink()).
    // No JOBCTL_STOP_CONSUME: it was not counted out of this stop.
    struct signal_struct *sig = t->signal;
    if (((sig->flags & SIGNAL_STOP_STOPPED) || sig->group_stop_count > 0) &&
        !(sig->flags & SIGNAL_GROUP_EXIT) && !(t->flags & TF_EXITING))
      t->jobctl |= JOBCTL_STOP_PENDING;
  }
  if (step)
    user_enable_single_step(t);
  else
    user_disable_single_step(t);
  t->ptrace_sig = sig;
  t->ptrace_stopped = false;
  spin_unlock(&t->sighand->siglock);
  wake_up_state(t, 1 << TASK_TRACED);
}

// A tracer thread exits: its tracees go free and run on; tracees that
// died waiting to be seen are let go (release_traced_zombie()).
// Caller holds no locks.
void exit_ptrace(struct task *tracer)
{
  spin_lock(&tasklist_lock);
  for (struct task *t = tasks; t < &tasks[NTASK]; t++) {
    if (!t->attached || t->tracer != tracer || t->exit_state == EXIT_DEAD)
      continue;
    if (!t->exit_state) {
      if (t->ptrace & PT_EXITKILL)   // its debugger started it: it goes too
        send_signal(t, SIGKILL, false);
      ptrace_resume(t, 0, true, false);
    } else {
      release_traced_zombie(t);   // nobody else will see it go
    }
  }
  spin_unlock(&tasklist_lock);
}

// For waitpid: has tracee t (traced by the caller) a stop not yet
// reported? If so mark it reported and set *status. tasklist_lock held.
bool ptrace_wait_consider(struct task *t, int *status)
{
  bool found = false;
  spin_lock(&t->sighand->siglock);
  if (t->ptrace_stopped && !t->ptrace_reported) {
    t->ptrace_reported = true;
    *status = (t->ptrace_sig << 8) | 0x7f;
    found = true;
  }
  spin_unlock(&t->sighand->siglock);
  return found;
}

// Read or write one word of a stopped tracee's memory. Like Linux's
// FOLL_FORCE, a debugger may write read-only text (breakpoints). Caller
// holds tasklist_lock, under which do_exit() clears t->mm: the mm read
// here lives until the caller lets go, even if a SIGKILL has just woken
// the tracee.
static int ptrace_access_word(struct task *t, u64 addr, u64 *word, bool write)
{
  struct mm_struct *mm = READ_ONCE(t->mm);
  if (!mm || (addr & 7))
    return -EIO;
  return access_process_vm(mm, addr, word, sizeof(*word), write, true) < 0 ? -EIO : 0;
}

// The requests that need a stopped tracee. Caller holds tasklist_lock;
// none of this sleeps.
static long ptrace_request(struct task *t, int request, u64 addr, u64 data)
{
  u64 word, regs[64];
  long n;
  switch (request) {
  case PTRACE_CONT:
  case PTRACE_DETACH:
  case PTRACE_SINGLESTEP:
    if (data > NSIG)
      return -EIO;
    if (request == PTRACE_SINGLESTEP && !arch_has_single_step())
      return -EIO;
    ptrace_resume(t, data, request == PTRACE_DETACH, request == PTRACE_SINGLESTEP);
    return 0;
  case PTRACE_PEEKDATA:
    if (ptrace_access_word(t, addr, &word, false) < 0)
      return -EIO;
    return copy_to_user((void *)data, &word, sizeof(word));
  case PTRACE_POKEDATA:
    word = data;
    return ptrace_access_word(t, addr, &word, true);
  case PTRACE_GETREGS:
    n = arch_ptrace_getregs(t, regs);
    return copy_to_user((void *)data, regs, n);
  case PTRACE_SETREGS:
    n = arch_ptrace_getregs(t, regs);
    if (copy_from_user(regs, (void *)data, n) < 0)
      return -EFAULT;
    arch_ptrace_setregs(t, regs);   // keeps privileged state out
    return 0;
  case PTRACE_SETOPTIONS:
    if (data & ~(u64)(PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL))
      return -EINVAL;
    spin_lock(&t->sighand->siglock);   // ptrace_event() reads them under it
    t->ptrace = PT_PTRACED | (data << PT_OPT_FLAG_SHIFT);
    spin_unlock(&t->sighand->siglock);
    return 0;
  case PTRACE_GETEVENTMSG:
    return copy_to_user((void *)data, &t->ptrace_message, sizeof(t->ptrace_message));
  }
  return -EIO;
}

// ptrace(request, pid, addr, data). Returns 0 (PEEKDATA stores the word
// at data) or -errno: ESRCH for no such thread, or one not traced by the
// caller or not stopped; EPERM for a refused attach or TRACEME; EINVAL
// for options tasklab lacks; EIO for bad requests (and SINGLESTEP where
// the CPU cannot step).
long sys_ptrace(struct pt_regs *regs)
{
  int request = ARG(0), pid = ARG(1);
  u64 addr = ARG(2), data = ARG(3);
  long err;
  spin_lock(&tasklist_lock);
  struct task *t = request == PTRACE_TRACEME ? current : find_task_by_tid(pid);
  if (!t) {
    err = -ESRCH;
  } else if (request == PTRACE_TRACEME) {
    err = ptrace_traceme();
  } else if (request == PTRACE_ATTACH) {
    err = ptrace_attach(t);
  } else if (request == PTRACE_KILL) {
    err = t->ptrace && t->tracer == current ? 0 : -ESRCH;
    if (!err)
      send_signal(t, SIGKILL, false);
  } else if (!ptrace_check_attach(t)) {
    err = -ESRCH;
  } else {
    err = ptrace_request(t, request, addr, data);
  }
  spin_unlock(&tasklist_lock);
  return err;
}
