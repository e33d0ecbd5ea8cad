// io-wq, as in Linux 5.12: a per-process pool of I/O worker threads
// (iou-wrk-PID) run by a manager thread (iou-mgr-PID). io_uring punts work
// that would block to the pool; an idle worker takes it, or the manager
// creates one while the work's class is under its cap. A worker that finds
// nothing to do sleeps interruptibly for up to WORKER_IDLE_TIMEOUT and then
// exits, unless it is the pool's first (fixed) worker.
//
// Baseline (5.12-rc3) behaviour kept on purpose: the loops look only at
// fatal_signal_pending() and never call get_signal(), so a pending group
// stop makes every sleep return at once and the loops spin.
#include "io_wq.h"

// ---- notification "signals": wake an I/O thread out of a blocking call
// without a real signal (Linux's TIF_NOTIFY_SIGNAL).

void set_notify_signal(struct task *t)
{
  set_tsk_thread_flag(t, TIF_NOTIFY_SIGNAL);
  wake_up_state(t, 1 << TASK_INTERRUPTIBLE);
}

void io_flush_signals(struct task *t)
{
  clear_tsk_thread_flag(t, TIF_NOTIFY_SIGNAL);
}

// ---- workers

// Take the oldest pending work, or NULL. Caller holds wq->lock.
static struct io_wq_work *io_get_next_work(struct io_wq *wq)
{
  struct io_wq_work *w = wq->head;
  if (w) {
    wq->head = w->next;
    if (!wq->head)
      wq->tail = NULL;
    w->next = NULL;
  }
  return w;
}

// A worker leaves: its slot and count go back to the pool. This is the
// worker's own cleanup; a worker that skipped it would leave the manager
// (and the process's exit) waiting forever.
static void io_worker_exit(struct io_worker *worker)
{
  struct io_wq *wq = worker->wq;
  spin_lock(&wq->lock);
  BUG_ON(wq->nr_workers[worker->acct] <= 0);
  wq->nr_workers[worker->acct]--;
  worker->flags = 0;
  worker->task = NULL;
  wakeup(&wq->nr_workers);
  spin_unlock(&wq->lock);
  do_exit(0);
}

// Run work items until none is left. Caller holds wq->lock; returns with
// it held.
static void io_worker_handle_work(struct io_worker *worker)
{
  struct io_wq *wq = worker->wq;
  struct io_wq_work *work;
  worker->flags &= ~IO_WORKER_F_FREE;
  while ((work = io_get_next_work(wq)) != NULL) {
    worker->cur = work;
    worker->cur_owner = work->owner;
    spin_unlock(&wq->lock);
    if (work->flags & IO_WQ_WORK_CANCEL)
      work->cancel(work);
    else
      work->fn(work);
    io_flush_signals(current);
    spin_lock(&wq->lock);
    worker->cur = NULL;
    worker->cur_owner = NULL;
  }
}

// The body of an iou-wrk thread.
static void io_wqe_worker(void *arg)
{
  struct io_worker *worker = arg;
  struct io_wq *wq = worker->wq;
  while (!READ_ONCE(wq->exiting)) {
    spin_lock(&wq->lock);
    if (wq->head) {
      io_worker_handle_work(worker);
      spin_unlock(&wq->lock);
      continue;
    }
    worker->flags |= IO_WORKER_F_FREE;
    io_flush_signals(current);
    // Sleep with wq->lock given up only once asleep: io_wq_enqueue()
    // wakes a free worker under wq->lock, so its wakeup cannot fall
    // between this look at the queue and the sleep.
    long ret = schedule_timeout_locked(WORKER_IDLE_TIMEOUT, &wq->lock);
    spin_unlock(&wq->lock);
    if (ret)
      continue;   // woken early: by work... or by a pending signal, at once
    if (fatal_signal_pending(current))
      break;
    // Timed out: exit unless we are the fixed worker.
    if (READ_ONCE(wq->exiting) || !(worker->flags & IO_WORKER_F_FIXED))
      break;
  }
  io_worker_exit(worker);
}

// Start a worker of class acct. Called by the manager. Returns false if
// there is no room or no task could be made.
static bool create_io_worker(struct io_wq *wq, int acct, bool fixed)
{
  struct io_worker *worker = NULL;
  spin_lock(&wq->lock);
  for (int i = 0; i < IO_WQ_MAX_WORKERS && !worker; i++)
    if (!wq->workers[i].flags)
      worker = &wq->workers[i];
  if (worker) {
    worker->flags = IO_WORKER_F_USED | IO_WORKER_F_FREE | (fixed ? IO_WORKER_F_FIXED : 0);
    worker->acct = acct;
    worker->wq = wq;
    worker->cur = NULL;
    wq->nr_workers[acct]++;
  }
  spin_unlock(&wq->lock);
  if (!worker)
    return false;
  struct task *t = create_io_thread(io_wqe_worker, worker, "iou-wrk-%d", wq->tgid);
  spin_lock(&wq->lock);
  if (!t) {
    worker->flags = 0;
    wq->nr_workers[acct]--;
  } else {
    worker->task = t;
  }
  spin_unlock(&wq->lock);
  if (t)
    wake_up_new_task(t);
  return t != NULL;
}

