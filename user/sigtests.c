// sigtests: tests of threads, signals and job control, in the style of
// usertests.
//
//   sigtests            run every test
//   sigtests NAME...    run only the named tests
//   sigtests -l         list the tests
//
// Each test runs in its own child process, so a test that crashes or hangs
// is reported as a FAIL and the rest go on. Every check prints one line,
// "PASS test.check" or "FAIL test.check: detail"; the run closes with
// "N passed, N failed" alone on a line. The last check compares the free
// physical pages before and after the whole run. The runner is the shared
// one (user/testlib.h): processes a test forks (tfork) report back through
// their exit status or a pipe.
//
// What is expected is Linux's behaviour (signal(7), pthreads(7),
// credentials(7) for process groups); where the detail of a FAIL line
// says "want", that is what Linux does.
//
// Tests wait for each other with sleeps of whole ticks and, where a
// signal must find a task asleep, by reading its state from
// /proc/PID/task/TID/stat, so they do not depend on timing luck.
//
// The exec tests run this same program again as a "probe" (argv[0] is
// PROBE); see probe() at the end.

#include "user.h"
#include "proc.h"
#include "testlib.h"

#define TEST_SECS  60           // a test running longer is killed (real time: a busy host slows QEMU)
#define SELF       "/sigtests"  // this program, for the exec tests
#define PROBE      "st-probe"   // argv[0] that makes this program a probe
#define PROBE_BAD  250          // probe exit code for an unknown probe command
#define NTHREADS   8            // threads in the thread tests
#define LEAK_ROUNDS 1000        // thread create/join cycles in threadleak
#define NTASK      64           // tasks system-wide

// Kernel addresses a forged signal frame tries to return to.
#if defined(__riscv)
#define KERNEL_VA  0xffffffc080000000UL   // the kernel's linear map of RAM
#define KERNEL_PA  0x80000000UL           // where the kernel sits in RAM
#else
#define KERNEL_VA  0xffffffff80100000UL   // the kernel's image
#define KERNEL_PA  0x100000UL             // where the kernel sits in RAM
#endif

#define SB(sig) (1UL << ((sig) - 1))      // the sigset_t bit of sig

// ------------------------------------------------------------ reporting

// Check that wait status st is exactly want (see wstatus() for the wording).
static int
expect_status(const char *check, int st, int want)
{
  char d[200];

  snprintf(d, sizeof d, "child %s, want %s", wstatus(st), wstatus(want));
  return expect_true(check, st == want, d);
}

// Wait statuses in Linux's encoding.
#define ST_EXIT(code)   (((code) & 0xff) << 8)
#define ST_SIGNAL(sig)  (sig)
#define ST_STOP(sig)    (((sig) << 8) | 0x7f)
#define ST_CONT         0xffff

// Check that a signal set is exactly want; name the bits that differ.
static int
expect_set(const char *check, sigset_t got, sigset_t want)
{
  char d[160];

  snprintf(d, sizeof d, "got set 0x%lx, want 0x%lx (extra 0x%lx, missing 0x%lx)",
           got, want, got & ~want, want & ~got);
  return expect_true(check, got == want, d);
}

// ------------------------------------------------------------ processes

// Reap pid within ticks and return its wait status. If it does not end
// in time, kill it with SIGKILL, reap it, and return -EAGAIN; if waitpid
// fails, return its error.
static int
reap(int pid, int ticks)
{
  int st = 0, r = wait_ticks(pid, &st, 0, ticks);

  if (r == pid)
    return st;
  kill(pid, SIGKILL);
  wait_ticks(pid, &st, 0, 2 * HZ);
  return r < 0 ? r : -EAGAIN;
}

// Kill pid with SIGKILL (after a SIGCONT, in case it is stopped) and reap it.
static void
kill_reap(int pid)
{
  int st;

  if (pid <= 0)
    return;
  kill(pid, SIGKILL);
  wait_ticks(pid, &st, 0, 3 * HZ);
}

// Wait up to ticks for thread tid of pid to be in state c. Returns 1 if it is.
static int
wait_state(int pid, int tid, char c, int ticks)
{
  int t0 = uptime();

  while (task_state(pid, tid) != c) {
    if (uptime() - t0 > ticks)
      return 0;
    sleep(1);
  }
  return 1;
}

// Count the threads of pid listed in /proc/PID/task (into *total) and how
// many of them are in state c (the return value). -errno if unlisted.
static int
threads_in_state(int pid, char c, int *total)
{
  int tids[NTASK], n, count = 0;

  n = task_ids(pid, tids, NTASK);
  *total = n < 0 ? 0 : n;
  for (int i = 0; i < n; i++)
    if (task_state(pid, tids[i]) == c)
      count++;
  return n < 0 ? n : count;
}

// Wait up to ticks for every thread of pid to be in state c; returns how
// many were (and their total in *total) at the last look.
static int
wait_all_state(int pid, char c, int *total, int ticks)
{
  int t0 = uptime(), n;

  while ((n = threads_in_state(pid, c, total)) != *total || n <= 0) {
    if (uptime() - t0 > ticks)
      break;
    sleep(1);
  }
  return n;
}

// The blocked mask of the calling thread.
static sigset_t
curmask(void)
{
  sigset_t m = 0;

  sigprocmask(SIG_BLOCK, NULL, &m);
  return m;
}

static void
setmask(sigset_t m)
{
  sigprocmask(SIG_SETMASK, &m, NULL);
}

// The pending (and blocked) signals of the calling thread.
static sigset_t
pending(void)
{
  sigset_t p = 0;

  sigpending(&p);
  return p;
}

// Install fn for sig with flags and sa_mask mask. Returns sigaction's result.
static int
handle(int sig, void (*fn)(int), int flags, sigset_t mask)
{
  struct sigaction sa;

  sa.sa_handler = fn;
  sa.sa_mask = mask;
  sa.sa_flags = flags;
  return sigaction(sig, &sa, NULL);
}

// The handler now installed for sig.
static sighandler_t
handler_of(int sig)
{
  struct sigaction old;

  memset(&old, 0, sizeof old);
  if (sigaction(sig, NULL, &old) < 0)
    return SIG_ERR;
  return old.sa_handler;
}

// ------------------------------------------------------------ handlers

static volatile int hits[NSIG + 1];     // handler runs per signal
static volatile int lastsig;            // the argument of the last run
static volatile int tidlog[64];         // the thread each run happened in
static volatile int ntid;
static volatile char olog[64];          // order of events, one letter each
static volatile int olen;
static volatile sigset_t inmask;        // the blocked mask inside the last handler
static volatile int ackfd = -1;         // if >= 0, each handler run writes a byte here

// Forget everything the handlers recorded.
static void
reset_log(void)
{
  for (int i = 0; i <= NSIG; i++)
    hits[i] = 0;
  lastsig = 0;
  ntid = 0;
  olen = 0;
  olog[0] = 0;
  inmask = 0;
}

// Append letter c to the order log.
static void
olog_add(char c)
{
  int i = __atomic_fetch_add(&olen, 1, __ATOMIC_SEQ_CST);

  if (i < (int)sizeof olog - 1) {
    olog[i] = c;
    olog[i + 1] = 0;
  }
}

// Copy the order log into b (n bytes).
static void
olog_get(char *b, int n)
{
  int i;

  for (i = 0; i < n - 1 && i < olen && i < (int)sizeof olog - 1; i++)
    b[i] = olog[i];
  b[i] = 0;
}

// Check that the order log reads want. The letters: 1 2 H A C D for
// the handlers of SIGUSR1 SIGUSR2 SIGHUP SIGALRM SIGCONT SIGCHLD; e and f
// for the ends of the outer and middle handlers; i for a sleep that a
// signal interrupted (x: one that was not).
static int
expect_order(const char *check, const char *want)
{
  char b[64], d[160];

  olog_get(b, sizeof b);
  snprintf(d, sizeof d, "events in order \"%s\", want \"%s\"", b, want);
  return expect_true(check, strcmp(b, want) == 0, d);
}

// The letter a signal stands for in the order log.
static char
sigletter(int sig)
{
  switch (sig) {
  case SIGUSR1: return '1';
  case SIGUSR2: return '2';
  case SIGHUP:  return 'H';
  case SIGALRM: return 'A';
  case SIGCONT: return 'C';
  case SIGCHLD: return 'D';
  default:      return '?';
  }
}

// The everyday handler: count, note the thread, the order and the mask.
static void
on_signal(int sig)
{
  int i;

  __atomic_fetch_add(&hits[sig], 1, __ATOMIC_SEQ_CST);
  lastsig = sig;
  i = __atomic_fetch_add(&ntid, 1, __ATOMIC_SEQ_CST);
  if (i < 64)
    tidlog[i] = gettid();
  olog_add(sigletter(sig));
  inmask = curmask();
  if (ackfd >= 0)
    write(ackfd, "a", 1);
}

// Wait up to ticks for hits[sig] to reach n. Returns 1 if it did.
static int
wait_hits(int sig, int n, int ticks)
{
  int t0 = uptime();

  while (hits[sig] < n) {
    if (uptime() - t0 > ticks)
      return 0;
    sleep(1);
  }
  return 1;
}

// ------------------------------------------------------------ helpers

// What the helper follow-ups below work on (set before helper() forks).
static int ack_rfd = -1;        // read end of the pipe the handler acknowledges on
static int helper_fd = -1;      // write end of the data pipe
static int helper_pid2;         // a process to kill
static int helper_target;       // the process the helper signals

// Fork a helper process: it waits until the main thread of process pid
// sleeps (state S), sends it sig, then runs then() if given, and exits.
// Returns the helper's pid.
static int
helper(int pid, int sig, void (*then)(void))
{
  int h = tfork();

  if (h == 0) {
    if (!wait_state(pid, pid, 'S', 5 * HZ))
      exit(1);
    kill(pid, sig);
    if (then)
      then();
    exit(0);
  }
  return h;
}

