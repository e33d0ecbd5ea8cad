// top: CPU use per process or per thread, in batch mode, from /proc.
//
//   top -b [-n N] [-d SECS] [-H] [-p PID]
//
// Prints N frames (default: until killed), one every SECS seconds
// (default 3; fractions such as 0.5 work, down to one tick). A frame is a
// header (uptime, task counts by state, memory from /proc/meminfo) and a
// table, busiest first:
//
//     PID S  %CPU    TIME+ COMMAND            (-H:  PID   TID S ...)
//
// %CPU is the task's user+system ticks over the interval (from
// /proc/<pid>/stat, or /proc/<pid>/task/<tid>/stat with -H) divided by the
// ticks that passed (uptime()), times 100: a thread that spins shows near
// 100, a process with several spinning threads more, as on Linux. TIME+
// is the total CPU time as m:ss.hh (HZ is 100).
//
// The first frame: procps shows 0.0 there, having no earlier sample. This
// top takes a first sample at start and prints frame 1 one interval later,
// so every frame, the first included, shows real rates (and -n 1 is
// useful); N frames take N intervals.
//
// Only batch mode exists: -b is accepted and implied.

#include "user.h"
#include "proc.h"

#define MAXENT 128              // tasks in one sample (NTASK is 64)

// One task as seen in one sample.
struct entry {
  int pid, tid;                 // tid == pid for a process line
  struct procstat ps;           // name, state, utime + stime
  ulong pct10;                  // %CPU times 10, over the last interval
};

struct sample {
  int when;                     // uptime() as it was taken
  int n;
  struct entry e[MAXENT];
};

static struct sample samples[2];
static int threads;             // -H
static int only;                // -p PID, or 0

// Add the task whose stat file is path to sample s. A task that has just
// ended (the read fails) is left out.
static void
add_entry(struct sample *s, const char *path, int pid, int tid)
{
  struct entry *e;

  if (s->n >= MAXENT)
    return;
  e = &s->e[s->n];
  if (read_stat(path, &e->ps) < 0)
    return;
  e->pid = pid;
  e->tid = tid;
  e->pct10 = 0;
  s->n++;
}

// Sample process pid: one entry, or one per thread with -H.
static void
sample_process(struct sample *s, int pid)
{
  char path[64];
  int tids[MAXENT], n;

  if (!threads) {
    snprintf(path, sizeof path, "/proc/%d/stat", pid);
    add_entry(s, path, pid, pid);
    return;
  }
  n = task_ids(pid, tids, MAXENT);
  for (int i = 0; i < n; i++) {
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tids[i]);
    add_entry(s, path, pid, tids[i]);
  }
}

// Take a whole sample into s.
static void
take_sample(struct sample *s)
{
  int pids[MAXENT], n;

  s->when = uptime();
  s->n = 0;
  if (only) {
    sample_process(s, only);
    return;
  }
  n = proc_ids("/proc", pids, MAXENT);
  for (int i = 0; i < n; i++)
    sample_process(s, pids[i]);
}

// Set each entry's pct10 in cur from its ticks in prev (a task absent
// from prev was born during the interval: all its ticks count).
static void
compute_rates(struct sample *cur, struct sample *prev)
{
  ulong elapsed = cur->when - prev->when, used;

  if (elapsed == 0)
    elapsed = 1;
  for (int i = 0; i < cur->n; i++) {
    struct entry *e = &cur->e[i];
    used = e->ps.ticks;
    for (int j = 0; j < prev->n; j++)
      if (prev->e[j].tid == e->tid && prev->e[j].ps.ticks <= e->ps.ticks) {
        used = e->ps.ticks - prev->e[j].ps.ticks;
        break;
      }
    e->pct10 = (used * 1000 + elapsed / 2) / elapsed;
  }
}

// Does a come before b: busier first, then by pid and tid?
static int
before(struct entry *a, struct entry *b)
{
  if (a->pct10 != b->pct10)
    return a->pct10 > b->pct10;
  if (a->pid != b->pid)
    return a->pid < b->pid;
  return a->tid < b->tid;
}