// ---- the manager

// Does work wait that no idle worker will take, in a class with room?
// Returns the class, or -1. Caller holds wq->lock.
static int io_wq_need_worker(struct io_wq *wq)
{
  if (!wq->head)
    return -1;
  for (int i = 0; i < IO_WQ_MAX_WORKERS; i++)
    if ((wq->workers[i].flags & IO_WORKER_F_FREE) && wq->workers[i].task)
      return -1;
  int acct = (wq->head->flags & IO_WQ_WORK_UNBOUND) ? IO_WQ_ACCT_UNBOUND : IO_WQ_ACCT_BOUND;
  return wq->nr_workers[acct] < wq->max_workers[acct] ? acct : -1;
}

// Wake every worker, and interrupt the work they are running.
// Caller holds wq->lock.
static void io_wq_wake_workers(struct io_wq *wq)
{
  for (int i = 0; i < IO_WQ_MAX_WORKERS; i++) {
    struct io_worker *w = &wq->workers[i];
    if (w->task)
      set_notify_signal(w->task);
  }
}

// The body of the iou-mgr thread: create the fixed worker, then once a
// second (or when asked) create workers where work waits.
static void io_wq_manager(void *arg)
{
  struct io_wq *wq = arg;
  create_io_worker(wq, IO_WQ_ACCT_BOUND, true);
  do {
    spin_lock(&wq->lock);
    int acct;
    while (!wq->exiting && (acct = io_wq_need_worker(wq)) >= 0) {
      spin_unlock(&wq->lock);
      if (!create_io_worker(wq, acct, false)) {
        spin_lock(&wq->lock);
        break;
      }
      spin_lock(&wq->lock);
    }
    if (!wq->exiting)
      schedule_timeout_locked(HZ, &wq->lock);   // io_wq_enqueue() wakes us under wq->lock
    spin_unlock(&wq->lock);
    if (fatal_signal_pending(current))
      WRITE_ONCE(wq->exiting, true);
  } while (!READ_ONCE(wq->exiting));
  // Wait for the workers: each accounts for itself in io_worker_exit().
  spin_lock(&wq->lock);
  io_wq_wake_workers(wq);
  while (wq->nr_workers[IO_WQ_ACCT_BOUND] + wq->nr_workers[IO_WQ_ACCT_UNBOUND] > 0)
    sleep(&wq->nr_workers, &wq->lock);
  wq->manager_alive = false;
  wq->manager = NULL;
  wakeup(wq);
  spin_unlock(&wq->lock);
  do_exit(0);
}

// ---- the pool's life

// The current process's pool, created (with its manager) on first use,
// with a reference for the caller to drop with io_wq_put(); NULL if it
// cannot be made. sig->io_wq is read and cleared under the siglock, so
// that io_wq_exit() cannot free the pool between our look and our
// reference.
static struct sleeplock io_wq_create_lock = { { 0, "sleeplock", NULL }, false, 0, "io_wq_create" };

// sig->io_wq with a reference taken, or NULL.
static struct io_wq *io_wq_tryget(struct signal_struct *sig)
{
  spin_lock(&current->sighand->siglock);
  struct io_wq *wq = sig->io_wq;
  if (wq)
    io_wq_ref(wq);
  spin_unlock(&current->sighand->siglock);
  return wq;
}

struct io_wq *io_wq_get(void)
{
  struct signal_struct *sig = current->signal;
  struct io_wq *wq = io_wq_tryget(sig);
  if (wq)
    return wq;
  sleep_lock(&io_wq_create_lock);   // two threads may race to make it
  if ((wq = io_wq_tryget(sig)) != NULL) {
    sleep_unlock(&io_wq_create_lock);
    return wq;
  }
  wq = alloc_page();
  if (!wq) {
    sleep_unlock(&io_wq_create_lock);
    return NULL;
  }
  _Static_assert(sizeof(struct io_wq) <= PAGE_SIZE, "io_wq fits a page");
  spin_lock_init(&wq->lock, "io_wq");
  wq->max_workers[IO_WQ_ACCT_BOUND] = 4;
  wq->max_workers[IO_WQ_ACCT_UNBOUND] = 8;
  wq->tgid = current->tgid;
  wq->refs = 2;                     // the process's (dropped by io_wq_exit()) and ours
  wq->manager_alive = true;
  struct task *mgr = create_io_thread(io_wq_manager, wq, "iou-mgr-%d", wq->tgid);
  if (mgr) {
    wq->manager = mgr;
    spin_lock(&current->sighand->siglock);
    sig->io_wq = wq;
    spin_unlock(&current->sighand->siglock);
    wake_up_new_task(mgr);
  } else {
    free_page(wq);
    wq = NULL;
  }
  sleep_unlock(&io_wq_create_lock);
  return wq;
}