// Helper follow-up: wait for the handler's acknowledgement on ack_rfd,
// then write "x" to the data pipe (helper_fd).
static void
then_ack_write(void)
{
  char c;

  read(ack_rfd, &c, 1);
  write(helper_fd, "x", 1);
}

// Helper follow-up: wait for the acknowledgement, then SIGKILL helper_pid2.
static void
then_ack_kill(void)
{
  char c;

  read(ack_rfd, &c, 1);
  kill(helper_pid2, SIGKILL);
}

// Helper follow-up: give the target time to (wrongly) wake, check it still
// sleeps, then send SIGUSR2. Exits 2 if the target woke.
static void
then_usr2(void)
{
  sleep(5);
  if (task_state(helper_target, helper_target) != 'S')
    exit(2);
  kill(helper_target, SIGUSR2);
}

// ------------------------------------------------------------ threads

static volatile int stop_threads;       // threads loop until this is set
static volatile int thread_ready;       // threads count themselves in here

// A thread that sleeps a tick at a time until stop_threads.
static void
sleeper(void *arg)
{
  __atomic_fetch_add(&thread_ready, 1, __ATOMIC_SEQ_CST);
  while (!stop_threads)
    sleep(1);
}

// A thread that never sleeps.
static void
spinner(void *arg)
{
  volatile unsigned long n = 0;

  __atomic_fetch_add(&thread_ready, 1, __ATOMIC_SEQ_CST);
  while (!stop_threads)
    n++;
}

// Start n threads running fn; their tids go to tids. Returns how many
// started, after waiting for them to run.
static int
start_threads(int n, void (*fn)(void *), int *tids)
{
  int i, want = thread_ready;

  for (i = 0; i < n; i++) {
    tids[i] = thread_create(fn, (void *)(long)i);
    if (tids[i] < 0)
      break;
  }
  want += i;
  for (int t = 0; thread_ready < want && t < 5 * HZ; t++)
    sleep(1);
  return i;
}

// Stop and join the threads started by start_threads.
static void
stop_join(int n, int *tids)
{
  stop_threads = 1;
  for (int i = 0; i < n; i++)
    if (tids[i] > 0)
      thread_join(tids[i]);
  stop_threads = 0;
  thread_ready = 0;
}

// ------------------------------------------------------------ tests: delivery

// once: a handler runs exactly once per signal sent, with the signal
// number as argument, before raise() or kill() to oneself returns;
// standard signals sent while blocked do not queue (one run); the
// handler stays installed.
static void
t_once(void)
{
  int ok = 1;
  char d[96] = "";

  reset_log();
  if (!need("sigaction", handle(SIGUSR1, on_signal, 0, 0)) ||
      !need("sigaction2", handle(SIGUSR2, on_signal, 0, 0)))
    return;
  expect("raise", raise(SIGUSR1), 0);
  expect("ran_once", hits[SIGUSR1], 1);
  expect("argument", lastsig, SIGUSR1);
  expect("kill_self", kill(getpid(), SIGUSR1), 0);
  expect("kill_self_ran_once", hits[SIGUSR1], 2);
  for (int i = 0; i < 50 && ok; i++) {
    raise(i % 2 ? SIGUSR1 : SIGUSR2);
    if (hits[SIGUSR1] + hits[SIGUSR2] != 3 + i) {
      ok = 0;
      snprintf(d, sizeof d, "after %d more signals the handler ran %d times", i + 1,
               hits[SIGUSR1] + hits[SIGUSR2] - 2);
    }
  }
  expect_true("fifty_in_a_row", ok, d);

  // The thread's own pending set and the process's shared set each hold
  // a standard signal once (Linux: legacy_queue()).
  reset_log();
  setmask(SB(SIGUSR1) | SB(SIGUSR2));
  raise(SIGUSR1);
  raise(SIGUSR1);
  raise(SIGUSR1);
  raise(SIGUSR2);
  expect("blocked_not_run", hits[SIGUSR1] + hits[SIGUSR2], 0);
  setmask(0);
  expect("not_queued", hits[SIGUSR1], 1);
  expect("both_pending_ran", hits[SIGUSR2], 1);
  setmask(SB(SIGUSR1));
  kill(getpid(), SIGUSR1);
  kill(getpid(), SIGUSR1);
  kill(getpid(), SIGUSR1);
  setmask(0);
  expect("not_queued_shared", hits[SIGUSR1], 2);
  expect_true("still_installed", handler_of(SIGUSR1) == on_signal,
              "the handler was reset after running (no SA_RESETHAND)");
}

// mask: blocked signals wait, sigpending shows them, unblocking delivers
// them at once; sigprocmask's three forms and its old mask; the mask
// inside a handler is the old mask + sa_mask + the signal, and comes back
// after it; setting SIG_IGN discards a pending blocked signal.
static void
t_mask(void)
{
  sigset_t s, old = 1, p;

  reset_log();
  if (!need("sigaction", handle(SIGUSR1, on_signal, 0, SB(SIGHUP))) ||
      !need("sigaction2", handle(SIGUSR2, on_signal, 0, 0)))
    return;
  setmask(0);
  s = SB(SIGUSR1);
  expect("block", sigprocmask(SIG_BLOCK, &s, &old), 0);
  expect_set("old_mask", old, 0);
  raise(SIGUSR1);
  expect("deferred", hits[SIGUSR1], 0);
  expect_set("sigpending_shows_it", pending(), SB(SIGUSR1));
  s = SB(SIGUSR2);
  sigprocmask(SIG_BLOCK, &s, NULL);
  kill(getpid(), SIGUSR2);
  expect_set("sigpending_process_directed", pending(), SB(SIGUSR1) | SB(SIGUSR2));
  expect_set("mask_is_union", curmask(), SB(SIGUSR1) | SB(SIGUSR2));
  s = SB(SIGUSR1);
  expect("unblock", sigprocmask(SIG_UNBLOCK, &s, &old), 0);
  expect_set("unblock_old_mask", old, SB(SIGUSR1) | SB(SIGUSR2));
  expect("unblock_delivers", hits[SIGUSR1], 1);
  expect_set("handler_mask", inmask, SB(SIGUSR1) | SB(SIGUSR2) | SB(SIGHUP));
  expect_set("mask_after_handler", curmask(), SB(SIGUSR2));
  expect_set("pending_after", pending(), SB(SIGUSR2));
  s = 0;
  expect("setmask", sigprocmask(SIG_SETMASK, &s, NULL), 0);
  expect("setmask_delivers", hits[SIGUSR2], 1);
  expect_set("nothing_pending", pending(), 0);
  expect("bad_how", sigprocmask(99, &s, NULL), -EINVAL);
  s = SB(SIGALRM);
  sigprocmask(SIG_SETMASK, &s, NULL);
  expect("query_only", sigprocmask(99, NULL, &old), 0);
  expect_set("query_mask", old, SB(SIGALRM));

  // A pending, blocked signal whose action becomes SIG_IGN is discarded.
  setmask(SB(SIGUSR1));
  raise(SIGUSR1);
  p = pending();
  expect_set("pending_before_ignore", p, SB(SIGUSR1));
  signal(SIGUSR1, SIG_IGN);
  expect_set("ignore_discards_pending", pending(), 0);
  handle(SIGUSR1, on_signal, 0, 0);
  setmask(0);
  expect("discarded_not_run", hits[SIGUSR1], 1);
}

// ------------------------------------------------------------ tests: threads and signals

static volatile int cmd_block[4], cmd_unblock[4], cmd_done[4];

// A thread that sleeps until stop_threads, blocking or unblocking SIGUSR1
// when the main thread asks (cmd_*[i]).
static void
obedient(void *arg)
{
  int i = (int)(long)arg;
  sigset_t s = SB(SIGUSR1);

  __atomic_fetch_add(&thread_ready, 1, __ATOMIC_SEQ_CST);
  while (!stop_threads) {
    if (cmd_unblock[i]) {
      cmd_unblock[i] = 0;
      sigprocmask(SIG_UNBLOCK, &s, NULL);
      cmd_done[i]++;
    }
    if (cmd_block[i]) {
      cmd_block[i] = 0;
      sigprocmask(SIG_BLOCK, &s, NULL);
      cmd_done[i]++;
    }
    sleep(1);
  }
}

// Wait for thread i to carry out a command (cmd_done[i] to pass n).
static int
wait_done(int i, int n)
{
  for (int t = 0; cmd_done[i] < n && t < 5 * HZ; t++)
    sleep(1);
  return cmd_done[i] >= n;
}

// tgkill: a thread-directed signal runs its handler in exactly that
// thread, for each thread and for the main thread; bad tgid, tid, signal.
static void
t_tgkill(void)
{
  int tids[3], n, me = getpid(), ok, before;
  char check[48], d[128];

  reset_log();
  if (!need("sigaction", handle(SIGUSR1, on_signal, 0, 0)))
    return;
  n = start_threads(3, sleeper, tids);
  if (!expect("threads", n, 3))
    goto out;
  for (int k = 0; k <= 3; k++) {
    int tid = k < 3 ? tids[k] : gettid();
    before = ntid;
    snprintf(check, sizeof check, k < 3 ? "to_thread%d" : "to_main", k);
    if (!need(check, tgkill(me, tid, SIGUSR1)))
      continue;
    wait_hits(SIGUSR1, before + 1, 2 * HZ);
    sleep(3);             // a stray second run would show by now
    ok = ntid == before + 1 && tidlog[before] == tid;
    snprintf(d, sizeof d, "handler ran %d times, first in thread %d, want once in %d",
             ntid - before, ntid > before ? tidlog[before] : 0, tid);
    expect_true(check, ok, d);
  }
  expect("wrong_tgid", tgkill(1, tids[0], SIGUSR1), -ESRCH);
  expect("no_such_tid", tgkill(me, 30000, SIGUSR1), -ESRCH);
  expect("bad_signal", tgkill(me, tids[0], NSIG + 1), -EINVAL);
  expect("signal_zero", tgkill(me, tids[0], 0), 0);
  expect("no_extra_runs", ntid, 4);
out:
  stop_join(n, tids);
}

