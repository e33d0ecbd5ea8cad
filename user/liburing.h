// A small io_uring library with liburing's names (user/lib/liburing.c).
// The rings are mapped by io_uring_setup() itself; there is no mmap.
#ifndef TASKLAB_LIBURING_H
#define TASKLAB_LIBURING_H
#include "kernel/io_uring_abi.h"

struct io_uring_sq {
  unsigned *khead, *ktail, *kring_mask, *kring_entries, *kflags, *kdropped, *array;
  struct io_uring_sqe *sqes;
  unsigned sqe_head, sqe_tail;   // handed out by get_sqe, not yet submitted
};

struct io_uring_cq {
  unsigned *khead, *ktail, *kring_mask, *kring_entries, *koverflow;
  struct io_uring_cqe *cqes;
};

struct io_uring {
  struct io_uring_sq sq;
  struct io_uring_cq cq;
  unsigned flags;
  int ring_fd;
};

int io_uring_setup(unsigned entries, struct io_uring_params *p);          // system calls
int io_uring_enter(int fd, unsigned to_submit, unsigned min_complete, unsigned flags);

int io_uring_queue_init(unsigned entries, struct io_uring *ring, unsigned flags);
int io_uring_queue_init_params(unsigned entries, struct io_uring *ring, struct io_uring_params *p);
void io_uring_queue_exit(struct io_uring *ring);
struct io_uring_sqe *io_uring_get_sqe(struct io_uring *ring);   // NULL when the SQ is full
int io_uring_submit(struct io_uring *ring);                     // SQEs submitted, or -errno
int io_uring_wait_cqe(struct io_uring *ring, struct io_uring_cqe **cqe);
int io_uring_peek_cqe(struct io_uring *ring, struct io_uring_cqe **cqe);  // -EAGAIN if none
void io_uring_cqe_seen(struct io_uring *ring, struct io_uring_cqe *cqe);
void io_uring_prep_nop(struct io_uring_sqe *sqe);
void io_uring_prep_read(struct io_uring_sqe *sqe, int fd, void *buf, unsigned n, unsigned long off);
void io_uring_prep_write(struct io_uring_sqe *sqe, int fd, const void *buf, unsigned n, unsigned long off);
void io_uring_prep_fsync(struct io_uring_sqe *sqe, int fd, unsigned flags);

static inline void io_uring_sqe_set_data(struct io_uring_sqe *sqe, void *data)
{ sqe->user_data = (unsigned long)data; }
static inline void *io_uring_cqe_get_data(const struct io_uring_cqe *cqe)
{ return (void *)cqe->user_data; }
static inline void io_uring_sqe_set_flags(struct io_uring_sqe *sqe, unsigned flags)
{ sqe->flags = flags; }
#endif