// Queue work; an idle worker takes it, or the manager makes one.
// If the pool is going away, the work is cancelled at once.
void io_wq_enqueue(struct io_wq *wq, struct io_wq_work *work)
{
  spin_lock(&wq->lock);
  if (wq->exiting) {
    spin_unlock(&wq->lock);
    work->cancel(work);
    return;
  }
  work->next = NULL;
  if (wq->tail)
    wq->tail->next = work;
  else
    wq->head = work;
  wq->tail = work;
  struct task *idle = NULL;
  for (int i = 0; i < IO_WQ_MAX_WORKERS && !idle; i++)
    if ((wq->workers[i].flags & IO_WORKER_F_FREE) && wq->workers[i].task)
      idle = wq->workers[i].task;
  if (idle)
    wake_up_state(idle, 1 << TASK_INTERRUPTIBLE);
  else if (wq->manager)
    wake_up_state(wq->manager, 1 << TASK_INTERRUPTIBLE);
  spin_unlock(&wq->lock);
}

// Cancel owner's work: pending items are completed with -ECANCELED, and
// running ones are interrupted (they complete themselves).
void io_wq_cancel_owner(struct io_wq *wq, void *owner)
{
  struct io_wq_work *cancelled = NULL, **pp;
  spin_lock(&wq->lock);
  for (pp = &wq->head; *pp; ) {
    struct io_wq_work *w = *pp;
    if (w->owner != owner) {
      pp = &w->next;
      continue;
    }
    *pp = w->next;
    w->next = cancelled;
    cancelled = w;
  }
  wq->tail = NULL;
  for (struct io_wq_work *w = wq->head; w; w = w->next)
    wq->tail = w;
  for (int i = 0; i < IO_WQ_MAX_WORKERS; i++) {
    struct io_worker *worker = &wq->workers[i];
    // cur is touched only when it is owner's: owner's requests outlive
    // this call (the ring's release waits for them after it), another
    // ring's may be gone already.
    if (worker->task && worker->cur && worker->cur_owner == owner) {
      BUG_ON(page_is_free(worker->cur));   // owner's requests are live
      worker->cur->flags |= IO_WQ_WORK_CANCEL;
      set_notify_signal(worker->task);
    }
  }
  spin_unlock(&wq->lock);
  while (cancelled) {
    struct io_wq_work *w = cancelled;
    cancelled = w->next;
    w->cancel(w);
  }
}

// The process's last user thread is leaving (or exec'ing): stop the
// manager, which waits for every worker, cancel what is still queued, and
// drop the process's reference to the pool (rings that queued work here
// may hold more). Sleeps uninterruptibly (state D) until the workers are
// gone.
void io_wq_exit(struct signal_struct *sig)
{
  spin_lock(&current->sighand->siglock);
  struct io_wq *wq = sig->io_wq;
  sig->io_wq = NULL;   // from here io_wq_get() makes a new one
  spin_unlock(&current->sighand->siglock);
  if (!wq)
    return;
  spin_lock(&wq->lock);
  wq->exiting = true;
  if (wq->manager)
    wake_up_state(wq->manager, 1 << TASK_INTERRUPTIBLE);
  io_wq_wake_workers(wq);
  while (wq->manager_alive)
    sleep(wq, &wq->lock);
  struct io_wq_work *pending = wq->head;
  wq->head = wq->tail = NULL;
  spin_unlock(&wq->lock);
  while (pending) {
    struct io_wq_work *w = pending;
    pending = w->next;
    w->cancel(w);
  }
  io_wq_put(wq);
}

// Keep wq's memory: for a ring that queued work here and may cancel it
// later, from another process. Once the pool has exited, cancelling finds
// nothing and enqueueing cancels at once.
void io_wq_ref(struct io_wq *wq)
{
  __atomic_add_fetch(&wq->refs, 1, __ATOMIC_RELAXED);
}

void io_wq_put(struct io_wq *wq)
{
  int left = __atomic_sub_fetch(&wq->refs, 1, __ATOMIC_ACQ_REL);
  BUG_ON(left < 0);
  if (left == 0)
    free_page(wq);
}
