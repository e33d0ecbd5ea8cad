// Per-task I/O accounting: what /proc/<pid>/io and /proc/<pid>/task/<tid>/io
// show. Linux's names and meaning (include/linux/task_io_accounting.h).
// A task keeps one (task->ioac) and its thread group's signal_struct keeps
// another, the sums of the threads that have exited (signal->ioac).
#ifndef TASKLAB_TASK_IO_ACCOUNTING_H
#define TASKLAB_TASK_IO_ACCOUNTING_H
#include "types.h"

struct task_io_accounting {
  u64 rchar;   // bytes that read-like calls returned (pipes and consoles too)
  u64 wchar;   // bytes that write-like calls took
  u64 syscr;   // read-like calls that reached a file, whatever they returned
  u64 syscw;   // write-like calls that reached a file, whatever they returned
};

// Add src's counts into dst. The caller holds whatever guards dst (the
// siglock for a signal_struct's sums; nothing for a local copy); src may
// be a live task's, read without a lock, since only that task writes it.
static inline void task_io_accounting_add(struct task_io_accounting *dst,
                                          const struct task_io_accounting *src)
{
  dst->rchar += src->rchar;
  dst->wchar += src->wchar;
  dst->syscr += src->syscr;
  dst->syscw += src->syscw;
}
#endif
