// The scheduler: one run queue shared by all CPUs, round robin, with a
// one-tick time slice. rq_lock guards the queue and every task's state,
// wchan, on_rq and on_cpu. A switch happens inside __schedule() with
// rq_lock held; the task switched to releases it (finish_task_switch()),
// as in Linux.
#include "task.h"

struct spinlock rq_lock;
static struct task *rq_head, *rq_tail;
static struct task idle_tasks[NCPU];

// Set up CPU cpu's idle task, which is running this code on the boot
// stack, and make it current.
void sched_init_cpu(int cpu)
{
  extern char boot_stacks[];
  struct task *idle = &idle_tasks[cpu];
  set_current(idle);
  idle->cpu = cpu;
  idle->state = TASK_RUNNING;
  idle->on_cpu = true;
  idle->flags = TF_KTHREAD | TF_IDLE;
  idle->kstack = boot_stacks + cpu * KSTACK_SIZE;
  snprintf(idle->comm, sizeof(idle->comm), "swapper/%d", cpu);
  cpus[cpu].id = cpu;
  cpus[cpu].idle = idle;
  if (cpu == 0)
    spin_lock_init(&rq_lock, "rq");
}

// Append t to the run queue. Caller holds rq_lock.
static void enqueue_task(struct task *t)
{
  if (t->on_rq || (t->flags & TF_IDLE))
    return;
  t->on_rq = true;
  t->rq_next = NULL;
  if (rq_tail)
    rq_tail->rq_next = t;
  else
    rq_head = t;
  rq_tail = t;
}

// Take the first task from the run queue, or NULL. Caller holds rq_lock.
static struct task *dequeue_task(void)
{
  struct task *t = rq_head;
  if (t) {
    rq_head = t->rq_next;
    if (!rq_head)
      rq_tail = NULL;
    t->on_rq = false;
  }
  return t;
}

// In the task just switched to, with rq_lock held: the previous task's
// registers are saved, so another CPU may now run it.
static void finish_task_switch(void)
{
  struct cpu *c = this_cpu();
  WRITE_ONCE(c->switched_from->on_cpu, false);
  c->switched_from = NULL;
}

// Pick the next task and switch to it. Caller holds rq_lock (and no other
// spinlock) and has set current->state; a TASK_RUNNING caller is requeued.
// Returns, still holding rq_lock, when the caller is chosen again.
static void __schedule(void)
{
  struct task *prev = current;
  struct cpu *c = this_cpu();
  if (c->noff != 1)
    panic("__schedule: %d locks held by %d", c->noff, prev->tid);
  if (!(prev->flags & TF_IDLE) && *(u64 *)prev->kstack != STACK_END_MAGIC)
    panic("__schedule: kernel stack overflow in task %d", prev->tid);
  if (prev->state == TASK_RUNNING) {
    enqueue_task(prev);
  } else {
    prev->last_switch_time = jiffies;   // the watchdog times sleeps from here
    prev->hung_reported = false;
  }
  struct task *next = dequeue_task();
  if (!next)
    next = c->idle;
  clear_tsk_thread_flag(prev, TIF_NEED_RESCHED);
  if (next == prev)
    return;
  if (next->on_cpu)
    panic("__schedule: task %d already on a cpu", next->tid);
  bool intena = c->intena;
  next->on_cpu = true;
  next->cpu = c->id;
  c->switched_from = prev;
  switch_mm_sync(next->mm);
  arch_switch_to(&prev->ti.context, &next->ti.context);
  // prev runs again here, maybe on another CPU.
  finish_task_switch();
  this_cpu()->intena = intena;
}

// Give up the CPU; the caller stays runnable. Holds no spinlock. A
// scheduling point for the watchdog, as an involuntary preemption
// (preempt_check()) is not.
void schedule(void)
{
  touch_softlockup_watchdog();
  spin_lock(&rq_lock);
  __schedule();
  spin_unlock(&rq_lock);
}

// A scheduling point for a long loop in the kernel (Linux's
// cond_resched()): others may run, and the watchdog learns that this CPU
// is not stuck. Holds no spinlock.
void cond_resched(void)
{
  schedule();
}

// The first code a new task runs (from ret_from_fork).
void schedule_tail(void)
{
  finish_task_switch();
  spin_unlock(&rq_lock);
}

// Make a new task runnable for the first time.
void wake_up_new_task(struct task *t)
{
  spin_lock(&rq_lock);
  t->state = TASK_RUNNING;
  t->softlockup_ticks = 0;
  enqueue_task(t);
  spin_unlock(&rq_lock);
}

