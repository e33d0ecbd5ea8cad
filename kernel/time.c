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
  watchdog_tick(from_user);
  if (!(t->flags & TF_IDLE)) {
    if (from_user)
      t->utime++;
    else
      t->stime++;
    resched_tick();
  }
}

// CPU time of t's whole thread group: every live thread, I/O threads
// included, plus the threads that have exited. Caller holds tasklist_lock.
// As in Linux, the sum walks every thread whatever same_thread_group()
// says. Linux also refreshes the reader's own not-yet-accounted runtime
// first when it reads its own group (task_sched_runtime(current), the one
// place same_thread_group() matters here); tasklab counts CPU time in whole
// ticks as they happen, so there is nothing pending to refresh.
void thread_group_cputime(struct task *t, u64 *utime, u64 *stime)
{
  struct task *o;
  *utime = t->signal->utime;
  *stime = t->signal->stime;
  for_each_thread(t->signal, o) {
    if (o->exit_state)
      continue;   // exited threads are in the signal_struct already
    *utime += o->utime;
    *stime += o->stime;
  }
}
