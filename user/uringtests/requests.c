// uringtests: the request tests.

#include "uringtests.h"

// ------------------------------------------------------------ requests

// Many NOPs, in full batches of 8: every one completes with res 0 and its
// own user_data, in order.
void
t_nop(void)
{
  struct io_uring ring;
  struct io_uring_cqe *cqe;
  struct io_uring_sqe *sqe;
  const int total = 1000;
  unsigned long next = 0, bad = 0, badres = 0;
  int done = 0, r;

  if (!ring_init(&ring, 8, 0))
    return;
  for (int i = 0; i < total; ) {
    int batch = total - i < 8 ? total - i : 8;
    for (int k = 0; k < batch; k++) {
      sqe = io_uring_get_sqe(&ring);
      if (!sqe) {
        expect_true("get_sqe", 0, "NULL with the SQ not full");
        return;
      }
      io_uring_prep_nop(sqe);
      sqe->user_data = 0xC0DE000000000000UL | (ulong)(i + k) << 8 | 0x5a;
    }
    r = io_uring_submit(&ring);
    if (r != batch) {
      expect("submit", r, batch);
      return;
    }
    i += batch;
    for (int k = 0; k < batch; k++) {
      r = io_uring_wait_cqe(&ring, &cqe);
      if (r < 0) {
        expect("wait_cqe", r, 0);
        return;
      }
      if (cqe->user_data != (0xC0DE000000000000UL | next << 8 | 0x5a) && !bad)
        bad = cqe->user_data ? cqe->user_data : 1;
      if (cqe->res != 0 && !badres)
        badres = cqe->res;
      next++;
      done++;
      io_uring_cqe_seen(&ring, cqe);
    }
  }
  expect("completions", done, total);
  snprintf(d, sizeof d, "a CQE carried user_data 0x%lx, not the next SQE's", bad);
  expect_true("user_data", bad == 0, d);
  snprintf(d, sizeof d, "a NOP completed with res %s", val((int)badres));
  expect_true("res", badres == 0, d);
  r = io_uring_peek_cqe(&ring, &cqe);
  expect("cq_empty", r, -EAGAIN);
  io_uring_queue_exit(&ring);
}

// NOPs through io-wq (IOSQE_ASYNC) keep their user_data; min_complete in
// io_uring_enter waits for all of them.
void
t_nopasync(void)
{
  struct io_uring ring;
  struct io_uring_cqe *cqe;
  struct io_uring_sqe *sqe;
  unsigned long seen = 0;       // bit i: the CQE of SQE i came
  int r, bad = 0;

  if (!ring_init(&ring, 32, 0))
    return;
  for (int i = 0; i < 32; i++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
    sqe->user_data = 0xA5A50000UL + i;
  }
  // Submit all and wait for all in one call, as liburing's submit_and_wait.
  io_uring_submit(&ring);
  r = io_uring_enter(ring.ring_fd, 0, 32, IORING_ENTER_GETEVENTS);
  expect("enter_getevents", r, 0);
  for (int i = 0; i < 32; i++) {
    if (io_uring_peek_cqe(&ring, &cqe) != 0)
      break;
    ulong k = cqe->user_data - 0xA5A50000UL;
    if (k >= 32 || (seen & (1UL << k)) || cqe->res != 0)
      bad++;
    else
      seen |= 1UL << k;
    io_uring_cqe_seen(&ring, cqe);
  }
  snprintf(d, sizeof d, "completed set 0x%lx, %d bad CQEs", seen, bad);
  expect_true("all_user_data", seen == 0xffffffffUL && bad == 0, d);
  io_uring_queue_exit(&ring);
}

