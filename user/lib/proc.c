// Reading /proc: small files, status fields, stat lines, the pid and tid
// directories. See user/proc.h.

#include "user.h"
#include "proc.h"

#include "kernel/fs_format.h"

#define DIRBATCH 16             // directory records per read()

// Read the small file path into buf, NUL-terminated (at most size-1
// bytes). Returns the length, or -errno if the open or a read fails.
int
readfile(const char *path, char *buf, int size)
{
  int fd, n = 0, len = 0;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    return fd;
  while (len < size - 1 && (n = read(fd, buf + len, size - 1 - len)) > 0)
    len += n;
  close(fd);
  buf[len] = 0;
  return n < 0 ? n : len;
}

// The value of field name ("State:", with its colon) in the text of a
// status or meminfo file, after the tabs and spaces; NULL if absent.
const char *
proc_field(const char *text, const char *name)
{
  const char *p = strstr(text, name);

  if (!p)
    return NULL;
  p += strlen(name);
  while (*p == ' ' || *p == '\t')
    p++;
  return p;
}

// Read /proc/PID/task/TID/status into buf, as readfile() does.
int
task_status(int pid, int tid, char *buf, int size)
{
  char path[64];

  snprintf(path, sizeof path, "/proc/%d/task/%d/status", pid, tid);
  return readfile(path, buf, size);
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

// Parse the text of a stat file into ps. The name may hold spaces and
// parentheses, so it ends at the last ')'; utime and stime are fields 14
// and 15, as on Linux. Returns 0, or -EINVAL if the text is malformed.
int
parse_stat(const char *text, struct procstat *ps)
{
  const char *lp = strchr(text, '('), *rp = strrchr(text, ')'), *s;
  int len;

  if (!lp || !rp || rp < lp || rp[1] != ' ')
    return -EINVAL;
  len = rp - lp - 1;
  if (len >= (int)sizeof ps->comm)
    len = sizeof ps->comm - 1;
  memmove(ps->comm, lp + 1, len);
  ps->comm[len] = 0;
  ps->state = rp[2];
  s = rp + 3;
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
int
read_stat(const char *path, struct procstat *ps)
{
  char buf[512];
  int r = readfile(path, buf, sizeof buf);

  if (r < 0)
    return r;
  return parse_stat(buf, ps);
}

// Read and parse /proc/PID/task/TID/stat. Returns 0 or -errno.
int
task_stat(int pid, int tid, struct procstat *ps)
{
  char path[64];

  snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tid);
  return read_stat(path, ps);
}

// The state letter of thread tid of process pid, or 0 if it is gone.
char
task_state(int pid, int tid)
{
  struct procstat ps;

  return task_stat(pid, tid, &ps) < 0 ? 0 : ps.state;
}

// The id that directory entry de names, or -1 if it is not a decimal
// number (".", "..", or a file such as "self").
static int
entry_id(const struct dirent *de)
{
  char name[DIRSIZ + 1];

  if (de->inum == 0)
    return -1;
  memmove(name, de->name, DIRSIZ);
  name[DIRSIZ] = 0;
  for (int i = 0; name[i]; i++)
    if (name[i] < '0' || name[i] > '9')
      return -1;
  return name[0] ? atoi(name) : -1;
}

// The ids (pids or tids) that directory dir lists, in its order, into ids:
// the first max of them. Returns how many, or -errno if dir cannot be
// opened (its process has ended) or read.
int
proc_ids(const char *dir, int *ids, int max)
{
  struct dirent de[DIRBATCH];
  int fd, n, count = 0, id;

  fd = open(dir, O_RDONLY);
  if (fd < 0)
    return fd;
  while ((n = read(fd, de, sizeof de)) > 0)
    for (int i = 0; i < n / (int)sizeof de[0]; i++)
      if ((id = entry_id(&de[i])) > 0 && count < max)
        ids[count++] = id;
  close(fd);
  return n < 0 ? n : count;
}

// The tids in /proc/PID/task, as proc_ids() gives them.
int
task_ids(int pid, int *ids, int max)
{
  char path[32];

  snprintf(path, sizeof path, "/proc/%d/task", pid);
  return proc_ids(path, ids, max);
}

// The bytes process pid has read and written so far (rchar + wchar of
// /proc/PID/io, every thread's, I/O threads' included): a measure of its
// progress that moves while its threads wait for the disk, when its CPU
// time does not. Returns -1 if the process is gone or has no io file.
long
proc_io(int pid)
{
  char path[32], buf[256];
  const char *r, *w;

  snprintf(path, sizeof path, "/proc/%d/io", pid);
  if (readfile(path, buf, sizeof buf) < 0)
    return -1;
  r = proc_field(buf, "rchar:");
  w = proc_field(buf, "wchar:");
  if (!r || !w)
    return -1;
  return atol(r) + atol(w);
}

// Set /proc/sys/kernel/io_thread_race_ticks to ticks: how long each
// create_io_thread() then waits inside its race window; the window open
// now, if any, closes (racetest, stopjoin). Returns 0 or -errno.
int
set_io_thread_race_ticks(int ticks)
{
  char b[16];
  int fd = open("/proc/sys/kernel/io_thread_race_ticks", O_WRONLY), r;

  if (fd < 0)
    return fd;
  snprintf(b, sizeof b, "%d\n", ticks);
  r = write(fd, b, strlen(b));
  close(fd);
  return r < 0 ? r : 0;
}

// The CPU time of process pid so far, in ticks (every thread's, from
// /proc/PID/stat), or -1 if it is gone.
static long
proc_ticks(int pid)
{
  char path[32];
  struct procstat ps;

  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  return read_stat(path, &ps) < 0 ? -1 : (long)ps.ticks;
}

// Start watching process pid for progress, from now: see io_idle_check().
// spin > 0 also watches for threads that spin: that many ticks of CPU
// time used with no I/O.
void
io_idle_start(struct io_idle *w, int pid, int secs, int spin)
{
  w->pid = pid;
  w->secs = secs;
  w->spin = spin;
  w->t0 = w->t_io = uptime();
  w->io = proc_io(pid);
  w->cpu = proc_ticks(pid);
}

// Look at the process again (every poll). Returns IO_MOVING while it still
// makes progress; IO_IDLE once it has read and written nothing for secs
// seconds in a row; IO_SPINNING once it has used spin ticks of CPU time
// since its last I/O (a measure of work, so a slow machine cannot fake
// it); IO_TOO_LONG once 10 * secs have passed since the start however
// much it did (the bound on a wait for a slow machine).
int
io_idle_check(struct io_idle *w)
{
  long now = proc_io(w->pid), cpu = proc_ticks(w->pid);

  if (now != w->io) {
    w->io = now;
    w->t_io = uptime();
    w->cpu = cpu;
  }
  if (uptime() - w->t_io >= w->secs * HZ)
    return IO_IDLE;
  if (w->spin > 0 && cpu >= 0 && w->cpu >= 0 && cpu - w->cpu >= w->spin)
    return IO_SPINNING;
  if (uptime() - w->t0 >= 10 * w->secs * HZ)
    return IO_TOO_LONG;
  return IO_MOVING;
}

// Print why a wait was given up on, for io_idle_check()'s verdict:
// "no I/O for 3 s", "1.00 s of CPU time and no I/O (spinning)" or "I/O
// all along for 30 s".
void
io_idle_print(struct io_idle *w, int verdict)
{
  if (verdict == IO_IDLE) {
    printf("no I/O for %d s", w->secs);
  } else if (verdict == IO_SPINNING) {
    print_secs(w->spin);
    printf(" of CPU time and no I/O (spinning)");
  } else {
    printf("I/O all along for %d s", 10 * w->secs);
  }
}

// /proc/diskstats' line: the disk's name (at most 15 bytes) into name and
// its counters into f[0..n-1] (Linux's order: reads, reads merged,
// sectors read, ms reading, writes, writes merged, sectors written, ms
// writing, ...). Returns how many counters it read, at most n; -1 if the
// file cannot be read.
int
read_diskstats(char *name, long *f, int n)
{
  char s[256], *p = s;
  int k = 0, i;

  if (readfile("/proc/diskstats", s, sizeof(s)) < 0)
    return -1;
  for (int w = 0; w < 2; w++) {               // major, minor
    while (*p == ' ')
      p++;
    while (*p >= '0' && *p <= '9')
      p++;
  }
  while (*p == ' ')
    p++;
  for (i = 0; *p && *p != ' ' && i < 15; i++)
    name[i] = *p++;
  name[i] = 0;
  while (k < n) {
    while (*p == ' ')
      p++;
    if (*p < '0' || *p > '9')
      break;
    for (f[k] = 0; *p >= '0' && *p <= '9'; p++)
      f[k] = f[k] * 10 + (*p - '0');
    k++;
  }
  return k;
}

// The interrupts /proc/interrupts counts for one source, summed over the
// CPUs: name is the line's label ("LOC", "14") or its last word, the
// device ("virtio0", "ide0", "ttyS0"). Sets *ncpu to the line's number of
// counts (one per CPU). Returns the sum; -1 if the file cannot be read or
// has no such line.
long
read_interrupts(const char *name, int *ncpu)
{
  char s[1024], *line, *p, *end, *last;
  long sum;
  int n;

  if (readfile("/proc/interrupts", s, sizeof(s)) < 0)
    return -1;
  for (line = strchr(s, '\n'); line && *++line; line = end) {
    if ((end = strchr(line, '\n')))
      *end = 0;
    for (p = line; *p == ' '; p++)
      ;
    char *label = p;
    if (!(p = strchr(p, ':')))
      break;
    *p++ = 0;
    for (sum = 0, n = 0;; n++) {
      while (*p == ' ')
        p++;
      if (*p < '0' || *p > '9')
        break;
      for (long v = 0;; p++) {
        if (*p < '0' || *p > '9') {
          sum += v;
          break;
        }
        v = v * 10 + (*p - '0');
      }
    }
    last = strrchr(p, ' ') ? strrchr(p, ' ') + 1 : p;
    if (strcmp(label, name) == 0 || strcmp(last, name) == 0) {
      *ncpu = n;
      return sum;
    }
    if (!end)
      break;
  }
  return -1;
}

// The disk's interrupts, summed over the CPUs: virtio0 on riscv64, ide0
// on x86_64, as Linux names them. Sets *ncpu as read_interrupts() does.
// Returns -1 if /proc/interrupts has neither line.
long
read_disk_interrupts(int *ncpu)
{
  long n = read_interrupts("virtio0", ncpu);
  return n >= 0 ? n : read_interrupts("ide0", ncpu);
}
