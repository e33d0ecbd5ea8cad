// uringtests: I/O accounting, /proc/PID/io and /proc/PID/task/TID/io.
//
// The counts are exact, so the checks are too. Two rules make them so:
// an io file is read with exactly one read() (read_io()), whose own cost
// is known: the text is made before the read counts itself, so the next
// reading shows it as one more syscr and len more rchar; and nothing is
// printed between two readings (a PASS line is a write, and so is the
// byte the runner's results file gets).

#include "uringtests.h"

#define IOFILE    "/ut-io"
#define SELF_IO   "/proc/self/io"
#define NBYTES    1000          // bytes of the write and the read checks
#define KBYTES    777           // bytes the ending thread writes
#define UBYTES    3000          // bytes of each io_uring write

static char data[4096];

// One reading of an io file.
struct ioac {
  long rchar, wchar, syscr, syscw;
  int len;                      // bytes its read() returned
};

// Parse the text of an io file into *a: exactly Linux's first four lines,
// "rchar: N", "wchar: N", "syscr: N", "syscw: N", in that order, and
// nothing else. Returns 0, or -EINVAL if the text is anything else.
static int
parse_io(const char *s, struct ioac *a)
{
  static const char *const names[4] = { "rchar: ", "wchar: ", "syscr: ", "syscw: " };
  long *v[4] = { &a->rchar, &a->wchar, &a->syscr, &a->syscw };

  for (int i = 0; i < 4; i++) {
    if (strncmp(s, names[i], strlen(names[i])) != 0)
      return -EINVAL;
    s += strlen(names[i]);
    if (*s < '0' || *s > '9')
      return -EINVAL;
    for (*v[i] = 0; *s >= '0' && *s <= '9'; s++)
      *v[i] = *v[i] * 10 + *s - '0';
    if (*s++ != '\n')
      return -EINVAL;
  }
  return *s ? -EINVAL : 0;
}

// Read the io file path with one open(), one read() and one close(), and
// parse it into *a; the text stays in buf. Prints nothing. Returns 0, or
// -errno (-EINVAL if the text is not Linux's four lines).
static int
read_io(const char *path, struct ioac *a)
{
  int fd = open(path, O_RDONLY), n;

  if (fd < 0)
    return fd;
  n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n < 0)
    return n;
  buf[n] = 0;
  a->len = n;
  return parse_io(buf, a);
}

// /proc/self/io reads as Linux's first four lines, and nothing more.
static void
io_format(void)
{
  struct ioac a;
  int r = read_io(SELF_IO, &a);

  snprintf(d, sizeof d, "%s: %s; text \"%s\"", SELF_IO, val(r), r == -EINVAL ? buf : "");
  expect_true("format", r == 0, d);
}

// One write() of NBYTES: wchar grows by exactly NBYTES, syscw by 1.
static void
write_counted(int fd)
{
  struct ioac a, b;
  int ra = read_io(SELF_IO, &a);
  int w = write(fd, data, NBYTES);
  int rb = read_io(SELF_IO, &b);

  snprintf(d, sizeof d, "write %s; wchar +%ld, syscw +%ld, want +%d and +1", val(w),
           b.wchar - a.wchar, b.syscw - a.syscw, NBYTES);
  expect_true("write_counted", ra == 0 && rb == 0 && w == NBYTES &&
              b.wchar - a.wchar == NBYTES && b.syscw - a.syscw == 1, d);
}

// One read() of NBYTES: rchar grows by exactly NBYTES, syscr by 1, on top
// of the first reading's own read of the io file.
static void
read_counted(int fd)
{
  struct ioac a, b;
  int ra, r, rb;

  lseek(fd, 0, SEEK_SET);
  ra = read_io(SELF_IO, &a);
  r = read(fd, buf, NBYTES);
  rb = read_io(SELF_IO, &b);
  snprintf(d, sizeof d, "read %s; rchar +%ld, syscr +%ld, want +%d (%d of them the io file's) "
           "and +2", val(r), b.rchar - a.rchar, b.syscr - a.syscr, NBYTES + a.len, a.len);
  expect_true("read_counted", ra == 0 && rb == 0 && r == NBYTES &&
              b.rchar - a.rchar == NBYTES + a.len && b.syscr - a.syscr == 2, d);
}

static int writer_fd;           // where writer() writes

// A thread's body: write KBYTES, then end.
static void
writer(void *arg)
{
  write(writer_fd, data, KBYTES);
}

// Wait up to ticks for /proc/self/task/TID to be gone (opening is no
// read, so it costs nothing in the counts). Returns 1 if it went.
static int
await_gone(int tid, int ticks)
{
  char path[48];
  int t0 = uptime(), fd;

  snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
  while ((fd = open(path, O_RDONLY)) >= 0) {
    close(fd);
    if (uptime() - t0 >= ticks)
      return 0;
    sleep(1);
  }
  return 1;
}

