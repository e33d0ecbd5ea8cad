// uringcp [-l] [-a] [-s] [-S] [-t] SRC DST: copy a file through io_uring, with the
// algorithm of liburing's examples/io_uring-cp.c.
//
//   -l   copy again and again, forever, one second apart (Stefan
//        Metzmacher's variant from his March 2021 report): the same ring
//        serves every pass, so its I/O threads stay alive between passes
//   -a   set IOSQE_ASYNC on every request: io-wq workers do all the I/O
//   -s   IORING_SETUP_SQPOLL: an iou-sqp thread submits for us
//   -S   stop itself (SIGSTOP to its own process) right after its first
//        requests are submitted: a stop that lands mid-copy, with I/O
//        threads at work, however fast the machine is (the graders)
//   -t   start a second user thread once the first requests are submitted,
//        so after the I/O threads: it only sleeps, and /proc/PID/task
//        lists it after them (a program that starts its threads lazily;
//        the hide grader looks for it)
//
// The algorithm. The file is cut into chunks of BS bytes; each chunk in
// flight has a record (struct io_data): whether it is being read or
// written, the offset it starts at and its length, the offset its next
// transfer starts at, and an iovec for what is left of its buffer.
// Until every byte is written:
//   1. queue reads of the next chunks until reads + writes in flight
//      reach QD, and submit them;
//   2. wait for one completion, then take every other one that is ready:
//      -EAGAIN or a short transfer queues the rest of the chunk again
//      (from where it stopped); a finished read becomes the write of the
//      same record at the same offset; a finished write frees the record.
// Requests queued in step 2 are submitted before the next wait.
//
// Errors are printed with strerror; the exit status is then 1 (2 for a
// usage error).

#include "user.h"
#include "liburing.h"

#define QD 64                   // requests in flight at most
#define BS (32 * 1024)          // bytes per chunk

struct iovec {
  void *iov_base;
  size_t iov_len;
};

// One chunk in flight.
struct io_data {
  int read;                     // 1: being read from SRC; 0: being written to DST
  ulong first_offset;           // where the chunk starts, in both files
  ulong offset;                 // where the next transfer of it starts
  size_t first_len;             // the chunk's length
  struct iovec iov;             // what is left to transfer
};

static struct io_uring ring;
static int infd, outfd;
static const char *src, *dst;
static unsigned sqe_flags;      // IOSQE_ASYNC with -a
static int unsubmitted;         // SQEs queued since the last submit
static int stop_once;            // -S: stop ourselves after the first submit
static int late_thread;          // -t: start a sleeping thread after the first submit

// Print "uringcp: WHAT: error" and exit 1.
static void
die(const char *what, int err)
{
  fprintf(STDERR, "uringcp: %s: %s\n", what, strerror(err));
  exit(1);
}

// Queue data's next transfer: a read from SRC or a write to DST of what
// is left of its buffer, at its current offset. Submitted later.
static void
queue_prepped(struct io_data *data)
{
  struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);

  // At most QD requests are ever in flight and the SQ has QD entries.
  if (!sqe)
    die("io_uring_get_sqe", -EBUSY);
  if (data->read)
    io_uring_prep_read(sqe, infd, data->iov.iov_base, data->iov.iov_len, data->offset);
  else
    io_uring_prep_write(sqe, outfd, data->iov.iov_base, data->iov.iov_len, data->offset);
  io_uring_sqe_set_flags(sqe, sqe_flags);
  io_uring_sqe_set_data(sqe, data);
  unsubmitted++;
}

// Start reading the size bytes at offset into a new record (its buffer
// follows it in the same allocation).
static void
queue_read(size_t size, ulong offset)
{
  struct io_data *data = malloc(sizeof(*data) + size);

  if (!data)
    die("malloc", -ENOMEM);
  data->read = 1;
  data->offset = data->first_offset = offset;
  data->iov.iov_base = data + 1;
  data->iov.iov_len = size;
  data->first_len = size;
  queue_prepped(data);
}

// The chunk of data has been read whole: write it at the same offset.
static void
queue_write(struct io_data *data)
{
  data->read = 0;
  data->offset = data->first_offset;
  data->iov.iov_base = data + 1;
  data->iov.iov_len = data->first_len;
  queue_prepped(data);
}

