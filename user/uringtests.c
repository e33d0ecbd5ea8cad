// uringtests: tests of io_uring, io-wq and uringcp.
//
//   uringtests            run every test
//   uringtests NAME...    run only the named tests (in the table's order)
//   uringtests -x NAME    run every test but NAME (-x may be repeated)
//   uringtests -l         list the tests
//
// Only the test "iothreads" looks at the I/O threads in /proc/PID/task
// (Linux 5.12's behaviour, which the baseline has); a kernel that hides
// them there (the "hide" series) fails it and nothing else: run it with
// `uringtests -x iothreads`.
//
// Each test runs in a child process of its own (a crash or a hang is one
// FAIL, and the rest go on). Every check prints one line, "PASS test.check"
// or "FAIL test.check: detail", and the run closes with "N passed, N
// failed" alone on a line; the exit status is 0 only if nothing failed.
//
// A test process records each check as one byte ('P' or 'F') appended to
// a results file; the runner counts them when the test process is gone,
// so checks made before a crash still count. Processes a test forks
// report only through their exit status.
//
// The copy tests run /mkbig and /uringcp; the leak tests compare
// freemem() around the thing they test. Big files are made at run time
// and removed (the disk is 32 MiB).

#include "user.h"
#include "liburing.h"
#include "proc.h"

#define RESULTS   "/uringtests.res"
#define SRC       "/ut-src"
#define DST       "/ut-dst"
#define TEST_SECS 30            // a test running longer is killed (default)
#define SETTLE    (3 * HZ)      // how long a leak check waits for frees to land
#define MAXTHR    64            // NTASK
#define NO_CQE    (-1000)       // no completion came in time (not an errno)

static const char *tname = "uringtests";   // the running test
static int resfd = -1;                     // results file, in a test process only
static int npass, nfail;                   // the runner's totals
static int mypid;                          // getpid() of the test process
static char line[512];
static char d[256];                        // scratch for FAIL details
static uchar fbuf[2][16384];               // file compare buffers
static char buf[4096];                     // scratch I/O buffer

// ------------------------------------------------------------ reporting

// Print one check's line; in a test process, record it in the results file.
static int
check(int ok, const char *name, const char *detail)
{
  if (ok)
    snprintf(line, sizeof line, "PASS %s.%s\n", tname, name);
  else
    snprintf(line, sizeof line, "FAIL %s.%s: %s\n", tname, name, detail);
  write(STDOUT, line, strlen(line));
  if (resfd >= 0)
    write(resfd, ok ? "P" : "F", 1);
  return ok;
}

// "-14 (EFAULT)" or "3".
static const char *
val(long v)
{
  static char b[4][48];
  static int k;
  char *s = b[k++ % 4];

  if (v < 0 && v >= -EMAXERRNO)
    snprintf(s, 48, "%ld (%s)", v, errname((int)v));
  else
    snprintf(s, 48, "%ld", v);
  return s;
}

// Check got == want, naming both on failure.
static int
expect(const char *name, long got, long want)
{
  char det[128];

  snprintf(det, sizeof det, "got %s, want %s", val(got), val(want));
  return check(got == want, name, det);
}

// Check a CQE's user_data, as the check NAME_user_data.
static int
expect_ud(const char *name, unsigned long got, unsigned long want)
{
  char n[64], det[96];

  snprintf(n, sizeof n, "%s_user_data", name);
  snprintf(det, sizeof det, "got 0x%lx, want 0x%lx", got, want);
  return check(got == want, n, det);
}

// A step the test needs: silent if it worked (>= 0), a FAIL line if not.
static int
need(const char *name, long got)
{
  char det[128];

  if (got >= 0)
    return 1;
  snprintf(det, sizeof det, "failed: %s", val(got));
  return check(0, name, det);
}