// Errors come back as a negative res: bad fd, bad buffer, bad opcode; the
// same through io-wq.
void
t_errors(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  unsigned long ud = 0;
  int fd, closedfd;
  long r;

  if (!ring_init(&ring, 8, 0))
    return;
  fd = open("/README.md", O_RDONLY);
  if (!need("open /README.md", fd))
    return;
  closedfd = dup(fd);
  close(closedfd);

  struct { const char *name; int fd; unsigned flags; } badfds[] = {
    { "read_closed_fd", 0, 0 }, { "read_fd_minus1", -1, 0 }, { "read_fd_1000", 1000, 0 },
    { "read_ring_fd", 0, 0 }, { "read_closed_fd_async", 0, IOSQE_ASYNC },
  };
  badfds[0].fd = closedfd;
  badfds[3].fd = ring.ring_fd;
  badfds[4].fd = closedfd;
  for (int i = 0; i < 5; i++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, badfds[i].fd, buf, 16, 0);
    io_uring_sqe_set_flags(sqe, badfds[i].flags);
    sqe->user_data = 100 + i;
    r = one_request(&ring, badfds[i].name, &ud);
    if (r != NO_CQE && expect(badfds[i].name, r, -EBADF))
      expect_ud(badfds[i].name, ud, 100 + i);
  }

  struct { const char *name; int op; void *addr; unsigned flags; } badbufs[] = {
    { "read_to_null", IORING_OP_READ, (void *)0, 0 },
    { "read_to_unmapped", IORING_OP_READ, (void *)0x1000000000UL, 0 },
    { "read_to_kernel", IORING_OP_READ, (void *)0xffffffc080000000UL, 0 },
    { "read_to_null_async", IORING_OP_READ, (void *)0, IOSQE_ASYNC },
    { "write_from_null", IORING_OP_WRITE, (void *)0, 0 },
  };
  int wfd = open("/ut-err", O_CREAT | O_RDWR | O_TRUNC);
  if (!need("open /ut-err", wfd))
    return;
  for (int i = 0; i < 5; i++) {
    sqe = io_uring_get_sqe(&ring);
    if (badbufs[i].op == IORING_OP_READ)
      io_uring_prep_read(sqe, fd, badbufs[i].addr, 64, 0);
    else
      io_uring_prep_write(sqe, wfd, badbufs[i].addr, 64, 0);
    io_uring_sqe_set_flags(sqe, badbufs[i].flags);
    sqe->user_data = 200 + i;
    r = one_request(&ring, badbufs[i].name, &ud);
    if (r != NO_CQE && expect(badbufs[i].name, r, -EFAULT))
      expect_ud(badbufs[i].name, ud, 200 + i);
  }
  close(wfd);
  unlink("/ut-err");

  int ops[] = { 200, 1, 255 };
  const char *opnames[] = { "opcode_200", "opcode_1_readv", "opcode_255_async" };
  for (int i = 0; i < 3; i++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_read(sqe, fd, buf, 16, 0);
    sqe->opcode = ops[i];
    if (i == 2)
      io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
    sqe->user_data = 300 + i;
    r = one_request(&ring, opnames[i], &ud);
    if (r != NO_CQE && expect(opnames[i], r, -EINVAL))
      expect_ud(opnames[i], ud, 300 + i);
  }

  // A good read after all that still works, at its offset.
  char want[17];
  int n = readfile("/README.md", buf, 64);
  memcpy(want, buf + 5, 16);
  want[16] = 0;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, fd, buf, 16, 5);
  sqe->user_data = 400;
  memset(buf, 0, 32);
  r = one_request(&ring, "good_read", &ud);
  if (n >= 21 && r != NO_CQE && expect("good_read", r, 16))
    expect_true("good_read_data", memcmp(buf, want, 16) == 0, "pread at offset 5 read other bytes");
  close(fd);
  io_uring_queue_exit(&ring);
}