// wants: a process-directed signal (kill) goes to a thread that does not
// block it; with every thread blocking it, it waits in the shared set
// (visible to sigpending in any thread) until one unblocks it.
static void
t_wants(void)
{
  int tids[3], n, ok = 1, before;
  char d[128] = "";

  reset_log();
  if (!need("sigaction", handle(SIGUSR1, on_signal, 0, 0)))
    return;
  setmask(SB(SIGUSR1));         // the threads inherit the block
  for (int i = 0; i < 3; i++)
    cmd_block[i] = cmd_unblock[i] = cmd_done[i] = 0;
  n = start_threads(3, obedient, tids);
  if (!expect("threads", n, 3))
    goto out;
  cmd_unblock[1] = 1;
  if (!expect_true("unblock_one", wait_done(1, 1), "thread 1 did not unblock"))
    goto out;
  for (int r = 0; r < 6 && ok; r++) {
    before = ntid;
    kill(getpid(), SIGUSR1);
    wait_hits(SIGUSR1, before + 1, 2 * HZ);
    if (ntid != before + 1 || tidlog[before] != tids[1]) {
      ok = 0;
      snprintf(d, sizeof d, "round %d: handler ran %d times, in thread %d, want once in %d",
               r, ntid - before, ntid > before ? tidlog[before] : 0, tids[1]);
    }
  }
  expect_true("goes_to_unblocked_thread", ok, d);

  cmd_block[1] = 1;
  if (!expect_true("block_again", wait_done(1, 2), "thread 1 did not block"))
    goto out;
  before = ntid;
  kill(getpid(), SIGUSR1);
  sleep(5);
  expect("all_block_not_run", ntid - before, 0);
  expect_set("shared_pending_visible", pending() & SB(SIGUSR1), SB(SIGUSR1));
  cmd_unblock[2] = 1;
  wait_hits(SIGUSR1, before + 1, 3 * HZ);
  snprintf(d, sizeof d, "handler ran %d times, in thread %d, want once in %d",
           ntid - before, ntid > before ? tidlog[before] : 0, tids[2]);
  expect_true("unblocker_takes_it", ntid == before + 1 && tidlog[before] == tids[2], d);
  expect_set("no_longer_pending", pending(), 0);
out:
  stop_join(n, tids);
  setmask(0);
}

// Child body for the thread-killing tests: start a spinner and two
// sleepers that block every signal, tell the parent their tids through
// fd, block everything itself and sleep forever.
static void
threaded_child(int fd)
{
  int tids[3];
  sigset_t all;

  sigfillset(&all);
  setmask(all);
  tids[0] = thread_create(spinner, 0);
  tids[1] = thread_create(sleeper, 0);
  tids[2] = thread_create(sleeper, 0);
  while (thread_ready < 3)
    sleep(1);
  write(fd, tids, sizeof tids);
  for (;;)
    pause();
}

// Start threaded_child in a new process; its thread tids go to tids.
// Returns its pid, or -errno.
static int
start_threaded(int *tids)
{
  int p[2], pid, r;

  if ((r = pipe(p)) < 0)
    return r;
  pid = tfork();
  if (pid == 0) {
    close(p[0]);
    threaded_child(p[1]);
  }
  close(p[1]);
  r = pid > 0 ? read(p[0], tids, 3 * sizeof(int)) : pid;
  close(p[0]);
  if (pid > 0 && r != 3 * (int)sizeof(int)) {
    kill_reap(pid);
    return r < 0 ? r : -EIO;
  }
  return pid;
}

// sigkill: SIGKILL ends every thread of a process, even threads blocking
// every signal and a thread that never enters the kernel; sent to one
// thread (tgkill) it still ends them all, as does any fatal signal.
static void
t_sigkill(void)
{
  int tids[3], pid, st, gone, fd;
  char path[64];

  pid = start_threaded(tids);
  if (!need("start", pid))
    return;
  expect("kill", kill(pid, SIGKILL), 0);
  st = reap(pid, 5 * HZ);
  expect_status("process_killed", st, ST_SIGNAL(SIGKILL));
  gone = 0;
  for (int i = 0; i < 3; i++) {
    snprintf(path, sizeof path, "/proc/%d/task/%d/stat", pid, tids[i]);
    fd = open(path, O_RDONLY);  // a thread is gone when its stat cannot be opened
    if (fd < 0)
      gone++;
    else
      close(fd);
  }
  expect("no_thread_left", gone, 3);

  pid = start_threaded(tids);
  if (!need("start2", pid))
    return;
  expect("tgkill_kill_thread", tgkill(pid, tids[1], SIGKILL), 0);
  expect_status("one_thread_kills_all", reap(pid, 5 * HZ), ST_SIGNAL(SIGKILL));

  // A fatal signal to one thread that does not block it: the group dies.
  pid = tfork();
  if (pid == 0) {
    int t[2] = { 0, 0 };
    start_threads(2, sleeper, t);
    tgkill(getpid(), t[1], SIGTERM);
    for (;;)
      pause();
  }
  expect_status("fatal_to_one_thread", reap(pid, 5 * HZ), ST_SIGNAL(SIGTERM));
}

// ------------------------------------------------------------ tests: job control

static volatile int nchld;      // SIGCHLD handler runs in the parent
static void
on_chld(int sig)
{
  nchld++;
}

static int gs_fd = -1;          // the writers' pipe (write end)
static volatile int gs_conts;   // SIGCONT handler runs in the child

// Write letter 'a'+i to gs_fd every other tick, forever.
static void
writer(void *arg)
{
  char c = 'a' + (int)(long)arg;

  __atomic_fetch_add(&thread_ready, 1, __ATOMIC_SEQ_CST);
  for (;;) {
    write(gs_fd, &c, 1);
    sleep(2);
  }
}

// The child's SIGCONT handler: say so on the pipe.
static void
on_cont(int sig)
{
  gs_conts++;
  write(gs_fd, "C", 1);
}

// Read fd a byte at a time up to the next 'M' marker: returns the number
// of other bytes; ORs 1 << (c - 'a') into *seen for writer bytes, and
// 0x100 for a 'C'.
static int
drain(int fd, int *seen)
{
  char c;
  int n = 0;

  while (read(fd, &c, 1) == 1 && c != 'M') {
    n++;
    if (c >= 'a' && c <= 'h')
      *seen |= 1 << (c - 'a');
    else if (c == 'C')
      *seen |= 0x100;
  }
  return n;
}

// Put a marker into the pipe and read up to it.
static int
mark_drain(int rfd, int wfd, int *seen)
{
  write(wfd, "M", 1);
  return drain(rfd, seen);
}

// groupstop: SIGSTOP stops every thread (state T, and none makes
// progress); the parent sees WIFSTOPPED exactly once (and a SIGCHLD);
// SIGCONT resumes them all, runs the child's SIGCONT handler, and is seen
// exactly once with WCONTINUED; SIGTSTP stops too; SIGKILL ends a stopped
// process.
static void
t_groupstop(void)
{
  int p[2], pid, st = 0, seen = 0, n, total, tids[3];
  char c, d[128];

  nchld = 0;
  if (!need("sigchld", handle(SIGCHLD, on_chld, SA_RESTART, 0)) || !need("pipe", pipe(p)))
    return;
  gs_fd = p[1];
  pid = tfork();
  if (pid == 0) {
    close(p[0]);
    handle(SIGCONT, on_cont, SA_RESTART, 0);
    start_threads(3, writer, tids);
    writer((void *)3L);
  }
  if (!need("fork", pid))
    return;
  // Every writer has written: all four threads run.
  while (seen != 0xf && read(p[0], &c, 1) == 1)
    if (c >= 'a' && c <= 'd')
      seen |= 1 << (c - 'a');
  expect("all_running", seen, 0xf);

  expect("kill_stop", kill(pid, SIGSTOP), 0);
  expect("waitpid_untraced", waitpid(pid, &st, WUNTRACED), pid);
  expect_status("wifstopped", st, ST_STOP(SIGSTOP));
  expect_true("sigchld_on_stop", nchld >= 1, "no SIGCHLD came when the child stopped");
  expect("stop_reported_once", waitpid(pid, &st, WUNTRACED | WNOHANG), 0);
  n = threads_in_state(pid, 'T', &total);
  snprintf(d, sizeof d, "%d of %d threads in state T, want 4 of 4", n, total);
  expect_true("all_threads_T", n == 4 && total == 4, d);
  mark_drain(p[0], p[1], &seen);
  sleep(20);
  expect("no_progress_while_stopped", mark_drain(p[0], p[1], &seen), 0);
  expect("no_continue_yet", waitpid(pid, &st, WCONTINUED | WNOHANG), 0);

  nchld = 0;
  expect("kill_cont", kill(pid, SIGCONT), 0);
  expect("waitpid_continued", waitpid(pid, &st, WCONTINUED), pid);
  expect_status("wifcontinued", st, ST_CONT);
  expect("continue_reported_once", waitpid(pid, &st, WCONTINUED | WNOHANG), 0);
  seen = 0;
  for (int i = 0; i < 40 && seen != 0x10f; i++) {
    sleep(3);
    mark_drain(p[0], p[1], &seen);
  }
  expect("all_threads_resume", seen & 0xf, 0xf);
  expect_true("cont_handler_ran", seen & 0x100, "the child's SIGCONT handler did not run");
  expect_true("sigchld_on_continue", nchld >= 1, "no SIGCHLD came when the child continued");
  n = threads_in_state(pid, 'T', &total);
  expect("none_T_after_cont", n, 0);

  expect("kill_tstp", kill(pid, SIGTSTP), 0);
  st = 0;
  expect("waitpid_tstp", wait_ticks(pid, &st, WUNTRACED, 5 * HZ), pid);
  expect_status("tstp_stops", st, ST_STOP(SIGTSTP));
  n = wait_all_state(pid, 'T', &total, 2 * HZ);
  expect("tstp_all_T", n, 4);
  expect("kill_stopped", kill(pid, SIGKILL), 0);
  expect_status("sigkill_ends_stopped", reap(pid, 5 * HZ), ST_SIGNAL(SIGKILL));
  close(p[0]);
  close(p[1]);
  signal(SIGCHLD, SIG_DFL);
}

