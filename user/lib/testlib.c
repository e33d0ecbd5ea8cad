// The test runner and the checks shared by the test programs. See
// user/testlib.h.

#include "user.h"
#include "testlib.h"

#define MAXTESTS 64             // tests in one suite's table

const char *tname;              // the running test
int resfd = -1;                 // the results file, in a test process only
int testpid;                    // getpid() of the test process

static const struct suite *suite;       // the program's suite
static char results[32];                // the results file's path
static int npass, nfail;                // the runner's totals

// ------------------------------------------------------------ reporting

// Print one result line with one write(): "PASS what" or "FAIL what:
// detail", where what is "test.check", or check alone if test is NULL.
static void
print_result(int ok, const char *test, const char *check, const char *detail)
{
  char line[512];

  if (test)
    snprintf(line, sizeof line - 1, ok ? "PASS %s.%s" : "FAIL %s.%s: %s", test, check, detail);
  else
    snprintf(line, sizeof line - 1, ok ? "PASS %s" : "FAIL %s: %s", check, detail);
  strcat(line, "\n");
  write(STDOUT, line, strlen(line));
}

// Record one check of the running test: print its line and, in the test
// process, append 'P' or 'F' to the results file. Returns ok; detail
// says what is wrong when it is false.
int
expect_true(const char *check, int ok, const char *detail)
{
  print_result(ok, tname, check, detail);
  if (resfd >= 0)
    write(resfd, ok ? "P" : "F", 1);
  return ok;
}

// Check that a call returned want. Returns 1 if it did.
int
expect(const char *check, long got, long want)
{
  char d[128];

  snprintf(d, sizeof d, "got %s, want %s", val(got), val(want));
  return expect_true(check, got == want, d);
}

// A step a test depends on: silent when it succeeds (got >= 0), a FAIL
// line when it does not. Returns 1 on success.
int
need(const char *check, long got)
{
  char d[128];

  if (got >= 0)
    return 1;
  snprintf(d, sizeof d, "got %s, want success", val(got));
  return expect_true(check, 0, d);
}

// Render a system call result, errors as "-14 (EFAULT)". The result
// lasts for four calls, so one printf may render up to four values.
const char *
val(long v)
{
  static char b[4][48];
  static int k;
  char *s = b[k++ % 4];

  if (v < 0 && v >= -EMAXERRNO)
    snprintf(s, 48, "%ld (%s)", v, errname((int)v));
  else
    snprintf(s, 48, "%ld", v);
  return s;
}

// Render a wait status: "exited 3", "killed by signal 11 (SEGV)",
// "stopped by signal 19 (STOP)", "continued"; a negative st is the error
// of the fork or waitpid that should have made it. Lasts as val()'s.
const char *
wstatus(long st)
{
  static char b[4][80];
  static int k;
  char *s = b[k++ % 4];

  if (st < 0)
    snprintf(s, 80, "fork/waitpid failed: %s", val(st));
  else if (WIFCONTINUED(st))
    snprintf(s, 80, "continued");
  else if (WIFSTOPPED(st))
    snprintf(s, 80, "stopped by signal %d (%s)", WSTOPSIG(st), signame(WSTOPSIG(st)));
  else if (WIFEXITED(st))
    snprintf(s, 80, "exited %d", WEXITSTATUS(st));
  else if (WIFSIGNALED(st))
    snprintf(s, 80, "killed by signal %d (%s)", WTERMSIG(st), signame(WTERMSIG(st)));
  else
    snprintf(s, 80, "wait status 0x%lx", st);
  return s;
}

// ------------------------------------------------------------ processes

// fork() for use inside a test: the child drops the results file, so that
// only the test process itself records checks.
int
tfork(void)
{
  int pid = fork();

  if (pid == 0 && resfd >= 0) {
    close(resfd);
    resfd = -1;
  }
  return pid;
}

