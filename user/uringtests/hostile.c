// uringtests: rings used by a hostile or careless program. User space can
// write every byte of its ring pages, keep touching them while another
// thread closes the ring, and ask for an SQPOLL idle window of hours;
// none of it may hurt the kernel or keep a SIGKILL out.

#include "uringtests.h"

#define PATTERN 0x5ca1ab1eU     // what closespin's writer stores

// Submit the one prepared SQE at *ring's next slot with io_uring_enter()
// alone, so that liburing's view of the indices plays no part.
static int
enter1(struct io_uring *ring)
{
  return io_uring_enter(ring->ring_fd, 1, 0, 0);
}

// Wait up to ticks for the kernel's CQ tail to reach want.
static int
await_cq_tail(struct io_uring *ring, unsigned want, int ticks)
{
  int t0 = uptime();

  while (*(volatile unsigned *)ring->cq.ktail != want) {
    if (uptime() - t0 >= ticks)
      return 0;
    sleep(1);
  }
  return 1;
}

// tamper: all-ones masks and wild heads and tails written over the ring
// header. The kernel keeps its own masks and the indices it owns (the SQ
// head, the CQ tail): it writes CQEs and reads SQ entries inside the ring
// whatever the header says, writes its own head and tail back, consumes
// no more entries than the ring holds, and stays up; a new ring works
// after, and no page is lost. (User space's own indices, the SQ tail and
// the CQ head, it must believe: wild ones only make the CQ look full.)
void
t_tamper(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  char rb[4];
  int pfd[2], r;
  long before;

  if (!warm_up_pool())
    return;
  sleep(2);
  before = freemem();
  if (!ring_init(&ring, 8, 0))
    return;

  // The CQ: its mask and tail point about 256 KiB past the ring, and its
  // head with them, so that the ring does not look full by them. The
  // kernel goes by its own tail: to it the CQ is now full.
  memset(&ring.sq.sqes[0], 0, sizeof ring.sq.sqes[0]);
  ring.sq.sqes[0].opcode = IORING_OP_NOP;
  ring.sq.sqes[0].user_data = 0x7a;
  ring.sq.array[0] = 0;
  *ring.sq.ktail = 1;
  *ring.cq.kring_mask = ~0U;
  *ring.cq.ktail = 0x00800000;
  *ring.cq.khead = 0x00800000;
  r = enter1(&ring);
  expect("cq_scribbled_busy", r, -EBUSY);
  if (r != -EBUSY) {
    io_uring_queue_exit(&ring);
    return;
  }
  // The head back to the truth, mask and tail still wild: the CQE lands
  // in the ring, and the tail reads the kernel's count again.
  *ring.cq.khead = 0;
  r = enter1(&ring);
  expect("cq_scribbled_submit", r, 1);
  snprintf(d, sizeof d, "CQ tail %u after one completion, want 1 (the kernel's own count)",
           *ring.cq.ktail);
  expect_true("cq_tail_kernels", *ring.cq.ktail == 1, d);
  expect_ud("cqe_in_ring", ring.cq.cqes[0].user_data, 0x7a);

  // The same through an io-wq worker.
  ring.sq.sqes[1] = ring.sq.sqes[0];
  ring.sq.sqes[1].flags = IOSQE_ASYNC;
  ring.sq.sqes[1].user_data = 0x7b;
  ring.sq.array[1] = 1;
  *ring.sq.ktail = 2;
  *ring.cq.ktail = 0x0fff0000;
  *ring.cq.khead = 1;
  expect("async_scribbled_submit", enter1(&ring), 1);
  expect_true("async_completes", await_cq_tail(&ring, 2, 3 * HZ),
              "the CQ tail did not come back to 2 within 3 s");
  expect_ud("async_cqe_in_ring", ring.cq.cqes[1].user_data, 0x7b);

  // The SQ: its mask and head point 1 GiB past the ring, its tail one
  // further. The kernel takes entry 2, from its own head.
  *ring.cq.kring_mask = 15;
  *ring.cq.khead = *ring.cq.ktail;
  ring.sq.sqes[2] = ring.sq.sqes[0];
  ring.sq.sqes[2].user_data = 0x7c;
  ring.sq.array[2] = 2;
  *ring.sq.kring_mask = ~0U;
  *ring.sq.khead = 0x10000000;
  *ring.sq.ktail = 0x10000001;
  expect("sq_scribbled_submit", enter1(&ring), 1);
  snprintf(d, sizeof d, "SQ head %u after entry 2, want 3 (the kernel's own count)",
           *ring.sq.khead);
  expect_true("sq_head_kernels", *ring.sq.khead == 3, d);
  expect_ud("sq_entry_taken", ring.cq.cqes[2].user_data, 0x7c);

  // A tail 2^31 entries ahead and to_submit ~0: one ring's worth at most.
  for (int i = 0; i < 8; i++)
    ring.sq.array[i] = 0;
  *ring.cq.khead = *ring.cq.ktail;
  *ring.sq.ktail = 3 + 0x80000000U;
  r = io_uring_enter(ring.ring_fd, ~0U, 0, 0);
  snprintf(d, sizeof d, "io_uring_enter(~0) with the tail 2^31 ahead returned %s, want 1..8",
           val(r));
  expect_true("submit_bounded", r >= 1 && r <= 8, d);

  // An SQ entry that names no SQE is dropped and counted.
  unsigned dropped = *ring.sq.kdropped, head = *ring.sq.khead;
  *ring.cq.khead = *ring.cq.ktail;
  ring.sq.array[head & 7] = 0xffffffff;
  *ring.sq.ktail = head + 1;
  expect("bad_index_not_submitted", enter1(&ring), 0);
  snprintf(d, sizeof d, "sq_dropped went %u -> %u, want +1", dropped, *ring.sq.kdropped);
  expect_true("bad_index_dropped", *ring.sq.kdropped == dropped + 1, d);
  io_uring_queue_exit(&ring);

  // The kernel is fine: a fresh ring's blocking read completes.
  if (!ring_init(&ring, 4, 0) || !need("pipe", pipe(pfd)))
    return;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, pfd[0], rb, sizeof rb, -1UL);
  sqe->user_data = 9;
  expect("fresh_submit", io_uring_submit(&ring), 1);
  write(pfd[1], "ok", 2);
  r = wait_cqe_ticks(&ring, &cqe, 3 * HZ);
  expect("fresh_read", r == 0 ? cqe->res : r, 2);
  io_uring_queue_exit(&ring);
  close(pfd[0]);
  close(pfd[1]);
  expect_no_leak("no_leak", before);
}