// Wake t if its state is one of the TASK_* bits in states (1 << state).
// Caller holds rq_lock. Returns whether it woke. A task that is still on
// its CPU (under rq_lock that means running: a switch away completes
// inside one hold of rq_lock) has set a stop state and not yet slept
// (set_special_state()); TASK_RUNNING is all it needs, and __schedule()
// requeues it if it gets that far.
static bool try_to_wake_up(struct task *t, int states)
{
  if (!((1 << t->state) & states))
    return false;
  t->state = TASK_RUNNING;
  t->wchan = NULL;
  t->wake_at = 0;
  if (!t->on_cpu)
    enqueue_task(t);
  return true;
}

bool wake_up_state(struct task *t, int states)
{
  spin_lock(&rq_lock);
  bool r = try_to_wake_up(t, states);
  spin_unlock(&rq_lock);
  return r;
}

// Sleep on chan in the given state, releasing lk while asleep. Caller
// holds lk; returns with lk held again. An interruptible sleep does not
// start if a signal is pending: the test is made under rq_lock, which a
// sender's wake_up_state() takes after setting TIF_SIGPENDING, so a
// signal sent at any moment either is seen here or wakes the sleeper.
static void sleep_on(void *chan, struct spinlock *lk, enum task_state state)
{
  struct task *t = current;
  touch_softlockup_watchdog();
  if (lk != &rq_lock) {
    spin_lock(&rq_lock);
    spin_unlock(lk);
  }
  if (state != TASK_INTERRUPTIBLE || !signal_pending(t)) {
    t->wchan = chan;
    t->state = state;
    __schedule();
    t->wchan = NULL;
  }
  if (lk != &rq_lock) {
    spin_unlock(&rq_lock);
    spin_lock(lk);
  }
}

// Uninterruptible sleep (state D): only wakeup(chan) ends it.
void sleep(void *chan, struct spinlock *lk)
{
  sleep_on(chan, lk, TASK_UNINTERRUPTIBLE);
}

// Sleep interruptibly (state S): wakeup(chan) or a signal ends it.
// Returns -ERESTARTSYS if a signal is pending (then it may not have
// slept), else 0. The system call then restarts or fails with -EINTR,
// as the signal's handler decides.
int sleep_interruptible(void *chan, struct spinlock *lk)
{
  sleep_on(chan, lk, TASK_INTERRUPTIBLE);
  return signal_pending(current) ? -ERESTARTSYS : 0;
}

// Sleep in a job-control state (TASK_STOPPED, TASK_TRACED) until
// wake_up_state() names it. Caller holds lk; returns holding it again.
void sleep_in_state(struct spinlock *lk, enum task_state state)
{
  sleep_on(NULL, lk, state);
}

// Put current in a stop state (TASK_STOPPED, TASK_TRACED) while it still
// runs, before it tells its parent or tracer, so that whoever the news
// wakes finds it stopped (Linux's set_special_state()); TASK_RUNNING
// undoes it once the stop is over, whether or not it slept. Between the
// two the caller keeps interrupts off (push_off()): a preemption would
// switch it away in a state no tick requeues. A wake_up_state() in
// between leaves it TASK_RUNNING (try_to_wake_up()).
void set_special_state(enum task_state state)
{
  struct task *t = current;
  BUG_ON(state != TASK_RUNNING && state != TASK_STOPPED && state != TASK_TRACED);
  spin_lock(&rq_lock);
  t->state = state;
  spin_unlock(&rq_lock);
}

// Wake every task sleeping on chan. Caller may hold the sleepers' lk.
void wakeup(void *chan)
{
  spin_lock(&rq_lock);
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->wchan == chan && t->state != TASK_RUNNING)
      try_to_wake_up(t, (1 << TASK_INTERRUPTIBLE) | (1 << TASK_UNINTERRUPTIBLE));
  spin_unlock(&rq_lock);
}

// Sleep in state for up to ticks jiffies; an interruptible sleep also
// ends at a signal (and does not start if one is pending), and any
// sleep at a wake_up_state() naming its state. If lk is not NULL, the
// caller holds it and it is released only once rq_lock is held, as in
// sleep_on(): a wake_up_state() made under lk after the caller's last
// look cannot be lost. Returns the ticks left (0 when the time ran out),
// holding lk again.
static long schedule_timeout_state(long ticks, enum task_state state, struct spinlock *lk)
{
  struct task *t = current;
  u64 deadline = jiffies + ticks;
  touch_softlockup_watchdog();
  spin_lock(&rq_lock);
  if (lk)
    spin_unlock(lk);
  if ((state != TASK_INTERRUPTIBLE || !signal_pending(t)) && ticks > 0) {
    t->wake_at = deadline;
    t->state = state;
    __schedule();
    t->wake_at = 0;
  }
  spin_unlock(&rq_lock);
  if (lk)
    spin_lock(lk);
  long left = (long)(deadline - jiffies);
  return left > 0 ? left : 0;
}

