// uringtests: the teardown tests.

#include "uringtests.h"

// ------------------------------------------------------------ teardown

// Child body: a ring with 64 reads blocked on an empty pipe (so io-wq
// workers are busy and the rest of the work waits in the queue). Returns
// 0 when all 64 are in flight, else an exit code saying what went wrong.
static int
blocked_reads(struct io_uring *ring, int pfd[2])
{
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  static char rb[64][8];

  if (io_uring_queue_init(64, ring, 0) < 0)
    return 2;
  if (pipe(pfd) < 0)
    return 3;
  for (int i = 0; i < 64; i++) {
    sqe = io_uring_get_sqe(ring);
    if (!sqe)
      return 4;
    io_uring_prep_read(sqe, pfd[0], rb[i], 8, -1UL);
    sqe->user_data = i;
  }
  if (io_uring_submit(ring) != 64)
    return 5;
  sleep(HZ / 2);                // time for the workers to take some and block
  if (io_uring_peek_cqe(ring, &cqe) == 0)
    return 7;                   // something completed: not in flight
  return 0;
}

static const char *const blocked_why[] = {
  "ok", "?", "queue_init failed", "pipe failed", "no SQE", "submit != 64",
  "?", "a read completed with an empty pipe",
};

// Child: 64 reads in flight, then exit(0) or die by SIGKILL (how).
static void
inflight_child(int how)
{
  struct io_uring ring;
  int pfd[2], r = blocked_reads(&ring, pfd);

  if (r)
    exit(r);
  if (how)
    kill(getpid(), SIGKILL);
  exit(0);
}

// A process exits (or is killed) with 64 requests in flight: it ends
// promptly, every thread goes, and no page is lost.
static void
exit_inflight(int how)
{
  int pid, st = 0, r;
  long before;
  char path[32];
  struct stat sst;

  // The check below must be able to fail: /proc/OURPID is there.
  snprintf(path, sizeof path, "/proc/%d", testpid);
  if (!need("stat /proc/PID of a live process", stat(path, &sst)))
    return;
  sleep(2);
  before = freemem();
  pid = tfork();
  if (pid == 0)
    inflight_child(how);
  if (!need("fork", pid))
    return;
  r = wait_ticks(pid, &st, 0, 10 * HZ);
  if (r == 0) {
    expect_true("ends", 0, "still running 10 s later (stuck in exit?); killing it");
    kill(pid, SIGKILL);
    wait_ticks(pid, &st, 0, 5 * HZ);
    return;
  }
  if (how) {
    snprintf(d, sizeof d, "child %s (%s), want killed by signal 9", wstatus(st),
             WIFEXITED(st) && WEXITSTATUS(st) < 8 ? blocked_why[WEXITSTATUS(st)] : "");
    expect_true("ends", WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, d);
  } else {
    snprintf(d, sizeof d, "child %s (%s), want exited 0", wstatus(st),
             WIFEXITED(st) && WEXITSTATUS(st) < 8 ? blocked_why[WEXITSTATUS(st)] : "");
    expect_true("ends", WIFEXITED(st) && WEXITSTATUS(st) == 0, d);
  }
  snprintf(path, sizeof path, "/proc/%d", pid);
  r = stat(path, &sst);
  snprintf(d, sizeof d, "%s still exists after the process was reaped", path);
  expect_true("threads_gone", r < 0, d);
  expect_no_leak("no_leak", before);
}

void t_exitleak(void) { exit_inflight(0); }
void t_killleak(void) { exit_inflight(1); }

// Wait up to ticks for child pid to exit; its wait status, or -1 if it
// is still there.
static int
wait_child_ticks(int pid, int ticks)
{
  int t0 = uptime(), st;

  do {
    if (waitpid(pid, &st, WNOHANG) == pid)
      return st;
    sleep(2);
  } while (uptime() - t0 < ticks);
  return -1;
}

