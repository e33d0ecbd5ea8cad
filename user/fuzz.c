// fuzz: call every system call with random and boundary arguments, from
// several processes and threads at once, in the spirit of trinity and
// syzkaller, and check that the kernel survives it.
//
//   fuzz [-s SEED] [-n CALLS] [-t THREADS] [-p PROCS]
//
// The seed is printed first, so that a failing run can be replayed: each
// thread's sequence of calls and arguments follows from the seed, its
// process and its thread number alone (the interleaving of threads does
// not, as with any fuzzer of a real kernel). PROCS worker processes
// (default 2) each run THREADS threads (default 3), and the CALLS are
// shared out among them; a worker that dies (a random rt_sigreturn, a
// bad clone stack) or makes no progress for 10 s is killed and replaced
// with the next one, from the next seed. Arguments come from a pool of
// boundary values: 0, -1, INT_MIN, INT_MAX, page edges, kernel addresses,
// unmapped and read-only user memory, huge lengths, descriptors open and
// closed, paths (most under /fz); rings get scribbled headers and SQEs;
// signals and ptrace go to the fuzzer's own tids; fork and exit storms.
//
// Left out, so that the fuzzer tests the kernel rather than the machine:
// poweroff and fault_inject (they end the run on purpose), mknod (a device
// file could reach the console and take the shell's input), and signals to
// tasks outside the fuzzer.
//
// Checks, one line each: the calls were made (with calls per second); no
// worker was left stuck in the kernel (it could not be reaped after
// SIGKILL); free memory came back to its start once every worker exited.
// The closing line is "N passed, N failed".

#include "user.h"
#include "liburing.h"

#define MAXPROCS   8
#define MAXTHREADS 8
#define SCRATCH    (4 * 4096)
#define STALL      (10 * HZ)     // a worker making no calls this long is killed

#define SYSCALL(nr, name) { nr, #name },
static const struct { int nr; const char *name; } calls[] = {
#include "kernel/syscalls.h"
};
#undef SYSCALL
#define NCALLS ((int)(sizeof calls / sizeof calls[0]))

static ulong seed = 1, ncalls = 20000;
static int nthreads = 3, nprocs = 2;
static int passed, failed;

// ------------------------------------------------------------ randomness

// xorshift64*: small, fast, and the same on both ports.
static ulong
rnd(ulong *s)
{
  ulong x = *s;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *s = x;
  return x * 0x2545F4914F6CDD1DUL;
}

static ulong
seed_for(ulong base, int proc, int thread)
{
  ulong s = base * 0x9E3779B97F4A7C15UL + proc * 0x100000001B3UL + thread + 1;
  for (int i = 0; i < 4; i++)
    rnd(&s);
  return s ? s : 1;
}

// ------------------------------------------------------------ the pool

static char *scratch;                   // a writable buffer of SCRATCH bytes
static volatile int own_tids[64];       // tids of this worker
static int nown;

static const char *const paths[] = {
  "/fz/a", "/fz/b", "/fz/d", "/fz/d/x", "/fz", "/fz/../fz/a", "/", "/proc", "/proc/meminfo",
  "/proc/self", "/proc/1/stat", "/fz/no/such", "",
  "/fz/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "/proc/interrupts", "/proc/diskstats", "/fz/p",
};
#define NPATHS ((int)(sizeof paths / sizeof paths[0]))

// A kernel address of this port, and the first address past user space.
#if defined(__x86_64__)
#define KERNEL_ADDR 0xffff800000000000UL
#define USER_END    0x800000000000UL
#else
#define KERNEL_ADDR 0xffffffc080000000UL
#define USER_END    0x4000000000UL
#endif

static void fuzz_one(ulong *s, int depth);

// A value for an argument: a boundary, an address of some kind, a small
// number, a descriptor, a path, a tid of ours.
static long
arg(ulong *s)
{
  ulong r = rnd(s);
  switch (r % 24) {
  case 0: return 0;
  case 1: return -1;
  case 2: return (int)0x80000000;
  case 3: return 0x7fffffff;
  case 4: return 4095 + (long)(r >> 8 & 3);                  // around a page edge
  case 5: return KERNEL_ADDR + (r >> 8 & 0xfff8);
  case 6: return 0x40000000 + (r >> 8 & 0xfff);              // unmapped user memory
  case 7: return (long)fuzz_one & ~7L;                       // read-only user memory (text)
  case 8: return (long)(scratch + (r >> 8) % SCRATCH);       // writable, maybe to the edge
  case 9: return 1L << (32 + (r >> 8) % 24);                 // huge
  case 10: return USER_END - 8 + (r >> 8 & 15);              // the top of user space
  case 11: case 12: case 13: return (long)(r >> 8) % 20;     // small: fds, flags, lengths
  case 14: case 15: return (long)paths[(r >> 8) % NPATHS];
  case 16: return nown ? own_tids[(r >> 8) % nown] : 0;
  case 17: return (long)(r >> 8) % 65;                       // signal numbers
  case 18: return (long)(scratch + SCRATCH - 8);
  case 19: return -(long)((r >> 8) % 4096);                  // -errno-like
  case 20: return (long)(r >> 8) % 4096;
  default: return (long)r;
  }
}

