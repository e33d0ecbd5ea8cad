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
// /proc/sys/kernel/io_thread_race_ticks makes every create_io_thread()
// wait that long, uninterruptibly, once the new thread exists. So:
//   1. knob at 1 s: two reads from empty pipes go to io-wq. This thread
//      makes iou-mgr, and iou-mgr makes the fixed worker, each in a 1 s
//      window; the worker will take one read, and iou-mgr must make a
//      second worker for the other about a second later;
//   2. while the fixed worker is in its window: knob at 6 s, and a second
//      thread of ours sets up an SQPOLL ring. It makes iou-sqp and waits
//      6 s in the kernel, where a stop cannot take it;
//   3. this thread sends its process SIGSTOP and stops; the stop waits
//      for the second thread;
//   4. meanwhile iou-mgr makes the second worker: born during the stop.
// A kernel that counts that worker in the stop never completes it (the
// worker cannot stop, and spins); a right one completes it once the
// second thread leaves its window.
//
// A watcher (a child process; a stopped process cannot look) checks that
// step 4 happened as planned: a new thread appeared while the second
// thread was still in the kernel (state D). It prints, during the stop:
//
//   stopjoin: thread 9 was born during the stop, while thread 6 was still in create_io_thread() (D): yes
//
// After SIGCONT, the reads are let finish and stopjoin exits: 0 if the
// watcher saw it happen, 1 if the timing went otherwise (then the run
// shows nothing), 2 on an error.

#include "user.h"
#include "liburing.h"
#include "proc.h"

#define MAXTIDS 64
#define SHORT (HZ)              // window while iou-mgr and the fixed worker are made
#define LONG (6 * HZ)           // the second thread's window, holding the stop open
#define WAIT (30 * HZ)          // longest look for a thread to appear

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
// made in a LONG window), then take it down again.
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

// The watcher, in a child process: note the threads of pid now, then wait
// for a new one and say whether thread holder was still in D when it came.
// Exit status 0 yes, 1 no, 3 no new thread.
static void
watch(int pid, int holder)
{
  int old[MAXTIDS], nold = task_ids(pid, old, MAXTIDS), tids[MAXTIDS], n;
  char st;

  for (int t = 0; t < WAIT; t++) {
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
      exit(st == 'D' ? 0 : 1);
    }
    sleep(1);
  }
  printf("stopjoin: no thread was born during the stop\n");
  exit(3);
}

int
main(void)
{
  int me = getpid(), p1[2], p2[2], holder, cpid, st, r;
  char b1[8], b2[8], mgr[24];
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;

  if ((r = pipe(go)) < 0 || (r = pipe(p1)) < 0 || (r = pipe(p2)) < 0)
    die("pipe", r);
  if ((r = io_uring_queue_init(8, &ring, 0)) < 0)
    die("io_uring_queue_init", r);
  if ((holder = thread_create(second, NULL)) < 0)
    die("thread_create", holder);
  snprintf(mgr, sizeof mgr, "iou-mgr-%d", me);

  // 1. Two reads for io-wq; we make iou-mgr in a SHORT window.
  if ((r = set_io_thread_race_ticks(SHORT)) < 0)
    die("/proc/sys/kernel/io_thread_race_ticks", r);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, p1[0], b1, sizeof b1, -1UL);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, p2[0], b2, sizeof b2, -1UL);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if ((r = io_uring_submit(&ring)) != 2)
    die("io_uring_submit", r < 0 ? r : -EIO);

  // 2. The fixed worker is in its window while it still bears iou-mgr's
  // name; then the second thread makes iou-sqp, in a LONG window, where
  // it still bears our name ("stopjoin": three of those, with us two).
  if ((r = await_named(me, mgr, 2)) < 0)
    die("waiting for the fixed worker", r);
  set_io_thread_race_ticks(LONG);
  write(go[1], "g", 1);
  if ((r = await_named(me, "stopjoin", 3)) < 0)
    die("waiting for iou-sqp", r);

  // 3. The watcher, then the stop.
  if ((cpid = fork()) < 0)
    die("fork", cpid);
  if (cpid == 0)
    watch(me, holder);
  kill(me, SIGSTOP);

  // 4. After SIGCONT: let the reads finish, take the second thread down.
  set_io_thread_race_ticks(0);
  write(p1[1], "1", 1);
  write(p2[1], "2", 1);
  for (int i = 0; i < 2; i++) {
    if ((r = io_uring_wait_cqe(&ring, &cqe)) < 0)
      die("io_uring_wait_cqe", r);
    io_uring_cqe_seen(&ring, cqe);
  }
  thread_join(holder);
  io_uring_queue_exit(&ring);
  waitpid(cpid, &st, 0);
  return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}