static volatile unsigned *spin_pages[3];  // the ring pages, at offset 2048
static volatile long spins;
static volatile int faulted;

// SIGSEGV in the writer: the ring is unmapped, as it must be.
static void
writer_faulted(int sig)
{
  (void)sig;
  faulted = 1;
  thread_exit();
}

// Thread body: store PATTERN into every ring page, over and over.
static void
ring_writer(void *arg)
{
  (void)arg;
  for (;;) {
    for (int i = 0; i < 3; i++)
      *spin_pages[i] = PATTERN;
    spins++;
  }
}

// closespin's child: a thread keeps writing to the ring pages while the
// main thread closes the ring. Exit 0 if the writer faulted and no page
// handed out after the close holds its pattern; 2 if one does (a stale
// TLB entry let it write to a freed page); 3 if it never faulted.
static void
closespin_child(void)
{
  struct io_uring ring;
  char *heap;
  int t0, npages = 256;

  if (io_uring_queue_init(4, &ring, 0) < 0)
    exit(4);
  spin_pages[0] = (unsigned *)(((ulong)ring.sq.khead & ~4095UL) + 2048);
  spin_pages[1] = (unsigned *)(((ulong)ring.cq.cqes & ~4095UL) + 2048);
  spin_pages[2] = (unsigned *)(((ulong)ring.sq.sqes & ~4095UL) + 2048);
  signal(SIGSEGV, writer_faulted);
  if (thread_create(ring_writer, 0) < 0)
    exit(5);
  while (spins < 1000)
    ;
  close(ring.ring_fd);
  heap = sbrk(npages * 4096);   // the freed ring pages come back first
  if (heap == (char *)-1)
    exit(6);
  sleep(5);                     // a writer with a stale entry keeps writing
  for (long i = 0; i < npages * 4096L / 4; i++)
    if (((volatile unsigned *)heap)[i] == PATTERN)
      exit(2);
  for (t0 = uptime(); !faulted && uptime() - t0 < 2 * HZ; )
    sleep(1);
  exit(faulted ? 0 : 3);
}