// stopthread: SIGSTOP sent by one thread to another thread of its own
// process (tgkill) stops the whole process, the sender too; a process
// stopped while the parent is not waiting is reported later.
static void
t_stopthread(void)
{
  int pid, st = 0, n, total;
  char d[96];

  pid = tfork();
  if (pid == 0) {
    int t[2] = { 0, 0 }, me = getpid();
    start_threads(2, sleeper, t);
    tgkill(me, t[1], SIGSTOP);
    for (;;)
      sleep(1);
  }
  if (!need("fork", pid))
    return;
  n = wait_all_state(pid, 'T', &total, 5 * HZ);
  snprintf(d, sizeof d, "%d of %d threads in state T, want 3 of 3", n, total);
  expect_true("all_stopped", n == 3 && total == 3, d);
  expect("reported_later", waitpid(pid, &st, WUNTRACED | WNOHANG), pid);
  expect_status("wifstopped", st, ST_STOP(SIGSTOP));
  expect("not_without_wuntraced", waitpid(pid, &st, WNOHANG), 0);
  kill_reap(pid);
}

// The child body for the pipe-read-survives-stop check: read a byte;
// exit with how many bytes the read returned.
static void
read_and_exit(int fd)
{
  char c;

  exit(read(fd, &c, 1) == 1 && c == 'x' ? 1 : 2);
}

// ------------------------------------------------------------ tests: interrupted calls

// eintr: a pipe read interrupted by a handler without SA_RESTART fails
// with EINTR; with SA_RESTART it goes on transparently and returns the
// data; a stop and continue (no handler) never shows; waitpid is
// interrupted or restarted the same way; sleep gives EINTR either way.
static void
t_eintr(void)
{
  int p[2], ack[2], h, r, sl, st;
  char c = 0;

  reset_log();
  if (!need("pipe", pipe(p)) || !need("pipe_ack", pipe(ack)))
    return;

  // Without SA_RESTART.
  handle(SIGUSR1, on_signal, 0, 0);
  h = helper(getpid(), SIGUSR1, NULL);
  r = read(p[0], &c, 1);
  expect("read_eintr", r, -EINTR);
  expect("read_handler_ran", hits[SIGUSR1], 1);
  expect_status("helper", reap(h, 5 * HZ), ST_EXIT(0));

  // With SA_RESTART: the handler acknowledges, the helper then writes.
  handle(SIGUSR1, on_signal, SA_RESTART, 0);
  ackfd = ack[1];
  ack_rfd = ack[0];
  helper_fd = p[1];
  h = helper(getpid(), SIGUSR1, then_ack_write);
  r = read(p[0], &c, 1);
  ackfd = -1;
  expect("read_restarted", r, 1);
  expect("read_data", c, 'x');
  expect("restart_handler_ran", hits[SIGUSR1], 2);
  expect_status("helper2", reap(h, 5 * HZ), ST_EXIT(0));

  // waitpid without SA_RESTART: EINTR, the child still there.
  handle(SIGUSR1, on_signal, 0, 0);
  sl = tfork();
  if (sl == 0) {
    for (;;)
      pause();
  }
  h = helper(getpid(), SIGUSR1, NULL);
  r = waitpid(sl, &st, 0);
  expect("waitpid_eintr", r, -EINTR);
  reap(h, 5 * HZ);      // the helper may be reaped later; either is fine
  // waitpid with SA_RESTART: restarted, and it then reaps the child the
  // helper kills after the handler ran.
  handle(SIGUSR1, on_signal, SA_RESTART, 0);
  helper_pid2 = sl;
  ackfd = ack[1];
  h = helper(getpid(), SIGUSR1, then_ack_kill);
  st = 0;
  r = waitpid(sl, &st, 0);
  ackfd = -1;
  expect("waitpid_restarted", r, sl);
  expect_status("waitpid_restarted_status", st, ST_SIGNAL(SIGKILL));
  reap(h, 5 * HZ);
  kill_reap(sl);

  // sleep: EINTR even with SA_RESTART (as nanosleep), and early.
  h = helper(getpid(), SIGUSR1, NULL);
  sl = uptime();
  r = sleep(10 * HZ);
  expect("sleep_eintr", r, -EINTR);
  expect_true("sleep_woke_early", uptime() - sl < 5 * HZ, "sleep ran on after the signal");
  reap(h, 5 * HZ);

  // A read stopped and continued (no handler) just goes on.
  sl = tfork();
  if (sl == 0)
    read_and_exit(p[0]);
  if (need("fork", sl)) {
    wait_state(sl, sl, 'S', 5 * HZ);
    kill(sl, SIGSTOP);
    r = wait_ticks(sl, &st, WUNTRACED, 5 * HZ);
    kill(sl, SIGCONT);
    wait_ticks(sl, &st, WCONTINUED, 5 * HZ);
    wait_state(sl, sl, 'S', 5 * HZ);
    write(p[1], "x", 1);
    expect_status("read_survives_stop", reap(sl, 5 * HZ), ST_EXIT(1));
  }
  close(p[0]);
  close(p[1]);
  close(ack[0]);
  close(ack[1]);
}

// Outer handler of the nested test: log, raise SIGUSR2 inside, log again.
static volatile sigset_t outer_mask;     // the mask inside outer_raise
static void
outer_raise(int sig)
{
  olog_add('1');
  outer_mask = curmask();
  raise(SIGUSR2);
  olog_add('e');
}

// Outer handler that sleeps: another signal from outside ends the sleep.
static void
outer_sleep(int sig)
{
  int r;

  olog_add('1');
  r = sleep(5 * HZ);
  olog_add(r == -EINTR ? 'i' : 'x');
  olog_add('e');
}

// Middle handler for three-deep nesting.
static void
middle_raise(int sig)
{
  olog_add('2');
  raise(SIGHUP);
  olog_add('f');
}

// nested: a handler interrupted by another signal runs the second handler
// inside the first, unless sa_mask blocks it (then after); three deep;
// a signal from outside interrupting a sleeping handler; masks restored.
static void
t_nested(void)
{
  int h;

  reset_log();
  setmask(0);
  handle(SIGUSR1, outer_raise, 0, 0);
  handle(SIGUSR2, on_signal, 0, 0);
  raise(SIGUSR1);
  expect_order("inner_runs_inside", "12e");
  expect_set("outer_mask", outer_mask & (SB(SIGUSR1) | SB(SIGUSR2)), SB(SIGUSR1));

  reset_log();
  handle(SIGUSR1, outer_raise, 0, SB(SIGUSR2));
  raise(SIGUSR1);
  expect_order("sa_mask_defers_inner", "1e2");
  expect_set("outer_mask_with_sa_mask", outer_mask & (SB(SIGUSR1) | SB(SIGUSR2)),
             SB(SIGUSR1) | SB(SIGUSR2));

  reset_log();
  handle(SIGUSR1, outer_raise, 0, 0);
  handle(SIGUSR2, middle_raise, 0, 0);
  handle(SIGHUP, on_signal, 0, 0);
  raise(SIGUSR1);
  expect_order("three_deep", "12Hfe");

  reset_log();
  handle(SIGUSR1, outer_sleep, 0, 0);
  handle(SIGUSR2, on_signal, 0, 0);
  helper_target = getpid();
  h = tfork();
  if (h == 0) {
    // Wait for the outer handler's sleep, then interrupt it.
    if (!wait_state(helper_target, helper_target, 'S', 5 * HZ))
      exit(1);
    kill(helper_target, SIGUSR2);
    exit(0);
  }
  raise(SIGUSR1);
  expect_order("outside_signal_interrupts_handler", "12ie");
  reap(h, 5 * HZ);
  expect_set("mask_restored", curmask(), 0);
}

// sigsuspend: atomically installs the given mask and sleeps; a pending
// signal it unblocks runs at once; it returns -EINTR after the handler,
// which ran under the temporary mask; the old mask comes back; a signal
// the temporary mask blocks neither wakes it nor runs until afterwards.
static void
t_sigsuspend(void)
{
  sigset_t sm;
  int h, r;

  reset_log();
  handle(SIGUSR1, on_signal, 0, 0);
  handle(SIGUSR2, on_signal, 0, 0);
  setmask(SB(SIGUSR1));
  raise(SIGUSR1);
  sm = SB(SIGUSR2);
  r = sigsuspend(&sm);
  expect("returns_eintr", r, -EINTR);
  expect("pending_ran", hits[SIGUSR1], 1);
  expect_set("mask_in_handler", inmask & (SB(SIGUSR1) | SB(SIGUSR2)),
             SB(SIGUSR1) | SB(SIGUSR2));
  expect_set("old_mask_restored", curmask(), SB(SIGUSR1));

  h = helper(getpid(), SIGUSR1, NULL);
  sm = 0;
  r = sigsuspend(&sm);
  expect("woken_eintr", r, -EINTR);
  expect("woken_handler_ran", hits[SIGUSR1], 2);
  expect_set("woken_mask_restored", curmask(), SB(SIGUSR1));
  reap(h, 5 * HZ);

  // The temporary mask blocks SIGUSR1: it stays pending until sigsuspend
  // has returned through SIGUSR2's handler and the old (empty) mask is back.
  reset_log();
  setmask(0);
  helper_target = getpid();
  h = helper(getpid(), SIGUSR1, then_usr2);
  sm = SB(SIGUSR1);
  r = sigsuspend(&sm);
  expect("blocked_eintr", r, -EINTR);
  expect_order("blocked_runs_after", "21");
  expect_status("blocked_did_not_wake", reap(h, 5 * HZ), ST_EXIT(0));
  expect_set("mask_back_to_empty", curmask(), 0);
}

