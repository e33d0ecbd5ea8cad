// racetest [TICKS]: send a signal into create_io_thread()'s race window
// on purpose, and report what became of it, on one line.
//
// In Linux 5.12-rc3 (and in the baseline kernel) create_io_thread() makes
// the new I/O thread, which is then already a thread of the process, and
// only afterwards blocks its signals. A signal that picks the thread in
// between sets TIF_SIGPENDING on it; blocking the signals later does not
// clear the flag, so the thread's interruptible sleeps end at once,
// forever: it spins. The knob /proc/sys/kernel/io_thread_race_ticks makes
// create_io_thread() wait TICKS ticks (1/100 s) inside that window, so a
// second process has time to aim at it.
//
// What racetest does:
//   1. writes TICKS (default 50) to the knob;
//   2. forks a child that watches /proc/PARENT/task for a thread other
//      than the parent's main thread, and sends SIGUSR1 to it with
//      kill(tid, SIGUSR1) as soon as it shows. kill() with a thread's id
//      is a process-directed signal: it is queued for the whole process,
//      and the kernel offers it first to that thread. The new thread
//      still has its creator's name there only until the window ends, so
//      the child also tells whether it hit the window;
//   3. submits a read from an empty pipe with IOSQE_ASYNC: the submit
//      creates the io-wq pool, so the main thread itself runs
//      create_io_thread() for iou-mgr-PID, and waits in the window;
//   4. blocks SIGUSR1 in the main thread, writes 0 back to the knob, and
//      measures for one second the CPU time of every I/O thread (utime +
//      stime from /proc/self/task/TID/stat);
//   5. unblocks SIGUSR1: if the signal is still pending for the process,
//      the main thread's handler runs now;
//   6. writes to the pipe so the read completes, and prints
//
//   racetest: signal into the window: yes (tid 6, 50 ticks); I/O thread spinning: yes (6 iou-mgr-5 at 99% CPU); SIGUSR1 delivered to the main thread: yes (tid 5)
//
// "I/O thread spinning: no (busiest: ...)" when none uses more than half
// a CPU. Exit status: 0 if the signal hit the window, no I/O thread spins
// and the main thread got the signal; 1 if one of those did not happen
// as it should; 2 on an error.

#include "user.h"
#include "liburing.h"
#include "proc.h"

#define KNOB "/proc/sys/kernel/io_thread_race_ticks"
#define MAXTIDS 64
#define MEASURE HZ              // ticks over which CPU use is measured
#define SPIN_PCT 50             // more than this % of a CPU is spinning

static volatile int got_tid;    // the thread that ran the SIGUSR1 handler

static void
on_usr1(int sig)
{
  (void)sig;
  got_tid = gettid();
}

// Print "racetest: WHAT: error" and exit 2.
static void
die(const char *what, int err)
{
  fprintf(STDERR, "racetest: %s: %s\n", what, strerror(err));
  exit(2);
}

// Thread tid of process pid: its name into name (size bytes) and its
// utime + stime in ticks, from /proc/PID/task/TID/stat. The ticks, or -1
// if the thread is gone.
static long
thread_stat(int pid, int tid, char *name, int size)
{
  struct procstat ps;

  if (task_stat(pid, tid, &ps) < 0)
    return -1;
  snprintf(name, size, "%s", ps.comm);
  return ps.ticks;
}

// The child: wait (up to 5 s) for a second thread in process parent, send
// it SIGUSR1, and tell through the exit status whether it still had its
// creator's name (the window was still open): 0 yes, 1 no, 3 no thread.
// The tid goes to the pipe fd.
static void
child(int parent, const char *pname, int fd)
{
  int tids[MAXTIDS], n, tid = 0;
  char name[32];

  for (int t = 0; t < 5 * HZ && !tid; t++) {
    n = task_ids(parent, tids, MAXTIDS);
    for (int i = 0; i < n; i++)
      if (tids[i] != parent)
        tid = tids[i];
    if (!tid)
      sleep(1);
  }
  if (!tid)
    exit(3);
  kill(tid, SIGUSR1);
  write(fd, &tid, sizeof tid);
  if (thread_stat(parent, tid, name, sizeof name) < 0)
    exit(1);
  exit(strcmp(name, pname) == 0 ? 0 : 1);
}

