// The timer tick: jiffies, CPU-time accounting, time slices.
#include "task.h"

volatile u64 jiffies;

// Every CPU's timer interrupt. CPU 0 keeps the clock and wakes sleepers.
// jiffies follows the hardware clock (as Linux's tick_do_update_jiffies64()
// follows ktime) rather than counting interrupts: a tick that comes late,
// on a vCPU the host did not run for a while, would otherwise be time
// lost for good, and every sleep would run long.
void do_timer_tick(bool from_user)
{
  struct task *t = current;
  if (smp_processor_id() == 0) {
    u64 now = arch_clock_jiffies();
    if (now > jiffies)
      WRITE_ONCE(jiffies, now);
    wake_expired_timers();
  }
  // Catch up with another thread's unmap: tlb_shootdown_wait() counts
  // on every CPU doing this at least once a tick.
  switch_mm_sync(t->mm);
  if (!(t->flags & TF_IDLE)) {
    if (from_user)
      t->utime++;
    else
      t->stime++;
    resched_tick();
  }
}

// CPU time of t's whole thread group: live threads plus those that have
// exited. Caller holds tasklist_lock.
void thread_group_cputime(struct task *t, u64 *utime, u64 *stime)
{
  *utime = t->signal->utime;
  *stime = t->signal->stime;
  for (struct task *o = tasks; o < &tasks[NTASK]; o++) {
    if (!o->attached || o->exit_state || !same_thread_group(o, t))
      continue;   // exited threads are in the signal_struct already
    *utime += o->utime;
    *stime += o->stime;
  }
}