// pause: sleeps until a handler runs, then -EINTR, with SA_RESTART too.
static void
t_pause(void)
{
  int h;

  reset_log();
  setmask(0);
  handle(SIGUSR1, on_signal, 0, 0);
  h = helper(getpid(), SIGUSR1, NULL);
  expect("returns_eintr", pause(), -EINTR);
  expect("handler_ran", hits[SIGUSR1], 1);
  reap(h, 5 * HZ);
  handle(SIGUSR1, on_signal, SA_RESTART, 0);
  h = helper(getpid(), SIGUSR1, NULL);
  expect("eintr_despite_sa_restart", pause(), -EINTR);
  expect("handler_ran2", hits[SIGUSR1], 2);
  reap(h, 5 * HZ);
}

// ------------------------------------------------------------ tests: flags and defaults

// The handler of the nodefer test: nests once by raising its own signal.
static volatile int depth, maxdepth, calls;
static void
self_raise(int sig)
{
  depth++;
  if (depth > maxdepth)
    maxdepth = depth;
  inmask = curmask();
  if (calls++ == 0)
    raise(sig);
  depth--;
}

// nodefer: SA_NODEFER lets a handler be interrupted by its own signal;
// without it the signal is blocked in the handler and runs after.
static void
t_nodefer(void)
{
  setmask(0);
  depth = maxdepth = calls = 0;
  handle(SIGUSR1, self_raise, 0, 0);
  raise(SIGUSR1);
  expect("deferred_depth", maxdepth, 1);
  expect("deferred_runs", calls, 2);
  expect_true("blocked_inside", (inmask & SB(SIGUSR1)) != 0, "SIGUSR1 not blocked in its handler");
  depth = maxdepth = calls = 0;
  handle(SIGUSR1, self_raise, SA_NODEFER, 0);
  raise(SIGUSR1);
  expect("nodefer_depth", maxdepth, 2);
  expect("nodefer_runs", calls, 2);
  expect_true("not_blocked_inside", (inmask & SB(SIGUSR1)) == 0,
              "SIGUSR1 blocked in its SA_NODEFER handler");
  expect_set("mask_restored", curmask(), 0);
}

// resethand: SA_RESETHAND runs the handler once, then the action is
// SIG_DFL, so a second signal takes the default action.
static void
t_resethand(void)
{
  int pid;

  reset_log();
  setmask(0);
  handle(SIGUSR1, on_signal, SA_RESETHAND, 0);
  raise(SIGUSR1);
  expect("handler_ran", hits[SIGUSR1], 1);
  expect_true("reset_to_default", handler_of(SIGUSR1) == SIG_DFL,
              "the action is not SIG_DFL after the first run");
  pid = tfork();
  if (pid == 0) {
    handle(SIGUSR1, on_signal, SA_RESETHAND, 0);
    raise(SIGUSR1);
    raise(SIGUSR1);
    exit(hits[SIGUSR1] == 2 ? 0 : 1);
  }
  expect_status("second_takes_default", reap(pid, 5 * HZ), ST_SIGNAL(SIGUSR1));
}

// kernelonly: SIGKILL and SIGSTOP can be neither caught nor ignored
// (EINVAL, and the action stays SIG_DFL) nor blocked (silently left out
// of the mask, and of sa_mask); a process blocking and ignoring
// everything still stops and dies. Bad signal numbers give EINVAL.
static void
t_kernelonly(void)
{
  struct sigaction sa, old;
  sigset_t s;
  int pid, st = 0;

  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  expect("catch_kill", sigaction(SIGKILL, &sa, NULL), -EINVAL);
  expect("catch_stop", sigaction(SIGSTOP, &sa, NULL), -EINVAL);
  sa.sa_handler = SIG_IGN;
  expect("ignore_kill", sigaction(SIGKILL, &sa, NULL), -EINVAL);
  expect("ignore_stop", sigaction(SIGSTOP, &sa, NULL), -EINVAL);
  expect_true("kill_still_default", handler_of(SIGKILL) == SIG_DFL, "SIGKILL's action changed");
  expect_true("stop_still_default", handler_of(SIGSTOP) == SIG_DFL, "SIGSTOP's action changed");
  expect("query_kill", sigaction(SIGKILL, NULL, &old), 0);
  expect("signal_zero", sigaction(0, &sa, NULL), -EINVAL);
  expect("signal_too_big", sigaction(NSIG + 1, &sa, NULL), -EINVAL);
  expect("kill_bad_signal", kill(getpid(), NSIG + 1), -EINVAL);
  expect("kill_zero_probe", kill(getpid(), 0), 0);
  expect("kill_no_such_pid", kill(30000, 0), -ESRCH);

  s = SB(SIGKILL) | SB(SIGSTOP) | SB(SIGUSR1);
  expect("block_kill_stop", sigprocmask(SIG_BLOCK, &s, NULL), 0);
  expect_set("not_blocked", curmask(), SB(SIGUSR1));
  s = ~0UL;
  sigprocmask(SIG_SETMASK, &s, NULL);
  expect_set("setmask_all", curmask(), ~0UL & ~(SB(SIGKILL) | SB(SIGSTOP)));
  setmask(0);
  sa.sa_handler = on_signal;
  sa.sa_mask = ~0UL;
  sa.sa_flags = 0;
  sigaction(SIGUSR1, &sa, NULL);
  sigaction(SIGUSR1, NULL, &old);
  expect_set("sa_mask_stripped", old.sa_mask & (SB(SIGKILL) | SB(SIGSTOP)), 0);

  pid = tfork();
  if (pid == 0) {
    for (int i = 1; i <= 31; i++)
      signal(i, SIG_IGN);
    s = ~0UL;
    sigprocmask(SIG_SETMASK, &s, NULL);
    for (;;)
      pause();
  }
  if (!need("fork", pid))
    return;
  wait_state(pid, pid, 'S', 5 * HZ);
  kill(pid, SIGSTOP);
  expect("stop_reaches_blocker", wait_ticks(pid, &st, WUNTRACED, 5 * HZ), pid);
  expect_status("stopped_anyway", st, ST_STOP(SIGSTOP));
  kill(pid, SIGKILL);
  expect_status("killed_anyway", reap(pid, 5 * HZ), ST_SIGNAL(SIGKILL));
}

// Child body: sleep until killed (or 30 ticks, then exit 7).
static void
idle_child(void)
{
  int t0 = uptime();

  while (uptime() - t0 < 30)
    sleep(30 - (uptime() - t0));
  exit(7);
}

// defaults: the default actions. Terminate: HUP INT QUIT ILL ABRT USR1
// USR2 PIPE ALRM TERM (WTERMSIG); ignore: CHLD CONT URG WINCH (the child
// lives on); stop: STOP TSTP TTIN TTOU (WSTOPSIG).
static void
t_defaults(void)
{
  static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGILL, SIGABRT, SIGUSR1,
                               SIGUSR2, SIGPIPE, SIGALRM, SIGTERM };
  static const int stops[] = { SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU };
  int pids[10], pid, st, n = sizeof fatal / sizeof fatal[0];
  char check[32];

  for (int i = 0; i < n; i++) {
    pids[i] = tfork();
    if (pids[i] == 0)
      idle_child();
  }
  for (int i = 0; i < n; i++)
    if (pids[i] > 0)
      kill(pids[i], fatal[i]);
  for (int i = 0; i < n; i++) {
    snprintf(check, sizeof check, "%s_kills", signame(fatal[i]));
    expect_status(check, pids[i] > 0 ? reap(pids[i], 5 * HZ) : pids[i], ST_SIGNAL(fatal[i]));
  }

  pid = tfork();
  if (pid == 0)
    idle_child();
  kill(pid, SIGCHLD);
  kill(pid, SIGCONT);
  kill(pid, 23);
  kill(pid, 28);
  expect_status("CHLD_CONT_URG_WINCH_ignored", reap(pid, 5 * HZ), ST_EXIT(7));

  for (int i = 0; i < 4; i++) {
    pid = tfork();
    if (pid == 0)
      idle_child();
    kill(pid, stops[i]);
    st = 0;
    wait_ticks(pid, &st, WUNTRACED, 5 * HZ);
    snprintf(check, sizeof check, "%s_stops", signame(stops[i]));
    expect_status(check, st, ST_STOP(stops[i]));
    kill_reap(pid);
  }
}

// sigchld: a parent with a SIGCHLD handler hears of each child's exit.
static void
t_sigchld(void)
{
  int pid;

  nchld = 0;
  handle(SIGCHLD, on_chld, SA_RESTART, 0);
  pid = tfork();
  if (pid == 0)
    exit(0);
  expect_status("child_exit", reap(pid, 5 * HZ), ST_EXIT(0));
  expect("handler_ran", nchld, 1);
  signal(SIGCHLD, SIG_IGN);
  signal(SIGCHLD, SIG_DFL);
}

// ------------------------------------------------------------ tests: fork and exec

