// sigdeliver [ROUNDS]: does a signal sent to a process that uses io_uring
// reach the process's handler, every time? One line of result.
//
// The process has I/O threads (io-wq's manager, and a worker blocked in a
// read from an empty pipe). Each round, the main thread blocks SIGUSR1,
// sends SIGUSR1 to its own process with kill(), waits a tick, and
// unblocks it: the signal, queued for the process, must then run the
// handler in the main thread. A kernel that lets an I/O thread take the
// signal (one that blocks nothing) loses it: an I/O thread cannot run a
// user handler. At the end the I/O threads must all still be there.
//
//   sigdeliver: 100 rounds, handler ran 100 times, all in the main thread (5); I/O threads 2 before, 2 after
//
// Exit status 0 if every round ran the handler once, in the main thread,
// and no I/O thread was lost; 1 if not; 2 on an error.

#include "user.h"
#include "liburing.h"
#include "proc.h"

#define MAXTIDS 64

static volatile int runs, elsewhere;

static void
on_usr1(int sig)
{
  (void)sig;
  runs++;
  if (gettid() != getpid())
    elsewhere++;
}

// How many threads of this process are I/O threads (named iou-...).
static int
io_threads(void)
{
  int tids[MAXTIDS], n = task_ids(getpid(), tids, MAXTIDS), io = 0;
  struct procstat ps;

  for (int i = 0; i < n; i++)
    if (task_stat(getpid(), tids[i], &ps) == 0 && strncmp(ps.comm, "iou-", 4) == 0)
      io++;
  return io;
}

int
main(int argc, char *argv[])
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct sigaction sa = { 0 };
  sigset_t usr1;
  int rounds = argc > 1 ? atoi(argv[1]) : 100, p[2], before, after, r;
  char c;

  sa.sa_handler = on_usr1;
  if (sigaction(SIGUSR1, &sa, 0) < 0 || pipe(p) < 0 ||
      (r = io_uring_queue_init(4, &ring, 0)) < 0) {
    fprintf(STDERR, "sigdeliver: setup failed\n");
    return 2;
  }
  // A read that waits in an io-wq worker: the pool and its threads stay.
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, p[0], &c, 1, 0);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if (io_uring_submit(&ring) != 1) {
    fprintf(STDERR, "sigdeliver: submit failed\n");
    return 2;
  }
  for (int i = 0; i < 10 * HZ && (before = io_threads()) < 2; i++)
    sleep(1);
  sigemptyset(&usr1);
  sigaddset(&usr1, SIGUSR1);
  for (int i = 0; i < rounds; i++) {
    sigprocmask(SIG_BLOCK, &usr1, 0);
    kill(getpid(), SIGUSR1);
    sleep(1);                   // time for another thread to take it
    sigprocmask(SIG_UNBLOCK, &usr1, 0);
  }
  after = io_threads();
  printf("sigdeliver: %d rounds, handler ran %d times, %s (%d); I/O threads %d before, %d after\n",
         rounds, runs, elsewhere ? "not all in the main thread" : "all in the main thread",
         getpid(), before, after);
  write(p[1], "x", 1);          // let the read finish, then leave
  io_uring_queue_exit(&ring);
  return runs == rounds && !elsewhere && before >= 2 && after == before ? 0 : 1;
}
