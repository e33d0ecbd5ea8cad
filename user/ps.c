// ps: list processes, or every thread, from /proc.
//
//   ps            one line per process:  PID STAT TIME COMMAND
//   ps -T         one line per thread:   PID TID STAT TIME COMMAND
//   ps -p PID     only that process (with -T: its threads)
//
// Everything comes from /proc/<pid>/stat and /proc/<pid>/task/<tid>/stat:
// STAT is Linux's state letter (R S D T t Z X), TIME is user plus system
// CPU time (ticks of 1/HZ s) as m:ss, COMMAND is the task name. A process
// or thread that ends while the listing is made is skipped silently
// (ENOENT or ESRCH); any other error is reported and makes ps exit 1.

#include "user.h"
#include "proc.h"

#define MAXIDS 128              // pids or tids in one listing (NTASK is 64)

static int status;              // exit status: 1 after an unexpected error
static int shown;               // lines printed (besides the header)

// Is err what reading a task that just ended gives?
static int
vanished(int err)
{
  return err == -ENOENT || err == -ESRCH;
}

// Report an unexpected error about path (ENOENT and ESRCH are expected).
static void
complain(const char *path, int err)
{
  if (vanished(err))
    return;
  fprintf(STDERR, "ps: %s: %s\n", path, strerror(err));
  status = 1;
}

// Print one line; tid < 0 leaves the TID column out.
static void
print_line(int pid, int tid, struct procstat *ps)
{
  ulong secs = ps->ticks / HZ;

  shown++;
  if (tid >= 0)
    printf("%5d %5d %c    %3lu:%02lu %s\n", pid, tid, ps->state, secs / 60, secs % 60, ps->comm);
  else
    printf("%5d %c    %3lu:%02lu %s\n", pid, ps->state, secs / 60, secs % 60, ps->comm);
}

// One thread of process pid (ps -T).
static void
show_thread(int pid, int tid)
{
  char path[64];
  struct procstat ps;
  int r;

  snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
  r = read_stat(path, &ps);
  if (r < 0)
    complain(path, r);
  else
    print_line(pid, tid, &ps);
}

// One process: a line, or with threads set one line per thread.
static void
show_process(int pid, int threads)
{
  char path[64];
  struct procstat ps;
  int tids[MAXIDS], r;

  if (threads) {
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    r = proc_ids(path, tids, MAXIDS);
    for (int i = 0; i < r; i++)
      show_thread(pid, tids[i]);
  } else {
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    r = read_stat(path, &ps);
    if (r == 0)
      print_line(pid, -1, &ps);
  }
  if (r < 0)
    complain(path, r);
}

static void
usage(void)
{
  fprintf(STDERR, "usage: ps [-T] [-p PID]\n");
  exit(2);
}

int
main(int argc, char **argv)
{
  int threads = 0, only = 0, pids[MAXIDS], n;

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-T") == 0)
      threads = 1;
    else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      only = atoi(argv[++i]);
    else
      usage();
  }
  if (threads)
    printf("  PID   TID STAT   TIME COMMAND\n");
  else
    printf("  PID STAT   TIME COMMAND\n");
  if (only) {
    show_process(only, threads);
    if (!shown)
      status = 1;             // like procps: no such process
  } else {
    n = proc_ids("/proc", pids, MAXIDS);
    if (n < 0)
      complain("/proc", n);
    for (int i = 0; i < n; i++)
      show_process(pids[i], threads);
  }
  return status;
}
