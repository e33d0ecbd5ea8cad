// ptracetests: the mgdb tests.

#include "ptracetests.h"

// ------------------------------------------------------------ mgdb

// Start path with argv in a child whose stdout (and, if err, stderr) is
// a pipe; the read end goes to *fd, or -1 if there is no pipe. Returns
// the child's pid, or the error of pipe or fork.
static int
spawn_piped(const char *path, char **argv, int err, int *fd)
{
  int p[2], pid;

  *fd = -1;
  if ((pid = pipe(p)) < 0)
    return pid;
  pid = tfork();
  if (pid == 0) {
    close(STDOUT);
    dup(p[1]);
    if (err) {
      close(STDERR);
      dup(p[1]);
    }
    close(p[0]);
    close(p[1]);
    exec(path, argv);
    exit(127);
  }
  close(p[1]);
  *fd = p[0];
  return pid;
}

// Start /threads n with its stdout on a pipe; return its pid once it says
// it is ready, or -1.
static int
start_threads_prog(int n)
{
  char arg[8], line[80];
  char *argv[] = { "threads", arg, 0 };
  int fd, pid, len = 0;
  char c;

  snprintf(arg, sizeof arg, "%d", n);
  pid = spawn_piped("/threads", argv, 0, &fd);
  if (fd < 0)
    return -1;
  while (len < (int)sizeof line - 1 && read(fd, &c, 1) == 1 && c != '\n')
    line[len++] = c;
  line[len] = 0;
  close(fd);
  if (pid > 0 && strncmp(line, "threads: pid ", 13) == 0 && atoi(line + 13) == pid)
    return pid;
  snprintf(detail, sizeof detail, "/threads %d did not start: \"%s\"", n, line);
  expect_true("threads_prog", 0, detail);
  if (pid > 0) {
    kill(pid, SIGKILL);
    reap_within(pid, &len, HZ);
  }
  return -1;
}

// Run /mgdb with argv, its stdout and stderr into out (NUL-terminated).
// Returns its wait status, or -1.
static int
run_mgdb(char **argv, char *out, int size)
{
  int fd, pid, len = 0, n, st = -1;

  pid = spawn_piped("/mgdb", argv, 1, &fd);
  if (fd < 0)
    return -1;
  while ((n = read(fd, out + len, size - 1 - len)) > 0 && len < size - 1)
    len += n;
  out[len] = 0;
  close(fd);
  if (pid < 0 || reap_within(pid, &st, 10 * HZ) != pid)
    return -1;
  return st;
}

// The tids /proc lists for pid, into tids; how many.
static int
proc_tids(int pid, int *tids, int max)
{
  return list_slowly(pid, tids, max, 0);
}

// The state letter mgdb's "info threads" shows for tid: the letter after
// "LWP <tid> <name>". '-' if there is no such line.
static char
mgdb_thread_state(const char *out, int tid)
{
  char key[24];
  const char *p = out;

  snprintf(key, sizeof key, "LWP %d ", tid);
  while ((p = strstr(p, key)) != NULL) {
    p += strlen(key);
    while (*p == ' ')
      p++;
    while (*p && *p != ' ' && *p != '\n')     // the name
      p++;
    while (*p == ' ')
      p++;
    return *p;
  }
  return '-';
}

// How many lines of out begin with prefix.
static int
count_lines(const char *out, const char *prefix)
{
  int n = 0, len = strlen(prefix);

  for (const char *p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : p)
    n += strncmp(p, prefix, len) == 0;
  return n;
}

