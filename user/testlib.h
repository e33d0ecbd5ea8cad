// The test runner and the checks of usertests, sigtests, ptracetests and
// uringtests (user/lib/testlib.c). Include after user.h.
//
// Each test runs in a child process of its own, so that a test that
// crashes or hangs is one FAIL and the rest go on. Every check prints one
// line, "PASS test.check" or "FAIL test.check: detail"; the run closes
// with "N passed, N failed" alone on a line, and the program exits 0 only
// if nothing failed.
//
// How results reach the runner: the test process appends one byte per
// check ('P' or 'F') to a results file it inherits, /NAME.res, and the
// runner counts them once the test process is gone, so the checks a
// crashed test made before dying still count. Processes that a test forks
// (tfork) close that file and report back through their exit status or
// a pipe.
#ifndef TASKLAB_TESTLIB_H
#define TASKLAB_TESTLIB_H

struct test {
  const char *name;
  void (*fn)(void);
  int secs;                     // time limit; 0: the suite's
  int flags;                    // TEST_NAMED_ONLY
};
#define TEST_NAMED_ONLY 1       // slow: runs only when named on the command line

// What one test program does its own way. Zero fields take the defaults.
struct suite {
  const char *name;             // the program ("usertests"): results in /NAME.res
  const struct test *tests;
  int ntests;                   // at most 64 with SUITE_TABLE_ORDER
  int secs;                     // a test's time limit, unless it has its own
  int poll;                     // ticks between looks at a running test (1)
  int grace;                    // ticks to reap a test killed for its time (5 s)
  int flags;                    // SUITE_*, below
  // Run instead of the tests when argv[0] does not end with the name:
  // the program run again by its own exec tests.
  int (*probe)(int argc, char **argv);
};

// Named tests run in the table's order (else in the command line's).
#define SUITE_TABLE_ORDER  0x1
// With SUITE_TABLE_ORDER: "-x NAME" leaves a test out, and names that
// are no test select nothing (they are reported and skipped).
#define SUITE_EXCLUDE      0x2
// Names that are no test are reported after the run (else as read).
#define SUITE_UNKNOWN_LAST 0x4
// Each test in a process group of its own, killed as a group on a timeout.
#define SUITE_PGRP         0x8
// A last check, "freemem": the free pages are back where they started.
#define SUITE_FREEMEM      0x10

extern const char *tname;       // the running test
extern int resfd;               // the results file, in a test process only (else -1)
extern int testpid;             // getpid() of the test process

int run_suite(const struct suite *s, int argc, char **argv);

int expect_true(const char *check, int ok, const char *detail);
int expect(const char *check, long got, long want);
int need(const char *check, long got);
const char *val(long v);
const char *wstatus(long st);

int tfork(void);
int wait_ticks(int pid, int *st, int options, int ticks);

#endif