// "exited 3", "killed by signal 9 (KILL)".
static const char *
status_str(int st)
{
  static char b[64];

  if (WIFEXITED(st))
    snprintf(b, sizeof b, "exited %d", WEXITSTATUS(st));
  else if (WIFSIGNALED(st))
    snprintf(b, sizeof b, "killed by signal %d (%s)", WTERMSIG(st), signame(WTERMSIG(st)));
  else
    snprintf(b, sizeof b, "wait status 0x%x", st);
  return b;
}

// ------------------------------------------------------------ processes

// fork() inside a test: the child does not record checks.
static int
tfork(void)
{
  int pid = fork();

  if (pid == 0 && resfd >= 0) {
    close(resfd);
    resfd = -1;
  }
  return pid;
}

// waitpid(pid) for at most ticks: waitpid's result, or 0 if still running.
static int
wait_ticks(int pid, int *st, int ticks)
{
  int t0 = uptime(), r;

  while ((r = waitpid(pid, st, WNOHANG)) == 0 && uptime() - t0 < ticks)
    sleep(1);
  return r;
}

// Run argv[0] with argv in a child and wait up to secs for it. Returns its
// wait status, -EAGAIN if it had to be killed (after secs), or -errno.
static int
run(char **argv, int secs)
{
  int pid, st = 0, r;

  pid = tfork();
  if (pid < 0)
    return pid;
  if (pid == 0) {
    r = exec(argv[0], argv);
    fprintf(STDERR, "uringtests: exec %s: %s\n", argv[0], strerror(r));
    exit(127);
  }
  r = wait_ticks(pid, &st, secs * HZ);
  if (r == 0) {
    kill(pid, SIGKILL);
    wait_ticks(pid, &st, 5 * HZ);
    return -EAGAIN;
  }
  return r < 0 ? r : st;
}

// freemem() once it has stopped changing (frees of a reaped process may
// land a little later), or after SETTLE ticks, for leak checks.
static long
settled_freemem(long want)
{
  int t0 = uptime();
  long m = freemem();

  while (m != want && uptime() - t0 < SETTLE) {
    sleep(5);
    m = freemem();
  }
  return m;
}

// Check that freemem() came back to before.
static int
expect_no_leak(const char *name, long before)
{
  long after = settled_freemem(before);

  snprintf(d, sizeof d, "%ld free pages before, %ld after (%ld lost)", before, after,
           before - after);
  return check(after == before, name, d);
}

// ------------------------------------------------------------ /proc

// One thread of a process as /proc shows it.
struct thr {
  int tid;
  struct procstat ps;           // its name and state
};

// Fill t[] with the threads of process pid from /proc/PID/task/*/stat.
// Returns how many, or -errno if the directory cannot be read.
static int
list_threads(int pid, struct thr *t, int max)
{
  int tids[MAXTHR], n, k = 0;

  n = task_ids(pid, tids, MAXTHR);
  for (int i = 0; i < n && k < max; i++)
    if (task_stat(pid, tids[i], &t[k].ps) == 0)   // else ended meanwhile
      t[k++].tid = tids[i];
  return n < 0 ? n : k;
}

// How many threads of pid have the name name (in state, if state != 0).
static int
count_threads(int pid, const char *name, char state)
{
  struct thr t[MAXTHR];
  int n = list_threads(pid, t, MAXTHR), c = 0;

  for (int i = 0; i < n; i++)
    if (strcmp(t[i].ps.comm, name) == 0 && (!state || t[i].ps.state == state))
      c++;
  return n < 0 ? n : c;
}

// Wait up to ticks until count_threads(pid, name, state) >= want; the count.
static int
await_threads(int pid, const char *name, char state, int want, int ticks)
{
  int t0 = uptime(), c;

  while ((c = count_threads(pid, name, state)) < want && uptime() - t0 < ticks)
    sleep(2);
  return c;
}

// ------------------------------------------------------------ files

static uint crctab[256];