// fork: the child gets the parent's handlers, ignored signals and mask,
// but no pending signals; the parent keeps its pending signal.
static void
t_fork(void)
{
  int pid, st, code;

  reset_log();
  setmask(0);
  handle(SIGUSR1, on_signal, 0, 0);
  handle(SIGALRM, on_signal, 0, 0);
  signal(SIGUSR2, SIG_IGN);
  setmask(SB(SIGTERM) | SB(SIGALRM));
  raise(SIGALRM);
  pid = tfork();
  if (pid == 0) {
    code = 0;
    if (handler_of(SIGUSR1) != on_signal)
      code |= 1;
    if (handler_of(SIGUSR2) != SIG_IGN)
      code |= 2;
    if (curmask() != (SB(SIGTERM) | SB(SIGALRM)))
      code |= 4;
    if (pending() != 0)
      code |= 8;
    raise(SIGUSR1);
    if (hits[SIGUSR1] != 1)
      code |= 16;
    exit(code);
  }
  st = reap(pid, 5 * HZ);
  code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("child_ok", st, ST_EXIT(0));
  if (code >= 0) {
    expect_true("handler_inherited", !(code & 1), "the child's SIGUSR1 action differs");
    expect_true("ignore_inherited", !(code & 2), "SIGUSR2 is not ignored in the child");
    expect_true("mask_inherited", !(code & 4), "the child's mask differs");
    expect_true("pending_not_inherited", !(code & 8), "the child starts with signals pending");
    expect_true("handler_works_in_child", !(code & 16), "raise in the child did not run its handler");
  }
  expect_set("parent_still_pending", pending(), SB(SIGALRM));
  setmask(0);
  expect("parent_pending_ran", hits[SIGALRM], 1);
  signal(SIGUSR2, SIG_DFL);
}

// Run this program as a probe in a child: exec SELF with argv
// {PROBE, a1, a2}; returns the child's wait status. The child first calls
// setup() if given.
static int
run_probe(const char *a1, const char *a2, void (*setup)(void))
{
  char *av[4];
  int pid, r;

  av[0] = PROBE;
  av[1] = (char *)a1;
  av[2] = (char *)a2;
  av[3] = 0;
  pid = tfork();
  if (pid == 0) {
    if (setup)
      setup();
    r = exec(SELF, av);
    exit(200 + (r < 0 ? -r % 50 : 0));
  }
  return pid < 0 ? pid : reap(pid, 10 * HZ);
}

// The state exec must sort out: a caught SIGUSR1 and SIGINT, an ignored
// SIGUSR2, SIGTERM and SIGHUP blocked, SIGHUP pending.
static void
exec_setup(void)
{
  handle(SIGUSR1, on_signal, SA_RESTART, SB(SIGALRM));
  handle(SIGINT, on_signal, 0, 0);
  signal(SIGUSR2, SIG_IGN);
  setmask(SB(SIGTERM) | SB(SIGHUP));
  raise(SIGHUP);
}

// exec: caught signals go back to SIG_DFL, ignored ones stay ignored, the
// mask and pending signals stay (the probe checks, see probe()); a reset
// handler then kills, an ignored signal stays harmless.
static void
t_exec(void)
{
  int st = run_probe("sigstate", 0, exec_setup), code;

  code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("probe", st, ST_EXIT(0));
  if (code >= 0 && code < 64) {
    expect_true("caught_reset", !(code & 1), "SIGUSR1's handler survived exec");
    expect_true("caught_reset_int", !(code & 2), "SIGINT's handler survived exec");
    expect_true("ignored_kept", !(code & 4), "SIGUSR2 is no longer ignored after exec");
    expect_true("mask_kept", !(code & 8), "the blocked mask changed across exec");
    expect_true("pending_kept", !(code & 16), "the pending SIGHUP was lost in exec");
    expect_true("sa_mask_cleared", !(code & 32), "SIGUSR1's sa_mask or flags survived exec");
  }
  expect_status("reset_handler_kills", run_probe("raise", "10", exec_setup), ST_SIGNAL(SIGUSR1));
  expect_status("ignored_stays_harmless", run_probe("raise", "12", exec_setup), ST_EXIT(0));
}

// ------------------------------------------------------------ tests: forged frames

// The frame the kernel pushes for a handler (kernel/arch/*/signal.c):
// the interrupted user registers, then the mask to restore.
struct sigframe {
  struct user_regs regs;
  sigset_t mask;
  unsigned long magic;
};

static int forge_what;          // which forgery the handler commits

static void
landing(void)
{
  exit(77);
}

// A handler that rewrites its own frame, then returns through sigreturn.
static void
forger(int sig, void *info, void *ctx)
{
  struct sigframe *f = ctx;

  switch (forge_what) {
  case 0:                       // back to kernel text
    USER_REGS_PC(&f->regs) = KERNEL_VA;
    break;
  case 1:                       // the kernel's physical address
    USER_REGS_PC(&f->regs) = KERNEL_PA;
    break;
  case 2:                       // garbage everywhere, pc and sp in the kernel
  case 5:                       // the same, but SIGSEGV left unblocked
    for (int i = 0; i < (int)(sizeof(f->regs) / sizeof(long)); i++)
      ((unsigned long *)&f->regs)[i] = 0xdead000000000000UL | (i * 0x1111UL);
    USER_REGS_PC(&f->regs) = KERNEL_VA + 0x1000;
    USER_REGS_SP(&f->regs) = KERNEL_VA + 0x200000;
    if (forge_what == 2)
      f->mask = ~0UL;
    f->magic = 0;
    break;
  case 3:                       // a legitimate redirect to user code
    USER_REGS_PC(&f->regs) = (unsigned long)landing;
    break;
  case 4:                       // block everything, KILL and STOP included
    f->mask = ~0UL;
    break;
  }
}

// Child body: install forger for SIGUSR1 (and SIGSEGV, with what >= 10:
// a handler the kernel cannot push a frame for), raise, exit 0 if it
// came back.
static void
forge_child(int what)
{
  forge_what = what % 10;
  handle(SIGUSR1, (sighandler_t)forger, 0, 0);
  if (what >= 10)
    handle(SIGSEGV, on_signal, 0, 0);
  raise(SIGUSR1);
  exit(0);
}

// System call numbers, from the table the stubs are made from.
#define SYSCALL(nr, name) SYS_##name = nr,
enum {
#include "kernel/syscalls.h"
};
#undef SYSCALL

// Child body: rt_sigreturn with the stack pointer at addr.
static void
sigreturn_at(unsigned long addr)
{
#if defined(__riscv)
  register unsigned long a7 asm("a7") = SYS_rt_sigreturn;
  register unsigned long sp_new asm("t0") = addr;
  asm volatile("mv sp, t0\n ecall" : : "r"(a7), "r"(sp_new) : "memory");
#elif defined(__x86_64__)
  asm volatile("mov %0, %%rsp\n syscall" : : "r"(addr), "a"((long)SYS_rt_sigreturn) : "memory");
#endif
  for (;;)
    ;
}

// forged: a handler that points its saved pc into the kernel, or fills
// its frame with garbage, or blocks SIGKILL through the saved mask, gains
// nothing: the process dies of SIGSEGV (or stays killable) and the
// kernel goes on. A legitimate redirect shows the frame is honoured.
static void
t_forged(void)
{
  static const struct { const char *check; int what; } cases[] = {
    { "pc_kernel_va", 0 }, { "pc_kernel_pa", 1 }, { "garbage_frame", 2 },
    { "garbage_frame_segv_handler", 15 },
  };
  int pid, p[2];
  char c = 0;

  for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
    pid = tfork();
    if (pid == 0)
      forge_child(cases[i].what);
    expect_status(cases[i].check, reap(pid, 5 * HZ), ST_SIGNAL(SIGSEGV));
  }
  pid = tfork();
  if (pid == 0)
    forge_child(3);
  expect_status("redirect_honoured", reap(pid, 5 * HZ), ST_EXIT(77));

  for (int i = 0; i < 2; i++) {
    pid = tfork();
    if (pid == 0)
      sigreturn_at(i ? 0 : KERNEL_VA);
    expect_status(i ? "sigreturn_null_sp" : "sigreturn_kernel_sp", reap(pid, 5 * HZ),
                  ST_SIGNAL(SIGSEGV));
  }

  // A forged mask with SIGKILL and SIGSTOP in it.
  if (!need("pipe", pipe(p)))
    return;
  pid = tfork();
  if (pid == 0) {
    forge_what = 4;
    handle(SIGUSR1, (sighandler_t)forger, 0, 0);
    raise(SIGUSR1);
    c = curmask() & (SB(SIGKILL) | SB(SIGSTOP)) ? 'b' : 'r';
    write(p[1], &c, 1);
    for (;;)
      pause();
  }
  close(p[1]);
  read(p[0], &c, 1);
  close(p[0]);
  expect("mask_keeps_kill_stop", c, 'r');
  kill(pid, SIGSTOP);
  int st = 0;
  wait_ticks(pid, &st, WUNTRACED, 5 * HZ);
  expect_status("still_stoppable", st, ST_STOP(SIGSTOP));
  kill(pid, SIGKILL);
  expect_status("still_killable", reap(pid, 5 * HZ), ST_SIGNAL(SIGKILL));

  pid = tfork();
  if (pid == 0)
    exit(getppid() > 0 ? 5 : 6);
  expect_status("kernel_alive", reap(pid, 5 * HZ), ST_EXIT(5));
}

// ------------------------------------------------------------ tests: threads

static volatile int counter;
static volatile int seen_tid[NTHREADS], seen_pid[NTHREADS], squares[NTHREADS];
static int share_fd = -1;

// Thread body: note who we are, add 1000 to counter, write a square.
static void
worker(void *arg)
{
  int i = (int)(long)arg;
  char c = 'A' + i;

  seen_tid[i] = gettid();
  seen_pid[i] = getpid();
  for (int k = 0; k < 1000; k++)
    __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
  squares[i] = i * i;
  write(share_fd, &c, 1);
}

static volatile int raise_result = 1;

// Thread body: raise SIGUSR1 in this thread.
static void
raiser(void *arg)
{
  raise_result = raise(SIGUSR1);
}

static void
nothing(void *arg)
{
}