// A ring shared with a child, which closes it last while the read in
// flight waits in the parent's io-wq: the close must cancel it there, in
// another process's pool, rather than wait for it forever (in D). Then a
// ring that outlives the process whose pool ran its work: closing it
// later must find that pool's memory still there, and free it.
void
t_forkclose(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  char rb[8], c;
  int pfd[2], rep[2], pid, st;
  long before;

  if (!ring_init(&ring, 4, 0) || !need("pipe", pipe(pfd)))
    return;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, pfd[0], rb, sizeof rb, -1UL);
  expect("submit", io_uring_submit(&ring), 1);
  sleep(HZ / 2);                // a worker takes the read and blocks
  pid = fork();
  if (pid == 0) {
    sleep(HZ / 4);              // the parent closes first
    io_uring_queue_exit(&ring);
    exit(0);
  }
  io_uring_queue_exit(&ring);
  st = wait_child_ticks(pid, 3 * HZ);
  snprintf(d, sizeof d, "the child closing the ring last %s",
           st < 0 ? "still waits after 3 s" : "exited badly");
  expect_true("child_close_cancels", st == 0, d);
  if (st < 0) {                 // let it go: complete the read
    write(pfd[1], "x", 1);
    waitpid(pid, &st, 0);
  }
  write(pfd[1], "abc", 3);
  close(pfd[1]);
  st = read(pfd[0], buf, sizeof buf);
  snprintf(d, sizeof d, "read %s bytes back, want 3: the read was not cancelled", val(st));
  expect_true("read_cancelled", st == 3, d);
  close(pfd[0]);

  // The submitting process exits first; its child closes the ring later.
  if (!need("pipe", pipe(rep)))
    return;
  sleep(2);
  before = freemem();
  pid = fork();
  if (pid == 0) {
    if (io_uring_queue_init(4, &ring, 0) < 0 || pipe(pfd) < 0)
      exit(1);
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, pfd[0], rb, sizeof rb, -1UL);
    if (io_uring_submit(&ring) != 1)
      exit(1);
    sleep(HZ / 2);
    if (fork() == 0) {
      sleep(HZ / 2);            // long after its parent has gone
      io_uring_queue_exit(&ring);
      write(rep[1], "k", 1);
      exit(0);
    }
    exit(0);
  }
  close(rep[1]);
  waitpid(pid, &st, 0);
  expect("first_child", st, 0);
  st = read(rep[0], &c, 1);     // a hang here is the runner's FAIL
  snprintf(d, sizeof d, "read %s from the grandchild", val(st));
  expect_true("late_close", st == 1 && c == 'k', d);
  expect_no_leak("no_leak", before);   // the pipe still open, as counted
  close(rep[0]);
}

// Closing the ring fd with reads in flight cancels them: close returns
// promptly, the reads take no data written afterwards, nothing leaks.
void
t_closecancel(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  char rb[4][8];
  int pfd[2], t0, r, tick;
  long before;

  // The pool and the pipe first, so that they are not counted.
  if (!warm_up_pool() || !need("pipe", pipe(pfd)))
    return;
  sleep(2);
  before = freemem();

  if (!ring_init(&ring, 4, 0))
    return;
  for (int i = 0; i < 4; i++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, pfd[0], rb[i], 8, -1UL);
    sqe->user_data = i;
  }
  expect("submit", io_uring_submit(&ring), 4);
  sleep(HZ / 2);                // time for workers to take the reads and block
  expect("in_flight", io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
  t0 = uptime();
  r = close(ring.ring_fd);
  tick = uptime() - t0;
  expect("close", r, 0);
  snprintf(d, sizeof d, "close took %d ticks", tick);
  expect_true("close_prompt", tick < 2 * HZ, d);
  // Were the reads really cancelled? Then the pipe keeps what we write.
  write(pfd[1], "abc", 3);
  close(pfd[1]);
  r = read(pfd[0], buf, sizeof buf);
  snprintf(d, sizeof d, "read %s bytes back, want 3: a read still in flight took them", val(r));
  expect_true("reads_cancelled", r == 3, d);
  // The pipe was made before the count: measure while it still exists.
  expect_no_leak("no_leak", before);
  close(pfd[0]);
}

// 100 setups and teardowns (each with a NOP, half of them through io-wq),
// then 10 with SQPOLL, lose no page.
void
t_cycles(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  long before;
  int bad = 0;

  for (int pass = 0; pass < 2; pass++) {
    int n = pass ? 100 : 2;     // pass 0 warms up: the io-wq pool, page tables
    if (pass) {
      sleep(2);
      before = freemem();
    }
    for (int i = 0; i < n && !bad; i++) {
      if (io_uring_queue_init(16, &ring, 0) < 0) {
        bad = 1;
        break;
      }
      sqe = io_uring_get_sqe(&ring);
      io_uring_prep_nop(sqe);
      if (i & 1)
        io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
      io_uring_submit(&ring);
      if (wait_cqe_ticks(&ring, &cqe, 2 * HZ) < 0)
        bad = 2;
      io_uring_queue_exit(&ring);
    }
    if (pass)
      break;
  }
  expect_true("setup_100", !bad, bad == 1 ? "io_uring_queue_init failed" : "a NOP did not complete");
  expect_no_leak("no_leak_100", before);

  before = freemem();
  for (int i = 0; i < 10 && !bad; i++) {
    if (io_uring_queue_init(8, &ring, IORING_SETUP_SQPOLL) < 0) {
      bad = 1;
      break;
    }
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    io_uring_submit(&ring);
    if (wait_cqe_ticks(&ring, &cqe, 2 * HZ) < 0)
      bad = 2;
    io_uring_queue_exit(&ring);
  }
  expect_true("sqpoll_10", !bad, bad == 1 ? "io_uring_queue_init failed" : "a NOP did not complete");
  expect_no_leak("no_leak_sqpoll_10", before);
}