// Hand the queued SQEs to the kernel.
static void
submit(void)
{
  int r;

  if (unsubmitted == 0)
    return;
  r = io_uring_submit(&ring);
  if (r < 0)
    die("io_uring_submit", r);
  unsubmitted = 0;
}

// -t's thread: it sleeps until the process ends.
static void
sleeper(void *arg)
{
  (void)arg;
  for (;;)
    sleep(HZ);
}

// Copy insize bytes of SRC to DST.
static void
copy_file(ulong insize)
{
  ulong offset = 0, write_left = insize;
  int reads = 0, writes = 0, r, got_comp;
  struct io_uring_cqe *cqe;
  struct io_data *data;
  size_t this_size;

  while (insize || write_left || reads || writes) {
    // Queue as many reads as the depth allows.
    while (insize && reads + writes < QD) {
      this_size = insize > BS ? BS : insize;
      queue_read(this_size, offset);
      insize -= this_size;
      offset += this_size;
      reads++;
    }
    submit();
    if (late_thread) {          // -t: a thread with a tid above the I/O threads'
      late_thread = 0;
      r = thread_create(sleeper, 0);
      if (r < 0)
        die("thread_create", r);
    }
    if (stop_once) {            // -S: the stop comes now, mid-copy
      stop_once = 0;
      kill(getpid(), SIGSTOP);
    }

    // The queue is full (or the file all asked for): reap at least one.
    got_comp = 0;
    for (;;) {
      if (!got_comp) {
        r = io_uring_wait_cqe(&ring, &cqe);
        got_comp = 1;
      } else {
        r = io_uring_peek_cqe(&ring, &cqe);
        if (r == -EAGAIN)
          break;
      }
      if (r < 0)
        die("io_uring_wait_cqe", r);
      data = io_uring_cqe_get_data(cqe);
      if (cqe->res == -EAGAIN) {
        queue_prepped(data);
      } else if (cqe->res < 0) {
        die(data->read ? src : dst, cqe->res);
      } else if (cqe->res == 0 && data->iov.iov_len > 0) {
        // Nothing moved: SRC shrank under us, or DST cannot grow.
        fprintf(STDERR, "uringcp: %s: unexpected end of file at byte %lu\n",
                data->read ? src : dst, data->offset);
        exit(1);
      } else if ((size_t)cqe->res != data->iov.iov_len) {
        // Short transfer: queue the rest of the chunk.
        data->iov.iov_base = (char *)data->iov.iov_base + cqe->res;
        data->iov.iov_len -= cqe->res;
        data->offset += cqe->res;
        queue_prepped(data);
      } else if (data->read) {
        queue_write(data);
        write_left -= data->first_len;
        reads--;
        writes++;
      } else {
        free(data);
        writes--;
      }
      io_uring_cqe_seen(&ring, cqe);
    }
    submit();
  }
}

static void
usage(void)
{
  fprintf(STDERR, "usage: uringcp [-l] [-a] [-s] [-S] [-t] SRC DST\n");
  exit(2);
}

int
main(int argc, char *argv[])
{
  int loop = 0, setup = 0, i, r;
  struct stat st;

  for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    for (char *p = argv[i] + 1; *p; p++) {
      if (*p == 'l')
        loop = 1;
      else if (*p == 'a')
        sqe_flags |= IOSQE_ASYNC;
      else if (*p == 'S')
        stop_once = 1;
      else if (*p == 't')
        late_thread = 1;
      else if (*p == 's')
        setup |= IORING_SETUP_SQPOLL;
      else
        usage();
    }
  }
  if (argc - i != 2)
    usage();
  src = argv[i];
  dst = argv[i + 1];

  infd = open(src, O_RDONLY);
  if (infd < 0)
    die(src, infd);
  outfd = open(dst, O_WRONLY | O_CREAT | O_TRUNC);
  if (outfd < 0)
    die(dst, outfd);
  r = io_uring_queue_init(QD, &ring, setup);
  if (r < 0)
    die("io_uring_queue_init", r);

  for (;;) {
    r = fstat(infd, &st);
    if (r < 0)
      die(src, r);
    copy_file(st.size);
    if (!loop)
      break;
    sleep(HZ);
  }
  io_uring_queue_exit(&ring);
  close(infd);
  r = close(outfd);
  if (r < 0)
    die(dst, r);
  return 0;
}