// threads: 8 threads run, share memory and files, get distinct tids that
// thread_create returns, see the process id as getpid(); join works once;
// raise() in a thread runs the handler there.
static void
t_threads(void)
{
  int tids[NTHREADS], p[2], ok, n, tid;
  char b[NTHREADS + 1], d[128];

  counter = 0;
  if (!need("pipe", pipe(p)))
    return;
  share_fd = p[1];
  for (int i = 0; i < NTHREADS; i++)
    seen_tid[i] = seen_pid[i] = squares[i] = -1;
  for (n = 0; n < NTHREADS; n++) {
    tids[n] = thread_create(worker, (void *)(long)n);
    if (tids[n] < 0)
      break;
  }
  expect("create", n, NTHREADS);
  ok = 1;
  for (int i = 0; i < n; i++)
    ok &= thread_join(tids[i]) == 0;
  expect_true("join", ok, "thread_join failed");
  expect("shared_counter", counter, n * 1000);
  ok = 1;
  for (int i = 0; i < n; i++) {
    ok &= squares[i] == i * i && seen_tid[i] == tids[i] && seen_tid[i] != getpid();
    for (int j = 0; j < i; j++)
      ok &= tids[i] != tids[j];
  }
  expect_true("tids_and_memory", ok, "a thread's tid is not what thread_create returned, "
              "is repeated or is the process id, or its writes were lost");
  ok = 1;
  for (int i = 0; i < n; i++)
    ok &= seen_pid[i] == getpid();
  snprintf(d, sizeof d, "getpid() in thread 0 returned %d (its tid is %d), want the process id %d",
           seen_pid[0], seen_tid[0], getpid());
  expect_true("getpid_is_tgid", ok, d);
  expect("shared_files", read(p[0], b, n), n);
  expect("join_again", thread_join(tids[0]), -ESRCH);
  expect("join_unknown", thread_join(30000), -ESRCH);
  close(p[0]);
  close(p[1]);

  reset_log();
  handle(SIGUSR1, on_signal, 0, 0);
  tid = thread_create(raiser, 0);
  if (need("create_raiser", tid)) {
    thread_join(tid);
    expect("raise_in_thread", raise_result, 0);
    snprintf(d, sizeof d, "the handler ran %d times, first in %d, want once in thread %d",
             ntid, ntid ? tidlog[0] : 0, tid);
    expect_true("raise_handled_in_thread", ntid == 1 && tidlog[0] == tid, d);
  }
  tid = thread_create(nothing, 0);
  expect("create_after", tid > 0 && thread_join(tid) == 0, 1);
}

// threadleak: 1000 thread create/join cycles (one at a time, then four
// at a time) leave free memory where it was.
static void
t_threadleak(void)
{
  int tids[4], bad = 0, r;
  long before, after;
  char d[128];

  for (int i = 0; i < 4; i++) {         // let malloc grow the heap first
    tids[i] = thread_create(nothing, 0);
    if (tids[i] > 0)
      thread_join(tids[i]);
  }
  for (int i = 0; i < 4; i++)
    tids[i] = thread_create(nothing, 0);
  for (int i = 0; i < 4; i++)
    if (tids[i] > 0)
      thread_join(tids[i]);
  before = freemem();
  for (int i = 0; i < LEAK_ROUNDS / 2; i++) {
    r = thread_create(nothing, 0);
    if (r < 0 || thread_join(r) != 0)
      bad++;
  }
  for (int i = 0; i < LEAK_ROUNDS / 8; i++) {
    for (int k = 0; k < 4; k++)
      tids[k] = thread_create(nothing, 0);
    for (int k = 0; k < 4; k++)
      if (tids[k] < 0 || thread_join(tids[k]) != 0)
        bad++;
  }
  expect("all_created_and_joined", bad, 0);
  sleep(2);
  after = freemem();
  snprintf(d, sizeof d, "%ld free pages before, %ld after %d cycles (%ld lost)",
           before, after, LEAK_ROUNDS, before - after);
  expect_true("freemem_unchanged", before == after, d);
}

// ------------------------------------------------------------ tests: group exit

static volatile int exit_code_for_thread;

// Thread body: exit() the whole process.
static void
exiter(void *arg)
{
  sleep((int)(long)arg);
  exit(exit_code_for_thread);
}

// Thread body: sleep, then end this thread only.
static void
thread_quitter(void *arg)
{
  sleep((int)(long)arg);
  thread_exit();
}

// exitgroup: exit() from any thread ends the process with that status,
// whatever the other threads do; the leader may leave first (thread_exit)
// and the process lives on until its last thread; a process whose threads
// all thread_exit ends with status 0.
static void
t_exitgroup(void)
{
  int pid, t[2];

  pid = tfork();
  if (pid == 0) {
    exit_code_for_thread = 42;
    start_threads(1, spinner, t);
    thread_create(exiter, (void *)2L);
    for (;;)
      pause();
  }
  expect_status("exit_from_thread", reap(pid, 5 * HZ), ST_EXIT(42));

  pid = tfork();
  if (pid == 0) {
    start_threads(1, spinner, t);
    start_threads(1, sleeper, t);
    exit(43);
  }
  expect_status("exit_from_leader", reap(pid, 5 * HZ), ST_EXIT(43));

  pid = tfork();
  if (pid == 0) {
    exit_code_for_thread = 5;
    thread_create(exiter, (void *)10L);
    thread_exit();
  }
  expect_status("leader_exits_first", reap(pid, 5 * HZ), ST_EXIT(5));

  pid = tfork();
  if (pid == 0) {
    thread_create(thread_quitter, (void *)5L);
    thread_create(thread_quitter, (void *)8L);
    thread_exit();
  }
  expect_status("all_threads_exit", reap(pid, 5 * HZ), ST_EXIT(0));
}

static volatile int exec_from_thread_pid;

// Thread body: exec the probe, which checks it is alone and kept the pid.
static void
thread_execer(void *arg)
{
  char pidbuf[16], *av[4];

  snprintf(pidbuf, sizeof pidbuf, "%d", exec_from_thread_pid);
  av[0] = PROBE;
  av[1] = "threads";
  av[2] = pidbuf;
  av[3] = 0;
  sleep(2);
  exec(SELF, av);
  exit(99);
}

// execthreads: exec in a process with several threads ends the others;
// from the leader or from another thread, the process keeps its pid and
// ends up with one thread (the probe checks /proc/self).
static void
t_execthreads(void)
{
  int pid, t[3];

  pid = tfork();
  if (pid == 0) {
    exec_from_thread_pid = getpid();
    start_threads(1, spinner, t);
    start_threads(2, sleeper, t + 1);
    thread_execer(0);
  }
  expect_status("from_leader", reap(pid, 10 * HZ), ST_EXIT(0));

  pid = tfork();
  if (pid == 0) {
    exec_from_thread_pid = getpid();
    start_threads(2, sleeper, t);
    thread_create(thread_execer, 0);
    for (;;)
      pause();
  }
  expect_status("from_other_thread", reap(pid, 10 * HZ), ST_EXIT(0));
}

// ------------------------------------------------------------ tests: process groups

// pgrp: setpgid makes and joins groups; kill(-pgid) reaches every member;
// kill(0) reaches the caller's group; waitpid(-pgid) and waitpid(0) wait
// for children in a group; errors for groups and children that are not
// there.
static void
t_pgrp(void)
{
  int a, b, p[2], g = 0, st = 0, c;

  if (!need("pipe", pipe(p)))
    return;
  a = tfork();
  if (a == 0) {
    setpgid(0, 0);
    g = getpgrp();
    write(p[1], &g, sizeof g);
    for (;;)
      pause();
  }
  setpgid(a, a);                // as shells do: whoever is first wins
  read(p[0], &g, sizeof g);
  expect("getpgrp_after_setpgid", g, a);
  b = tfork();
  if (b == 0) {
    for (;;)
      pause();
  }
  expect("join_group", setpgid(b, a), 0);
  expect("kill_group_probe", kill(-a, 0), 0);
  expect("waitpid_group_nohang", waitpid(-a, &st, WNOHANG), 0);
  expect("kill_group", kill(-a, SIGTERM), 0);
  expect_status("group_member_a", reap(a, 5 * HZ), ST_SIGNAL(SIGTERM));
  expect_status("group_member_b", reap(b, 5 * HZ), ST_SIGNAL(SIGTERM));
  expect("empty_group", kill(-a, SIGTERM), -ESRCH);
  expect("not_my_child", setpgid(1, 1), -ESRCH);
  expect("negative_pgid", setpgid(0, -1), -EINVAL);

  // waitpid(-pgid): the member that exits is reaped through its group.
  a = tfork();
  if (a == 0) {
    setpgid(0, 0);
    sleep(5);
    exit(3);
  }
  setpgid(a, a);
  st = 0;
  if (expect("waitpid_group", waitpid(-a, &st, 0), a))
    expect_status("waitpid_group_status", st, ST_EXIT(3));
  kill_reap(a);

  // kill(0) and waitpid(0), inside a new group.
  c = tfork();
  if (c == 0) {
    int d, code = 0, r;
    setpgid(0, 0);
    reset_log();
    d = fork();
    if (d == 0) {
      for (;;)
        pause();
    }
    handle(SIGUSR1, on_signal, 0, 0);   // d keeps the default: death
    kill(0, SIGUSR1);
    if (hits[SIGUSR1] != 1)
      code |= 1;
    r = waitpid(d, &st, 0);
    if (r != d || st != SIGUSR1)
      code |= 2;
    d = fork();
    if (d == 0)
      exit(4);
    r = waitpid(0, &st, 0);
    if (r != d || st != ST_EXIT(4))
      code |= 4;
    kill(d, SIGKILL);
    waitpid(d, &st, 0);
    exit(code);
  }
  st = reap(c, 5 * HZ);
  g = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("own_group_child", st, ST_EXIT(g >= 0 ? g : 0));
  if (g >= 0) {
    expect_true("kill_zero_runs_own_handler", !(g & 1), "kill(0, SIGUSR1) did not reach the sender");
    expect_true("kill_zero_reaches_group", !(g & 2), "kill(0, SIGUSR1) did not kill the group's other process");
    expect_true("waitpid_zero", !(g & 4), "waitpid(0) did not reap a child of the caller's group");
  }
  close(p[0]);
  close(p[1]);
}