// A thread writes KBYTES and ends; once it is gone from /proc, the
// process's io still counts its write (the sums of exited threads).
static void
ended_thread_counted(int fd)
{
  struct ioac a, b;
  int ra, rb, tid, joined, gone = 0;

  writer_fd = fd;
  ra = read_io(SELF_IO, &a);
  tid = thread_create(writer, 0);
  joined = tid > 0 ? thread_join(tid) : tid;
  if (joined == 0)
    gone = await_gone(tid, 2 * HZ);
  rb = read_io(SELF_IO, &b);
  snprintf(d, sizeof d, "thread %s, join %s, %s; wchar +%ld, syscw +%ld, want +%d and +1",
           val(tid), val(joined), gone ? "gone" : "still in /proc after 2 s",
           b.wchar - a.wchar, b.syscw - a.syscw, KBYTES);
  expect_true("ended_thread_counted", ra == 0 && rb == 0 && joined == 0 && gone &&
              b.wchar - a.wchar == KBYTES && b.syscw - a.syscw == 1, d);
}

// The wchar of this process's threads named iou-wrk-PID, summed, from
// /proc/PID/task/TID/io; -1 if there is none.
static long
workers_wchar(void)
{
  struct thr t[MAXTHR];
  struct ioac w;
  char name[20], path[64];
  long sum = -1;
  int n = list_threads(testpid, t, MAXTHR);

  snprintf(name, sizeof name, "iou-wrk-%d", testpid);
  for (int i = 0; i < n; i++) {
    snprintf(path, sizeof path, "/proc/%d/task/%d/io", testpid, t[i].tid);
    if (strcmp(t[i].ps.comm, name) == 0 && read_io(path, &w) == 0)
      sum = (sum < 0 ? 0 : sum) + w.wchar;
  }
  return sum;
}

// Submit two writes of UBYTES to fd, one forced to io-wq (IOSQE_ASYNC),
// one that io-wq gets after the inline attempt would block (a write to a
// disk file, as in 5.12), and wait for both. Returns how many completed
// with UBYTES, or a negative errno or NO_CQE.
static int
two_writes(struct io_uring *ring, int fd)
{
  struct io_uring_sqe *sqe;
  struct io_uring_cqe *cqe;
  int r, ok = 0;

  for (int i = 0; i < 2; i++) {
    sqe = io_uring_get_sqe(ring);
    io_uring_prep_write(sqe, fd, data, UBYTES, (unsigned long)i * UBYTES);
    io_uring_sqe_set_flags(sqe, i == 0 ? IOSQE_ASYNC : 0);
  }
  if ((r = io_uring_submit(ring)) != 2)
    return r < 0 ? r : -EIO;
  for (int i = 0; i < 2; i++) {
    if ((r = wait_cqe_ticks(ring, &cqe, 5 * HZ)) != 0)
      return r;
    ok += cqe->res == UBYTES;
    io_uring_cqe_seen(ring, cqe);
  }
  return ok;
}

// Writes through io-wq complete; the process's wchar grows by their bytes
// and syscw by one a write (the inline attempt that would have blocked
// does not count), but the submitting thread's do not: the iou-wrk
// workers that did the writes count them.
static void
uring_write(int fd)
{
  struct io_uring ring;
  struct ioac a, b, ma, mb;
  char mine[48];
  int ra, rb, rma, rmb, r;

  if (!ring_init(&ring, 4, 0))
    return;
  snprintf(mine, sizeof mine, "/proc/self/task/%d/io", gettid());
  ra = read_io(SELF_IO, &a);
  rma = read_io(mine, &ma);
  r = two_writes(&ring, fd);
  rb = read_io(SELF_IO, &b);
  rmb = read_io(mine, &mb);
  long wrk = workers_wchar();

  snprintf(d, sizeof d, "%s of 2 writes completed with res %d", val(r), UBYTES);
  if (expect_true("uring_write", r == 2, d)) {
    snprintf(d, sizeof d, "process: wchar +%ld syscw +%ld (want +%d, +2); submitter: wchar +%ld "
             "syscw +%ld (want 0); iou-wrk threads' wchar %ld (want >= %d)",
             b.wchar - a.wchar, b.syscw - a.syscw, 2 * UBYTES, mb.wchar - ma.wchar,
             mb.syscw - ma.syscw, wrk, 2 * UBYTES);
    expect_true("uring_write_counted", ra == 0 && rb == 0 && rma == 0 && rmb == 0 &&
                b.wchar - a.wchar == 2 * UBYTES && b.syscw - a.syscw == 2 &&
                mb.wchar == ma.wchar && mb.syscw == ma.syscw && wrk >= 2 * UBYTES, d);
  }
  io_uring_queue_exit(&ring);
}

// /proc/PID/io and /proc/PID/task/TID/io: Linux's rchar, wchar, syscr and
// syscw, counted exactly for write() and read(), kept for a thread that
// has ended, and counted to the io-wq worker that does a request.
void
t_ioacct(void)
{
  char path[48];
  int fd;

  for (int i = 0; i < (int)sizeof data; i++)
    data[i] = 'A' + i % 26;
  io_format();
  fd = open(IOFILE, O_CREAT | O_RDWR | O_TRUNC);
  if (!need("open " IOFILE, fd))
    return;
  write_counted(fd);
  read_counted(fd);
  ended_thread_counted(fd);
  uring_write(fd);
  close(fd);
  unlink(IOFILE);
  snprintf(path, sizeof path, "/proc/%d/task/99999/io", testpid);
  fd = open(path, O_RDONLY);
  snprintf(d, sizeof d, "open %s: %s, want an error", path, val(fd));
  expect_true("no_such_thread", fd < 0, d);
  if (fd >= 0)
    close(fd);
}
