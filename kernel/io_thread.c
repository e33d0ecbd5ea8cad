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

// Ticks to wait inside create_io_thread()'s race window (0: none).
int io_thread_race_ticks;

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
  if (READ_ONCE(io_thread_race_ticks) > 0)
    schedule_timeout_uninterruptible(io_thread_race_ticks);
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