// waitpid(pid, st, options) that gives up after ticks: returns waitpid's
// result, or 0 if there was nothing to report in time.
int
wait_ticks(int pid, int *st, int options, int ticks)
{
  int t0 = uptime(), r;

  while ((r = waitpid(pid, st, options | WNOHANG)) == 0 && uptime() - t0 < ticks)
    sleep(1);
  return r;
}

// ------------------------------------------------------------ the runner

// A check made by the runner itself (not inside a test process).
static void
runner_check(int ok, const char *name, const char *detail)
{
  print_result(ok, 0, name, detail);
  if (ok)
    npass++;
  else
    nfail++;
}

// Count the 'P' and 'F' bytes of results file fd into the totals;
// returns how many bytes there were.
static int
count_results(int fd)
{
  char b[256];
  int n, total = 0;

  lseek(fd, 0, SEEK_SET);
  while ((n = read(fd, b, sizeof b)) > 0)
    for (int i = 0; i < n; i++, total++) {
      if (b[i] == 'P')
        npass++;
      else if (b[i] == 'F')
        nfail++;
    }
  return total;
}

// The test process: run t, reporting into results file fd.
static void __attribute__((noreturn))
test_process(const struct test *t, int fd)
{
  if (suite->flags & SUITE_PGRP)
    setpgid(0, 0);
  resfd = fd;
  tname = t->name;
  testpid = getpid();
  t->fn();
  exit(0);
}

// The runner's verdict on a test process that made n checks: a FAIL if it
// timed out (r: the waitpid after the kill), was not reaped (r != pid),
// crashed or exited non-zero (status st), or made no check.
static void
judge(const struct test *t, int pid, int r, int st, int n, int timedout, int limit)
{
  char d[128];

  if (timedout) {
    snprintf(d, sizeof d, "did not finish in %d s; killed after %d checks", limit / HZ, n);
  } else if (r != pid) {
    snprintf(d, sizeof d, "waitpid for the test process returned %s", val(r));
  } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
    snprintf(d, sizeof d, "test process %s after %d checks", wstatus(st), n);
  } else if (n == 0) {
    snprintf(d, sizeof d, "the test made no checks");
  } else {
    return;
  }
  runner_check(0, t->name, d);
}

// Run test t in a child process, with a time limit, and count its checks;
// a child that crashes, hangs or makes no checks is one more FAIL.
static void
run_test(const struct test *t)
{
  int fd, pid, st = 0, r, t0, limit, timedout = 0, n;
  int poll = suite->poll ? suite->poll : 1, grace = suite->grace ? suite->grace : 5 * HZ;
  char d[128];

  limit = (t->secs ? t->secs : suite->secs) * HZ;
  fd = open(results, O_CREAT | O_TRUNC | O_RDWR);
  if (fd < 0) {
    snprintf(d, sizeof d, "cannot create %s: %s", results, val(fd));
    runner_check(0, t->name, d);
    return;
  }
  pid = fork();
  if (pid == 0)
    test_process(t, fd);
  if (pid < 0) {
    snprintf(d, sizeof d, "fork failed: %s", val(pid));
    runner_check(0, t->name, d);
    close(fd);
    return;
  }
  t0 = uptime();
  while ((r = waitpid(pid, &st, WNOHANG)) == 0) {
    if (uptime() - t0 > limit) {
      kill(suite->flags & SUITE_PGRP ? -pid : pid, SIGKILL);  // -pid: all it started
      timedout = 1;
      r = wait_ticks(pid, &st, 0, grace);
      break;
    }
    sleep(poll);
  }
  n = count_results(fd);
  close(fd);
  judge(t, pid, r, st, n, timedout, limit);
}

// ------------------------------------------------------------ the command line

// The index of the test named name, or -1.
static int
find_test(const char *name)
{
  for (int i = 0; i < suite->ntests; i++)
    if (strcmp(suite->tests[i].name, name) == 0)
      return i;
  return -1;
}