// mgdb -p PID -batch -ex "info threads" -ex detach on /threads 8: every
// thread listed, stopped; the program runs on afterwards.
void
t_mgdb(void)
{
  static char out[OUTMAX];
  char pidarg[12], key[48];
  char *argv[] = { "mgdb", "-p", pidarg, "-batch", "-ex", "info threads", "-ex", "detach", 0 };
  struct target t;
  int tids[64], n, st, listed = 0, bad = -1;

  if ((t.pid = start_threads_prog(8)) < 0)
    return;
  n = proc_tids(t.pid, tids, 64);
  snprintf(detail, sizeof detail, "/proc/%d/task lists %d threads, want 9", t.pid, n);
  expect_true("threads_listed", n == 9, detail);
  snprintf(pidarg, sizeof pidarg, "%d", t.pid);
  st = run_mgdb(argv, out, sizeof out);
  snprintf(detail, sizeof detail, "mgdb %s, want exited 0; output:\n%s", st < 0 ? "did not finish" : wstatus(st), out);
  expect_true("exit0", st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, detail);
  snprintf(key, sizeof key, "Attaching to process %d", t.pid);
  expect_true("attaching", count_lines(out, key) == 1, "no \"Attaching to process PID\" line");
  for (int i = 0; i < n; i++) {
    char s = mgdb_thread_state(out, tids[i]);
    listed += s == 't';
    if (s != 't' && bad < 0)
      bad = i;
  }
  snprintf(detail, sizeof detail, "%d of %d threads listed in state t (first missing: LWP %d); output:\n%s",
           listed, n, bad >= 0 ? tids[bad] : 0, out);
  expect_true("all_threads", listed == n && n > 0, detail);
  snprintf(key, sizeof key, "[Inferior 1 (process %d) detached]", t.pid);
  expect_true("detached", count_lines(out, key) == 1,
              "no \"[Inferior 1 (process PID) detached]\" line");
  t.n = n < MAXT ? n : MAXT;
  memcpy(t.tids, tids, t.n * sizeof(int));
  expect_true("running_after", states_are(&t, '!', HZ), detail);
  stop_target(&t);
}

// GDB's loop, reproduced with a thread another process already traces
// (EPERM, like the io_uring workers of 5.12-rc): -n 6 gives up after 6
// passes with one warning each; --gdb15 fails at once. Either way every
// thread mgdb held runs on.
static void
mgdb_refused(int gdb15)
{
  static char out[OUTMAX];
  char pidarg[12], want[96];
  char *argv[12] = { "mgdb", "-p", pidarg, "-batch", "-ex", "info threads", 0 };
  struct target t;
  int holder, r, st, ok = 1, blocked;

  if ((t.pid = start_threads_prog(8)) < 0)
    return;
  t.n = proc_tids(t.pid, t.tids, MAXT);
  blocked = t.tids[3];
  holder = start_holder(blocked, &r);
  if (!need("holder", holder) || !need("holder_attach", r))
    goto out;
  snprintf(pidarg, sizeof pidarg, "%d", t.pid);
  argv[6] = gdb15 ? "--gdb15" : "-n";
  argv[7] = gdb15 ? 0 : "6";
  st = run_mgdb(argv, out, sizeof out);
  snprintf(detail, sizeof detail, "mgdb %s, want exited 1; output:\n%s", st < 0 ? "did not finish" : wstatus(st), out);
  expect_true("exit1", st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1, detail);
  snprintf(want, sizeof want, "%sCannot attach to lwp %d: Operation not permitted (1)", gdb15 ? "" : "warning: ", blocked);
  r = count_lines(out, want);
  snprintf(detail, sizeof detail, "%d lines \"%s\", want %d; output:\n%s", r, want, gdb15 ? 1 : 6, out);
  expect_true(gdb15 ? "error_once" : "warned_each_pass", r == (gdb15 ? 1 : 6), detail);
  if (gdb15) {
    expect_true("no_warnings", count_lines(out, "warning:") == 0, "--gdb15 printed a warning");
    expect_true("no_commands", strstr(out, "Target Id") == NULL,
                "--gdb15 ran the commands after failing");
  } else {
    expect_true("gave_up", count_lines(out, "mgdb: giving up after 6 passes") == 1,
                "no \"mgdb: giving up after 6 passes\"");
  }
  // Everything but the blocked thread is free; that one is still the holder's.
  for (int i = 0; i < t.n; i++)
    if (t.tids[i] == blocked)
      t.tids[i--] = t.tids[--t.n];
  expect_true("released", states_are(&t, '!', HZ), detail);
  for (int i = 0; i < t.n && ok; i++) {
    r = tracer_of(t.pid, t.tids[i]);
    snprintf(detail, sizeof detail, "tid %d: TracerPid %d after mgdb, want 0", t.tids[i], r);
    ok = r == 0;
  }
  expect_true("untraced", ok, detail);
  r = tracer_of(t.pid, blocked);
  snprintf(detail, sizeof detail, "TracerPid %d, want the holder %d", r, holder);
  expect_true("holder_kept", r == holder, detail);
out:
  stop_helper(holder);
  stop_target(&t);
}

void t_mgdbloop(void) { mgdb_refused(0); }
void t_mgdbgdb15(void) { mgdb_refused(1); }
