// io_uring helpers with liburing's names, over io_uring_setup/enter.
#include "user.h"
#include "liburing.h"

#define PTR(base, off) ((void *)((char *)(base) + (off)))

static unsigned load_acquire(unsigned *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store_release(unsigned *p, unsigned v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

int io_uring_queue_init_params(unsigned entries, struct io_uring *ring, struct io_uring_params *p)
{
  int fd = io_uring_setup(entries, p);
  if (fd < 0)
    return fd;
  memset(ring, 0, sizeof(*ring));
  void *sq = (void *)p->sq_ring_ptr, *cq = (void *)p->cq_ring_ptr;
  ring->sq.khead = PTR(sq, p->sq_off.head);
  ring->sq.ktail = PTR(sq, p->sq_off.tail);
  ring->sq.kring_mask = PTR(sq, p->sq_off.ring_mask);
  ring->sq.kring_entries = PTR(sq, p->sq_off.ring_entries);
  ring->sq.kflags = PTR(sq, p->sq_off.flags);
  ring->sq.kdropped = PTR(sq, p->sq_off.dropped);
  ring->sq.array = PTR(sq, p->sq_off.array);
  ring->sq.sqes = (void *)p->sqes_ptr;
  ring->sq.sqe_head = ring->sq.sqe_tail = *ring->sq.ktail;
  ring->cq.khead = PTR(cq, p->cq_off.head);
  ring->cq.ktail = PTR(cq, p->cq_off.tail);
  ring->cq.kring_mask = PTR(cq, p->cq_off.ring_mask);
  ring->cq.kring_entries = PTR(cq, p->cq_off.ring_entries);
  ring->cq.koverflow = PTR(cq, p->cq_off.overflow);
  ring->cq.cqes = PTR(cq, p->cq_off.cqes);
  ring->flags = p->flags;
  ring->ring_fd = fd;
  return 0;
}

int io_uring_queue_init(unsigned entries, struct io_uring *ring, unsigned flags)
{
  struct io_uring_params p;
  memset(&p, 0, sizeof(p));
  p.flags = flags;
  return io_uring_queue_init_params(entries, ring, &p);
}

void io_uring_queue_exit(struct io_uring *ring)
{
  close(ring->ring_fd);
  ring->ring_fd = -1;
}

struct io_uring_sqe *io_uring_get_sqe(struct io_uring *ring)
{
  struct io_uring_sq *sq = &ring->sq;
  if (sq->sqe_tail - load_acquire(sq->khead) >= *sq->kring_entries)
    return NULL;
  struct io_uring_sqe *sqe = &sq->sqes[sq->sqe_tail & *sq->kring_mask];
  sq->sqe_tail++;
  memset(sqe, 0, sizeof(*sqe));
  return sqe;
}

// Publish the SQEs handed out since the last submit. Returns how many
// SQEs the kernel has not consumed yet, these and any left over from an
// earlier submit that stopped short (-EBUSY), like liburing's
// __io_uring_flush_sq(): submitting that many retries the leftovers.
static unsigned flush_sq(struct io_uring *ring)
{
  struct io_uring_sq *sq = &ring->sq;
  unsigned tail = *sq->ktail;
  for (; sq->sqe_head != sq->sqe_tail; sq->sqe_head++, tail++)
    sq->array[tail & *sq->kring_mask] = sq->sqe_head & *sq->kring_mask;
  store_release(sq->ktail, tail);
  return tail - load_acquire(sq->khead);
}

int io_uring_submit(struct io_uring *ring)
{
  unsigned n = flush_sq(ring);
  if (ring->flags & IORING_SETUP_SQPOLL) {
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    if (load_acquire(ring->sq.kflags) & IORING_SQ_NEED_WAKEUP)
      io_uring_enter(ring->ring_fd, n, 0, IORING_ENTER_SQ_WAKEUP);
    return n;
  }
  return n ? io_uring_enter(ring->ring_fd, n, 0, 0) : 0;
}

int io_uring_peek_cqe(struct io_uring *ring, struct io_uring_cqe **cqe)
{
  struct io_uring_cq *cq = &ring->cq;
  unsigned head = *cq->khead;
  if (head == load_acquire(cq->ktail)) {
    *cqe = NULL;
    return -EAGAIN;
  }
  *cqe = &cq->cqes[head & *cq->kring_mask];
  return 0;
}

int io_uring_wait_cqe(struct io_uring *ring, struct io_uring_cqe **cqe)
{
  for (;;) {
    if (io_uring_peek_cqe(ring, cqe) == 0)
      return 0;
    int r = io_uring_enter(ring->ring_fd, 0, 1, IORING_ENTER_GETEVENTS);
    if (r < 0 && r != -EINTR)
      return r;
  }
}

void io_uring_cqe_seen(struct io_uring *ring, struct io_uring_cqe *cqe)
{
  (void)cqe;
  store_release(ring->cq.khead, *ring->cq.khead + 1);
}

void io_uring_prep_nop(struct io_uring_sqe *sqe)
{
  sqe->opcode = IORING_OP_NOP;
}

static void prep_rw(struct io_uring_sqe *sqe, int op, int fd, const void *buf, unsigned n,
                    unsigned long off)
{
  sqe->opcode = op;
  sqe->fd = fd;
  sqe->addr = (unsigned long)buf;
  sqe->len = n;
  sqe->off = off;
}

void io_uring_prep_read(struct io_uring_sqe *sqe, int fd, void *buf, unsigned n, unsigned long off)
{
  prep_rw(sqe, IORING_OP_READ, fd, buf, n, off);
}

void io_uring_prep_write(struct io_uring_sqe *sqe, int fd, const void *buf, unsigned n,
                         unsigned long off)
{
  prep_rw(sqe, IORING_OP_WRITE, fd, buf, n, off);
}

void io_uring_prep_fsync(struct io_uring_sqe *sqe, int fd, unsigned flags)
{
  prep_rw(sqe, IORING_OP_FSYNC, fd, NULL, 0, 0);
  sqe->rw_flags = flags;
}