// closespin: with CPUS >= 2, a thread writing to the ring pages on one
// CPU while another closes the ring: the pages are freed only once no
// CPU can still reach them, so the writer faults, and no page handed
// out afterwards receives its writes. (With one CPU it passes anyway.)
void
t_closespin(void)
{
  static const char *const why[] = {
    "ok", "?", "a page handed out after the close received the writer's stores",
    "the writer thread never faulted after the close", "io_uring_queue_init failed",
    "thread_create failed", "sbrk failed",
  };
  int pid, st = 0;
  long before;

  sleep(2);
  before = freemem();
  pid = tfork();
  if (pid == 0)
    closespin_child();
  if (!need("fork", pid))
    return;
  if (wait_ticks(pid, &st, 0, 10 * HZ) == 0) {
    expect_true("writer_stopped", 0, "the child still runs 10 s later; killing it");
    kill(pid, SIGKILL);
    wait_ticks(pid, &st, 0, 5 * HZ);
    return;
  }
  snprintf(d, sizeof d, "child %s: %s", wstatus(st),
           WIFEXITED(st) && WEXITSTATUS(st) < 7 ? why[WEXITSTATUS(st)] : "?");
  expect_true("writer_stopped", WIFEXITED(st) && WEXITSTATUS(st) == 0, d);
  expect_no_leak("no_leak", before);
}

// sqpollkill's child: an SQPOLL ring with an idle window of idle_ms, then
// a byte on rep, then how: 0 waits to be killed, 1 exits, 2 execs.
static void
sqpoll_child(unsigned idle_ms, int how, int rep)
{
  struct io_uring ring;
  struct io_uring_params p;
  char *av[] = { "/sleep", "0", 0 };

  memset(&p, 0, sizeof p);
  p.flags = IORING_SETUP_SQPOLL;
  p.sq_thread_idle = idle_ms;
  if (io_uring_queue_init_params(4, &ring, &p) < 0)
    exit(2);
  write(rep, "r", 1);
  if (how == 1)
    exit(0);
  if (how == 2) {
    exec(av[0], av);
    exit(3);
  }
  for (;;)
    sleep(HZ);
}

// One sqpollkill case: the child ends (killed, exited, or after exec) and
// is reaped within 3 s. Returns whether it was.
static int
sqpoll_case(const char *check, unsigned idle_ms, int how)
{
  int rep[2], pid, st = 0, r;
  char c;

  if (!need("pipe", pipe(rep)))
    return 0;
  pid = tfork();
  if (pid == 0) {
    close(rep[0]);
    sqpoll_child(idle_ms, how, rep[1]);
  }
  close(rep[1]);
  if (!need("fork", pid) || !need("child_ready", read(rep[0], &c, 1) - 1)) {
    close(rep[0]);
    return 0;
  }
  close(rep[0]);
  sleep(HZ / 5);                // the iou-sqp thread is in its idle window
  if (how == 0)
    kill(pid, SIGKILL);
  r = wait_ticks(pid, &st, 0, 3 * HZ);
  if (r == 0) {
    snprintf(d, sizeof d, "not reaped 3 s after %s (the iou-sqp thread ignores SIGKILL)",
             how == 0 ? "kill -9" : how == 1 ? "exit" : "exec");
    return expect_true(check, 0, d);
  }
  if (how == 0)
    snprintf(d, sizeof d, "child %s, want killed by signal 9", wstatus(st));
  else
    snprintf(d, sizeof d, "child %s, want exited 0", wstatus(st));
  return expect_true(check, how == 0 ? WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL
                                     : WIFEXITED(st) && WEXITSTATUS(st) == 0, d);
}

