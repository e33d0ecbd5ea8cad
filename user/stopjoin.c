// stopjoin: an I/O thread born while a group stop is under way must be
// left out of it, where a new thread joins a stop (task_join_group_stop()
// from copy_process()), not only where the stop starts (do_signal_stop()).
// The posted "signal: don't allow STOP on PF_IO_WORKER threads" skipped
// I/O threads in do_signal_stop() only, which "misses the joining of
// group stop during fork" (Eric Biederman,
// <m135wo5yd3.fsf@fess.ebiederm.org>). Run it under waitstop, its parent,
// which says whether the stop is reported.
//
// A stop is under way while a thread of the group has not stopped yet;
// one inside the kernel stops only when it returns. The knob
// /proc/sys/kernel/io_thread_race_ticks holds each create_io_thread() in
// a window, uninterruptibly, once the new thread exists; windows open one
// at a time, and a write of the knob closes the open one. So every step
// below waits for an event, never for a time:
//   1. knob at 0: an IOSQE_ASYNC nop makes iou-mgr and its fixed worker;
//   2. knob at its most: three reads from empty pipes go to io-wq. The
//      fixed worker takes one; iou-mgr makes worker A for the next, and
//      waits in window 1 (A still bears iou-mgr's name);
//   3. a second thread of ours sets up an SQPOLL ring: its iou-sqp is
//      made, and the thread waits in the kernel (D) for window 2;
//   4. this thread sends its process SIGSTOP and stops: the stop is under
//      way, and waits for the second thread;
//   5. a watcher (a child process: a stopped process cannot look) sees
//      that, and writes the knob: window 1 closes, A takes the second
//      read, and iou-mgr makes worker B for the third: B is born during
//      the stop;
//   6. the watcher sees B and says so, and writes 0: the second thread
//      leaves the kernel and stops, the last of the group to do so.
// A kernel that counts B in the stop never completes it (B cannot stop,
// and spins); a right one completes it at step 6. The watcher prints,
// during the stop:
//
//   stopjoin: thread 9 was born during the stop, while thread 6 was still in create_io_thread() (D): yes
//
// After SIGCONT, the reads are let finish and stopjoin exits: 0 if the
// watcher saw it happen, 1 if it did not (then the run shows nothing),
// 2 on an error.

#include "user.h"
#include "liburing.h"
#include "proc.h"

#define MAXTIDS 64
#define HOLD (60 * HZ)          // a window's length: the knob's most, closed by events
#define WAIT (30 * HZ)          // longest look for an event, in ticks

static int go[2];               // a byte here starts the second thread
static struct io_uring sqring;

// Print "stopjoin: WHAT: error" and exit 2.
static void
die(const char *what, int err)
{
  fprintf(STDERR, "stopjoin: %s: %s\n", what, strerror(err));
  exit(2);
}

// The second thread: once told, set up an SQPOLL ring (its iou-sqp is
// made in window 2), then take it down again.
static void
second(void *arg)
{
  char c;
  int r;

  (void)arg;
  if (read(go[0], &c, 1) != 1)
    return;
  if ((r = io_uring_queue_init(4, &sqring, IORING_SETUP_SQPOLL)) < 0)
    die("io_uring_queue_init(SQPOLL)", r);
  io_uring_queue_exit(&sqring);
}

// How many threads of this process have a name starting with prefix.
static int
count_named(int me, const char *prefix)
{
  int tids[MAXTIDS], n = task_ids(me, tids, MAXTIDS), k = 0;
  struct procstat ps;

  for (int i = 0; i < n; i++)
    if (task_stat(me, tids[i], &ps) == 0 && strncmp(ps.comm, prefix, strlen(prefix)) == 0)
      k++;
  return k;
}

// Wait (up to WAIT) until count_named(me, prefix) >= n: 0, or -EAGAIN.
static int
await_named(int me, const char *prefix, int n)
{
  for (int t = 0; t < WAIT; t++) {
    if (count_named(me, prefix) >= n)
      return 0;
    sleep(1);
  }
  return -EAGAIN;
}

