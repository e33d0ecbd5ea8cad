// uringtests: tests of io_uring, io-wq and uringcp.
//
//   uringtests            run every test
//   uringtests NAME...    run only the named tests (in the table's order)
//   uringtests -x NAME    run every test but NAME (-x may be repeated)
//   uringtests -l         list the tests
//   uringtests --async-nop  one IOSQE_ASYNC NOP; exit 0 if it ran, else its errno
//
// Only the test "iothreads" and the check ioacct.uring_write_counted look
// at the I/O threads in /proc/PID/task (Linux 5.12's behaviour, which the
// baseline has); a kernel that hides them there (the "hide" series) fails
// those and nothing else: run it with `uringtests -x iothreads -x ioacct`.
//
// Each test runs in a child process of its own (a crash or a hang is one
// FAIL, and the rest go on). Every check prints one line, "PASS test.check"
// or "FAIL test.check: detail", and the run closes with "N passed, N
// failed" alone on a line; the exit status is 0 only if nothing failed. The
// runner is the shared one (user/testlib.h): processes a test forks report
// only through their exit status.
//
// The copy tests run /mkbig and /uringcp; the leak tests compare
// freemem() around the thing they test. Big files are made at run time

#include "uringtests.h"

// ------------------------------------------------------------ the tests

static const struct test tests[] = {
  { "setup", t_setup, 0 },
  { "notring", t_notring, 0 },
  { "nop", t_nop, 0 },
  { "nopasync", t_nopasync, 0 },
  { "pingpong", t_pingpong, 0 },
  { "errors", t_errors, 0 },
  { "punt", t_punt, 0 },
  { "busy", t_busy, 0 },
  { "sqpoll", t_sqpoll, 0 },
  { "iothreads", t_iothreads, 0 },
  { "racewindow", t_racewindow, 0 },
  { "ioacct", t_ioacct, 0 },
  { "closecancel", t_closecancel, 0 },
  { "exitleak", t_exitleak, 0 },
  { "killleak", t_killleak, 0 },
  { "forkclose", t_forkclose, 0 },
  { "tamper", t_tamper, 0 },
  { "closespin", t_closespin, 0 },
  { "sqpollkill", t_sqpollkill, 0 },
  { "sqpollwake", t_sqpollwake, 0 },
  { "execpool", t_execpool, 0 },
  { "cancelcur", t_cancelcur, 0 },
  { "cycles", t_cycles, 60 },
  { "copyerr", t_copyerr, 0 },
  { "copy0", t_copy0, 0 },
  { "copy1", t_copy1, 0 },
  { "copy32k-1", t_copy32k_1, 0 },
  { "copy32k", t_copy32k, 0 },
  { "copy1m+7", t_copy1m7, 120 },
  { "copy4m", t_copy4m, 240 },
};
#define NTESTS ((int)(sizeof tests / sizeof tests[0]))

// What uringtests does its own way: tests in the table's order, -x, a
// longer look between polls.
static const struct suite suite = {
  .name = "uringtests", .tests = tests, .ntests = NTESTS, .secs = TEST_SECS,
  .poll = 2, .grace = 10 * HZ, .flags = SUITE_TABLE_ORDER | SUITE_EXCLUDE,
};

// Run the tests the command line selects (see the top of this file).
int
main(int argc, char **argv)
{
  crc_init();
  if (argc == 2 && strcmp(argv[1], "--async-nop") == 0)
    return -async_nop();        // for execpool, after its exec
  return run_suite(&suite, argc, argv);
}
