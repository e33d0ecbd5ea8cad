// sigtests: interrupted calls, flags and defaults.

#include "sigtests.h"

// ------------------------------------------------------------ tests: interrupted calls

// eintr: a pipe read interrupted by a handler without SA_RESTART fails
// with EINTR; with SA_RESTART it goes on transparently and returns the
// data; a stop and continue (no handler) never shows; waitpid is
// interrupted or restarted the same way; sleep gives EINTR either way.
void
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
void
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
void
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
void
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
void
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
void
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
void
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
void
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
void
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