// The watcher, in a child process. Once the stop of pid is under way (its
// main thread in T, thread holder in D), close window 1 and wait for a
// thread that was not there to appear; say whether holder was still in D
// then, and let holder go (knob 0). Exit status 0 yes, 1 no, 3 if the
// stop or the new thread never came.
static void
watch(int pid, int holder)
{
  int old[MAXTIDS], nold, tids[MAXTIDS], n, t;
  char st;

  for (t = 0; t < WAIT && !(task_state(pid, pid) == 'T' && task_state(pid, holder) == 'D'); t++)
    sleep(1);
  if (t == WAIT) {
    printf("stopjoin: the stop never got under way with thread %d in the kernel\n", holder);
    set_io_thread_race_ticks(0);
    exit(3);
  }
  nold = task_ids(pid, old, MAXTIDS);
  set_io_thread_race_ticks(HOLD);
  for (t = 0; t < WAIT; t++) {
    st = task_state(pid, holder);
    n = task_ids(pid, tids, MAXTIDS);
    for (int i = 0; i < n; i++) {
      int seen = 0;
      for (int j = 0; j < nold; j++)
        seen |= tids[i] == old[j];
      if (seen)
        continue;
      printf("stopjoin: thread %d was born during the stop, while thread %d was still in"
             " create_io_thread() (D): %s\n", tids[i], holder, st == 'D' ? "yes" : "no");
      set_io_thread_race_ticks(0);
      exit(st == 'D' ? 0 : 1);
    }
    sleep(1);
  }
  printf("stopjoin: no thread was born during the stop\n");
  set_io_thread_race_ticks(0);
  exit(3);
}

// Queue an IOSQE_ASYNC read of fd into buf (len bytes) on ring.
static void
queue_read(struct io_uring *ring, int fd, char *buf, int len)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe(ring);

  io_uring_prep_read(sqe, fd, buf, len, -1UL);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
}

int
main(void)
{
  int me = getpid(), p[3][2], holder, cpid, st, r;
  char b[3][8], mgr[24];
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;

  if ((r = pipe(go)) < 0)
    die("pipe", r);
  for (int i = 0; i < 3; i++)
    if ((r = pipe(p[i])) < 0)
      die("pipe", r);
  if ((r = io_uring_queue_init(8, &ring, 0)) < 0)
    die("io_uring_queue_init", r);
  if ((holder = thread_create(second, NULL)) < 0)
    die("thread_create", holder);
  snprintf(mgr, sizeof mgr, "iou-mgr-%d", me);

  // 1. iou-mgr and its fixed worker, in no window.
  if ((r = set_io_thread_race_ticks(0)) < 0)
    die("/proc/sys/kernel/io_thread_race_ticks", r);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_nop(sqe);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if ((r = io_uring_submit(&ring)) != 1)
    die("io_uring_submit", r < 0 ? r : -EIO);
  if ((r = io_uring_wait_cqe(&ring, &cqe)) < 0)
    die("io_uring_wait_cqe", r);
  io_uring_cqe_seen(&ring, cqe);

  // 2. Three reads; iou-mgr makes worker A in window 1, where A still
  // bears iou-mgr's name.
  set_io_thread_race_ticks(HOLD);
  for (int i = 0; i < 3; i++)
    queue_read(&ring, p[i][0], b[i], sizeof b[i]);
  if ((r = io_uring_submit(&ring)) != 3)
    die("io_uring_submit", r < 0 ? r : -EIO);
  if ((r = await_named(me, mgr, 2)) < 0)
    die("waiting for worker A", r);

  // 3. The second thread's iou-sqp, which bears our name while the
  // thread waits for window 2 ("stopjoin": three of those, with us two).
  write(go[1], "g", 1);
  if ((r = await_named(me, "stopjoin", 3)) < 0)
    die("waiting for iou-sqp", r);

  // 4. The watcher, then the stop.
  if ((cpid = fork()) < 0)
    die("fork", cpid);
  if (cpid == 0)
    watch(me, holder);
  kill(me, SIGSTOP);

  // After SIGCONT: let the reads finish, take the second thread down.
  set_io_thread_race_ticks(0);
  for (int i = 0; i < 3; i++)
    write(p[i][1], "x", 1);
  for (int i = 0; i < 3; i++) {
    if ((r = io_uring_wait_cqe(&ring, &cqe)) < 0)
      die("io_uring_wait_cqe", r);
    io_uring_cqe_seen(&ring, cqe);
  }
  thread_join(holder);
  io_uring_queue_exit(&ring);
  waitpid(cpid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
