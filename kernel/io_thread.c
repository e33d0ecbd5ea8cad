// I/O threads: tasks of a process's thread group that run a kernel
// function and never return to user mode (Linux's create_io_thread(),
// new in 5.12). They share the process's signal_struct, handlers,
// address space and files, so they show in /proc/<pid>/task, ps -T and
// top -H, and a group stop waits for them.
//
// This is the 5.12-rc3 baseline: like a kernel thread, an I/O thread
// blocks every signal but SIGKILL, and it does so after the task is
// created, which is racy; its loop checks fatal_signal_pending() but
// never calls get_signal().
#include "task.h"
#include "fs.h"
#include "io_wq.h"
#include "procfs.h"

// The race window that /proc/sys/kernel/io_thread_race_ticks widens for
// the labs (racetest, stopjoin). Windows are one at a time: a thread
// whose window cannot open yet waits, uninterruptibly, for the open one
// to close. A window closes when it has lasted the knob's ticks as they
// were when it opened, or as soon as the knob is written. So a test can
// hold several creations at chosen points and let them go one by one,
// by event rather than by time. Every window is 0 ticks unless a test
// set the knob.
static struct spinlock io_thread_race_lock = { 0, "io_thread_race", NULL };
static int io_thread_race_ticks;        // the knob: ticks of the next window
static int io_thread_race_gen;          // bumped by each write of the knob
static struct task *io_thread_race_open; // the task in the open window, if any
// (all three guarded by io_thread_race_lock; the knob is also read without it)

// Set the knob (a write to /proc/sys/kernel/io_thread_race_ticks): the
// ticks of windows that open from now on; the open window closes.
void io_thread_race_set(int ticks)
{
  spin_lock(&io_thread_race_lock);
  WRITE_ONCE(io_thread_race_ticks, ticks);
  io_thread_race_gen++;
  if (io_thread_race_open)
    wake_up_state(io_thread_race_open, 1 << TASK_UNINTERRUPTIBLE);
  spin_unlock(&io_thread_race_lock);
}

// The knob's value, for a read of it.
int io_thread_race_get(void)
{
  return READ_ONCE(io_thread_race_ticks);
}

// Wait in create_io_thread()'s window, uninterruptibly (D), as said above.
// It sleeps until its time is up or a write wakes it, so that a thread in
// a window is seen in D, never R. No locks held.
static void io_thread_race_window(void)
{
  if (READ_ONCE(io_thread_race_ticks) <= 0)
    return;
  spin_lock(&io_thread_race_lock);
  while (io_thread_race_open)
    sleep(&io_thread_race_open, &io_thread_race_lock);
  io_thread_race_open = current;
  int gen = io_thread_race_gen;
  long left = io_thread_race_ticks;
  while (left > 0 && io_thread_race_gen == gen)
    left = schedule_timeout_uninterruptible_locked(left, &io_thread_race_lock);
  io_thread_race_open = NULL;
  wakeup(&io_thread_race_open);
  spin_unlock(&io_thread_race_lock);
}

// Start fn(arg) in an I/O thread of the current process, named
// fmt with id (e.g. "iou-wrk-%d"). The thread is not yet runnable: the
// caller wakes it with wake_up_new_task(). Returns it, or NULL.
struct task *create_io_thread(void (*fn)(void *), void *arg, const char *fmt, int id)
{
  struct kernel_clone_args args = {
    .flags = CLONE_THREAD_FLAGS, .io_thread = true, .fn = fn, .fn_arg = arg,
  };
  int err;
  struct task *t = copy_process(&args, &err);
  if (!t)
    return NULL;
  // The thread is already in the group: a signal sent before the next
  // lines still finds it unblocked (the race Oleg Nesterov pointed out).
  // /proc/sys/kernel/io_thread_race_ticks widens the window for the labs.
  io_thread_race_window();
  spin_lock(&t->sighand->siglock);
  t->blocked = ~sigmask(SIGKILL);
  spin_unlock(&t->sighand->siglock);
  snprintf(t->comm, sizeof(t->comm), fmt, id);   // 16 bytes: may truncate
  return t;
}

// The process is giving up its I/O threads (its last user thread exits,
// or it execs): send each SIGKILL and tear io-wq down, waiting for its
// manager and workers. Afterwards no I/O thread of the pool holds the
// process's files, so closing its rings cannot wait on one of them.
void io_uring_task_cancel(void)
{
  struct task *t = current, *o;
  spin_lock(&t->sighand->siglock);
  for_each_thread(t->signal, o)
    if ((o->flags & TF_IO_WORKER) && !o->exit_state) {
      o->pending |= sigmask(SIGKILL);
      signal_wake_up(o, true);
    }
  spin_unlock(&t->sighand->siglock);
  io_wq_exit(t->signal);
}

// do_exit() of a user thread: the last one out cancels the I/O threads.
void io_uring_task_exit(struct task *t)
{
  if (t->flags & TF_IO_WORKER)
    return;
  if (__atomic_sub_fetch(&t->signal->nr_user_threads, 1, __ATOMIC_ACQ_REL) == 0)
    io_uring_task_cancel();
}