// The CRC-32 table of POSIX cksum (polynomial 0x04C11DB7, MSB first).
static void
crc_init(void)
{
  for (uint i = 0; i < 256; i++) {
    uint c = i << 24;
    for (int k = 0; k < 8; k++)
      c = (c & 0x80000000) ? (c << 1) ^ 0x04C11DB7 : c << 1;
    crctab[i] = c;
  }
}

static uint
crc_add(uint crc, const uchar *p, int n)
{
  while (n-- > 0)
    crc = (crc << 8) ^ crctab[(crc >> 24) ^ *p++];
  return crc;
}

// Finish a cksum CRC: the length, low byte first, then the complement.
static uint
crc_end(uint crc, ulong len)
{
  for (; len; len >>= 8) {
    uchar b = len & 0xff;
    crc = crc_add(crc, &b, 1);
  }
  return ~crc;
}

// What compare_files() found.
struct cmpres {
  long size[2];                 // bytes read from each file
  uint cksum[2];                // POSIX cksum of each
  long differ;                  // first byte that differs, or -1
  int err;                      // an open or read error, or 0
};

// Compare files a and b byte by byte and take the cksum of each.
static void
compare_files(const char *a, const char *b, struct cmpres *r)
{
  int fd[2], n[2];
  uint crc[2] = { 0, 0 };

  memset(r, 0, sizeof *r);
  r->differ = -1;
  fd[0] = open(a, O_RDONLY);
  fd[1] = open(b, O_RDONLY);
  if (fd[0] < 0 || fd[1] < 0) {
    r->err = fd[0] < 0 ? fd[0] : fd[1];
    goto out;
  }
  for (;;) {
    for (int i = 0; i < 2; i++) {
      // Fill the buffer, so both files are compared in step.
      n[i] = 0;
      while (n[i] < (int)sizeof fbuf[i]) {
        int k = read(fd[i], fbuf[i] + n[i], sizeof fbuf[i] - n[i]);
        if (k < 0) {
          r->err = k;
          goto out;
        }
        if (k == 0)
          break;
        n[i] += k;
      }
      crc[i] = crc_add(crc[i], fbuf[i], n[i]);
    }
    if (r->differ < 0) {
      int m = n[0] < n[1] ? n[0] : n[1];
      for (int j = 0; j < m; j++) {
        if (fbuf[0][j] != fbuf[1][j]) {
          r->differ = r->size[0] + j;
          break;
        }
      }
      if (r->differ < 0 && n[0] != n[1])
        r->differ = r->size[0] + m;
    }
    r->size[0] += n[0];
    r->size[1] += n[1];
    if (n[0] == 0 && n[1] == 0)
      break;
  }
  r->cksum[0] = crc_end(crc[0], r->size[0]);
  r->cksum[1] = crc_end(crc[1], r->size[1]);
out:
  if (fd[0] >= 0)
    close(fd[0]);
  if (fd[1] >= 0)
    close(fd[1]);
}

// ------------------------------------------------------------ rings

// Set up ring with entries and flags; a FAIL line if it cannot be.
static int
ring_init(struct io_uring *ring, unsigned entries, unsigned flags)
{
  return need("io_uring_queue_init", io_uring_queue_init(entries, ring, flags));
}

// io_uring_wait_cqe() that gives up after ticks: 0 with *cqe set, or
// NO_CQE if nothing came.
static int
wait_cqe_ticks(struct io_uring *ring, struct io_uring_cqe **cqe, int ticks)
{
  int t0 = uptime();

  while (io_uring_peek_cqe(ring, cqe) != 0) {
    if (uptime() - t0 >= ticks)
      return NO_CQE;
    sleep(1);
  }
  return 0;
}

