// bench: what the kernel's basic paths cost, in nanoseconds per operation.
//
//   bench          every figure
//   bench NAME...  only these (syscall, signal, thread)
//
// Figures:
//   syscall   a null system call: getppid()
//   signal    a signal round trip: tgkill() to the calling thread, the
//             handler runs, sigreturn (raise() without its id lookups)
//   thread    thread_create() of a thread that returns at once + thread_join()
//
// Each figure is the median of RUNS runs of many operations; every run is
// printed too. Output, one line per figure (labs/grade/bench.sh reads it):
//   NAME NS ns/op  what  (median of RUNS runs: NS NS ...)
// and a first line naming the clock, a last line "bench: done".
//
// The clock: the riscv time CSR (rdtime, 10 MHz on QEMU virt; TCG's
// rdcycle does not count cycles faithfully) if user mode may read it,
// which a child process tries first; otherwise the kernel's tick counter
// (uptime(), HZ per second): a run then starts on a tick edge and counts
// the operations done in WINDOW ticks, so the only error is the partial
// operation at each end.

#include "user.h"

#define RUNS    5               // runs per figure; the median is reported
#define WINDOW  20              // ticks per run with the tick clock
#define TARGET_NS 100000000L    // aim for runs of 0.1 s with rdtime
#define TIMEBASE_HZ 10000000L   // QEMU virt's time CSR frequency

static int use_rdtime;          // the time CSR is readable in user mode

// ------------------------------------------------------------ clocks

// The time CSR. Only called once a child has shown it does not trap.
static inline unsigned long
rdtime(void)
{
  unsigned long t;

#if defined(__riscv)
  asm volatile("rdtime %0" : "=r"(t));
#else
  t = 0;
#endif
  return t;
}

// Does reading the time CSR work here? A child tries, so that an illegal
// instruction (SIGILL) kills only it.
static int
rdtime_works(void)
{
#if defined(__riscv)
  int pid = fork(), st = 0;

  if (pid == 0) {
    unsigned long a = rdtime(), b;
    for (volatile int i = 0; i < 10000; i++)
      ;
    b = rdtime();
    exit(b > a ? 0 : 1);
  }
  if (pid < 0 || waitpid(pid, &st, 0) != pid)
    return 0;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
#else
  return 0;
#endif
}

// ------------------------------------------------------------ operations

static int self_pid, self_tid;
static volatile int handled;

static void
on_usr1(int sig)
{
  handled++;
}

static void
nothing(void *arg)
{
}

static void
op_syscall(void)
{
  getppid();
}

static void
op_signal(void)
{
  tgkill(self_pid, self_tid, SIGUSR1);
}

static void
op_thread(void)
{
  int tid = thread_create(nothing, 0);

  if (tid > 0)
    thread_join(tid);
}

// ------------------------------------------------------------ measuring

// Do op n times; returns the nanoseconds it took, by rdtime.
static long
timed_ns(void (*op)(void), long n)
{
  unsigned long t0 = rdtime(), t1;

  for (long i = 0; i < n; i++)
    op();
  t1 = rdtime();
  return (long)((t1 - t0) * (1000000000L / TIMEBASE_HZ));
}

// One run by rdtime: n grows until a run lasts TARGET_NS; returns ns/op
// (and the operation count in *ops).
static long
run_rdtime(void (*op)(void), long *ops)
{
  long n = 16, ns;

  for (;;) {
    ns = timed_ns(op, n);
    if (ns >= TARGET_NS || n >= (1L << 30))
      break;
    n = ns > 0 ? n * (TARGET_NS / ns + 1) : n * 16;
  }
  *ops = n;
  return ns / n;
}

// One run by the tick clock: from a tick edge, count operations until
// WINDOW ticks have passed (looking at the clock every 64 operations, so
// that the look costs little); returns ns/op (and the count in *ops).
static long
run_ticks(void (*op)(void), long *ops)
{
  int start = uptime(), end;
  long n = 0;

  while (uptime() == start)     // wait for an edge
    ;
  start = uptime();
  end = start + WINDOW;
  while (uptime() < end) {
    for (int i = 0; i < 64; i++)
      op();
    n += 64;
  }
  *ops = n;
  return (long)WINDOW * (1000000000L / HZ) / n;
}

// Sort v[0..n-1] (a few values) in place.
static void
sort(long *v, int n)
{
  for (int i = 1; i < n; i++)
    for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
      long t = v[j];
      v[j] = v[j - 1];
      v[j - 1] = t;
    }
}

// Measure one figure and print its line.
static void
figure(const char *name, const char *what, void (*op)(void))
{
  long v[RUNS], ops = 0, total = 0;
  char runs[RUNS * 12 + 1], *p = runs;

  op();                         // warm up (malloc, page faults)
  for (int r = 0; r < RUNS; r++) {
    v[r] = use_rdtime ? run_rdtime(op, &ops) : run_ticks(op, &ops);
    total += ops;
  }
  for (int r = 0; r < RUNS; r++)
    p += snprintf(p, runs + sizeof runs - p, " %ld", v[r]);
  sort(v, RUNS);
  printf("%-8s %7ld ns/op  %s  (median of %d runs, %ld ops in all; runs:%s)\n",
         name, v[RUNS / 2], what, RUNS, total, runs);
}

static const struct {
  const char *name, *what;
  void (*op)(void);
} figures[] = {
  { "syscall", "getppid()", op_syscall },
  { "signal", "tgkill to self, handler, sigreturn", op_signal },
  { "thread", "thread_create + thread_join", op_thread },
};
#define NFIGURES ((int)(sizeof figures / sizeof figures[0]))

// Measure the figures named on the command line, or all.
int
main(int argc, char **argv)
{
  struct sigaction sa;
  int found;

  use_rdtime = rdtime_works();
  if (use_rdtime)
    printf("bench: clock: rdtime, %ld Hz\n", TIMEBASE_HZ);
  else
    printf("bench: clock: uptime ticks, %d Hz, %d-tick windows (rdtime traps in user mode)\n",
           HZ, WINDOW);
  self_pid = getpid();
  self_tid = gettid();
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_usr1;
  sigaction(SIGUSR1, &sa, NULL);
  for (int i = 0; i < NFIGURES; i++) {
    found = argc < 2;
    for (int a = 1; a < argc; a++)
      found |= strcmp(argv[a], figures[i].name) == 0;
    if (found)
      figure(figures[i].name, figures[i].what, figures[i].op);
  }
  printf("bench: done\n");
  return 0;
}
