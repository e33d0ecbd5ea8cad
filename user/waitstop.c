// waitstop [-t SECS] CMD [ARG...]: run CMD as our child and tell what its
// parent (us) learns about it through waitpid(), as a shell would: is a
// stop reported?
//
//   waitstop: PID 5 started: uringcp -l -a big out
//
// Then, polling ten times a second with waitpid(WUNTRACED | WCONTINUED |
// WNOHANG) and /proc/PID/stat:
//   - when /proc first shows the main thread stopped (T), someone sent a
//     stop signal (kill -STOP PID):
//       waitstop: PID 5: main thread stopped (T); waiting 3 s for waitpid to report the stop
//   - a stop waitpid reports (the whole group stopped):
//       waitstop: PID 5 reported stopped by signal 19 (STOP) after 0.12 s
//   - SECS seconds after the main thread stopped, with no report:
//       waitstop: PID 5 not reported stopped within 3 s; threads: 5 T uringcp, 6 R iou-mgr-5, ...
//       waitstop: PID 5: 4 of 5 threads never stopped
//   - a continue:  waitstop: PID 5 continued
//   - the end:     waitstop: PID 5 killed by signal 9 (KILL)   (or "exited N")
//
// Exit status: 1 if a stop was seen in /proc but never reported, 2 on a
// usage or start error, else 0. CMD without a '/' is looked for in /.

#include "user.h"

typedef unsigned short u16;     // fs_format.h uses the kernel's names
typedef unsigned int u32;
#include "kernel/fs_format.h"

#define POLL (HZ / 10)
#define MAXPATH 128             // path bytes, NUL included (kernel/param.h)

// Read the small file path into b (NUL-terminated); length or -errno.
static int
readfile(const char *path, char *b, int size)
{
  int fd = open(path, O_RDONLY), n = 0, len = 0;

  if (fd < 0)
    return fd;
  while (len < size - 1 && (n = read(fd, b + len, size - 1 - len)) > 0)
    len += n;
  close(fd);
  b[len] = 0;
  return n < 0 ? n : len;
}

// The state letter and name in a stat file's text ("5 (name) S ...");
// the state, or 0 if the text is not one.
static char
parse_stat(const char *s, char *name, int size)
{
  const char *p = strchr(s, '('), *e = strrchr(s, ')');
  int n;

  if (!p || !e || e < p || e[1] != ' ')
    return 0;
  n = e - p - 1 < size - 1 ? e - p - 1 : size - 1;
  memcpy(name, p + 1, n);
  name[n] = 0;
  return e[2];
}

// The state letter of thread tid of process pid, or 0 if it is gone.
static char
thread_state(int pid, int tid)
{
  char path[64], st[256], name[32];

  snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
  if (readfile(path, st, sizeof st) <= 0)
    return 0;
  return parse_stat(st, name, sizeof name);
}

// Print "tid S name, ..." for every thread of pid; return how many are
// not stopped (T) through *notstopped, and how many there are.
static int
show_threads(int pid, int *notstopped)
{
  struct dirent de;
  char path[64], st[256], name[32], nm[DIRSIZ + 1], out[1024];
  int fd, n = 0, len = 0;
  char s;

  *notstopped = 0;
  out[0] = 0;
  snprintf(path, sizeof path, "/proc/%d/task", pid);
  fd = open(path, O_RDONLY);
  if (fd < 0)
    return 0;
  while (read(fd, &de, sizeof de) == sizeof de) {
    if (de.inum == 0 || de.name[0] < '0' || de.name[0] > '9')
      continue;
    memcpy(nm, de.name, DIRSIZ);
    nm[DIRSIZ] = 0;
    snprintf(path, sizeof path, "/proc/%d/task/%s/stat", pid, nm);
    if (readfile(path, st, sizeof st) <= 0 || !(s = parse_stat(st, name, sizeof name)))
      continue;
    n++;
    if (s != 'T')
      (*notstopped)++;
    if (len < (int)sizeof out - 40)
      len += snprintf(out + len, sizeof out - len, "%s%s %c %s", n > 1 ? ", " : "", nm, s, name);
  }
  close(fd);
  printf("waitstop: threads of %d: %s\n", pid, out);
  return n;
}

// Seconds and hundredths, for ticks.
static void
print_secs(int ticks)
{
  printf("%d.%02d s", ticks / HZ, ticks % HZ * 100 / HZ);
}

int
main(int argc, char *argv[])
{
  // watch: 0 waiting for the main thread to stop; 1 it has, waiting for
  // the report; 2 this stop is over (reported, or given up on) until a
  // continue.
  int secs = 3, i = 1, pid, st, r, watch = 0, unreported = 0;
  int t_stop = 0, nthreads, notstopped;
  char path[MAXPATH];

  if (argc > 2 && strcmp(argv[1], "-t") == 0) {
    secs = atoi(argv[2]);
    i = 3;
  }
  if (i >= argc || secs <= 0) {
    fprintf(STDERR, "usage: waitstop [-t SECS] CMD [ARG...]\n");
    return 2;
  }
  if (strchr(argv[i], '/'))
    snprintf(path, sizeof path, "%s", argv[i]);
  else
    snprintf(path, sizeof path, "/%s", argv[i]);
  pid = fork();
  if (pid < 0) {
    fprintf(STDERR, "waitstop: fork: %s\n", strerror(pid));
    return 2;
  }
  if (pid == 0) {
    r = exec(path, argv + i);
    fprintf(STDERR, "waitstop: %s: %s\n", path, strerror(r));
    exit(127);
  }
  printf("waitstop: PID %d started:", pid);
  for (int k = i; k < argc; k++)
    printf(" %s", argv[k]);
  printf("\n");

  for (;;) {
    r = waitpid(pid, &st, WUNTRACED | WCONTINUED | WNOHANG);
    if (r < 0) {
      fprintf(STDERR, "waitstop: waitpid: %s\n", strerror(r));
      return 2;
    }
    if (r == pid && WIFSTOPPED(st)) {
      printf("waitstop: PID %d reported stopped by signal %d (%s)", pid, WSTOPSIG(st),
             signame(WSTOPSIG(st)) ? signame(WSTOPSIG(st)) : "?");
      if (watch == 1) {
        printf(" after ");
        print_secs(uptime() - t_stop);
      }
      printf("\n");
      watch = 2;
      unreported = 0;
    } else if (r == pid && WIFCONTINUED(st)) {
      printf("waitstop: PID %d continued\n", pid);
      watch = 0;
    } else if (r == pid) {
      if (WIFSIGNALED(st))
        printf("waitstop: PID %d killed by signal %d (%s)\n", pid, WTERMSIG(st),
               signame(WTERMSIG(st)) ? signame(WTERMSIG(st)) : "?");
      else
        printf("waitstop: PID %d exited %d\n", pid, WEXITSTATUS(st));
      return unreported;
    }
    if (watch == 0 && thread_state(pid, pid) == 'T') {
      watch = 1;
      t_stop = uptime();
      printf("waitstop: PID %d: main thread stopped (T); waiting %d s for waitpid to report the stop\n",
             pid, secs);
    }
    if (watch == 1 && uptime() - t_stop >= secs * HZ) {
      watch = 2;
      unreported = 1;
      printf("waitstop: PID %d not reported stopped within %d s\n", pid, secs);
      nthreads = show_threads(pid, &notstopped);
      printf("waitstop: PID %d: %d of %d threads never stopped\n", pid, notstopped, nthreads);
    }
    sleep(POLL);
  }
}