// Submit one prepared SQE and wait for its completion. Returns the CQE's
// res, and stores its user_data in *ud; NO_CQE if nothing came in 5 s
// (reported as a FAIL).
static long
one_request(struct io_uring *ring, const char *name, unsigned long *ud)
{
  struct io_uring_cqe *cqe;
  int r = io_uring_submit(ring);

  if (r != 1) {
    expect(name, r, 1);
    return NO_CQE;
  }
  if (wait_cqe_ticks(ring, &cqe, 5 * HZ) < 0) {
    check(0, name, "no completion within 5 s");
    return NO_CQE;
  }
  long res = cqe->res;
  *ud = cqe->user_data;
  io_uring_cqe_seen(ring, cqe);
  return res;
}

// ------------------------------------------------------------ copies

// Copy SRC to DST with uringcp and flags (or none), and check that DST
// equals SRC, byte for byte and by cksum.
static void
copy_check(const char *check_name, const char *flag, long size)
{
  char *argv[5];
  int n = 0, st;
  struct cmpres r;

  unlink(DST);
  argv[n++] = "/uringcp";
  if (flag)
    argv[n++] = (char *)flag;
  argv[n++] = SRC;
  argv[n++] = DST;
  argv[n] = 0;
  st = run(argv, 60);
  if (st < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    snprintf(d, sizeof d, "uringcp %s%s%s: %s", flag ? flag : "", flag ? " " : "", SRC,
             st == -EAGAIN ? "did not finish in 60 s" : st < 0 ? val(st) : status_str(st));
    check(0, check_name, d);
    return;
  }
  compare_files(SRC, DST, &r);
  if (r.err)
    snprintf(d, sizeof d, "reading the copy: %s", val(r.err));
  else if (r.size[1] != size || r.size[0] != size)
    snprintf(d, sizeof d, "copy has %ld bytes, source %ld, want %ld", r.size[1], r.size[0], size);
  else if (r.differ >= 0)
    snprintf(d, sizeof d, "copy differs from the source at byte %ld", r.differ);
  else if (r.cksum[0] != r.cksum[1])
    snprintf(d, sizeof d, "cksum %u %ld, source %u %ld", r.cksum[1], r.size[1], r.cksum[0],
             r.size[0]);
  check(!r.err && r.size[1] == size && r.size[0] == size && r.differ < 0 &&
        r.cksum[0] == r.cksum[1], check_name, d);
}

// Make SRC of size bytes with mkbig (sizestr in its syntax), then copy it
// plain, with -a and with -s (modes: bits 1, 2, 4).
static void
copy_test(const char *sizestr, long size, int modes)
{
  char *argv[] = { "/mkbig", SRC, (char *)sizestr, 0 };
  char *cargv[] = { "/mkbig", "-c", SRC, (char *)sizestr, 0 };
  int st;

  st = run(argv, 60);
  if (st != 0) {
    snprintf(d, sizeof d, "mkbig %s %s: %s", SRC, sizestr, st < 0 ? val(st) : status_str(st));
    check(0, "mkbig", d);
    return;
  }
  st = run(cargv, 60);
  snprintf(d, sizeof d, "mkbig -c %s %s: %s", SRC, sizestr, st < 0 ? val(st) : status_str(st));
  check(st == 0, "mkbig", d);
  if (modes & 1)
    copy_check("plain", 0, size);
  if (modes & 2)
    copy_check("async", "-a", size);
  if (modes & 4)
    copy_check("sqpoll", "-s", size);
  unlink(SRC);
  unlink(DST);
}

static void t_copy0(void)     { copy_test("0", 0, 7); }
static void t_copy1(void)     { copy_test("1", 1, 7); }
static void t_copy32k_1(void) { copy_test("32K-1", 32767, 7); }
static void t_copy32k(void)   { copy_test("32K", 32768, 7); }
static void t_copy1m7(void)   { copy_test("1M+7", 1048583, 7); }
static void t_copy4m(void)    { copy_test("4M", 4194304, 7); }

