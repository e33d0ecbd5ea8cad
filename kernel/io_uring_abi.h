// The io_uring interface shared by the kernel and user space: Linux's
// structures, numbers and names, except that there is no mmap: the rings
// are mapped by io_uring_setup() itself, at addresses it returns in the
// params (sq_ring_ptr, cq_ring_ptr, sqes_ptr).
#ifndef TASKLAB_IO_URING_ABI_H
#define TASKLAB_IO_URING_ABI_H

// One submission queue entry (64 bytes, Linux's layout).
struct io_uring_sqe {
  unsigned char opcode;       // IORING_OP_*
  unsigned char flags;        // IOSQE_*
  unsigned short ioprio;
  int fd;
  unsigned long off;          // file offset; -1: the file's own position
  unsigned long addr;         // buffer
  unsigned int len;
  unsigned int rw_flags;
  unsigned long user_data;    // copied into the completion
  unsigned short buf_index;
  unsigned short personality;
  int splice_fd_in;
  unsigned long pad[2];
};

// One completion queue entry (16 bytes).
struct io_uring_cqe {
  unsigned long user_data;
  int res;                    // result, or -errno
  unsigned int flags;
};

#define IORING_OP_NOP    0
#define IORING_OP_FSYNC  3
#define IORING_OP_READ   22
#define IORING_OP_WRITE  23

#define IOSQE_ASYNC      (1U << 4)   // always go through io-wq

#define IORING_SETUP_SQPOLL  (1U << 1)
#define IORING_SQ_NEED_WAKEUP (1U << 0)   // sq flags: the SQPOLL thread sleeps

#define IORING_ENTER_GETEVENTS (1U << 0)
#define IORING_ENTER_SQ_WAKEUP (1U << 1)

#define IORING_MAX_ENTRIES 256

struct io_sqring_offsets {
  unsigned int head, tail, ring_mask, ring_entries, flags, dropped, array, resv1;
  unsigned long resv2;
};

struct io_cqring_offsets {
  unsigned int head, tail, ring_mask, ring_entries, overflow, cqes, flags, resv1;
  unsigned long resv2;
};

struct io_uring_params {
  unsigned int sq_entries;
  unsigned int cq_entries;
  unsigned int flags;          // IORING_SETUP_*
  unsigned int sq_thread_cpu;
  unsigned int sq_thread_idle; // SQPOLL idle window in ms (0: 1000)
  unsigned int features;
  unsigned int wq_fd;
  unsigned int resv[3];
  struct io_sqring_offsets sq_off;
  struct io_cqring_offsets cq_off;
  // tasklab: where the rings are mapped in the caller's address space.
  unsigned long sq_ring_ptr;   // sq_off and cq_off are relative to this
  unsigned long cq_ring_ptr;   // the same region (one mapping holds both)
  unsigned long sqes_ptr;
};
#endif
