// The watchdog: names on the console any task blocked in D, and any CPU
// stuck in the kernel, for longer than /proc/sys/kernel/hung_task_timeout_secs
// (0, the default, turns it off; the fuzzer turns it on for its runs).
// Linux splits this between kernel/hung_task.c (khungtaskd, for tasks in
// D) and kernel/watchdog.c (soft and hard lockups, with their own knob,
// watchdog_thresh); tasklab keeps one knob and one file, and prints what
// Linux prints so that a reader knows the messages when Linux shows them.
//
// Three checks:
//   - hung task: a task has slept in D, with no wakeup, for the timeout
//     (khungtaskd looks once a second);
//   - soft lockup: a task has run in the kernel for the timeout without
//     once reaching a scheduling point (a sleep or an attempt at one,
//     schedule(), user mode), counted in the ticks that found it running
//     there, so that waiting preempted for a CPU does not count;
//     A loop that calls schedule_timeout() with a signal pending passes a
//     scheduling point each time, as in Linux, so it is not one;
//   - hard lockup: a CPU has had no timer tick for the timeout, so its
//     interrupts are off (a spinlock held forever); khungtaskd sees it
//     from another CPU. Linux uses an NMI, which also gives a backtrace;
//     tasklab has none to use, so it names the task only.
// Each report is made once per stretch, at most HUNG_TASK_WARNINGS times.
#include "task.h"

#define HUNG_TASK_WARNINGS 10     // Linux's kernel.hung_task_warnings default
#define TRACE_DEPTH 16
#define HUNG_TASK_MAX_SECS 3600

static int timeout_secs;          // the knob; 0: off
static int warnings = HUNG_TASK_WARNINGS;
static bool khungtaskd_started;   // guarded by khungtaskd_lock
static struct spinlock khungtaskd_lock = { .name = "khungtaskd" };

// Take one of the warnings left; false once they are used up.
static bool take_warning(void)
{
  return __atomic_fetch_sub(&warnings, 1, __ATOMIC_RELAXED) > 0;
}

// The return addresses on t's kernel stack, innermost first, into
// pcs[0..max-1]; returns how many. t is current (the walk starts at the
// caller's frame) or asleep, kept so by rq_lock (from its saved frame).
// Frame pointers are followed only while they stay inside t's kernel
// stack and climb it, so a stack that changes or holds garbage ends the
// walk instead of faulting.
static int stack_trace(struct task *t, u64 *pcs, int max)
{
  u64 fp, pc, lo = (u64)t->kstack, hi = lo + KSTACK_SIZE;
  int n = 0;
  if (t == current) {
    fp = (u64)__builtin_frame_address(0);
  } else {
    arch_switched_frame(t, &fp, &pc);
    pcs[n++] = pc;
  }
  while (n < max && fp % 8 == 0 && fp > lo + 16 && fp < hi + 16) {
    u64 ra = fp + FRAME_RA_OFFSET, up = fp + FRAME_FP_OFFSET;
    if (ra < lo || ra + 8 > hi || up < lo || up + 8 > hi)
      break;
    pc = *(u64 *)ra;
    u64 next = *(u64 *)up;
    if (!pc)
      break;
    pcs[n++] = pc;
    if (next <= fp)
      break;
    fp = next;
  }
  return n;
}

// Print a stack trace taken by stack_trace().
static void print_trace(const u64 *pcs, int n)
{
  printk("Call Trace:\n");
  for (int i = 0; i < n; i++)
    printk(" [<%016lx>]\n", pcs[i]);
  if (n == 0)
    printk(" (no frames)\n");
}

// Report every task that has slept in D for more than secs, once per
// sleep. Takes rq_lock (inside tasklist_lock, which keeps the slot in
// use), and rq_lock keeps a sleeper asleep, so its stack still, while its
// trace is taken; prints with no lock held.
static void check_hung_tasks(int secs)
{
  for (struct task *t = tasks; t < &tasks[NTASK]; t++) {
    u64 pcs[TRACE_DEPTH];
    char comm[TASK_COMM_LEN];
    int tid = 0, n = 0;
    spin_lock(&tasklist_lock);   // a task that has slept, not one being made or freed
    bool live = t->used && t->attached && !t->exit_state && t->last_switch_time;
    spin_lock(&rq_lock);
    spin_unlock(&tasklist_lock);
    if (live && t->state == TASK_UNINTERRUPTIBLE && !t->on_cpu && !t->hung_reported &&
        jiffies - t->last_switch_time > (u64)secs * HZ) {
      t->hung_reported = true;
      tid = t->tid;
      memcpy(comm, t->comm, sizeof(comm));
      n = stack_trace(t, pcs, TRACE_DEPTH);
    }
    spin_unlock(&rq_lock);
    if (tid && take_warning()) {
      printk("INFO: task %s:%d blocked for more than %d seconds.\n", comm, tid, secs);
      print_trace(pcs, n);
    }
  }
}

