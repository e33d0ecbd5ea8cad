// uringtests: reporting, processes, /proc, files, rings, copies.

#include "uringtests.h"

char d[256];                               // scratch for FAIL details
static uchar fbuf[2][16384];               // file compare buffers
char buf[4096];                            // scratch I/O buffer

// ------------------------------------------------------------ reporting

// Check a CQE's user_data, as the check NAME_user_data.
int
expect_ud(const char *name, unsigned long got, unsigned long want)
{
  char n[64], det[96];

  snprintf(n, sizeof n, "%s_user_data", name);
  snprintf(det, sizeof det, "got 0x%lx, want 0x%lx", got, want);
  return expect_true(n, got == want, det);
}

// ------------------------------------------------------------ processes

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
  r = wait_ticks(pid, &st, 0, secs * HZ);
  if (r == 0) {
    kill(pid, SIGKILL);
    wait_ticks(pid, &st, 0, 5 * HZ);
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
int
expect_no_leak(const char *name, long before)
{
  long after = settled_freemem(before);

  snprintf(d, sizeof d, "%ld free pages before, %ld after (%ld lost)", before, after,
           before - after);
  return expect_true(name, after == before, d);
}

// ------------------------------------------------------------ /proc

// One thread of a process as /proc shows it.
// Fill t[] with the threads of process pid from /proc/PID/task/*/stat.
// Returns how many, or -errno if the directory cannot be read.
int
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
int
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
int
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
void
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
int
ring_init(struct io_uring *ring, unsigned entries, unsigned flags)
{
  return need("io_uring_queue_init", io_uring_queue_init(entries, ring, flags));
}

// Make this process's io-wq pool (it lives as long as the process) with
// one NOP through it, so that a leak check made after does not count it.
// Returns whether the NOP completed (a FAIL "warm_up" if not).
int
warm_up_pool(void)
{
  struct io_uring ring;
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  int ok;

  if (!ring_init(&ring, 4, 0))
    return 0;
  sqe = io_uring_get_sqe(&ring);
  io_uring_prep_nop(sqe);
  io_uring_sqe_set_flags(sqe, IOSQE_ASYNC);
  io_uring_submit(&ring);
  ok = need("warm_up", wait_cqe_ticks(&ring, &cqe, 3 * HZ));
  io_uring_queue_exit(&ring);
  return ok;
}

// io_uring_wait_cqe() that gives up after ticks: 0 with *cqe set, or
// NO_CQE if nothing came.
int
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
long
one_request(struct io_uring *ring, const char *name, unsigned long *ud)
{
  struct io_uring_cqe *cqe;
  int r = io_uring_submit(ring);

  if (r != 1) {
    expect(name, r, 1);
    return NO_CQE;
  }
  if (wait_cqe_ticks(ring, &cqe, 5 * HZ) < 0) {
    expect_true(name, 0, "no completion within 5 s");
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
             st == -EAGAIN ? "did not finish in 60 s" : st < 0 ? val(st) : wstatus(st));
    expect_true(check_name, 0, d);
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
  expect_true(check_name, !r.err && r.size[1] == size && r.size[0] == size && r.differ < 0 &&
              r.cksum[0] == r.cksum[1], d);
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
    snprintf(d, sizeof d, "mkbig %s %s: %s", SRC, sizestr, st < 0 ? val(st) : wstatus(st));
    expect_true("mkbig", 0, d);
    return;
  }
  st = run(cargv, 60);
  snprintf(d, sizeof d, "mkbig -c %s %s: %s", SRC, sizestr, st < 0 ? val(st) : wstatus(st));
  expect_true("mkbig", st == 0, d);
  if (modes & 1)
    copy_check("plain", 0, size);
  if (modes & 2)
    copy_check("async", "-a", size);
  if (modes & 4)
    copy_check("sqpoll", "-s", size);
  unlink(SRC);
  unlink(DST);
}

void t_copy0(void)     { copy_test("0", 0, 7); }
void t_copy1(void)     { copy_test("1", 1, 7); }
void t_copy32k_1(void) { copy_test("32K-1", 32767, 7); }
void t_copy32k(void)   { copy_test("32K", 32768, 7); }
void t_copy1m7(void)   { copy_test("1M+7", 1048583, 7); }
void t_copy4m(void)    { copy_test("4M", 4194304, 7); }

// uringcp's errors: a missing source, usage.
void
t_copyerr(void)
{
  char *a1[] = { "/uringcp", "/no-such-file", DST, 0 };
  char *a2[] = { "/uringcp", "-x", SRC, DST, 0 };
  char *a3[] = { "/uringcp", SRC, 0 };
  int st;

  st = run(a1, 20);
  snprintf(d, sizeof d, "uringcp /no-such-file: %s, want exited 1", st < 0 ? val(st) : wstatus(st));
  expect_true("nosource", st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1, d);
  st = run(a2, 20);
  snprintf(d, sizeof d, "uringcp -x: %s, want exited 2", st < 0 ? val(st) : wstatus(st));
  expect_true("badflag", st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2, d);
  st = run(a3, 20);
  snprintf(d, sizeof d, "uringcp SRC: %s, want exited 2", st < 0 ? val(st) : wstatus(st));
  expect_true("onearg", st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 2, d);
  unlink(DST);
}