// A FAIL for a name on the command line that is no test.
static void
no_such_test(const char *name)
{
  char d[96];

  snprintf(d, sizeof d, "no such test (%s -l lists them)", suite->name);
  runner_check(0, name, d);
}

// Run the tests named in argv in that order (a name twice runs twice),
// or, with none named, every test but the TEST_NAMED_ONLY ones.
static void
run_in_arg_order(int argc, char **argv)
{
  int j;

  if (argc == 1) {
    for (int i = 0; i < suite->ntests; i++)
      if (!(suite->tests[i].flags & TEST_NAMED_ONLY))
        run_test(&suite->tests[i]);
    return;
  }
  for (int i = 1; i < argc; i++) {
    j = find_test(argv[i]);
    if (j >= 0)
      run_test(&suite->tests[j]);
    else
      no_such_test(argv[i]);
  }
}

// Run the tests argv names, each once, in the table's order; with no
// names, all of them. With SUITE_EXCLUDE, "-x NAME" leaves NAME out, and
// a name that is no test does not count as naming one (uringtests' way).
static void
run_in_table_order(int argc, char **argv)
{
  char pick[MAXTESTS], skip[MAXTESTS];
  int only = !(suite->flags & SUITE_EXCLUDE) && argc > 1, x, j;

  memset(pick, 0, sizeof pick);
  memset(skip, 0, sizeof skip);
  for (int i = 1; i < argc; i++) {
    x = (suite->flags & SUITE_EXCLUDE) && strcmp(argv[i], "-x") == 0 && i + 1 < argc;
    j = find_test(x ? argv[++i] : argv[i]);
    if (j < 0 && !(suite->flags & SUITE_UNKNOWN_LAST))
      no_such_test(argv[i]);
    else if (j >= 0 && x)
      skip[j] = 1;
    else if (j >= 0)
      pick[j] = only = 1;
  }
  for (j = 0; j < suite->ntests; j++)
    if ((only ? pick[j] : 1) && !skip[j])
      run_test(&suite->tests[j]);
  if (suite->flags & SUITE_UNKNOWN_LAST)
    for (int i = 1; i < argc; i++)
      if (find_test(argv[i]) < 0)
        no_such_test(argv[i]);
}

// Return 1 if s ends with suffix.
static int
ends_with(const char *s, const char *suffix)
{
  int n = strlen(s), m = strlen(suffix);

  return n >= m && strcmp(s + n - m, suffix) == 0;
}

// The main program of a test suite: "NAME -l" lists the tests, "NAME
// [TEST...]" runs them; see struct suite for what each program adds.
// Returns main's exit status: 0 only if no check failed.
int
run_suite(const struct suite *s, int argc, char **argv)
{
  long before = 0, after;
  char d[128];

  suite = s;
  tname = s->name;
  snprintf(results, sizeof results, "/%s.res", s->name);
  if (s->probe && (argc < 1 || !ends_with(argv[0], s->name)))
    return s->probe(argc, argv);
  if (argc == 2 && strcmp(argv[1], "-l") == 0) {
    for (int i = 0; i < s->ntests; i++)
      printf("%s%s\n", s->tests[i].name,
             s->tests[i].flags & TEST_NAMED_ONLY ? " (only when named)" : "");
    return 0;
  }
  chdir("/");
  if (s->flags & SUITE_FREEMEM)
    before = freemem();
  if (s->flags & SUITE_TABLE_ORDER)
    run_in_table_order(argc, argv);
  else
    run_in_arg_order(argc, argv);
  unlink(results);
  if (s->flags & SUITE_FREEMEM) {
    sleep(10);
    after = freemem();
    snprintf(d, sizeof d, "%ld free pages before the tests, %ld after (%ld lost)",
             before, after, before - after);
    runner_check(before == after, "freemem", d);
  }
  printf("%d passed, %d failed\n", npass, nfail);
  return nfail != 0;
}