// Is a kill/tgkill/ptrace target one of ours? Others are left alone.
static int
ours(long pid)
{
  for (int i = 0; i < nown; i++)
    if (own_tids[i] == pid)
      return 1;
  return 0;
}

// ------------------------------------------------------------ one call

static struct io_uring ring;
static int have_ring;

// Set up a ring, scribble pool values over its header and SQEs, enter.
static void
ring_storm(ulong *s)
{
  if (!have_ring && io_uring_queue_init(1 + rnd(s) % 16, &ring, rnd(s) % 4 ? 0 : IORING_SETUP_SQPOLL) == 0)
    have_ring = 1;
  if (!have_ring)
    return;
  unsigned *hdr = ring.sq.khead;
  for (int i = 0; i < 4; i++) {
    ulong r = rnd(s);
    if (r & 1)
      hdr[(r >> 1) % 12] = (unsigned)arg(s);
    else
      ((ulong *)ring.sq.sqes)[(r >> 1) % 8] = (ulong)arg(s);
  }
  io_uring_enter(ring.ring_fd, rnd(s) % 40, rnd(s) % 3, rnd(s) % 4);
  if (rnd(s) % 8 == 0) {
    close(ring.ring_fd);
    have_ring = 0;
  }
}

// A child that makes a few calls of its own and exits (fork storms).
static void fuzz_one(ulong *s, int depth);

static void
fork_storm(ulong *s, int depth)
{
  int pid = fork();
  if (pid == 0) {
    ulong cs = rnd(s) | 1;
    for (int i = 0; i < 8; i++)
      fuzz_one(&cs, depth + 1);
    exit(0);
  }
  if (pid > 0 && nown < 64)
    own_tids[nown++] = pid;
  if (pid > 0 && rnd(s) % 2)
    waitpid(pid, 0, 0);
}