// ------------------------------------------------------------ exec

// One IOSQE_ASYNC NOP on a new ring: its result (0: it ran), or the
// failing call's -errno. `uringtests --async-nop` exits with it negated,
// for execpool.
int
async_nop(void)
{
  struct io_uring ring;
  struct io_uring_cqe *cqe;
  struct io_uring_sqe *sqe;
  int r;

  if ((r = io_uring_queue_init(4, &ring, 0)) < 0)
    return r;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_nop(sqe);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if ((r = io_uring_submit(&ring)) == 1 && (r = io_uring_wait_cqe(&ring, &cqe)) == 0)
    r = cqe->res;
  io_uring_queue_exit(&ring);
  return r;
}

static volatile int ep_punts;

// A thread punting NOPs to io-wq as fast as it can, until it is killed.
static void
ep_punter(void *arg)
{
  (void)arg;
  for (;;)
    if (async_nop() == 0)
      __atomic_add_fetch(&ep_punts, 1, __ATOMIC_SEQ_CST);
}

// execpool: exec while another thread of the process punts requests to
// io-wq: the new program's punts run. (exec cancelled the pool before it
// killed the other threads; a punt in between made a new pool, which then
// died with them and stayed behind: every punt of the new program failed
// with ECANCELED.)
void
t_execpool(void)
{
  char *argv[] = { "uringtests", "--async-nop", 0 };
  int bad = 0, st = 0, round, pid;

  for (round = 0; round < 20 && !bad; round++) {
    pid = fork();
    if (pid == 0) {
      if (thread_create(ep_punter, 0) < 0)
        exit(200);
      while (__atomic_load_n(&ep_punts, __ATOMIC_SEQ_CST) < 3)
        sleep(1);
      exec("/uringtests", argv);
      exit(201);
    }
    if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
      bad = 1;
  }
  snprintf(d, sizeof d, "round %d: the new program's IOSQE_ASYNC NOP %s", round,
           !WIFEXITED(st) ? "did not finish" : WEXITSTATUS(st) == 200 ? "(thread_create failed)" :
           WEXITSTATUS(st) == 201 ? "(exec failed)" : "failed");
  if (bad && WIFEXITED(st) && WEXITSTATUS(st) < 200)
    snprintf(d + strlen(d), sizeof d - strlen(d), " with errno %d", WEXITSTATUS(st));
  expect_true("new_image_punts", !bad, d);
}

// One IOSQE_ASYNC NOP on ring, waited for (3 s). Returns whether it completed.
static int
ring_async_nop(struct io_uring *ring)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
  struct io_uring_cqe *cqe;

  io_uring_prep_nop(sqe);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if (io_uring_submit(ring) != 1 || wait_cqe_ticks(ring, &cqe, 3 * HZ) != 0)
    return 0;
  io_uring_cqe_seen(ring, cqe);
  return 1;
}

// cancelcur: two rings share the process's io-wq pool. A NOP of ring A
// completes on a worker and A is closed at once, then B. B's close
// cancels in the pool and looks at every worker's current work, which
// may still be A's finished request, freed with A's pages: the kernel
// must not read it (io_wq_cancel_owner() compares the owner the worker
// copied; a kernel that read worker->cur->owner hits the BUG_ON of
// page_is_free() there, or reads poison). 20 rounds, no page lost.
void
t_cancelcur(void)
{
  struct io_uring a, b;
  int round, bad = 0;
  long before;

  if (!warm_up_pool())
    return;
  before = freemem();
  for (round = 0; round < 20 && !bad; round++) {
    if (!ring_init(&a, 4, 0))
      return;
    if (!ring_init(&b, 4, 0)) {
      io_uring_queue_exit(&a);
      return;
    }
    // B first, so that its close has the pool to cancel in.
    if (!ring_async_nop(&b) || !ring_async_nop(&a)) {
      snprintf(d, sizeof d, "round %d: an IOSQE_ASYNC NOP did not complete in 3 s", round);
      bad = 1;
    }
    io_uring_queue_exit(&a);
    io_uring_queue_exit(&b);
  }
  expect_true("rounds_20", !bad, d);
  expect_no_leak("no_leak", before);
}
