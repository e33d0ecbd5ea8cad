// sigtests: delivery, threads and signals, job control.

#include "sigtests.h"

// ------------------------------------------------------------ tests: delivery

// once: a handler runs exactly once per signal sent, with the signal
// number as argument, before raise() or kill() to oneself returns;
// standard signals sent while blocked do not queue (one run); the
// handler stays installed.
void
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
void
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
void
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
void
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
void
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

volatile int nchld;             // SIGCHLD handler runs in the parent
void
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
void
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
void
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
void
read_and_exit(int fd)
{
  char c;

  exit(read(fd, &c, 1) == 1 && c == 'x' ? 1 : 2);
}
