// io-wq: a process's pool of I/O worker threads (Linux 5.12's fs/io-wq.c).
#ifndef TASKLAB_IO_WQ_H
#define TASKLAB_IO_WQ_H
#include "task.h"
#include "sleeplock.h"

#define WORKER_IDLE_TIMEOUT (5 * HZ)   // an idle worker exits after this...
#define IO_WQ_MAX_WORKERS   16         // ...unless it is the fixed one

#define IO_WQ_WORK_UNBOUND  0x1   // may block indefinitely (pipes, consoles)
#define IO_WQ_WORK_CANCEL   0x2   // cancelled: complete it without running

// One piece of work; io_uring embeds it in each request it punts.
struct io_wq_work {
  struct io_wq_work *next;
  u32 flags;
  void *owner;                               // for cancelling by owner
  void (*fn)(struct io_wq_work *work);       // run it and complete it
  void (*cancel)(struct io_wq_work *work);   // complete it, -ECANCELED
};

enum { IO_WQ_ACCT_BOUND, IO_WQ_ACCT_UNBOUND, IO_WQ_ACCT_NR };

#define IO_WORKER_F_USED  0x1
#define IO_WORKER_F_FREE  0x2   // idle, waiting for work
#define IO_WORKER_F_FIXED 0x4   // the first worker: never exits when idle

struct io_worker {
  u32 flags;
  int acct;
  struct task *task;
  struct io_wq_work *cur;      // running now
  void *cur_owner;             // cur->owner, copied: once cur's request has
                               // completed, its memory may be reused
  struct io_wq *wq;
};

struct io_wq {
  int refs;                    // atomic: the process's, and each ring's with work here
  struct spinlock lock;        // guards everything below
  struct io_wq_work *head, *tail;   // pending work, oldest first
  struct io_worker workers[IO_WQ_MAX_WORKERS];
  int nr_workers[IO_WQ_ACCT_NR];
  int max_workers[IO_WQ_ACCT_NR];
  bool exiting;                // IO_WQ_BIT_EXIT
  bool manager_alive;
  struct task *manager;
  int tgid;
};

struct io_wq *io_wq_get(void);      // the current process's pool, made on first use, referenced
void io_wq_enqueue(struct io_wq *wq, struct io_wq_work *work);
void io_wq_cancel_owner(struct io_wq *wq, void *owner);
void io_wq_exit(struct signal_struct *sig);
void io_wq_ref(struct io_wq *wq);
void io_wq_put(struct io_wq *wq);
void io_flush_signals(struct task *t);
void set_notify_signal(struct task *t);
#endif
