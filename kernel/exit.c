// Task death: exit, group exit, exec's wait for the other threads, and
// wait() by the parent. Lock order: tasklist_lock, then siglock, then
// rq_lock.
#include "task.h"
#include "ptrace.h"
#include "fs.h"

// Does leader's group consist of the leader alone? Caller holds
// tasklist_lock or the group's siglock.
bool thread_group_empty(struct task *leader)
{
  struct task *t;
  for_each_thread(leader->signal, t)
    if (t != leader)
      return false;
  return true;
}

// The wait status a parent sees for a finished group.
static int group_status(struct task *leader)
{
  struct signal_struct *sig = leader->signal;
  return (sig->flags & SIGNAL_GROUP_EXIT) ? sig->group_exit_code : leader->exit_code;
}

// Is leader traced by a process other than its parent? Then the tracer
// hears of its end first, and the parent only once the tracer has seen
// it (Linux's ptrace_reparented()). Caller holds tasklist_lock.
static bool ptrace_reparented(struct task *leader)
{
  return leader->ptrace && leader->tracer && leader->parent &&
         !same_thread_group(leader->tracer, leader->parent);
}

// Tell the parent that leader's whole group is gone, or its tracer first
// if another process traces it (release_traced_zombie() tells the parent
// later). Caller holds tasklist_lock and the group's siglock.
static void do_notify_parent(struct task *leader)
{
  struct task *parent = leader->parent;
  leader->exit_code = group_status(leader);
  if (ptrace_reparented(leader)) {
    send_signal(leader->tracer, SIGCHLD, true);
    wakeup(leader->tracer->signal);
    return;
  }
  if (!parent)
    return;
  if (leader->exit_signal > 0)
    send_signal(parent, leader->exit_signal, true);
  wakeup(parent->signal);
}

// Who takes t's children when t exits: a thread of t's own process that
// is not exiting, so that the process can still wait for them (wait
// looks at the children of every thread), or init if none is left
// (Linux's find_new_reaper() and find_alive_thread()). Caller holds
// tasklist_lock.
static struct task *find_new_reaper(struct task *t)
{
  struct task *o;
  for_each_thread(t->signal, o)
    if (o != t && !(o->flags & TF_EXITING) && !o->exit_state)
      return o;
  return init_task;
}

// Give t's children to a new reaper, waking it if any is a zombie
// already. Caller holds tasklist_lock.
static void forget_original_parent(struct task *t)
{
  struct task *reaper = find_new_reaper(t);
  BUG_ON(reaper == t);
  bool zombies = false;
  for (struct task *c = tasks; c < &tasks[NTASK]; c++)
    if (c->attached && c->exit_state != EXIT_DEAD && c->parent == t) {
      c->parent = reaper;
      zombies |= c->exit_state == EXIT_ZOMBIE && thread_group_leader(c);
    }
  if (zombies)
    wakeup(reaper->signal);
}

// Mark t dead to the world and tell whoever waits. A thread other than
// the leader reaps itself (EXIT_DEAD); a leader stays a zombie for its
// parent, who hears of it once the last thread is gone.
static void exit_notify(struct task *t, int code)
{
  spin_lock(&tasklist_lock);
  forget_original_parent(t);
  struct signal_struct *sig = t->signal;
  spin_lock(&t->sighand->siglock);
  // Into the group's sums of exited threads, in the same critical section
  // that sets exit_state below: a reader of the sums skips exited threads
  // (thread_group_cputime(), /proc/<pid>/io), so each counts exactly once.
  sig->utime += t->utime;
  sig->stime += t->stime;
  task_io_accounting_add(&sig->ioac, &t->ioac);
  t->exit_code = code;
  struct task *leader = t->group_leader;
  if (t->flags & TF_KTHREAD) {
    t->exit_state = EXIT_DEAD;   // no parent waits for a kernel thread
  } else if (thread_group_leader(t)) {
    t->exit_state = EXIT_ZOMBIE;
    if (thread_group_empty(t))
      do_notify_parent(t);
  } else {
    // A traced thread stays a zombie until its tracer has seen it go.
    bool traced = t->ptrace && t->tracer;
    t->exit_state = traced ? EXIT_ZOMBIE : EXIT_DEAD;
    if (!traced && leader->exit_state == EXIT_ZOMBIE && thread_group_empty(leader))
      do_notify_parent(leader);
  }
  if (t->ptrace && t->tracer)
    wakeup(t->tracer->signal);   // its waitpid(tid, __WALL)
  if (sig->group_exit_task)
    wakeup(sig);   // exec waits for the other threads to go
  spin_unlock(&t->sighand->siglock);
  // Holding tasklist_lock into rq_lock keeps anyone from reusing this
  // slot before we are off the CPU (they check on_cpu).
  spin_lock(&rq_lock);
  spin_unlock(&tasklist_lock);
}