// uringcp's errors: a missing source, usage.
static void
t_copyerr(void)
{
  char *a1[] = { "/uringcp", "/no-such-file", DST, 0 };
  char *a2[] = { "/uringcp", "-x", SRC, DST, 0 };
  char *a3[] = { "/uringcp", SRC, 0 };
  int st;

  st = run(a1, 20);
  snprintf(d, sizeof d, "uringcp /no-such-file: %s, want exited 1", st < 0 ? val(st) : status_str(st));
  check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1, "nosource", d);
  st = run(a2, 20);
  snprintf(d, sizeof d, "uringcp -x: %s, want exited 2", st < 0 ? val(st) : status_str(st));
  check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2, "badflag", d);
  st = run(a3, 20);
  snprintf(d, sizeof d, "uringcp SRC: %s, want exited 2", st < 0 ? val(st) : status_str(st));
  check(st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2, "onearg", d);
  unlink(DST);
}

// ------------------------------------------------------------ requests

// Many NOPs, in full batches of 8: every one completes with res 0 and its
// own user_data, in order.
static void
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
        check(0, "get_sqe", "NULL with the SQ not full");
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
  check(bad == 0, "user_data", d);
  snprintf(d, sizeof d, "a NOP completed with res %s", val((int)badres));
  check(badres == 0, "res", d);
  r = io_uring_peek_cqe(&ring, &cqe);
  expect("cq_empty", r, -EAGAIN);
  io_uring_queue_exit(&ring);
}

// NOPs through io-wq (IOSQE_ASYNC) keep their user_data; min_complete in
// io_uring_enter waits for all of them.
static void
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
  check(seen == 0xffffffffUL && bad == 0, "all_user_data", d);
  io_uring_queue_exit(&ring);
}

// Errors come back as a negative res: bad fd, bad buffer, bad opcode; the
// same through io-wq.
static void
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
    check(memcmp(buf, want, 16) == 0, "good_read_data", "pread at offset 5 read other bytes");
  close(fd);
  io_uring_queue_exit(&ring);
}

// io_uring_setup refuses bad arguments; entries round up to a power of 2.
static void
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
    check(p.sq_entries == 4 && p.cq_entries == 8, "rounds_up", d);
    close(fd);
  }
}

// io_uring_enter on something that is not a ring fails.
static void
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
static void
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
    check(memcmp(rbuf, "hello, uring", 12) == 0, "data", "read other bytes");
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
  check(r == 4 && memcmp(rbuf, "pong", 4) == 0, "pipe_write_data", "did not read pong back");
  io_uring_queue_exit(&ring);
  close(pfd[0]);
  close(pfd[1]);
}