// io_uring_setup refuses bad arguments; entries round up to a power of 2.
void
t_setup(void)
{
  struct io_uring_params p;
  int fd;

  memset(&p, 0, sizeof p);
  expect("entries_0", io_uring_setup(0, &p), -EINVAL);
  memset(&p, 0, sizeof p);
  expect("entries_too_many", io_uring_setup(IORING_MAX_ENTRIES * 2, &p), -EINVAL);
  memset(&p, 0, sizeof p);
  p.flags = 1U << 7;
  expect("unknown_flag", io_uring_setup(4, &p), -EINVAL);
  expect("params_null", io_uring_setup(4, 0), -EFAULT);
  expect("params_unmapped", io_uring_setup(4, (void *)0x1000000000UL), -EFAULT);
  memset(&p, 0, sizeof p);
  fd = io_uring_setup(3, &p);
  if (need("setup_3", fd)) {
    snprintf(d, sizeof d, "sq_entries %u cq_entries %u, want 4 and 8", p.sq_entries, p.cq_entries);
    expect_true("rounds_up", p.sq_entries == 4 && p.cq_entries == 8, d);
    close(fd);
  }
}

// io_uring_enter on something that is not a ring fails.
void
t_notring(void)
{
  int pfd[2], fd;

  if (!need("pipe", pipe(pfd)))
    return;
  expect("enter_pipe", io_uring_enter(pfd[0], 1, 0, 0), -EOPNOTSUPP);
  fd = open("/README.md", O_RDONLY);
  expect("enter_file", io_uring_enter(fd, 0, 1, IORING_ENTER_GETEVENTS), -EOPNOTSUPP);
  expect("enter_closed_fd", io_uring_enter(12, 1, 0, 0), -EBADF);
  expect("enter_fd_minus1", io_uring_enter(-1, 1, 0, 0), -EBADF);
  struct io_uring ring;
  if (ring_init(&ring, 4, 0)) {
    expect("enter_bad_flags", io_uring_enter(ring.ring_fd, 0, 0, 1U << 9), -EINVAL);
    io_uring_queue_exit(&ring);
  }
  close(fd);
  close(pfd[0]);
  close(pfd[1]);
}

// A read from an empty pipe goes to an io-wq worker, which waits in the
// pipe and completes the read when data arrives. (Test iothreads looks at
// the worker in /proc.)
void
t_punt(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  char rbuf[32];
  int pfd[2], r;

  if (!ring_init(&ring, 4, 0) || !need("pipe", pipe(pfd)))
    return;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, pfd[0], rbuf, sizeof rbuf, -1UL);
  sqe->user_data = 0x77;
  expect("submit", io_uring_submit(&ring), 1);
  sleep(HZ / 2);                // time for a worker to take it and block
  expect("not_done_before_data", io_uring_peek_cqe(&ring, &cqe), -EAGAIN);
  write(pfd[1], "hello, uring", 12);
  r = io_uring_wait_cqe(&ring, &cqe);   // blocks: the test's timeout catches a hang
  if (expect("wait_cqe", r, 0)) {
    expect("res", cqe->res, 12);
    expect("user_data", cqe->user_data, 0x77);
    expect_true("data", memcmp(rbuf, "hello, uring", 12) == 0, "read other bytes");
    io_uring_cqe_seen(&ring, cqe);
  }
  // A write to a pipe works too, inline.
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_write(sqe, pfd[1], "pong", 4, -1UL);
  unsigned long ud;
  sqe->user_data = 0x78;
  expect("pipe_write", one_request(&ring, "pipe_write", &ud), 4);
  memset(rbuf, 0, 8);
  r = read(pfd[0], rbuf, 8);
  expect_true("pipe_write_data", r == 4 && memcmp(rbuf, "pong", 4) == 0, "did not read pong back");
  io_uring_queue_exit(&ring);
  close(pfd[0]);
  close(pfd[1]);
}