// Sleep interruptibly (S) for up to ticks jiffies; see above.
long schedule_timeout(long ticks)
{
  return schedule_timeout_state(ticks, TASK_INTERRUPTIBLE, NULL);
}

// Sleep interruptibly (S) for up to ticks jiffies, releasing lk (held by
// the caller) while asleep; returns the ticks left, holding lk again. For
// a thread that announces under lk that it is idle: a waker that sees the
// announcement under lk cannot find it still running.
long schedule_timeout_locked(long ticks, struct spinlock *lk)
{
  return schedule_timeout_state(ticks, TASK_INTERRUPTIBLE, lk);
}

// Sleep uninterruptibly (D) for up to ticks jiffies, releasing lk (held
// by the caller) as schedule_timeout_locked() does: a wake_up_state()
// under lk ends it early.
long schedule_timeout_uninterruptible_locked(long ticks, struct spinlock *lk)
{
  return schedule_timeout_state(ticks, TASK_UNINTERRUPTIBLE, lk);
}

// Sleep uninterruptibly (D) for ticks jiffies.
long schedule_timeout_uninterruptible(long ticks)
{
  return schedule_timeout_state(ticks, TASK_UNINTERRUPTIBLE, NULL);
}

// Once per tick on CPU 0: wake tasks whose schedule_timeout() expired.
void wake_expired_timers(void)
{
  spin_lock(&rq_lock);
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->wake_at && t->wake_at <= jiffies)
      try_to_wake_up(t, (1 << TASK_INTERRUPTIBLE) | (1 << TASK_UNINTERRUPTIBLE));
  spin_unlock(&rq_lock);
}

// A tick ended current's slice: ask for a reschedule if others wait.
void resched_tick(void)
{
  if (READ_ONCE(rq_head))
    set_tsk_thread_flag(current, TIF_NEED_RESCHED);
}

// Reschedule an interrupted kernel task if its slice is over.
void preempt_check(void)
{
  struct task *t = current;
  if ((t->flags & TF_IDLE) || !test_tsk_thread_flag(t, TIF_NEED_RESCHED))
    return;
  if (this_cpu()->noff)
    return;
  arch_irq_enable();
  spin_lock(&rq_lock);
  __schedule();       // not schedule(): a preemption is no scheduling point of t's
  spin_unlock(&rq_lock);
  arch_irq_disable();
}

// Each CPU ends up here: run whatever is runnable, and sleep in wfi/hlt
// when nothing is. Interrupts are off while deciding, so a wakeup
// interrupt cannot slip in between the check and the wait.
void __noreturn cpu_idle(void)
{
  for (;;) {
    arch_irq_disable();
    if (!READ_ONCE(rq_head))
      arch_wait_for_interrupt();
    arch_irq_enable();
    if (READ_ONCE(rq_head))
      schedule();
  }
}

// The last switch of an exiting task. Caller holds rq_lock and has set
// state TASK_DEAD; the parent frees the slot once on_cpu is clear.
void __noreturn schedule_dead(void)
{
  __schedule();
  panic("schedule_dead: dead task %d ran again", current->tid);
}

// Load mm (NULL: the kernel's page table) on this CPU, flushing stale
// translations if mm lost pages since this CPU last flushed for it.
// Called at every switch and on every return to user mode.
void switch_mm_sync(struct mm_struct *mm)
{
  push_off();   // stay on this CPU
  struct cpu *c = this_cpu();
  u64 gen = mm ? READ_ONCE(mm->tlb_gen) : 0;
  if (c->active_mm != mm) {
    arch_switch_mm(mm ? mm->pgd : arch_kernel_pgd());
    c->active_mm = mm;
  } else if (c->tlb_gen_seen == gen) {
    pop_off();
    return;
  } else {
    arch_flush_tlb();
  }
  WRITE_ONCE(c->tlb_gen_seen, gen);
  pop_off();
}

// Wait until no other CPU can still use a translation of mm older than
// gen: each has switched away or flushed (at its next return to user
// mode, at the latest one tick away). Caller holds no spinlock.
void tlb_shootdown_wait(struct mm_struct *mm, u64 gen)
{
  for (int i = 0; i < NCPU; i++) {
    struct cpu *c = &cpus[i];
    if (c == this_cpu())
      continue;
    while (READ_ONCE(c->active_mm) == mm && READ_ONCE(c->tlb_gen_seen) < gen)
      schedule();
  }
}
