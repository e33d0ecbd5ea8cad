// fuzz: call every system call with random and boundary arguments, from
// several processes and threads at once, in the spirit of trinity and
// syzkaller, and check that the kernel survives it.
//
//   fuzz [-s SEED] [-n CALLS] [-t THREADS] [-p PROCS]
//
// The seed is printed first, so that a failing run can be replayed: each
// thread's sequence of calls and arguments follows from the seed, its
// worker's number and its thread's start number alone (the interleaving
// of threads does not, as with any fuzzer of a real kernel). PROCS worker
// processes (default 2) at a time each run THREADS fuzzing threads
// (default 3); a worker makes WORKER_CALLS calls, reports them and exits,
// and the next one starts from the next seed, until CALLS are made.
// Arguments come from a pool of boundary values: 0, -1, INT_MIN, INT_MAX,
// page edges, kernel addresses, unmapped and read-only user memory, huge
// lengths, descriptors open and closed, paths (most under /fz); rings get
// scribbled headers and SQEs; signals and ptrace go to the fuzzer's own
// tids; fork storms make children that fuzz too and are then killed.
//
// A worker must live to report, so it handles every signal (a fault ends
// only the thread that faulted, which is started again), its main thread
// interrupts with SIGUSR1 any thread that has blocked for a second (a
// read from its own empty pipe), and the calls that would wreck it (sbrk
// under its thread stacks, exec, clone with a random stack, a random
// handler or mask, rt_sigreturn, exit) are made only by fork storm
// children, which may die as they like.
//
// Left out, so that the fuzzer tests the kernel rather than the machine:
// poweroff and fault_inject (they end the run on purpose), mknod (a device
// file could reach the console and take the shell's input), tcsetpgrp and
// setpgid (the shell's terminal and the group the supervisor kills), and
// signals to tasks outside the fuzzer.
//
// The supervisor turns on the kernel's watchdog for the run
// (/proc/sys/kernel/hung_task_timeout_secs): it names on the console any
// task blocked in D, or any CPU spinning in the kernel, for longer.
//
// Checks, one line each: the calls were made (with calls per second); no
// worker was left stuck in the kernel (it could not be reaped after
// SIGKILL); free memory came back to its start once every worker exited.
// The closing line is "N passed, N failed".

#include "user.h"
#include "liburing.h"
#include "proc.h"

#define MAXPROCS   8
#define MAXTHREADS 8
#define MAXOWN     64
#define SCRATCH    (4 * 4096)
// The kernel watchdog's limit during a run. Not 5 s: a million-call run
// on x86_64 with that limit named eight tasks waiting in begin_op() for
// a commit, on a machine running make check and another campaign
// beside it (IDE writes were slow, not stuck: they went on, and every
// worker was reaped). 30 s in D, or 30 s of kernel ticks without a
// scheduling point, is no slow disk.
#define WATCHDOG_SECS 30

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
static volatile int own_tids[MAXOWN];   // this worker (or child) and its threads and children
static volatile int nown;

// Remember tid as ours (a target for signals and ptrace). The oldest
// entries after the first (the process itself) make room.
static void
add_own(int tid)
{
  int i = __atomic_fetch_add(&nown, 1, __ATOMIC_RELAXED);
  if (i >= MAXOWN) {
    nown = MAXOWN;
    i = 1 + tid % (MAXOWN - 1);
  }
  own_tids[i] = tid;
}

static const char *const paths[] = {
  "/fz/a", "/fz/b", "/fz/d", "/fz/d/x", "/fz", "/fz/../fz/a", "/", "/proc", "/proc/meminfo",
  "/proc/self", "/proc/1/stat", "/fz/no/such", "",
  "/fz/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
  "/proc/interrupts", "/proc/diskstats", "/fz/p", "/proc/self/task", "/proc/self/status",
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
  for (int i = 0; i < nown && i < MAXOWN; i++)
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

// A child that makes a few calls of its own, with itself as its only
// target, and exits; it may die or stop on the way (the supervisor kills
// what is left of a worker's process group).
static void
fork_storm(ulong *s)
{
  ulong cs = rnd(s) | 1;
  int pid = fork();
  if (pid == 0) {
    nown = 0;
    add_own(getpid());
    for (int i = 0; i < 8; i++)
      fuzz_one(&cs, 1);
    exit(0);
  }
  if (pid > 0) {
    add_own(pid);
    waitpid(pid, 0, WNOHANG);
  }
}

// Calls that could end or wreck the worker that makes them (its stack, its
// handlers, its mask, its image): made only in a fork storm's children,
// where ending badly is fine.
static int
child_only(const char *n)
{
  static const char *const names[] = {
    "clone", "rt_sigaction", "sigprocmask", "rt_sigreturn", "exit", "exit_thread",
    "sbrk", "exec",
  };
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(n, names[i]))
      return 1;
  return 0;
}