// A full ring: get_sqe returns NULL when the SQ is full; submitting more
// requests than the CQ can take (in flight + unreaped) gives -EBUSY; after
// reaping, the refused SQE goes in.
void
t_busy(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  int r, n = 0;

  if (!ring_init(&ring, 4, 0))       // SQ 4, CQ 8
    return;
  for (int i = 0; i < 4; i++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    sqe->user_data = i;
  }
  expect_true("sq_full", io_uring_get_sqe(&ring) == NULL, "get_sqe gave a 5th SQE from a 4-entry SQ");
  expect("submit_4", io_uring_submit(&ring), 4);
  for (int i = 4; i < 8; i++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    sqe->user_data = i;
  }
  expect("submit_8", io_uring_submit(&ring), 4);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_nop(sqe);
  sqe->user_data = 8;
  expect("cq_full_ebusy", io_uring_submit(&ring), -EBUSY);
  while (io_uring_peek_cqe(&ring, &cqe) == 0) {
    n++;
    io_uring_cqe_seen(&ring, &*cqe);
  }
  expect("reaped", n, 8);
  expect("resubmit", io_uring_submit(&ring), 1);
  r = wait_cqe_ticks(&ring, &cqe, 2 * HZ);
  if (expect("refused_sqe_completes", r, 0)) {
    expect("refused_sqe_user_data", cqe->user_data, 8);
    io_uring_cqe_seen(&ring, cqe);
  }
  io_uring_queue_exit(&ring);
}

// SQPOLL: the iou-sqp thread submits for us; after its idle window it sets
// IORING_SQ_NEED_WAKEUP, and io_uring_submit wakes it. (Test iothreads
// looks at the thread in /proc.)
void
t_sqpoll(void)
{
  struct io_uring ring;
  struct io_uring_params p;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  int r;

  memset(&p, 0, sizeof p);
  p.flags = IORING_SETUP_SQPOLL;
  p.sq_thread_idle = 100;       // ms
  if (!need("queue_init_params", io_uring_queue_init_params(8, &ring, &p)))
    return;
  for (int round = 0; round < 2; round++) {
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    sqe->user_data = 0x500 + round;
    io_uring_submit(&ring);
    r = wait_cqe_ticks(&ring, &cqe, 3 * HZ);
    if (!expect(round ? "nop_after_wakeup" : "nop", r, 0))
      break;
    expect(round ? "nop_after_wakeup_user_data" : "nop_user_data", cqe->user_data, 0x500 + round);
    io_uring_cqe_seen(&ring, cqe);
    if (round == 0) {
      sleep(HZ / 2);            // well past the 100 ms idle window
      r = *ring.sq.kflags & IORING_SQ_NEED_WAKEUP;
      expect_true("need_wakeup", r != 0, "IORING_SQ_NEED_WAKEUP not set after the idle window");
    }
  }
  io_uring_queue_exit(&ring);
}

// Linux 5.12's inline attempt, seen from user space: a read that the
// buffer cache can serve completes inside io_uring_enter() and starts no
// I/O thread; a write to a file is never tried inline (5.12 punts every
// buffered write), so it starts the pool: iou-mgr-PID and a worker.
static void
file_punts(void)
{
  static char wbuf[4096], rb[4096];
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  unsigned long ud;
  char mgr[20], wrk[20];
  int fd, r;

  for (int i = 0; i < (int)sizeof wbuf; i++)
    wbuf[i] = 'a' + i % 23;
  fd = open("/ut-inl", O_CREAT | O_RDWR);
  if (!need("open /ut-inl", fd) || !need("write /ut-inl", write(fd, wbuf, sizeof wbuf)))
    return;
  if (!ring_init(&ring, 4, 0))
    goto out;
  snprintf(mgr, sizeof mgr, "iou-mgr-%d", testpid);
  snprintf(wrk, sizeof wrk, "iou-wrk-%d", testpid);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, fd, rb, sizeof rb, 0);
  expect("cached_read_submit", io_uring_submit(&ring), 1);
  r = io_uring_peek_cqe(&ring, &cqe);    // no waiting: it must be there
  snprintf(d, sizeof d, "peek %d res %d, %d threads named %s", r, r == 0 ? cqe->res : 0,
           count_threads(testpid, mgr, 0), mgr);
  expect_true("cached_read_inline",
              r == 0 && cqe->res == sizeof rb && memcmp(rb, wbuf, sizeof rb) == 0 &&
              count_threads(testpid, mgr, 0) == 0, d);
  if (r == 0)
    io_uring_cqe_seen(&ring, cqe);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_write(sqe, fd, wbuf, sizeof wbuf, sizeof wbuf);
  long res = one_request(&ring, "file_write", &ud);
  snprintf(d, sizeof d, "res %ld, %d threads named %s, %d named %s", res,
           count_threads(testpid, mgr, 0), mgr, count_threads(testpid, wrk, 0), wrk);
  expect_true("file_write_punted", res == sizeof wbuf && count_threads(testpid, mgr, 0) == 1 &&
              count_threads(testpid, wrk, 0) >= 1, d);
  io_uring_queue_exit(&ring);