int
main(int argc, char *argv[])
{
  int ticks = 50, pfd[2], cfd[2], me = getpid(), cpid, st, tid = 0, hit;
  int tids[MAXTIDS], n, busiest = 0, busy_pct = -1, spinning, delivered;
  long before[MAXTIDS], t;
  char name[32], busy_name[32] = "", rbuf[16];
  struct sigaction sa = { on_usr1, 0, 0 };
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  sigset_t usr1;
  int r, t0;

  if (argc > 2 || (argc == 2 && (argv[1][0] < '0' || argv[1][0] > '9'))) {
    fprintf(STDERR, "usage: racetest [TICKS]\n");
    exit(2);
  }
  if (argc == 2)
    ticks = atoi(argv[1]);
  if (thread_stat(me, me, name, sizeof name) < 0)
    die("/proc/self", -ENOENT);
  if ((r = set_io_thread_race_ticks(ticks)) < 0)
    die(KNOB, r);
  sigaction(SIGUSR1, &sa, NULL);
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  if ((r = pipe(pfd)) < 0 || (r = pipe(cfd)) < 0)
    die("pipe", r);
  if ((r = io_uring_queue_init(8, &ring, 0)) < 0)
    die("io_uring_queue_init", r);

  cpid = fork();
  if (cpid < 0)
    die("fork", cpid);
  if (cpid == 0)
    child(me, name, cfd[1]);
  sleep(5);                     // let the child start watching

  // The first request that goes to io-wq creates the pool: this thread
  // runs create_io_thread() for the manager and waits in the window.
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, pfd[0], rbuf, sizeof rbuf, -1UL);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if ((r = io_uring_submit(&ring)) != 1)
    die("io_uring_submit", r < 0 ? r : -EIO);

  sigprocmask(SIG_BLOCK, &usr1, NULL);
  set_io_thread_race_ticks(0);
  waitpid(cpid, &st, 0);
  hit = WIFEXITED(st) && WEXITSTATUS(st) == 0;
  if (read(cfd[0], &tid, sizeof tid) != sizeof tid)
    tid = 0;

  // CPU use of every I/O thread (every thread but this one) over MEASURE.
  sleep(HZ / 5);
  n = task_ids(me, tids, MAXTIDS);
  for (int i = 0; i < n; i++)
    before[i] = thread_stat(me, tids[i], name, sizeof name);
  t0 = uptime();
  sleep(MEASURE);
  t0 = uptime() - t0;
  for (int i = 0; i < n; i++) {
    if (tids[i] == me || before[i] < 0 || (t = thread_stat(me, tids[i], name, sizeof name)) < 0)
      continue;
    if ((int)((t - before[i]) * 100 / t0) > busy_pct) {
      busy_pct = (t - before[i]) * 100 / t0;
      busiest = tids[i];
      strcpy(busy_name, name);
    }
  }
  spinning = busy_pct > SPIN_PCT;

  sigprocmask(SIG_UNBLOCK, &usr1, NULL);
  sleep(1);
  delivered = got_tid == me;

  // Let the read finish, then take its completion.
  write(pfd[1], "done", 4);
  if ((r = io_uring_wait_cqe(&ring, &cqe)) == 0)
    io_uring_cqe_seen(&ring, cqe);
  io_uring_queue_exit(&ring);

  printf("racetest: signal into the window: %s", hit ? "yes" : "no");
  if (tid)
    printf(" (tid %d, %d ticks)", tid, ticks);
  else
    printf(" (no new thread seen)");
  if (busiest)
    printf("; I/O thread spinning: %s (%s%d %s at %d%% CPU)", spinning ? "yes" : "no",
           spinning ? "" : "busiest: ", busiest, busy_name, busy_pct);
  else
    printf("; I/O thread spinning: no (no I/O thread)");
  printf("; SIGUSR1 delivered to the main thread: %s", delivered ? "yes" : "no");
  if (got_tid)
    printf(" (tid %d)", got_tid);
  printf("\n");
  return hit && !spinning && delivered ? 0 : 1;
}
