// Reading /proc (user/lib/proc.c), for ps, top, mgdb and the tests.
// Include after user.h. Files are read whole into the caller's buffer;
// a task that ends while it is read gives an error (ENOENT or ESRCH),
// which callers treat as "gone".
#ifndef TASKLAB_PROC_H
#define TASKLAB_PROC_H

// What /proc/.../stat says of one task: "tid (comm) S ppid ... utime stime ...".
struct procstat {
  char comm[32];                // the task's name (at most 15 bytes on this kernel)
  char state;                   // Linux's state letter: R S D T t Z X
  ulong ticks;                  // utime + stime, in ticks of 1/HZ s
};

int readfile(const char *path, char *buf, int size);
const char *proc_field(const char *text, const char *name);
int task_status(int pid, int tid, char *buf, int size);
int parse_stat(const char *text, struct procstat *ps);
int read_stat(const char *path, struct procstat *ps);
int task_stat(int pid, int tid, struct procstat *ps);
char task_state(int pid, int tid);
int proc_ids(const char *dir, int *ids, int max);
int task_ids(int pid, int *ids, int max);
long proc_io(int pid);
int set_io_thread_race_ticks(int ticks);
int read_diskstats(char *name, long *f, int n);
long read_interrupts(const char *name, int *ncpu);
long read_disk_interrupts(int *ncpu);

// Watching a process for progress, as its I/O count (proc_io()) moves:
// waitstop and iowatch give up on a wait only once it stands still.
struct io_idle {
  int pid, secs, spin;           // spin: ticks of CPU with no I/O that mean spinning (0: ignored)
  int t0, t_io;                 // uptime() at the start, at the last I/O seen
  long io, cpu;                 // proc_io() then, and the CPU ticks
};
enum { IO_MOVING, IO_IDLE, IO_SPINNING, IO_TOO_LONG };
void io_idle_start(struct io_idle *w, int pid, int secs, int spin);
int io_idle_check(struct io_idle *w);
void io_idle_print(struct io_idle *w, int verdict);

#endif
