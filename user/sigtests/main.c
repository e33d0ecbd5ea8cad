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
//
// This file holds the table and the runner's setup; the tests are in the
// other files here, by topic (delivery.c, interrupt.c, proc.c, pgrp.c), and
// what they share in util.c (all declared in sigtests.h).

#include "sigtests.h"

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
  { "threadchild", t_threadchild, 0 },
  { "threadleak", t_threadleak, 60 },
  { "exitgroup", t_exitgroup, 0 },
  { "exitread", t_exitread, 0 },
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