// A full ring: get_sqe returns NULL when the SQ is full; submitting more
// requests than the CQ can take (in flight + unreaped) gives -EBUSY; after
// reaping, the refused SQE goes in.
static void
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
  check(io_uring_get_sqe(&ring) == NULL, "sq_full", "get_sqe gave a 5th SQE from a 4-entry SQ");
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
static void
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
      check(r != 0, "need_wakeup", "IORING_SQ_NEED_WAKEUP not set after the idle window");
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
  snprintf(mgr, sizeof mgr, "iou-mgr-%d", mypid);
  snprintf(wrk, sizeof wrk, "iou-wrk-%d", mypid);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_read(sqe, fd, rb, sizeof rb, 0);
  expect("cached_read_submit", io_uring_submit(&ring), 1);
  r = io_uring_peek_cqe(&ring, &cqe);    // no waiting: it must be there
  snprintf(d, sizeof d, "peek %d res %d, %d threads named %s", r, r == 0 ? cqe->res : 0,
           count_threads(mypid, mgr, 0), mgr);
  check(r == 0 && cqe->res == sizeof rb && memcmp(rb, wbuf, sizeof rb) == 0 &&
        count_threads(mypid, mgr, 0) == 0, "cached_read_inline", d);
  if (r == 0)
    io_uring_cqe_seen(&ring, cqe);
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_write(sqe, fd, wbuf, sizeof wbuf, sizeof wbuf);
  long res = one_request(&ring, "file_write", &ud);
  snprintf(d, sizeof d, "res %ld, %d threads named %s, %d named %s", res,
           count_threads(mypid, mgr, 0), mgr, count_threads(mypid, wrk, 0), wrk);
  check(res == sizeof wbuf && count_threads(mypid, mgr, 0) == 1 &&
        count_threads(mypid, wrk, 0) >= 1, "file_write_punted", d);
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
static void
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
  snprintf(name, sizeof name, "iou-wrk-%d", mypid);
  r = await_threads(mypid, name, 'S', 1, 3 * HZ);
  snprintf(d, sizeof d, "no thread named %s sleeping in /proc/%d/task after 3 s", name, mypid);
  check(r >= 1, "worker_listed_sleeping", d);
  n = list_threads(mypid, t, MAXTHR);
  for (int i = 0; i < n; i++)
    if (strcmp(t[i].ps.comm, name) == 0)
      wtid = t[i].tid;
  if (wtid) {
    snprintf(path, sizeof path, "/proc/%d/task/%d/status", mypid, wtid);
    r = readfile(path, buf, sizeof buf);
    snprintf(d, sizeof d, "%s has no \"Flags: ... io_worker\" line", path);
    check(r > 0 && strstr(buf, "io_worker") != 0, "worker_flagged", d);
    snprintf(d, sizeof d, "%s does not say Tgid %d", path, mypid);
    snprintf(name, sizeof name, "Tgid:\t%d\n", mypid);
    check(r > 0 && strstr(buf, name) != 0, "worker_tgid", d);
  }
  snprintf(name, sizeof name, "iou-mgr-%d", mypid);
  r = count_threads(mypid, name, 0);
  snprintf(d, sizeof d, "%d threads named %s in /proc/%d/task, want 1", r, name, mypid);
  check(r == 1, "manager_listed", d);
  write(pfd[1], "x", 1);
  if (need("wait_cqe", wait_cqe_ticks(&ring, &cqe, 3 * HZ)))
    io_uring_cqe_seen(&ring, cqe);
  io_uring_queue_exit(&ring);
  close(pfd[0]);
  close(pfd[1]);

  if (!need("queue_init sqpoll", io_uring_queue_init(4, &sq, IORING_SETUP_SQPOLL)))
    return;
  snprintf(name, sizeof name, "iou-sqp-%d", mypid);
  r = count_threads(mypid, name, 0);
  snprintf(d, sizeof d, "%d threads named %s, want 1", r, name);
  check(r == 1, "sqpoll_listed", d);
  io_uring_queue_exit(&sq);
  int t0 = uptime();
  while ((r = count_threads(mypid, name, 0)) > 0 && uptime() - t0 < 2 * HZ)
    sleep(2);
  snprintf(d, sizeof d, "%d threads named %s 2 s after closing the ring", r, name);
  check(r == 0, "sqpoll_gone", d);
}

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
  snprintf(path, sizeof path, "/proc/%d", mypid);
  if (!need("stat /proc/PID of a live process", stat(path, &sst)))
    return;
  sleep(2);
  before = freemem();
  pid = tfork();
  if (pid == 0)
    inflight_child(how);
  if (!need("fork", pid))
    return;
  r = wait_ticks(pid, &st, 10 * HZ);
  if (r == 0) {
    check(0, "ends", "still running 10 s later (stuck in exit?); killing it");
    kill(pid, SIGKILL);
    wait_ticks(pid, &st, 5 * HZ);
    return;
  }
  if (how) {
    snprintf(d, sizeof d, "child %s (%s), want killed by signal 9", status_str(st),
             WIFEXITED(st) && WEXITSTATUS(st) < 8 ? blocked_why[WEXITSTATUS(st)] : "");
    check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, "ends", d);
  } else {
    snprintf(d, sizeof d, "child %s (%s), want exited 0", status_str(st),
             WIFEXITED(st) && WEXITSTATUS(st) < 8 ? blocked_why[WEXITSTATUS(st)] : "");
    check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ends", d);
  }
  snprintf(path, sizeof path, "/proc/%d", pid);
  r = stat(path, &sst);
  snprintf(d, sizeof d, "%s still exists after the process was reaped", path);
  check(r < 0, "threads_gone", d);
  expect_no_leak("no_leak", before);
}