// Report every CPU whose timer has not ticked for more than secs.
static void check_cpu_ticks(int secs)
{
  for (int i = 0; i < NCPU; i++) {
    struct cpu *c = &cpus[i];
    u64 last = READ_ONCE(c->last_tick);
    if (!last || jiffies - last <= (u64)secs * HZ) {
      WRITE_ONCE(c->tick_reported, false);
      continue;
    }
    if (c->tick_reported || !take_warning())
      continue;
    c->tick_reported = true;
    printk("watchdog: Watchdog detected hard LOCKUP on cpu %d: no timer tick for %d s "
           "(interrupts off)\n", i, (int)((jiffies - last) / HZ));
  }
}

// khungtaskd: once a second, while the knob is on, look for hung tasks
// and silent CPUs. Sleeps in S, never in D, so it never names itself.
static void khungtaskd(void *arg)
{
  (void)arg;
  for (;;) {
    schedule_timeout(HZ);
    int secs = READ_ONCE(timeout_secs);
    if (secs > 0) {
      check_hung_tasks(secs);
      check_cpu_ticks(secs);
    }
  }
}

// Every CPU's timer tick (do_timer_tick()), interrupts off: note the
// tick for the hard-lockup check, and look at the task it interrupted.
void watchdog_tick(bool from_user)
{
  struct task *t = current;
  WRITE_ONCE(this_cpu()->last_tick, jiffies);
  if (from_user || (t->flags & TF_IDLE)) {
    touch_softlockup_watchdog();
    return;
  }
  // Ticks that found t in the kernel, not time since its last scheduling
  // point: a task preempted in the kernel and kept waiting for a CPU
  // (a fork storm's run queue, a host that starves our virtual CPU) is
  // not stuck, however long it waits.
  u64 stuck = ++t->softlockup_ticks;
  int secs = READ_ONCE(timeout_secs);
  if (secs <= 0 || t->lockup_reported || stuck <= (u64)secs * HZ)
    return;
  t->lockup_reported = true;
  if (!take_warning())
    return;
  u64 pcs[TRACE_DEPTH];
  int n = stack_trace(t, pcs, TRACE_DEPTH);
  printk("watchdog: BUG: soft lockup - CPU#%d stuck for %ds! [%s:%d]\n",
         smp_processor_id(), (int)(stuck / HZ), t->comm, t->tid);
  print_trace(pcs, n);
}

// The knob's value (a read of /proc/sys/kernel/hung_task_timeout_secs).
int hung_task_timeout_get(void)
{
  return READ_ONCE(timeout_secs);
}

// Set the knob (a write of it): 0 turns the watchdog off, 1 to 3600
// seconds on. khungtaskd starts the first time it is turned on, so that
// a boot that never uses it has the same tasks as before. Returns 0,
// -EINVAL, or -EAGAIN if khungtaskd could not be made.
int hung_task_timeout_set(int secs)
{
  if (secs < 0 || secs > HUNG_TASK_MAX_SECS)
    return -EINVAL;
  spin_lock(&khungtaskd_lock);
  bool start = secs > 0 && !khungtaskd_started;
  khungtaskd_started |= start;
  spin_unlock(&khungtaskd_lock);
  if (start && !create_kthread(khungtaskd, NULL, "khungtaskd")) {
    spin_lock(&khungtaskd_lock);
    khungtaskd_started = false;
    spin_unlock(&khungtaskd_lock);
    return -EAGAIN;
  }
  // A task asleep since before the watchdog was on is timed from now.
  spin_lock(&rq_lock);
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->state != TASK_RUNNING && t->last_switch_time)   // 0: never ran yet
      t->last_switch_time = jiffies;
  spin_unlock(&rq_lock);
  WRITE_ONCE(timeout_secs, secs);
  return 0;
}