// sqpollkill: an SQPOLL thread in an idle window of hours (42949672 ms,
// 11.9 h; and ~0 ms) does not keep SIGKILL, exit or exec waiting.
void
t_sqpollkill(void)
{
  long before;

  sleep(2);
  before = freemem();
  if (!sqpoll_case("kill_in_idle", 42949672, 0))
    return;                     // a thread that cannot be killed: stop here
  if (!sqpoll_case("kill_in_idle_max", ~0U, 0))
    return;
  if (!sqpoll_case("exit_in_idle", 42949672, 1))
    return;
  if (!sqpoll_case("exec_in_idle", 42949672, 2))
    return;
  expect_no_leak("no_leak", before);
}

// Wait up to 3 s for ring's iou-sqp thread to say it goes to sleep
// (IORING_SQ_NEED_WAKEUP). Returns whether it did.
static int
await_need_wakeup(struct io_uring *ring)
{
  int t0 = uptime();

  while (!(__atomic_load_n(ring->sq.kflags, __ATOMIC_ACQUIRE) & IORING_SQ_NEED_WAKEUP)) {
    if (uptime() - t0 >= 3 * HZ)
      return 0;
    sleep(1);
  }
  return 1;
}

// sqpollwake: once the iou-sqp thread has set IORING_SQ_NEED_WAKEUP, the
// next io_uring_enter(IORING_ENTER_SQ_WAKEUP) wakes it, and so does the
// ring's close, every time. A wakeup that fell between the thread's last
// look and its sleep would leave it asleep until its 10 s fallback, so a
// round that takes 5 s has lost one. 20 rounds of each. (No page count:
// the page tables of the ring slot stay until the process ends.)
void
t_sqpollwake(void)
{
  struct io_uring ring;
  struct io_uring_params p;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  int round, bad = 0, t0, dt;

  memset(&p, 0, sizeof p);
  p.flags = IORING_SETUP_SQPOLL;
  p.sq_thread_idle = 1;         // ms: asleep after its first empty look
  if (!need("queue_init_params", io_uring_queue_init_params(4, &ring, &p)))
    return;
  for (round = 0; round < 20 && !bad; round++) {
    if (!await_need_wakeup(&ring)) {
      snprintf(d, sizeof d, "round %d: IORING_SQ_NEED_WAKEUP not set in 3 s", round);
      bad = 1;
      break;
    }
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    sqe->user_data = 0x700 + round;
    io_uring_submit(&ring);
    if (wait_cqe_ticks(&ring, &cqe, 5 * HZ) != 0) {
      snprintf(d, sizeof d, "round %d: no completion 5 s after IORING_ENTER_SQ_WAKEUP "
               "(the wakeup was lost)", round);
      bad = 1;
      break;
    }
    io_uring_cqe_seen(&ring, cqe);
  }
  io_uring_queue_exit(&ring);
  expect_true("wakeup_20", !bad, d);
  for (round = 0, bad = 0; round < 20 && !bad; round++) {
    memset(&p, 0, sizeof p);
    p.flags = IORING_SETUP_SQPOLL;
    p.sq_thread_idle = 1;
    if (!need("queue_init_params", io_uring_queue_init_params(4, &ring, &p)))
      return;
    if (!await_need_wakeup(&ring)) {
      snprintf(d, sizeof d, "round %d: IORING_SQ_NEED_WAKEUP not set in 3 s", round);
      bad = 1;
    }
    t0 = uptime();
    io_uring_queue_exit(&ring);
    if (!bad && (dt = uptime() - t0) >= 5 * HZ) {
      snprintf(d, sizeof d, "round %d: close of the ring took %d ticks "
               "(the stop's wakeup was lost)", round, dt);
      bad = 1;
    }
  }
  expect_true("stop_20", !bad, d);
}