// ttin: a process outside the console's foreground group that reads the
// console is stopped by SIGTTIN; ignoring or blocking SIGTTIN makes the
// read fail with EIO instead. Run in a child that makes itself the
// foreground group and gives the console back afterwards.
static void
t_ttin(void)
{
  int orig = tcgetpgrp(STDIN), g1, st, code;
  char d[96];

  snprintf(d, sizeof d, "tcgetpgrp(0) = %d, want the foreground group %d", orig, getpgrp());
  if (!expect_true("foreground", orig > 0 && orig == getpgrp(), d))
    return;
  expect("tcsetpgrp_not_a_tty", tcsetpgrp(resfd, orig), -ENOTTY);
  g1 = tfork();
  if (g1 == 0) {
    int g2, r;
    char c;
    code = 0;
    signal(SIGTTOU, SIG_IGN);
    setpgid(0, 0);
    if (tcsetpgrp(STDIN, getpid()) != 0)
      exit(100);
    if (tcgetpgrp(STDIN) != getpid())
      code |= 8;
    g2 = fork();
    if (g2 == 0) {
      setpgid(0, 0);
      signal(SIGTTOU, SIG_DFL);
      read(STDIN, &c, 1);
      exit(1);
    }
    setpgid(g2, g2);
    st = 0;
    wait_ticks(g2, &st, WUNTRACED, 3 * HZ);
    if (st != ST_STOP(SIGTTIN))
      code |= 1;
    kill(g2, SIGKILL);
    wait_ticks(g2, &st, 0, 3 * HZ);
    for (int k = 0; k < 2; k++) {
      g2 = fork();
      if (g2 == 0) {
        sigset_t s = SB(SIGTTIN);
        setpgid(0, 0);
        if (k == 0)
          signal(SIGTTIN, SIG_IGN);
        else
          sigprocmask(SIG_BLOCK, &s, NULL);
        r = read(STDIN, &c, 1);
        exit(r == -EIO ? 0 : 1);
      }
      setpgid(g2, g2);
      st = 0;
      r = wait_ticks(g2, &st, 0, 3 * HZ);
      if (r != g2 || st != 0) {
        code |= 2 << k;
        kill(g2, SIGKILL);
        wait_ticks(g2, &st, 0, 3 * HZ);
      }
    }
    tcsetpgrp(STDIN, orig);
    exit(code);
  }
  st = reap(g1, 15 * HZ);
  code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("child", st, ST_EXIT(code >= 0 ? code : 0));
  if (code >= 0 && code < 100) {
    expect_true("tcsetpgrp", !(code & 8), "tcgetpgrp did not return what tcsetpgrp set");
    expect_true("background_read_stops", !(code & 1), "a background read did not stop with SIGTTIN");
    expect_true("ignored_ttin_eio", !(code & 2), "a background read ignoring SIGTTIN did not fail with EIO");
    expect_true("blocked_ttin_eio", !(code & 4), "a background read blocking SIGTTIN did not fail with EIO");
  }
  signal(SIGTTOU, SIG_IGN);    // a background tcsetpgrp stops otherwise
  if (tcgetpgrp(STDIN) != orig)
    tcsetpgrp(STDIN, orig);
  expect("console_given_back", tcgetpgrp(STDIN), orig);
}

// ------------------------------------------------------------ tests: registers

// A register-hungry computation.
static __attribute__((noipa)) unsigned long
mix(int n, unsigned long seed)
{
  unsigned long a = seed, b = seed ^ 0x9e3779b97f4a7c15UL, c = 1, d = 2, e = 3, f = 5,
                g = 7, h = 11, k = 13, m = 17;

  for (int i = 0; i < n; i++) {
    a += b ^ (c << 3);
    b ^= d + (e >> 2);
    c += f * 3 + i;
    d ^= g + (h << 1);
    e += a >> 7;
    f ^= b << 5;
    g += c ^ d;
    h ^= e + f + g;
    k += h ^ (a >> 3);
    m ^= k + (b << 9);
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ k ^ m;
}

static volatile unsigned long sink;

// A handler that uses every register it can.
static void
on_signal_busy(int sig)
{
  __atomic_fetch_add(&hits[sig], 1, __ATOMIC_SEQ_CST);
  sink = mix(200, sig);
}

// Helper body: send SIGUSR1 to pid n times, a tick apart.
static void
pelt(int pid, int n)
{
  for (int i = 0; i < n; i++) {
    kill(pid, SIGUSR1);
    sleep(1);
  }
  exit(0);
}

// asyncregs: signals arriving at any point of a computation (through the
// timer interrupt, not a system call) leave every register as it was.
// The loop makes a system call (uptime) only every 1024 rounds: a signal
// sent from another CPU is noticed at the target's next trap, and that
// must be a timer interrupt in the middle of mix(), not the way out of a
// system call between rounds.
static void
t_asyncregs(void)
{
  unsigned long ref;
  int h, rounds = 0, bad = 0, interrupted = 0, before, t0;
  char d[96];

  reset_log();
  setmask(0);
  handle(SIGUSR1, on_signal_busy, 0, 0);
  ref = mix(20000, 1234);
  h = tfork();
  if (h == 0)
    pelt(getppid(), 30);
  t0 = uptime();
  while (hits[SIGUSR1] < 30 && (rounds % 1024 != 0 || uptime() - t0 < 10 * HZ)) {
    before = hits[SIGUSR1];
    if (mix(20000, 1234) != ref)
      bad++;
    interrupted += hits[SIGUSR1] != before;
    rounds++;
  }
  reap(h, 5 * HZ);
  snprintf(d, sizeof d, "%d of %d rounds computed a wrong result", bad, rounds);
  expect_true("results_unchanged", bad == 0, d);
  snprintf(d, sizeof d, "no round was interrupted (%d rounds, %d signals)", rounds, hits[SIGUSR1]);
  expect_true("interrupted", interrupted > 0, d);
}

// ------------------------------------------------------------ the tests

static const struct test tests[] = {
  { "once", t_once, 0 },
  { "mask", t_mask, 0 },
  { "tgkill", t_tgkill, 0 },
  { "wants", t_wants, 0 },
  { "sigkill", t_sigkill, 0 },
  { "groupstop", t_groupstop, 0 },
  { "stopthread", t_stopthread, 0 },
  { "eintr", t_eintr, 0 },
  { "nested", t_nested, 0 },
  { "sigsuspend", t_sigsuspend, 0 },
  { "pause", t_pause, 0 },
  { "nodefer", t_nodefer, 0 },
  { "resethand", t_resethand, 0 },
  { "kernelonly", t_kernelonly, 0 },
  { "defaults", t_defaults, 0 },
  { "sigchld", t_sigchld, 0 },
  { "fork", t_fork, 0 },
  { "exec", t_exec, 0 },
  { "forged", t_forged, 0 },
  { "threads", t_threads, 0 },
  { "threadleak", t_threadleak, 60 },
  { "exitgroup", t_exitgroup, 0 },
  { "execthreads", t_execthreads, 0 },
  { "pgrp", t_pgrp, 0 },
  { "ttin", t_ttin, 0 },
  { "asyncregs", t_asyncregs, 0 },
};
#define NTESTS ((int)(sizeof tests / sizeof tests[0]))

// Probe mode, for the exec tests (argv[0] is PROBE):
//   sigstate     exit with the bits of what exec got wrong (see t_exec):
//                1 SIGUSR1 not SIG_DFL, 2 SIGINT not SIG_DFL, 4 SIGUSR2
//                not SIG_IGN, 8 mask not {TERM, HUP}, 16 SIGHUP not
//                pending, 32 SIGUSR1's sa_mask or flags kept
//   raise N      raise signal N, then exit 0
//   threads PID  exit with bits: 1 getpid() != PID, 2 /proc/self/status
//                Threads not 1, 4 /proc/self/task not one entry
// Anything else exits PROBE_BAD.
static int
probe(int argc, char **argv)
{
  struct sigaction sa;
  char b[512];
  const char *p;
  int code = 0, total;

  if (argc == 2 && strcmp(argv[1], "sigstate") == 0) {
    if (handler_of(SIGUSR1) != SIG_DFL)
      code |= 1;
    if (handler_of(SIGINT) != SIG_DFL)
      code |= 2;
    if (handler_of(SIGUSR2) != SIG_IGN)
      code |= 4;
    if (curmask() != (SB(SIGTERM) | SB(SIGHUP)))
      code |= 8;
    if (!(pending() & SB(SIGHUP)))
      code |= 16;
    memset(&sa, 0, sizeof sa);
    sigaction(SIGUSR1, NULL, &sa);
    if (sa.sa_mask || sa.sa_flags)
      code |= 32;
    return code;
  }
  if (argc == 3 && strcmp(argv[1], "raise") == 0) {
    raise(atoi(argv[2]));
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "threads") == 0) {
    if (getpid() != atoi(argv[2]))
      code |= 1;
    if (readfile("/proc/self/status", b, sizeof b) < 0 || !(p = proc_field(b, "Threads:")) || atol(p) != 1)
      code |= 2;
    threads_in_state(getpid(), 'R', &total);
    if (total != 1)
      code |= 4;
    return code;
  }
  return PROBE_BAD;
}

// What sigtests does its own way: the probe mode.
static const struct suite suite = {
  .name = "sigtests", .tests = tests, .ntests = NTESTS, .secs = TEST_SECS,
  .flags = SUITE_FREEMEM, .probe = probe,
};

// Run the tests named on the command line (or all), then check that free
// memory is back where it started.
int
main(int argc, char **argv)
{
  return run_suite(&suite, argc, argv);
}
