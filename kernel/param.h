// Sizes and limits of the kernel's tables.
#ifndef TASKLAB_PARAM_H
#define TASKLAB_PARAM_H
#define NCPU         8                  // most CPUs supported
#define NTASK        64                 // tasks (threads) system-wide
#define NOFILE       16                 // open files per process
#define NFILE        100                // open files system-wide
#define NINODE       64                 // in-memory inodes
#define NDEV         8                  // device major numbers
#define NBUF         (MAXOPBLOCKS * 5)  // buffer cache blocks (log pins up to 3x)
#define MAXARG       32                 // exec arguments
#define MAXPATH      128                // path name bytes, NUL included
#define HZ           100                // timer ticks per second
#define KSTACK_SIZE  16384              // kernel stack per task
#define USTACK_SIZE  16384              // initial user stack
#define TASK_COMM_LEN 16                // task name, NUL included (Linux)
#define PAGE_SIZE    4096
#define PAGE_SHIFT   12
#define PAGE_ALIGN(a)   (((a) + PAGE_SIZE - 1) & ~(u64)(PAGE_SIZE - 1))
#define PAGE_ALIGN_DOWN(a) ((a) & ~(u64)(PAGE_SIZE - 1))
#endif
