// The timer tick: jiffies, CPU-time accounting, time slices.
#include "task.h"

volatile u64 jiffies;

// Every CPU's timer interrupt. CPU 0 keeps the clock and wakes sleepers.
void do_timer_tick(bool from_user)
{
  struct task *t = current;
  if (smp_processor_id() == 0) {
    __atomic_fetch_add(&jiffies, 1, __ATOMIC_RELAXED);
    wake_expired_timers();
  }
  if (!(t->flags & TF_IDLE)) {
    if (from_user)
      t->utime++;
    else
      t->stime++;
    resched_tick();
  }
}

// CPU time of t's whole thread group: live threads plus those that have
// exited. Caller holds tasklist_lock or the group's siglock.
void thread_group_cputime(struct task *t, u64 *utime, u64 *stime)
{
  struct task *o;
  *utime = t->signal->utime;
  *stime = t->signal->stime;
  for_each_thread(t->signal, o) {
    if (o->exit_state)
      continue;   // already added to the signal_struct
    *utime += o->utime;
    *stime += o->stime;
  }
}