static void t_exitleak(void) { exit_inflight(0); }
static void t_killleak(void) { exit_inflight(1); }

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
static void
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
  check(st == 0, "child_close_cancels", d);
  if (st < 0) {                 // let it go: complete the read
    write(pfd[1], "x", 1);
    waitpid(pid, &st, 0);
  }
  write(pfd[1], "abc", 3);
  close(pfd[1]);
  st = read(pfd[0], buf, sizeof buf);
  snprintf(d, sizeof d, "read %s bytes back, want 3: the read was not cancelled", val(st));
  check(st == 3, "read_cancelled", d);
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
  check(st == 1 && c == 'k', "late_close", d);
  expect_no_leak("no_leak", before);   // the pipe still open, as counted
  close(rep[0]);
}

// Closing the ring fd with reads in flight cancels them: close returns
// promptly, the reads take no data written afterwards, nothing leaks.
static void
t_closecancel(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  char rb[4][8];
  int pfd[2], t0, r, tick;
  long before;

  // Make the process's io-wq pool (it lives as long as the process) and
  // the pipe first, so that they are not counted.
  if (!ring_init(&ring, 4, 0))
    return;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_nop(sqe);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  io_uring_submit(&ring);
  if (!need("warm_up", wait_cqe_ticks(&ring, &cqe, 3 * HZ)))
    return;
  io_uring_queue_exit(&ring);
  if (!need("pipe", pipe(pfd)))
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
  check(tick < 2 * HZ, "close_prompt", d);
  // Were the reads really cancelled? Then the pipe keeps what we write.
  write(pfd[1], "abc", 3);
  close(pfd[1]);
  r = read(pfd[0], buf, sizeof buf);
  snprintf(d, sizeof d, "read %s bytes back, want 3: a read still in flight took them", val(r));
  check(r == 3, "reads_cancelled", d);
  // The pipe was made before the count: measure while it still exists.
  expect_no_leak("no_leak", before);
  close(pfd[0]);
}

// 100 setups and teardowns (each with a NOP, half of them through io-wq),
// then 10 with SQPOLL, lose no page.
static void
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
  check(!bad, "setup_100", bad == 1 ? "io_uring_queue_init failed" : "a NOP did not complete");
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
  check(!bad, "sqpoll_10", bad == 1 ? "io_uring_queue_init failed" : "a NOP did not complete");
  expect_no_leak("no_leak_sqpoll_10", before);
}

// ------------------------------------------------------------ the runner

static const struct test {
  const char *name;
  void (*fn)(void);
  int secs;                     // limit; 0: TEST_SECS
} tests[] = {
  { "setup", t_setup, 0 },
  { "notring", t_notring, 0 },
  { "nop", t_nop, 0 },
  { "nopasync", t_nopasync, 0 },
  { "errors", t_errors, 0 },
  { "punt", t_punt, 0 },
  { "busy", t_busy, 0 },
  { "sqpoll", t_sqpoll, 0 },
  { "iothreads", t_iothreads, 0 },
  { "closecancel", t_closecancel, 0 },
  { "exitleak", t_exitleak, 0 },
  { "killleak", t_killleak, 0 },
  { "forkclose", t_forkclose, 0 },
  { "cycles", t_cycles, 60 },
  { "copyerr", t_copyerr, 0 },
  { "copy0", t_copy0, 0 },
  { "copy1", t_copy1, 0 },
  { "copy32k-1", t_copy32k_1, 0 },
  { "copy32k", t_copy32k, 0 },
  { "copy1m+7", t_copy1m7, 120 },
  { "copy4m", t_copy4m, 240 },
};
#define NTESTS ((int)(sizeof tests / sizeof tests[0]))

