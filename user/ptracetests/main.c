// ptracetests: tests for ptrace, the /proc task directories and mgdb.
//
//   ptracetests            run every test
//   ptracetests NAME...    run only the named tests (in the table's order)
//   ptracetests -l         list the tests
//
// Each test runs in its own child process (and process group, so that a
// test that hangs is killed with everything it started). Every check
// prints one line, "PASS test.check" or "FAIL test.check: detail"; the
// run closes with "N passed, N failed" alone on a line. The runner is the
// shared one, user/lib/testlib.c (see user/testlib.h).
//
// The programs traced are children forked from this same binary
// ("targets"): so the tracer knows the addresses of their functions and
// variables (counters[], magic, pt_spinner, exit42), and can read the
// text bounds and symbol sizes from the ELF file /ptracetests itself. The
// mgdb tests run /threads and /mgdb with exec.
//
// Expected values are Linux's: EPERM for refused attaches, ESRCH for a
// thread that is not our stopped tracee, EIO for PEEK/POKE outside the
// tracee's memory and for unknown requests, EFAULT for a bad buffer in
// the tracer.

#include "ptracetests.h"

// ------------------------------------------------------------ the tests

static const struct test tests[] = {
  { "attach1", t_attach1 },
  { "attach8", t_attach8 },
  { "peekpoke", t_peekpoke },
  { "peekbad", t_peekbad },
  { "pokeexit", t_pokeexit },
  { "getregs", t_getregs },
  { "stopstate", t_stopstate },
  { "attachstopped", t_attachstopped },
  { "execstop", t_execstop },
  { "setregs", t_setregs },
  { "perm", t_perm },
  { "sigreport", t_sigreport },
  { "exitreport", t_exitreport },
  { "tracerdeath", t_tracerdeath },
  { "ptkill", t_ptkill },
  { "tasklist", t_tasklist },
  { "snapshot", t_snapshot },
  { "traceme", t_traceme },
  { "traceclone", t_traceclone },
  { "singlestep", t_singlestep },
  { "breakpoint", t_breakpoint },
  { "exitkill", t_exitkill },
  { "leak", t_leak },
  { "mgdb", t_mgdb },
  { "mgdbloop", t_mgdbloop },
  { "mgdbgdb15", t_mgdbgdb15 },
};
#define NTESTS ((int)(sizeof tests / sizeof tests[0]))

// What ptracetests does its own way: tests in the table's order, each in
// a process group of its own.
static const struct suite suite = {
  .name = "ptracetests", .tests = tests, .ntests = NTESTS, .secs = TEST_SECS,
  .flags = SUITE_TABLE_ORDER | SUITE_UNKNOWN_LAST | SUITE_PGRP | SUITE_FREEMEM,
};

// Run the tests named on the command line (or all), then check that free
// memory is back where it started.
int
main(int argc, char **argv)
{
  return run_suite(&suite, argc, argv);
}