// One random system call with random arguments, minus the ones that would
// end the run or leave the fuzzer.
static void
fuzz_one(ulong *s, int depth)
{
  ulong r = rnd(s);
  int i = r % (NCALLS + 3);
  long a[6];

  if (i == NCALLS) {
    ring_storm(s);
    return;
  }
  if (i == NCALLS + 1) {
    if (depth == 0)
      fork_storm(s, depth);
    return;
  }
  if (i == NCALLS + 2) {
    while (waitpid(-1, 0, WNOHANG) > 0)
      ;
    return;
  }
  for (int k = 0; k < 6; k++)
    a[k] = arg(s);
  const char *n = calls[i].name;
  if (!strcmp(n, "poweroff") || !strcmp(n, "fault_inject") || !strcmp(n, "mknod") ||
      !strcmp(n, "exit") || !strcmp(n, "exit_thread") || !strcmp(n, "rt_sigreturn") ||
      !strcmp(n, "pause") || !strcmp(n, "sigsuspend") || !strcmp(n, "tcsetpgrp"))
    return;                              // see the top of this file
  if (!strcmp(n, "fork") && depth > 0)
    return;
  if (!strcmp(n, "kill") && !ours(a[0]))
    a[0] = getpid();
  if (!strcmp(n, "ptrace") && !ours(a[1]))
    a[1] = getpid();
  if (!strcmp(n, "setpgid"))
    a[0] = a[1] = 0;                     // our own group, never the shell's
  if (!strcmp(n, "kill") && (a[1] == SIGKILL || a[1] == SIGSTOP))
    a[1] = SIGCONT;                      // ours to keep: we would stop ourselves
  if (!strcmp(n, "tgkill") && (!ours(a[1]) || a[2] == SIGKILL || a[2] == SIGSTOP))
    return;
  if (!strcmp(n, "sleep"))
    a[0] = rnd(s) % 3;                   // bounded waits
  if (!strcmp(n, "futex") && a[1] == 0)
    a[2] = rnd(s);                       // a FUTEX_WAIT that finds another value
  if (!strcmp(n, "sbrk")) {              // grow, and give back only what we grew:
    static long grown;                   // the heap below holds thread stacks
    a[0] = grown >= 4096 && rnd(s) % 2 ? -4096 : 4096;
    if (syscall(calls[i].nr, a[0], 0, 0, 0, 0, 0) != -ENOMEM)
      __atomic_fetch_add(&grown, a[0], __ATOMIC_RELAXED);
    return;
  }
  if (!strcmp(n, "clone") || !strcmp(n, "rt_sigaction"))
    if (rnd(s) % 4)
      return;                           // rarely: most end the worker
  if (!strcmp(n, "read") && a[0] == 0)
    return;                             // stdin is the console
  long ret = syscall(calls[i].nr, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (!strcmp(n, "fork") && ret == 0)
    exit(0);
  if (!strcmp(n, "fork") && ret > 0 && nown < 64)
    own_tids[nown++] = ret;
}

// ------------------------------------------------------------ workers

static volatile ulong progress;         // calls made by this worker
static ulong worker_calls, worker_seed;
static int worker_index;

// Each thread's loop: calls until the worker's share is made. The thread
// number t and its restart count pick its sequence.
static void
fuzz_thread(void *arg)
{
  ulong s = seed_for(worker_seed, worker_index, (int)(long)arg);
  while (__atomic_fetch_add(&progress, 1, __ATOMIC_RELAXED) < worker_calls)
    fuzz_one(&s, 0);
}

// A fault in a fuzzing thread (a random rt_sigreturn, a bad clone stack,
// a page sbrk took away) ends that thread only.
static void
thread_faulted(int sig)
{
  (void)sig;
  thread_exit();
}

// A worker process (number index of the campaign): its main thread keeps
// THREADS fuzzing threads going (a thread that faults is replaced) until
// n calls are made, then writes how many to rep and exits 0. Standard
// input and output are moved off the console first.
static void
worker(int index, ulong n, int rep)
{
  int tids[MAXTHREADS], starts = 0;
  char line[32];

  worker_index = index;
  worker_seed = seed;
  worker_calls = n;
  close(0);                             // the console stays the shell's
  open("/fz/in", O_CREAT | O_RDWR);
  close(1);
  open("/fz/out", O_CREAT | O_RDWR);
  close(2);
  dup(1);
  scratch = sbrk(SCRATCH);
  if (scratch == (char *)-1)
    exit(3);
  signal(SIGSEGV, thread_faulted);
  signal(SIGBUS, thread_faulted);
  signal(SIGILL, thread_faulted);
  signal(SIGFPE, thread_faulted);
  own_tids[nown++] = getpid();
  for (int t = 0; t < nthreads; t++)
    tids[t] = 0;
  while (progress < worker_calls) {
    for (int t = 0; t < nthreads; t++) {
      if (tids[t] > 0)
        thread_join(tids[t]);           // ended: its share is done, or it faulted
      tids[t] = progress < worker_calls ? thread_create(fuzz_thread, (void *)(long)(starts++)) : 0;
      if (tids[t] > 0 && nown < 64)
        own_tids[nown++] = tids[t];
    }
  }
  for (int t = 0; t < nthreads; t++)
    if (tids[t] > 0)
      thread_join(tids[t]);
  snprintf(line, sizeof line, "%lu\n", progress < worker_calls ? progress : worker_calls);
  write(rep, line, strlen(line));
  exit(0);
}

static void
check(const char *name, int ok, const char *detail)
{
  if (ok) {
    passed++;
    printf("PASS fuzz.%s\n", name);
  } else {
    failed++;
    printf("FAIL fuzz.%s: %s\n", name, detail);
  }
}

// ------------------------------------------------------------ supervisor

#define WORKER_CALLS 2000               // a worker's share, then a new one
#define WORKER_TICKS (60 * HZ)          // its time; then it is killed
#define REAP_TICKS   (10 * HZ)          // SIGKILL to reaped, at most
#define MAXWORKERS(n) (int)(4 * ((n) / WORKER_CALLS) + 8)   // then the campaign gives up

struct slot {
  int pid;                              // 0: free; -1: lost (stuck in the kernel)
  int rep;                              // the read end of its report pipe
  int start;                            // uptime() when it started
};

// The calls worker sl reported on exiting 0 (it writes them, then exits).
static ulong
worker_report(struct slot *sl)
{
  char line[32];
  int n = read(sl->rep, line, sizeof line - 1);
  line[n > 0 ? n : 0] = 0;
  return atol(line);
}

// Kill the worker in sl and reap it. Returns 0, or -1 if it is still
// there REAP_TICKS later: stuck in the kernel (reported).
static int
kill_worker(struct slot *sl)
{
  char d[160];
  int st, t0 = uptime();

  kill(sl->pid, SIGKILL);
  while (uptime() - t0 < REAP_TICKS) {
    if (waitpid(sl->pid, &st, WNOHANG) == sl->pid) {
      sl->pid = 0;
      return 0;
    }
    sleep(2);
  }
  snprintf(d, sizeof d, "worker %d still there %d s after SIGKILL (stuck in the kernel; see ps)",
           sl->pid, REAP_TICKS / HZ);
  check("no_stuck_worker", 0, d);
  sl->pid = -1;
  return -1;
}

int
main(int argc, char **argv)
{
  struct slot slots[MAXPROCS];
  int killed = 0, crashed = 0, lost = 0, k = 0, t0, st, p[2];
  ulong made = 0;
  char d[160];

  for (int i = 1; i < argc; i++) {
    if (i + 1 < argc && !strcmp(argv[i], "-s"))
      seed = atol(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-n"))
      ncalls = atol(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-t"))
      nthreads = atoi(argv[++i]);
    else if (i + 1 < argc && !strcmp(argv[i], "-p"))
      nprocs = atoi(argv[++i]);
    else {
      fprintf(STDERR, "usage: fuzz [-s SEED] [-n CALLS] [-t THREADS] [-p PROCS]\n");
      return 2;
    }
  }
  if (nthreads < 1 || nthreads > MAXTHREADS || nprocs < 1 || nprocs > MAXPROCS) {
    fprintf(STDERR, "fuzz: 1-%d threads and 1-%d processes\n", MAXTHREADS, MAXPROCS);
    return 2;
  }
  printf("fuzz: seed %lu, %lu calls, %d threads, %d processes\n", seed, ncalls, nthreads, nprocs);
  mkdir("/fz");
  long mem0 = freemem();
  t0 = uptime();
  for (int i = 0; i < nprocs; i++)
    slots[i].pid = 0;
  for (;;) {
    int live = 0;
    for (int i = 0; i < nprocs; i++) {
      struct slot *sl = &slots[i];
      // Workers are started until the calls made reach ncalls; a worker
      // that dies reports nothing, so its calls are not counted.
      if (sl->pid == 0 && made < ncalls && k < MAXWORKERS(ncalls) &&
          pipe(p) == 0) {
        ulong n = WORKER_CALLS;
        int pid = fork();
        if (pid == 0) {
          close(p[0]);
          seed = seed_for(seed, k, 99);  // each worker its own sequence
          worker(k, n, p[1]);
        }
        close(p[1]);
        if (pid > 0) {
          sl->pid = pid;
          sl->rep = p[0];
          sl->start = uptime();
          k++;
        } else {
          close(p[0]);
        }
      }
      if (sl->pid <= 0)
        continue;
      live++;
      if (waitpid(sl->pid, &st, WNOHANG) == sl->pid) {
        if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
          made += worker_report(sl);
        else
          crashed++;
        close(sl->rep);
        sl->pid = 0;
      } else if (uptime() - sl->start > WORKER_TICKS) {
        killed++;
        close(sl->rep);
        if (kill_worker(sl) < 0)
          lost++;
      }
    }
    while (waitpid(-1, &st, WNOHANG) > 0)   // the fork storms' orphans
      ;
    if (live == 0 && (made >= ncalls || k >= MAXWORKERS(ncalls)))
      break;
    sleep(2);
  }
  int ticks = uptime() - t0;
  snprintf(d, sizeof d, "%lu calls made (counted in workers that ran to the end), want %lu; "
           "%d workers", made, ncalls, k);
  check("calls", made >= ncalls, d);
  if (!lost)
    check("no_stuck_worker", 1, 0);
  printf("fuzz: %lu calls in %d.%02d s (%lu calls/s); %d workers, %d ended by a signal, "
         "%d killed at %d s\n", made, ticks / HZ, ticks % HZ, ticks ? made * HZ / ticks : 0,
         k, crashed, killed, WORKER_TICKS / HZ);
  long mem1 = freemem();
  for (int i = 0; i < 50 && mem1 != mem0; i++) {
    sleep(HZ / 10);
    mem1 = freemem();
  }
  snprintf(d, sizeof d, "%ld free pages before, %ld after (%ld lost)", mem0, mem1, mem0 - mem1);
  check("memfree", lost || mem1 == mem0, d);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