// Sort the sample's entries for display (insertion sort: n is small).
static void
sort_entries(struct sample *s)
{
  struct entry tmp;

  for (int i = 1; i < s->n; i++) {
    tmp = s->e[i];
    int j = i;
    for (; j > 0 && before(&tmp, &s->e[j - 1]); j--)
      s->e[j] = s->e[j - 1];
    s->e[j] = tmp;
  }
}

// The value of field name (e.g. "MemFree:") in /proc/meminfo, or 0.
static ulong
meminfo(const char *buf, const char *name)
{
  const char *p = proc_field(buf, name);

  return p ? atol(p) : 0;
}

// The header: uptime, tasks by state, memory.
static void
print_header(struct sample *s)
{
  int run = 0, sleep_ = 0, stop = 0, zomb = 0;
  ulong up = s->when / HZ;
  char buf[256];

  for (int i = 0; i < s->n; i++) {
    switch (s->e[i].ps.state) {
    case 'R': run++; break;
    case 'S': case 'D': sleep_++; break;
    case 'T': case 't': stop++; break;
    case 'Z': zomb++; break;
    }
  }
  printf("top - up %lu:%02lu:%02lu\n", up / 3600, up / 60 % 60, up % 60);
  printf("%s %3d total, %3d running, %3d sleeping, %3d stopped, %3d zombie\n",
         threads ? "Threads:" : "Tasks:", s->n, run, sleep_, stop, zomb);
  if (readfile("/proc/meminfo", buf, sizeof buf) > 0)
    printf("KiB Mem: %8lu total, %8lu free\n", meminfo(buf, "MemTotal:"), meminfo(buf, "MemFree:"));
  printf("\n");
}

// The table, already sorted.
static void
print_table(struct sample *s)
{
  if (threads)
    printf("  PID   TID S  %%CPU    TIME+ COMMAND\n");
  else
    printf("  PID S  %%CPU    TIME+ COMMAND\n");
  for (int i = 0; i < s->n; i++) {
    struct entry *e = &s->e[i];
    ulong t = e->ps.ticks;
    if (threads)
      printf("%5d %5d ", e->pid, e->tid);
    else
      printf("%5d ", e->pid);
    printf("%c %3lu.%lu %3lu:%02lu.%02lu %s\n", e->ps.state, e->pct10 / 10, e->pct10 % 10,
           t / HZ / 60, t / HZ % 60, t % HZ, e->ps.comm);
  }
}

// Seconds as "3", "0.5" or "1.25" in ticks (at least 1), or -1.
static int
parse_secs(const char *s)
{
  long ticks = 0, scale = HZ;
  int digits = 0;

  for (; *s >= '0' && *s <= '9'; s++, digits++)
    ticks = ticks * 10 + (*s - '0') * HZ;
  if (*s == '.')
    for (s++; *s >= '0' && *s <= '9'; s++, digits++)
      if ((scale /= 10) > 0)
        ticks += (*s - '0') * scale;
  if (*s || !digits || ticks > 1000L * HZ)
    return -1;
  return ticks > 0 ? ticks : 1;
}

static void
usage(void)
{
  fprintf(STDERR, "usage: top -b [-n N] [-d SECS] [-H] [-p PID]\n");
  exit(2);
}

int
main(int argc, char **argv)
{
  int frames = -1, delay = 3 * HZ, cur = 0, wait;

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-b") == 0)
      continue;
    else if (strcmp(argv[i], "-H") == 0)
      threads = 1;
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      frames = atoi(argv[++i]);
    else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc && (delay = parse_secs(argv[++i])) > 0)
      continue;
    else if (strcmp(argv[i], "-p") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      only = atoi(argv[++i]);
    else
      usage();
  }
  take_sample(&samples[cur]);
  for (int f = 0; frames < 0 || f < frames; f++) {
    wait = samples[cur].when + delay - uptime();
    if (wait > 0)
      sleep(wait);
    cur ^= 1;
    take_sample(&samples[cur]);
    compute_rates(&samples[cur], &samples[cur ^ 1]);
    sort_entries(&samples[cur]);
    if (f > 0)
      printf("\n");
    print_header(&samples[cur]);
    print_table(&samples[cur]);
  }
  return 0;
}