// End the current thread with a Linux wait status (exit code << 8, or
// the signal number). Everything but the slot is released here.
void __noreturn do_exit(int code)
{
  struct task *t = current;
  if (t == init_task)
    panic("init exited (status %x)", code);
  t->flags |= TF_EXITING;
  if (t->clear_child_tid) {   // thread_join() waits on this word
    u32 zero = 0;
    if (copy_to_user((void *)t->clear_child_tid, &zero, sizeof(zero)) == 0)
      futex_wake(t->clear_child_tid, 1);
  }
  io_uring_task_exit(t);   // before the files: see io_thread.c
  if (t->files)
    put_files(t->files);
  if (t->fs)
    put_fs(t->fs);
  t->files = NULL;
  t->fs = NULL;
  if (t->mm) {   // leave the user page table before letting it go
    // t->mm goes first: a timer tick loads t->mm (switch_mm_sync()), and
    // one between the switch and the clearing would put this CPU back on
    // the page table mmput() frees. Under tasklist_lock, so that a tracer
    // peeking at us (it holds the lock) is done with the mm before we
    // drop it.
    spin_lock(&tasklist_lock);
    struct mm_struct *mm = t->mm;
    WRITE_ONCE(t->mm, NULL);
    spin_unlock(&tasklist_lock);
    switch_mm_sync(NULL);
    mmput(mm);
  }
  exit_ptrace(t);   // our tracees run on
  bool leader = thread_group_leader(t), kthread = t->flags & TF_KTHREAD;
  struct sighand_struct *sh = t->sighand;
  struct signal_struct *sig = t->signal;
  exit_notify(t, code);   // returns holding rq_lock
  if (!leader || kthread) {   // a leader keeps these for its parent's wait
    put_sighand(sh);
    put_signal(sig);
  }
  t->state = TASK_DEAD;
  schedule_dead();
}

// Exit the whole thread group: the first caller sets the status, every
// other thread is sent SIGKILL and exits with the same status.
void __noreturn do_group_exit(int code)
{
  struct task *t = current;
  struct signal_struct *sig = t->signal;
  spin_lock(&t->sighand->siglock);
  if (sig->flags & SIGNAL_GROUP_EXIT) {
    code = sig->group_exit_code;
  } else if (sig->group_exit_task) {
    code = 0;   // an exec is emptying the group: just go
  } else {
    sig->flags = (sig->flags & SIGNAL_UNKILLABLE) | SIGNAL_GROUP_EXIT;
    sig->group_exit_code = code;
    sig->group_stop_count = 0;
    zap_other_threads(t);
  }
  spin_unlock(&t->sighand->siglock);
  do_exit(code);
}

void __noreturn kthread_exit(void)
{
  do_exit(0);
}

// exec in a multi-threaded process: kill the other threads and wait for
// them; if the caller is not the leader, it takes the leader's place
// (tid, parent). Returns 0, or -EINTR if the group is already exiting.
int de_thread(void)
{
  struct task *t = current;
  struct signal_struct *sig = t->signal;
  spin_lock(&tasklist_lock);
  spin_lock(&t->sighand->siglock);
  if (signal_group_exit(sig)) {   // exiting, or another exec
    spin_unlock(&t->sighand->siglock);
    spin_unlock(&tasklist_lock);
    return -EINTR;
  }
  spin_unlock(&tasklist_lock);
  sig->group_exit_task = t;
  zap_other_threads(t);
  for (;;) {
    struct task *o;
    bool others = false;
    for_each_thread(sig, o)
      others |= o != t && o->exit_state == 0;
    if (!others)
      break;
    sleep(sig, &t->sighand->siglock);
  }
  sig->group_exit_task = NULL;
  spin_unlock(&t->sighand->siglock);
  if (thread_group_leader(t))
    return 0;
  // Become the leader: the zombie leader disappears, we take its tid.
  spin_lock(&tasklist_lock);
  spin_lock(&t->sighand->siglock);
  struct task *leader = t->group_leader;
  t->tid = leader->tid;
  t->parent = leader->parent;
  t->exit_signal = leader->exit_signal;
  leader->exit_state = EXIT_DEAD;
  for (struct task *o = tasks; o < &tasks[NTASK]; o++)
    if (o->attached && o->signal == sig)
      o->group_leader = t;
  spin_unlock(&t->sighand->siglock);
  spin_unlock(&tasklist_lock);
  put_sighand(t->sighand);   // the old leader's references
  put_signal(sig);
  return 0;
}

// Does child c's process match waitpid's pid argument?
static bool wait_match(struct task *c, int pid)
{
  if (pid > 0)
    return c->tid == pid;
  if (pid == -1)
    return true;
  int pgrp = pid == 0 ? current->signal->pgrp : -pid;
  return c->signal->pgrp == pgrp;
}

// Reap zombie c: free what is left and return its status.
// Caller holds tasklist_lock.
static int release_task(struct task *c)
{
  int status = c->exit_code;
  struct signal_struct *sig = c->signal;
  struct sighand_struct *sh = c->sighand;
  spin_lock(&sh->siglock);
  c->exit_state = EXIT_DEAD;
  spin_unlock(&sh->siglock);
  put_sighand(sh);
  put_signal(sig);
  return status;
}