// A check made by the runner itself.
static void
runner_check(int ok, const char *name, const char *detail)
{
  if (ok)
    snprintf(line, sizeof line, "PASS %s\n", name);
  else
    snprintf(line, sizeof line, "FAIL %s: %s\n", name, detail);
  write(STDOUT, line, strlen(line));
  if (ok)
    npass++;
  else
    nfail++;
}

// Run test t in a child; add its recorded checks to the totals, and a
// FAIL of its own if it crashed, hung or made no check.
static void
run_test(const struct test *t)
{
  int fd, pid, st = 0, r, t0, limit, killed = 0, n = 0;
  char c;

  limit = (t->secs ? t->secs : TEST_SECS) * HZ;
  fd = open(RESULTS, O_CREAT | O_TRUNC | O_RDWR);
  if (fd < 0) {
    snprintf(d, sizeof d, "cannot create %s: %s", RESULTS, val(fd));
    runner_check(0, t->name, d);
    return;
  }
  pid = fork();
  if (pid == 0) {
    resfd = fd;
    tname = t->name;
    mypid = getpid();
    t->fn();
    exit(0);
  }
  if (pid < 0) {
    snprintf(d, sizeof d, "fork: %s", val(pid));
    runner_check(0, t->name, d);
    close(fd);
    return;
  }
  t0 = uptime();
  while ((r = waitpid(pid, &st, WNOHANG)) == 0) {
    if (uptime() - t0 > limit) {
      kill(pid, SIGKILL);
      killed = 1;
      r = wait_ticks(pid, &st, 10 * HZ);
      break;
    }
    sleep(2);
  }
  lseek(fd, 0, SEEK_SET);
  while (read(fd, &c, 1) == 1) {
    n++;
    if (c == 'P')
      npass++;
    else
      nfail++;
  }
  close(fd);
  if (killed) {
    snprintf(d, sizeof d, "did not finish in %d s; killed after %d checks", limit / HZ, n);
    runner_check(0, t->name, d);
  } else if (r != pid) {
    snprintf(d, sizeof d, "waitpid for the test returned %s", val(r));
    runner_check(0, t->name, d);
  } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    snprintf(d, sizeof d, "test process %s after %d checks", status_str(st), n);
    runner_check(0, t->name, d);
  } else if (n == 0) {
    runner_check(0, t->name, "the test made no checks");
  }
}

int
main(int argc, char **argv)
{
  int i, j, only = 0;
  char skip[NTESTS], run[NTESTS];

  crc_init();
  if (argc == 2 && strcmp(argv[1], "-l") == 0) {
    for (i = 0; i < NTESTS; i++)
      printf("%s\n", tests[i].name);
    return 0;
  }
  chdir("/");
  memset(skip, 0, sizeof skip);
  memset(run, 0, sizeof run);
  for (i = 1; i < argc; i++) {
    int x = strcmp(argv[i], "-x") == 0 && i + 1 < argc;
    const char *name = x ? argv[++i] : argv[i];
    for (j = 0; j < NTESTS && strcmp(tests[j].name, name) != 0; j++)
      ;
    if (j == NTESTS) {
      runner_check(0, name, "no such test (uringtests -l lists them)");
      continue;
    }
    if (x) {
      skip[j] = 1;
    } else {
      run[j] = 1;
      only = 1;
    }
  }
  // In the table's order: the named tests, or all but the excluded ones.
  for (i = 0; i < NTESTS; i++)
    if ((only ? run[i] : 1) && !skip[i])
      run_test(&tests[i]);
  unlink(RESULTS);
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
