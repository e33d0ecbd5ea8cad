// sigtests: what the tests share: reporting, processes, handlers, helpers,
// threads.

#include "sigtests.h"

// ------------------------------------------------------------ reporting

// Check that wait status st is exactly want (see wstatus() for the wording).
int
expect_status(const char *check, int st, int want)
{
  char d[200];

  snprintf(d, sizeof d, "child %s, want %s", wstatus(st), wstatus(want));
  return expect_true(check, st == want, d);
}

// Check that a signal set is exactly want; name the bits that differ.
int
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
int
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
void
kill_reap(int pid)
{
  int st;

  if (pid <= 0)
    return;
  kill(pid, SIGKILL);
  wait_ticks(pid, &st, 0, 3 * HZ);
}

// Wait up to ticks for thread tid of pid to be in state c. Returns 1 if it is.
int
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
int
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
int
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
sigset_t
curmask(void)
{
  sigset_t m = 0;

  sigprocmask(SIG_BLOCK, NULL, &m);
  return m;
}

void
setmask(sigset_t m)
{
  sigprocmask(SIG_SETMASK, &m, NULL);
}

// The pending (and blocked) signals of the calling thread.
sigset_t
pending(void)
{
  sigset_t p = 0;

  sigpending(&p);
  return p;
}

// Install fn for sig with flags and sa_mask mask. Returns sigaction's result.
int
handle(int sig, void (*fn)(int), int flags, sigset_t mask)
{
  struct sigaction sa;

  sa.sa_handler = fn;
  sa.sa_mask = mask;
  sa.sa_flags = flags;
  return sigaction(sig, &sa, NULL);
}

// The handler now installed for sig.
sighandler_t
handler_of(int sig)
{
  struct sigaction old;

  memset(&old, 0, sizeof old);
  if (sigaction(sig, NULL, &old) < 0)
    return SIG_ERR;
  return old.sa_handler;
}

// ------------------------------------------------------------ handlers

volatile int hits[NSIG + 1];            // handler runs per signal
volatile int lastsig;                   // the argument of the last run
volatile int tidlog[64];                // the thread each run happened in
volatile int ntid;
static volatile char olog[64];          // order of events, one letter each
static volatile int olen;
volatile sigset_t inmask;               // the blocked mask inside the last handler
volatile int ackfd = -1;                // if >= 0, each handler run writes a byte here

// Forget everything the handlers recorded.
void
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
void
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
int
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
void
on_signal(int sig)
{
  int tid = gettid(), i;

  lastsig = sig;
  i = __atomic_fetch_add(&ntid, 1, __ATOMIC_SEQ_CST);
  if (i < 64)
    tidlog[i] = tid;
  olog_add(sigletter(sig));
  inmask = curmask();
  // hits last: a test that waits for it (wait_hits()) then reads the rest,
  // which must be written by then (with one CPU this thread can be
  // preempted between any two of these lines).
  __atomic_fetch_add(&hits[sig], 1, __ATOMIC_SEQ_CST);
  if (ackfd >= 0)
    write(ackfd, "a", 1);
}

// Wait up to ticks for hits[sig] to reach n. Returns 1 if it did.
int
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
int ack_rfd = -1;               // read end of the pipe the handler acknowledges on
int helper_fd = -1;             // write end of the data pipe
int helper_pid2;                // a process to kill
int helper_target;              // the process the helper signals

// Fork a helper process: it waits until the main thread of process pid
// sleeps (state S), sends it sig, then runs then() if given, and exits.
// Returns the helper's pid.
int
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
void
then_ack_write(void)
{
  char c;

  read(ack_rfd, &c, 1);
  write(helper_fd, "x", 1);
}

// Helper follow-up: wait for the acknowledgement, then SIGKILL helper_pid2.
void
then_ack_kill(void)
{
  char c;

  read(ack_rfd, &c, 1);
  kill(helper_pid2, SIGKILL);
}

// Helper follow-up: give the target time to (wrongly) wake, check it still
// sleeps, then send SIGUSR2. Exits 2 if the target woke.
void
then_usr2(void)
{
  sleep(5);
  if (task_state(helper_target, helper_target) != 'S')
    exit(2);
  kill(helper_target, SIGUSR2);
}

// ------------------------------------------------------------ threads

volatile int stop_threads;              // threads loop until this is set
volatile int thread_ready;              // threads count themselves in here

// A thread that sleeps a tick at a time until stop_threads.
void
sleeper(void *arg)
{
  __atomic_fetch_add(&thread_ready, 1, __ATOMIC_SEQ_CST);
  while (!stop_threads)
    sleep(1);
}

// A thread that never sleeps.
void
spinner(void *arg)
{
  volatile unsigned long n = 0;

  __atomic_fetch_add(&thread_ready, 1, __ATOMIC_SEQ_CST);
  while (!stop_threads)
    n++;
}

// Start n threads running fn; their tids go to tids. Returns how many
// started, after waiting for them to run.
int
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
void
stop_join(int n, int *tids)
{
  stop_threads = 1;
  for (int i = 0; i < n; i++)
    if (tids[i] > 0)
      thread_join(tids[i]);
  stop_threads = 0;
  thread_ready = 0;
}
