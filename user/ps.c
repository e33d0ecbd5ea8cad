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

typedef unsigned short u16;     // fs_format.h uses the kernel's names
typedef unsigned int u32;
#include "kernel/fs_format.h"

#define DIRBATCH 16             // directory records per read()

// What ps shows of one task, parsed from a stat file.
struct pstat {
  char comm[32];
  char state;
  ulong ticks;                  // utime + stime
};

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

// Read the small file path into buf (NUL-terminated). Returns the length
// or -errno.
static int
readfile(const char *path, char *buf, int size)
{
  int fd, n, len = 0;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    return fd;
  while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
    len += n;
  close(fd);
  buf[len] = 0;
  return n < 0 ? n : len;
}

// Skip one space-separated field of s; returns what follows.
static const char *
skipfield(const char *s)
{
  while (*s == ' ')
    s++;
  while (*s && *s != ' ')
    s++;
  return s;
}

// Parse "pid (comm) state ppid ... utime stime ..." (Linux order: utime is
// field 14, stime 15). The name may hold spaces or parentheses, so it ends
// at the last ')'. Returns 0, or -EINVAL if the text is malformed.
static int
parse_stat(const char *s, struct pstat *ps)
{
  const char *open = strchr(s, '('), *close = strrchr(s, ')');
  int len;

  if (!open || !close || close < open || close[1] != ' ')
    return -EINVAL;
  len = close - open - 1;
  if (len >= (int)sizeof ps->comm)
    len = sizeof ps->comm - 1;
  memmove(ps->comm, open + 1, len);
  ps->comm[len] = 0;
  ps->state = close[2];
  s = close + 3;
  for (int field = 4; field < 14; field++)      // ppid .. cmajflt
    s = skipfield(s);
  if (!*s)
    return -EINVAL;
  ps->ticks = atol(s);
  s = skipfield(s);
  if (!*s)
    return -EINVAL;
  ps->ticks += atol(s);
  return 0;
}

// Read and parse the stat file at path. Returns 0 or -errno.
static int
read_stat(const char *path, struct pstat *ps)
{
  char buf[512];
  int r = readfile(path, buf, sizeof buf);

  if (r < 0)
    return r;
  if (parse_stat(buf, ps) < 0)
    return -EINVAL;
  return 0;
}

// Is name a decimal number (a pid or tid directory)?
static int
numeric(const char *name)
{
  if (!name[0])
    return 0;
  for (int i = 0; i < DIRSIZ && name[i]; i++)
    if (name[i] < '0' || name[i] > '9')
      return 0;
  return 1;
}

// Call fn(id, arg) for each numeric entry of directory path, in the order
// the directory lists them. Returns 0 or the error of open/read.
static int
for_each_id(const char *path, void (*fn)(int id, int arg), int arg)
{
  struct dirent de[DIRBATCH];
  char name[DIRSIZ + 1];
  int fd, n;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    return fd;
  while ((n = read(fd, de, sizeof de)) > 0) {
    for (int i = 0; i < n / (int)sizeof de[0]; i++) {
      if (de[i].inum == 0)
        continue;
      memmove(name, de[i].name, DIRSIZ);
      name[DIRSIZ] = 0;
      if (numeric(name))
        fn(atoi(name), arg);
    }
  }
  close(fd);
  return n < 0 ? n : 0;
}

// Print one line; tid < 0 leaves the TID column out.
static void
print_line(int pid, int tid, struct pstat *ps)
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
show_thread(int tid, int pid)
{
  char path[64];
  struct pstat ps;
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
  struct pstat ps;
  int r;

  if (threads) {
    snprintf(path, sizeof path, "/proc/%d/task", pid);
    r = for_each_id(path, show_thread, pid);
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
  int threads = 0, only = 0, r;

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
    r = for_each_id("/proc", show_process, threads);
    if (r < 0)
      complain("/proc", r);
  }
  return status;
}