out:
  close(fd);
  unlink("/ut-inl");
}

// The I/O threads are threads of the process, under Linux's names, in
// /proc/PID/task (the baseline's behaviour, as in Linux 5.12; a kernel
// that hides them from /proc fails this test and only this one):
// iou-mgr-PID and iou-wrk-PID once work is punted (the worker sleeping in
// the pipe it reads, flagged io_worker), iou-sqp-PID while an SQPOLL ring
// is open, gone once it is closed. First, file_punts().
void
t_iothreads(void)
{
  struct io_uring ring, sq;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  struct thr t[MAXTHR];
  char name[20], path[64], rbuf[8];
  int pfd[2], r, n, wtid = 0;

  file_punts();
  if (!ring_init(&ring, 4, 0) || !need("pipe", pipe(pfd)))
    return;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, pfd[0], rbuf, sizeof rbuf, -1UL);
  expect("submit", io_uring_submit(&ring), 1);
  snprintf(name, sizeof name, "iou-wrk-%d", testpid);
  r = await_threads(testpid, name, 'S', 1, 3 * HZ);
  snprintf(d, sizeof d, "no thread named %s sleeping in /proc/%d/task after 3 s", name, testpid);
  expect_true("worker_listed_sleeping", r >= 1, d);
  n = list_threads(testpid, t, MAXTHR);
  for (int i = 0; i < n; i++)
    if (strcmp(t[i].ps.comm, name) == 0)
      wtid = t[i].tid;
  if (wtid) {
    snprintf(path, sizeof path, "/proc/%d/task/%d/status", testpid, wtid);
    r = readfile(path, buf, sizeof buf);
    snprintf(d, sizeof d, "%s has no \"Flags: ... io_worker\" line", path);
    expect_true("worker_flagged", r > 0 && strstr(buf, "io_worker") != 0, d);
    snprintf(d, sizeof d, "%s does not say Tgid %d", path, testpid);
    snprintf(name, sizeof name, "Tgid:\t%d\n", testpid);
    expect_true("worker_tgid", r > 0 && strstr(buf, name) != 0, d);
  }
  snprintf(name, sizeof name, "iou-mgr-%d", testpid);
  r = count_threads(testpid, name, 0);
  snprintf(d, sizeof d, "%d threads named %s in /proc/%d/task, want 1", r, name, testpid);
  expect_true("manager_listed", r == 1, d);
  write(pfd[1], "x", 1);
  if (need("wait_cqe", wait_cqe_ticks(&ring, &cqe, 3 * HZ)))
    io_uring_cqe_seen(&ring, cqe);
  io_uring_queue_exit(&ring);
  close(pfd[0]);
  close(pfd[1]);

  if (!need("queue_init sqpoll", io_uring_queue_init(4, &sq, IORING_SETUP_SQPOLL)))
    return;
  snprintf(name, sizeof name, "iou-sqp-%d", testpid);
  r = count_threads(testpid, name, 0);
  snprintf(d, sizeof d, "%d threads named %s, want 1", r, name);
  expect_true("sqpoll_listed", r == 1, d);
  io_uring_queue_exit(&sq);
  int t0 = uptime();
  while ((r = count_threads(testpid, name, 0)) > 0 && uptime() - t0 < 2 * HZ)
    sleep(2);
  snprintf(d, sizeof d, "%d threads named %s 2 s after closing the ring", r, name);
  expect_true("sqpoll_gone", r == 0, d);
}