// Calls never made (see the top of this file).
static int
never(const char *n)
{
  return !strcmp(n, "poweroff") || !strcmp(n, "fault_inject") || !strcmp(n, "mknod") ||
         !strcmp(n, "tcsetpgrp") || !strcmp(n, "setpgid") || !strcmp(n, "pause") ||
         !strcmp(n, "sigsuspend");
}

// One random system call with random arguments. depth is 0 in a worker's
// fuzzing threads and 1 in a fork storm's children.
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
      fork_storm(s);
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
  if (never(n) || (depth == 0 && child_only(n)) || (depth > 0 && !strcmp(n, "fork")))
    return;
  if (!strcmp(n, "kill") && !ours(a[0]))
    a[0] = getpid();
  if (!strcmp(n, "ptrace") && !ours(a[1]))
    a[1] = getpid();
  if (!strcmp(n, "kill") && (a[1] == SIGSTOP || (depth == 0 && a[1] == SIGKILL)))
    a[1] = SIGCONT;                      // a worker keeps itself going; no one is left stopped
  if (!strcmp(n, "tgkill") && (!ours(a[1]) || a[2] == SIGSTOP || (depth == 0 && a[2] == SIGKILL)))
    return;
  if (!strcmp(n, "sleep"))
    a[0] = rnd(s) % 3;                   // bounded waits
  if (depth == 0 && !strcmp(n, "waitpid"))
    a[2] |= WNOHANG;                     // a stopped or traced child would hold it
  if (!strcmp(n, "futex") && a[1] == 0)
    a[2] = rnd(s);                       // a FUTEX_WAIT that finds another value
  long ret = syscall(calls[i].nr, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (!strcmp(n, "fork") && ret == 0)
    exit(0);
  if (!strcmp(n, "fork") && ret > 0)
    add_own(ret);
}

// ------------------------------------------------------------ workers

static volatile ulong progress;         // calls made by this worker
static ulong worker_calls, worker_seed;
static int worker_index;
static volatile int thread_tid[MAXTHREADS];   // 0: slot free
static volatile int thread_done[MAXTHREADS];  // it ended: join it

// End the calling fuzzing thread, telling the main thread to join it.
static void __attribute__((noreturn))
fuzz_thread_end(void)
{
  int tid = gettid();
  for (int t = 0; t < nthreads; t++)
    if (thread_tid[t] == tid)
      __atomic_store_n(&thread_done[t], 1, __ATOMIC_RELEASE);
  thread_exit();
}

// Each thread's loop: calls until the worker's share is made. arg holds
// its slot (low byte) and its start number, which picks its sequence. It
// waits to be entered in thread_tid[] first, so that however it ends,
// fuzz_thread_end() finds its slot.
static void
fuzz_thread(void *arg)
{
  long a = (long)arg;
  ulong s = seed_for(worker_seed, worker_index, (int)(a >> 8));
  while (thread_tid[a & 0xff] != gettid())
    sleep(1);
  while (__atomic_fetch_add(&progress, 1, __ATOMIC_RELAXED) < worker_calls)
    fuzz_one(&s, 0);
  fuzz_thread_end();
}

// A fault in a fuzzing thread (a read-only or unmapped address it wrote
// through, a ring closed under it) ends that thread only. The main thread
// does not fuzz, so what it gets is a kill() of the whole process by some
// fuzzing thread: it returns. Only a run of them means it faults itself
// (the same instruction again and again), a bug of the fuzzer: exit 4.
static void
thread_faulted(int sig)
{
  static int main_faults;
  (void)sig;
  if (gettid() != getpid())
    fuzz_thread_end();
  if (++main_faults > 10000)
    exit(4);
}

// Any other signal: noted and ignored (it interrupts a blocking call).
static void
signal_seen(int sig)
{
  (void)sig;
}

// Every catchable signal gets a handler, so that none ends the worker.
// Without SA_RESTART, so that SIGUSR1 ends a blocking call with EINTR.
static void
handle_all_signals(void)
{
  for (int sig = 1; sig <= NSIG; sig++) {
    if (sig == SIGKILL || sig == SIGSTOP)
      continue;
    int fault = sig == SIGSEGV || sig == SIGBUS || sig == SIGILL || sig == SIGFPE ||
                sig == SIGTRAP;
    struct sigaction sa = { fault ? thread_faulted : signal_seen, 0, 0 };
    sigaction(sig, &sa, 0);
  }
}