// What wait may report about child c, given options: 1 and *status set
// (reaping it if it is a finished zombie), or 0. Caller holds tasklist_lock.
static int wait_consider(struct task *c, int options, int *status)
{
  if (c->exit_state == EXIT_ZOMBIE) {
    if (!thread_group_empty(c) || ptrace_reparented(c))
      return 0;   // the rest of the group, or another process's tracer, first
    *status = release_task(c);
    return 1;
  }
  struct signal_struct *sig = c->signal;
  int found = 0;
  spin_lock(&c->sighand->siglock);
  if ((options & WUNTRACED) && (sig->flags & SIGNAL_STOP_STOPPED) &&
      !(sig->flags & SIGNAL_STOP_REPORTED)) {
    sig->flags |= SIGNAL_STOP_REPORTED;
    *status = (sig->group_stop_sig << 8) | 0x7f;
    found = 1;
  } else if ((options & WCONTINUED) && (sig->flags & SIGNAL_STOP_CONTINUED)) {
    sig->flags &= ~SIGNAL_STOP_CONTINUED;
    *status = 0xffff;
    found = 1;
  }
  spin_unlock(&c->sighand->siglock);
  return found;
}

// t, a traced zombie, has been seen by its tracer (or the tracer is
// gone): it is traced no more. A thread other than the leader is reaped;
// a leader stays a zombie for its parent. The group's parent hears of
// the group if it is now gone. Caller holds tasklist_lock. Returns t's
// wait status.
int release_traced_zombie(struct task *t)
{
  struct task *leader = t->group_leader;
  spin_lock(&leader->sighand->siglock);
  if (t != leader)
    t->exit_state = EXIT_DEAD;
  t->ptrace = 0;
  t->tracer = NULL;
  if (leader->exit_state == EXIT_ZOMBIE && thread_group_empty(leader))
    do_notify_parent(leader);
  spin_unlock(&leader->sighand->siglock);
  return t->exit_code;
}

// Tracees of the caller's process matching pid with something to
// report (a stop, or a thread's death): sets *status and returns the tid,
// 0 if none is ready, or -ECHILD if there are none at all. Caller holds
// tasklist_lock.
static int wait_tracees(int pid, int *status)
{
  int found = -ECHILD;
  for (struct task *t = tasks; t < &tasks[NTASK]; t++) {
    if (!t->attached || t->exit_state == EXIT_DEAD || !t->ptrace || !t->tracer ||
        !same_thread_group(t->tracer, current) || (pid != -1 && t->tid != pid))
      continue;
    if (t->exit_state) {   // a zombie
      // A leader traced by its own parent (us) is reaped as a child below;
      // one whose threads live on is not over yet.
      if (thread_group_leader(t) && !ptrace_reparented(t))
        continue;
      if (thread_group_leader(t) && !thread_group_empty(t)) {
        found = 0;
        continue;
      }
      int tid = t->tid;
      *status = release_traced_zombie(t);
      return tid;
    }
    if (ptrace_wait_consider(t, status))
      return t->tid;
    found = 0;
  }
  return found;
}

// waitpid: report a child process matching pid (-1 any, 0 my group, < -1
// group -pid) that exited (reaping it), stopped (WUNTRACED) or continued
// (WCONTINUED), or a thread traced by the caller's process (pid -1 or its
// tid) that stopped for its tracer. Stores the status at ustatus if
// non-zero. Returns the tid, 0 (WNOHANG and nothing to report), -ECHILD,
// -EFAULT (checked first, so nothing is reaped) or -ERESTARTSYS.
int do_wait(int pid, u64 ustatus, int options)
{
  struct task *me = current;
  if (ustatus && (!user_page(me->mm->pgd, ustatus, true) ||
                  !user_page(me->mm->pgd, ustatus + sizeof(int) - 1, true)))
    return -EFAULT;   // before reaping anything, so no child is lost
  spin_lock(&tasklist_lock);
  for (;;) {
    int status, tid = wait_tracees(pid, &status);
    bool have = tid >= 0;
    for (struct task *c = tasks; c < &tasks[NTASK] && tid <= 0; c++) {
      if (!c->attached || c->exit_state == EXIT_DEAD || !thread_group_leader(c) ||
          !c->parent || c->parent->signal != me->signal || !wait_match(c, pid))
        continue;
      have = true;
      if (wait_consider(c, options, &status))
        tid = c->tid;
    }
    if (tid > 0) {
      spin_unlock(&tasklist_lock);
      if (ustatus && copy_to_user((void *)ustatus, &status, sizeof(status)) < 0)
        return -EFAULT;
      return tid;
    }
    if (!have || (options & WNOHANG)) {
      spin_unlock(&tasklist_lock);
      return have ? 0 : -ECHILD;
    }
    if (sleep_interruptible(me->signal, &tasklist_lock) < 0) {
      spin_unlock(&tasklist_lock);
      return -ERESTARTSYS;
    }
  }
}