// Ping-pong through io-wq: one IOSQE_ASYNC NOP at a time, each submitted
// as soon as the last completed, so that the next enqueue comes while the
// worker that ran the last one is going back to sleep. An enqueue whose
// wakeup is lost in that moment leaves its request queued until the
// worker's idle timeout (WORKER_IDLE_TIMEOUT, 5 s), which no round may
// reach. (The kernel's io-wq once lost such wakeups.)
void
t_pingpong(void)
{
  struct io_uring ring;
  struct io_uring_cqe *cqe;
  struct io_uring_sqe *sqe;
  int rounds = 0, worst = 0, bad = 0;

  if (!ring_init(&ring, 4, 0))
    return;
  for (; rounds < 2000 && !bad; rounds++) {
    int t0 = uptime();
    sqe = io_uring_get_sqe(&ring);
    io_uring_prep_nop(sqe);
    io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
    sqe->user_data = rounds;
    if (io_uring_submit(&ring) != 1 || io_uring_wait_cqe(&ring, &cqe) != 0 ||
        cqe->user_data != (unsigned long)rounds) {
      bad = 1;
      break;
    }
    io_uring_cqe_seen(&ring, cqe);
    if (uptime() - t0 > worst)
      worst = uptime() - t0;
  }
  snprintf(d, sizeof d, "%d rounds, the slowest %d ms%s", rounds, worst * 1000 / HZ,
           bad ? "; a round's completion was missing or wrong" : "");
  expect_true("pingpong", !bad && worst < 4 * HZ, d);
  io_uring_queue_exit(&ring);
}

// A thread of the test: an IOSQE_ASYNC nop on its own ring, whose first
// use of io-wq makes iou-mgr, inside create_io_thread()'s race window.
static void
nop_in_window(void *arg)
{
  struct io_uring *ring = arg;
  struct io_uring_sqe *sqe = io_uring_get_sqe(ring);
  struct io_uring_cqe *cqe;

  io_uring_prep_nop(sqe);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  if (io_uring_submit(ring) == 1 && io_uring_wait_cqe(ring, &cqe) == 0)
    io_uring_cqe_seen(ring, cqe);
}

// The knob /proc/sys/kernel/io_thread_race_ticks (racetest and stopjoin
// rely on it): values up to 60 s are taken, larger ones refused; a
// window lasts up to the knob's ticks, and a write of the knob closes
// the open one at once, so that a test can let a creation go on an event.
void
t_racewindow(void)
{
  struct io_uring ring;
  char path[48];
  int tid, n = 0, t0, r;
  char st = 0;

  expect("refuses_61s", set_io_thread_race_ticks(61 * HZ), -EINVAL);
  expect("refuses_huge", set_io_thread_race_ticks(2000000000), -EINVAL);
  if (!need("takes_60s", set_io_thread_race_ticks(60 * HZ)) || !ring_init(&ring, 4, 0))
    return;
  tid = thread_create(nop_in_window, &ring);
  if (!need("thread_create", tid))
    return;
  // The window holds the creator in the kernel (D) once the new thread
  // exists: /proc/PID/status counts three (hidden ones too).
  snprintf(path, sizeof path, "/proc/%d/status", testpid);
  for (t0 = uptime(); uptime() - t0 < 10 * HZ; sleep(2)) {
    const char *f = readfile(path, buf, sizeof buf) > 0 ? proc_field(buf, "Threads:") : 0;
    n = f ? atoi(f) : 0;
    st = task_state(testpid, tid);
    if (n >= 3 && st == 'D')
      break;
  }
  snprintf(d, sizeof d, "after 10 s: %d threads, the creator in state %c; want 3, D", n, st ? st : '?');
  expect_true("window_holds_creator", n >= 3 && st == 'D', d);
  t0 = uptime();
  r = set_io_thread_race_ticks(0);
  thread_join(tid);
  snprintf(d, sizeof d, "the creator returned %d ticks after the write (the window was %d)",
           uptime() - t0, 60 * HZ);
  expect_true("write_closes_window", r == 0 && uptime() - t0 < 30 * HZ, d);
  io_uring_queue_exit(&ring);
}