// Start fuzzing thread slot t again (it ended), unless the share is made.
static void
restart_thread(int t, int *starts)
{
  if (thread_tid[t] > 0)
    thread_join(thread_tid[t]);
  thread_done[t] = 0;
  thread_tid[t] = 0;
  if (progress >= worker_calls)
    return;
  int tid = thread_create(fuzz_thread, (void *)((long)*starts << 8 | t));
  if (tid > 0) {
    (*starts)++;
    thread_tid[t] = tid;
    add_own(tid);
  }
}

// A worker process (number index of the campaign), the leader of its own
// process group: its main thread keeps THREADS fuzzing threads going
// until n calls are made, interrupting any that blocks for a second, then
// exits 0: the one way it exits 0 (its fuzzing threads never call exit,
// and a report written to a pipe could be lost to a random close()). Its
// standard descriptors are moved off the console first.
static void
worker(int index, ulong n)
{
  int starts = 0, idle = 0;
  ulong last = 0;

  setpgid(0, 0);
  worker_index = index;
  worker_seed = seed;
  worker_calls = n;
  close(0);                             // the console stays the shell's
  open("/fz/in", O_CREAT | O_RDWR);
  close(1);
  open("/fz/out", O_CREAT | O_RDWR);
  close(2);
  dup(1);
  // Thread stacks come from malloc: make room for them first, so that
  // scratch is the top of the heap and a call that writes past its end
  // meets unmapped memory (EFAULT), not a thread's stack.
  void *room[MAXTHREADS + 1];
  for (int t = 0; t <= nthreads; t++)
    room[t] = malloc(THREAD_STACK_SIZE);
  for (int t = 0; t <= nthreads; t++)
    free(room[t]);
  scratch = sbrk(SCRATCH);
  if (scratch == (char *)-1)
    exit(3);
  handle_all_signals();
  nown = 0;
  add_own(getpid());
  for (int t = 0; t < nthreads; t++)
    thread_tid[t] = thread_done[t] = 0;
  for (;;) {
    int running = 0;
    for (int t = 0; t < nthreads; t++) {
      if (thread_tid[t] == 0 || __atomic_load_n(&thread_done[t], __ATOMIC_ACQUIRE))
        restart_thread(t, &starts);
      running += thread_tid[t] > 0;
    }
    if (running == 0 && progress >= worker_calls)
      break;
    sleep(HZ / 10);
    idle = progress == last ? idle + 1 : 0;
    last = progress;
    if (idle >= 10) {                   // a second without a call: interrupt them
      for (int t = 0; t < nthreads; t++)
        if (thread_tid[t] > 0)
          tgkill(getpid(), thread_tid[t], SIGUSR1);
      idle = 0;
    }
  }
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
  int start;                            // uptime() when it started
  int ended, status;                    // reaped by let_go_of_tracees(), with this status
};

// A worker's thread may have made us its tracer (PTRACE_TRACEME is fuzzed
// like every request): it would wait in a tracing stop for ever, and its
// process cannot end while its dead traced threads wait for us to see
// them. So be a debugger that lets go: detach every tracee that stops,
// reap every one that died. waitpid(-1) may also return a worker that
// ended: its status is kept in its slot, for worker_ended().
static void
let_go_of_tracees(struct slot *slots, int n)
{
  int st, w;

  while ((w = waitpid(-1, &st, __WALL | WNOHANG)) > 0) {
    if (WIFSTOPPED(st)) {
      ptrace(PTRACE_DETACH, w, 0, 0);
      continue;
    }
    for (int i = 0; i < n; i++)
      if (slots[i].pid == w) {
        slots[i].ended = 1;
        slots[i].status = st;
      }
  }
}

// Has the worker in sl ended? Its pid (status at *st), 0 if not, or -errno.
static int
worker_ended(struct slot *sl, int *st)
{
  if (sl->ended) {
    *st = sl->status;
    return sl->pid;
  }
  return waitpid(sl->pid, st, WNOHANG);
}

// Print the threads of process pid, with their states.
static void
print_threads(int pid)
{
  int ids[MAXOWN], n = task_ids(pid, ids, MAXOWN);
  if (n <= 0)
    printf("fuzz:   (no threads listed: %s)\n", n < 0 ? strerror(n) : "none");
  for (int i = 0; i < n; i++) {
    struct procstat ps;
    if (task_stat(pid, ids[i], &ps) == 0)
      printf("fuzz:   thread %d (%s) state %c, %lu ticks of CPU\n", ids[i], ps.comm, ps.state, ps.ticks);
  }
}

// Kill the worker in sl (it ran out of time: its threads are listed) and
// reap it. Returns 0, or -1 if it is still there REAP_TICKS later: stuck
// in the kernel (reported).
static int
kill_worker(struct slot *slots, int n, struct slot *sl)
{
  char d[160];
  int st, t0 = uptime();

  printf("fuzz: worker %d still running after %d s; its threads:\n", sl->pid, WORKER_TICKS / HZ);
  print_threads(sl->pid);
  kill(sl->pid, SIGKILL);
  while (uptime() - t0 < REAP_TICKS) {
    let_go_of_tracees(slots, n);
    if (worker_ended(sl, &st) == sl->pid) {
      sl->pid = 0;
      return 0;
    }
    sleep(2);
  }
  snprintf(d, sizeof d, "worker %d still there %d s after SIGKILL (stuck in the kernel; its threads follow)",
           sl->pid, REAP_TICKS / HZ);
  check("no_stuck_worker", 0, d);
  print_threads(sl->pid);
  sl->pid = -1;
  return -1;
}

// Write v to the kernel knob at path; returns the old value, or -1.
static int
set_knob(const char *path, int v)
{
  char buf[16];
  int fd = open(path, O_RDWR), n, old = -1;
  if (fd < 0)
    return -1;
  n = read(fd, buf, sizeof buf - 1);
  if (n > 0) {
    buf[n] = 0;
    old = atoi(buf);
  }
  close(fd);
  fd = open(path, O_WRONLY);
  snprintf(buf, sizeof buf, "%d\n", v);
  if (fd < 0 || write(fd, buf, strlen(buf)) < 0)
    old = -1;
  close(fd);
  return old;
}

// Start a worker in slot sl (number k of the campaign). Returns 1 if one
// started.
static int
start_worker(struct slot *sl, int k)
{
  int pid = fork();
  if (pid == 0) {
    seed = seed_for(seed, k, 99);        // each worker its own sequence
    worker(k, WORKER_CALLS);
  }
  if (pid < 0)
    return 0;
  sl->pid = pid;
  sl->ended = 0;
  sl->start = uptime();
  return 1;
}

int
main(int argc, char **argv)
{
  struct slot slots[MAXPROCS];
  int killed = 0, crashed = 0, lost = 0, k = 0, t0, st;
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
  int old_hung = set_knob("/proc/sys/kernel/hung_task_timeout_secs", WATCHDOG_SECS);
  if (old_hung < 0)
    printf("fuzz: no watchdog (cannot set /proc/sys/kernel/hung_task_timeout_secs)\n");
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
      if (sl->pid == 0 && made < ncalls && k < MAXWORKERS(ncalls) && start_worker(sl, k))
        k++;
      if (sl->pid <= 0)
        continue;
      live++;
      let_go_of_tracees(slots, nprocs);
      int pid = sl->pid, w = worker_ended(sl, &st);
      if (w == pid || w < 0) {
        if (w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
          made += WORKER_CALLS;
        } else if (crashed++ < 5) {
          printf("fuzz: worker %d ended: %s %d\n", pid, w < 0 ? "waitpid error" :
                 WIFEXITED(st) ? "exit status" : "signal", w < 0 ? w : WIFEXITED(st) ?
                 WEXITSTATUS(st) : WTERMSIG(st));
        }
        sl->pid = 0;
        kill(-pid, SIGKILL);            // what is left of its fork storms
      } else if (uptime() - sl->start > WORKER_TICKS) {
        killed++;
        if (kill_worker(slots, nprocs, sl) < 0)
          lost++;
        kill(-pid, SIGKILL);
      }
    }
    if (live == 0 && (made >= ncalls || k >= MAXWORKERS(ncalls)))
      break;
    sleep(2);
  }
  int ticks = uptime() - t0;
  snprintf(d, sizeof d, "%lu calls made (counted in workers that ran to the end), want %lu; "
           "%d workers, %d ended by a signal", made, ncalls, k, crashed);
  check("calls", made >= ncalls, d);
  if (!lost)
    check("no_stuck_worker", 1, 0);
  printf("fuzz: %lu calls in %d.%02d s (%lu calls/s); %d workers, %d ended by a signal, "
         "%d killed at %d s\n", made, ticks / HZ, ticks % HZ, ticks ? made * HZ / ticks : 0,
         k, crashed, killed, WORKER_TICKS / HZ);
  // Orphans of the fork storms go to init, which reaps them: wait for
  // their memory to come back.
  long mem1 = freemem();
  for (int i = 0; i < 100 && mem1 != mem0; i++) {
    sleep(HZ / 10);
    mem1 = freemem();
  }
  snprintf(d, sizeof d, "%ld free pages before, %ld after (%ld lost)", mem0, mem1, mem0 - mem1);
  check("memfree", lost || mem1 == mem0, d);
  if (old_hung >= 0)
    set_knob("/proc/sys/kernel/hung_task_timeout_secs", old_hung);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
