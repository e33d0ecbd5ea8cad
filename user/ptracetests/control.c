// ptracetests: refusals, signals, tracer death, PTRACE_KILL, task lists,
// leaks.

#include "ptracetests.h"

// ------------------------------------------------------------ tests: refusals, signals, kill, /proc

// A thread of our own for t_perm to try.
static void
own_thread(void *arg)
{
  (void)arg;
  while (!own_thread_go)
    sleep(1);
}

// A process that attaches tid, reports the result on fd, then waits to
// be killed. Returns its pid.
int
start_holder(int tid, int *result)
{
  int p[2], pid, st, r = -EIO;

  if (pipe(p) < 0)
    return -1;
  pid = tfork();
  if (pid == 0) {
    close(p[0]);
    r = attach_wait(tid, &st);
    write(p[1], &r, sizeof r);
    for (;;)
      pause();
  }
  close(p[1]);
  if (pid < 0 || read(p[0], &r, sizeof r) != sizeof r)
    r = -EIO;
  close(p[0]);
  *result = r;
  return pid;
}

// Kill and reap a helper process.
void
stop_helper(int pid)
{
  int st;

  if (pid > 0) {
    kill(pid, SIGKILL);
    reap_within(pid, &st, 5 * HZ);
  }
}

// Refusals: EPERM for ourselves, our own thread, init, a traced thread,
// a zombie; ESRCH for no such thread and for one we do not trace (or
// that is not stopped); EIO for an unknown request.
void
t_perm(void)
{
  struct target t;
  int tid, holder, r, st, z;
  ulong w;

  expect("self", ptrace(PTRACE_ATTACH, getpid(), 0, 0), -EPERM);
  tid = thread_create(own_thread, 0);
  if (need("thread_create", tid)) {
    expect("own_thread", ptrace(PTRACE_ATTACH, tid, 0, 0), -EPERM);
    own_thread_go = 1;
    thread_join(tid);
  }
  expect("init", ptrace(PTRACE_ATTACH, 1, 0, 0), -EPERM);
  expect("nosuch", ptrace(PTRACE_ATTACH, 30000, 0, 0), -ESRCH);
  if (start_target(&t, 1, 0, 0) < 0)
    return;
  expect("peek_untraced", ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, &w), -ESRCH);
  expect("cont_untraced", ptrace(PTRACE_CONT, t.pid, 0, 0), -ESRCH);
  expect("detach_untraced", ptrace(PTRACE_DETACH, t.pid, 0, 0), -ESRCH);
  holder = start_holder(t.tids[1], &r);
  if (need("holder", holder) && need("holder_attach", r))
    expect("traced_by_other", ptrace(PTRACE_ATTACH, t.tids[1], 0, 0), -EPERM);
  stop_helper(holder);
  if (need("attach", attach_wait(t.pid, &st))) {
    expect("twice", ptrace(PTRACE_ATTACH, t.pid, 0, 0), -EPERM);
    expect("bad_request", ptrace(12345, t.pid, 0, 0), -EIO);
    ptrace(PTRACE_CONT, t.pid, 0, 0);
    sleep(2);
    expect("peek_running", ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, &w), -ESRCH);
  }
  stop_target(&t);
  z = tfork();
  if (z == 0)
    exit(0);
  for (int i = 0; i < HZ && state_of(z, z) != 'Z'; i++)
    sleep(1);
  expect("zombie", ptrace(PTRACE_ATTACH, z, 0, 0), -EPERM);
  reap_within(z, &st, HZ);
}

// Signals to a tracee, even ignored ones, stop it and are reported first;
// the tracer decides: CONT without the signal cancels it, DETACH with it
// delivers it.
void
t_sigreport(void)
{
  struct target t;
  int st = 0, r;

  if (start_target(&t, 0, 0, 0) < 0 || !need("attach", attach_wait(t.pid, &st)))
    goto out;
  need("cont", ptrace(PTRACE_CONT, t.pid, 0, 0));
  sleep(5);                             // back asleep in its loop
  kill(t.pid, SIGUSR1);
  r = waitpid(t.pid, &st, __WALL);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by SIGUSR1", val(r), wstatus(st));
  if (!expect_true("reported", r == t.pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGUSR1, detail))
    goto out;
  need("cont", ptrace(PTRACE_CONT, t.pid, 0, 0));   // cancel it
  sleep(5);
  r = waitpid(t.pid, &st, __WALL | WNOHANG);
  snprintf(detail, sizeof detail, "after CONT without the signal: waitpid %s, state %c",
           val(r), state_of(t.pid, t.pid));
  expect_true("cancelled", r == 0 && state_of(t.pid, t.pid) != '-', detail);
  // Ignored by default, SIGCHLD is still reported: a tracer sees every
  // signal; passed back, it is ignored.
  kill(t.pid, SIGCHLD);
  r = waitpid(t.pid, &st, __WALL);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by SIGCHLD", val(r), wstatus(st));
  if (expect_true("ignored_reported", r == t.pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGCHLD, detail))
    need("cont", ptrace(PTRACE_CONT, t.pid, 0, (void *)SIGCHLD));
  kill(t.pid, SIGUSR1);
  r = waitpid(t.pid, &st, __WALL);
  if (r == t.pid && WIFSTOPPED(st)) {
    expect("detach_with_signal", ptrace(PTRACE_DETACH, t.pid, 0, (void *)SIGUSR1), 0);
    st = 0;
    reap_within(t.pid, &st, 2 * HZ);
    snprintf(detail, sizeof detail, "target %s, want killed by SIGUSR1", wstatus(st));
    expect_true("delivered", WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1, detail);
  } else {
    expect_true("reported_again", 0, "the second SIGUSR1 was not reported");
  }
out:
  stop_target(&t);
}

// The tracer process of an exitreport round: attach, make the target
// exit (poke MAGIC1, continue), then, if look, wait for its end as
// gdbserver --attach does; else wait until it is a zombie and go without
// looking. Writes { waitpid's result, its status } to fd.
static void __attribute__((noreturn))
exit_tracer(int pid, int look, int fd)
{
  int res[2] = { 0, 0 }, st;

  res[0] = attach_wait(pid, &st);
  if (res[0] == 0)
    res[0] = ptrace(PTRACE_POKEDATA, pid, (void *)&magic, (void *)MAGIC1);
  if (res[0] == 0)
    res[0] = ptrace(PTRACE_CONT, pid, 0, 0);
  if (res[0] == 0 && look)
    res[0] = waitpid(pid, &res[1], __WALL);
  for (int i = 0; res[0] == 0 && !look && i < 20 * HZ && !strchr("Z-", state_of(pid, pid)); i++)
    sleep(1);
  write(fd, res, sizeof res);
  exit(0);
}

// A tracer that is not the parent (gdbserver --attach) hears of its
// tracee's end first, with its exit status; the parent, already asleep
// in waitpid, sees the zombie only after that, with the same status. A
// tracer that goes without looking leaves the zombie to the parent.
void
t_exitreport(void)
{
  struct target t;
  int p[2], tracer, r, st, tst, res[2];

  for (int look = 1; look >= 0; look--) {
    if (start_target(&t, 0, 0, 0) < 0 || !need("pipe", pipe(p)))
      return;
    if ((tracer = tfork()) == 0) {
      close(p[0]);
      exit_tracer(t.pid, look, p[1]);
    }
    close(p[1]);
    st = 0;
    r = waitpid(t.pid, &st, 0);
    if (read(p[0], res, sizeof res) != sizeof res)
      res[0] = -EIO, res[1] = 0;
    close(p[0]);
    reap_within(tracer, &tst, 5 * HZ);
    if (look) {
      snprintf(detail, sizeof detail, "the tracer's waitpid %s, %s; want %d, exited 42", val(res[0]),
               wstatus(res[1]), t.pid);
      expect_true("tracer_sees_exit", res[0] == t.pid && WIFEXITED(res[1]) && WEXITSTATUS(res[1]) == 42,
                  detail);
    } else {
      snprintf(detail, sizeof detail, "the tracer's attach, poke or continue failed: %s", val(res[0]));
      expect_true("tracer_attached", res[0] == 0, detail);
    }
    snprintf(detail, sizeof detail, "the parent's waitpid %s, %s; want %d, exited 42", val(r), wstatus(st),
             t.pid);
    expect_true(look ? "parent_sees_exit" : "parent_sees_unseen_exit",
                r == t.pid && WIFEXITED(st) && WEXITSTATUS(st) == 42, detail);
  }
}

// A tracer that dies while its tracees are stopped leaves them running.
void
t_tracerdeath(void)
{
  struct target t;
  ulong c[MAXT];
  int p[2], tracer, ok = 0, r, st;

  if (start_target(&t, 8, 0, 0) < 0 || !need("pipe", pipe(p)))
    goto out;
  tracer = tfork();
  if (tracer == 0) {
    close(p[0]);
    ok = attach_target(&t);
    write(p[1], &ok, sizeof ok);
    for (;;)
      pause();
  }
  close(p[1]);
  if (read(p[0], &ok, sizeof ok) != sizeof ok)
    ok = 0;
  close(p[0]);
  if (!expect_true("tracer_attached", ok, "the tracer could not attach every thread"))
    goto done;
  expect_true("state_t", states_are(&t, 't', 0), detail);
  r = tracer_of(t.pid, t.tids[3]);
  snprintf(detail, sizeof detail, "TracerPid %d, want %d", r, tracer);
  expect_true("tracerpid", r == tracer, detail);
  kill(tracer, SIGKILL);
  reap_within(tracer, &st, 5 * HZ);
  tracer = 0;
  expect_true("resumed", states_are(&t, '!', HZ), detail);
  ok = 1;
  for (int i = 0; i < t.n && ok; i++) {
    r = tracer_of(t.pid, t.tids[i]);
    snprintf(detail, sizeof detail, "tid %d: TracerPid %d after the tracer died, want 0", t.tids[i], r);
    ok = r == 0;
  }
  expect_true("untraced", ok, detail);
  if (attach_target(&t)) {
    peek_counters(t.pid, t.n, c);
    detach_target(&t);
    expect_true("progress", made_progress(&t, c), detail);
  } else {
    expect_true("reattach", 0, detail);
  }
done:
  stop_helper(tracer);
out:
  stop_target(&t);
}

// PTRACE_KILL: the group dies. As on Linux, a traced thread that dies
// stays a zombie for its tracer, whose waitpid(tid, __WALL) reports the
// death (GDB learns "[LWP N exited]" this way).
void
t_ptkill(void)
{
  struct target t;
  int st = 0, r = 0;

  if (start_target(&t, 8, 0, 0) < 0)
    return;
  if (!expect_true("attach", attach_target(&t), detail))
    goto out;
  expect("kill", ptrace(PTRACE_KILL, t.tids[4], 0, 0), 0);
  for (int i = 0; i < 2 * HZ && (r = waitpid(t.tids[4], &st, __WALL | WNOHANG)) == 0; i++)
    sleep(1);
  snprintf(detail, sizeof detail, "waitpid(%d, __WALL) %s (%s); want the tid, killed by SIGKILL",
           t.tids[4], val(r), r > 0 ? wstatus(st) : "no status");
  expect_true("exit_reported",
              r == t.tids[4] && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, detail);
  // As on Linux, the leader is reported only once its traced threads are
  // reaped (by us, their tracer): collect the others first.
  for (int i = 1; i < t.n; i++)
    for (int k = 0; i != 4 && k < HZ && waitpid(t.tids[i], &st, __WALL | WNOHANG) == 0; k++)
      sleep(1);
  st = 0;
  r = reap_within(t.pid, &st, 2 * HZ);
  snprintf(detail, sizeof detail, "waitpid(%d) %s, %s; want killed by SIGKILL", t.pid, val(r), wstatus(st));
  expect_true("group_dies", r == t.pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, detail);
  if (r == t.pid)
    return;
out:
  stop_target(&t);
}

// Read /proc/PID/task in steps of one record, sleeping between some, into
// tids. Returns how many, or -errno.
int
list_slowly(int pid, int *tids, int max, int nap)
{
  struct dirent de;
  char path[32];
  int fd, n = 0, r;

  snprintf(path, sizeof path, "/proc/%d/task", pid);
  if ((fd = open(path, O_RDONLY)) < 0)
    return fd;
  while ((r = read(fd, &de, sizeof de)) == sizeof de) {
    if (de.inum && de.name[0] >= '1' && de.name[0] <= '9') {
      if (n == max) {
        r = -E2BIG;             // the listing does not end
        break;
      }
      tids[n++] = atoi(de.name);
    }
    if (nap)
      sleep(1);
  }
  close(fd);
  return r < 0 ? r : n;
}

// /proc/PID/task of a group whose threads come and go: a thread that
// lives through a listing appears exactly once, nothing twice; a
// directory or file of a process that is gone reads as an error. (New
// threads are listed after the old ones, here by tid as on Linux by
// thread-list order, so a reader slower than thread creation would never
// reach the end: the churn makes about 0.6 threads a tick, the slow
// listings read one entry a tick.)
void
t_tasklist(void)
{
  struct target t;
  int tids[64], n, dup = 0, missing = 0, churned = 0, fd, fd2, r;
  char path[64], buf[64];
  struct dirent de;

  if (start_target(&t, 4, 0, 1) < 0)
    return;
  for (int round = 0; round < 12; round++) {
    n = list_slowly(t.pid, tids, 64, round % 2);
    if (n < 0) {
      snprintf(detail, sizeof detail, "listing %d: %s", round, val(n));
      break;
    }
    for (int i = 0; i < n; i++) {
      int stable = 0;
      for (int j = i + 1; j < n; j++)
        dup += tids[i] == tids[j];
      for (int k = 0; k < t.n; k++)
        stable |= tids[i] == t.tids[k];
      churned += !stable;
    }
    for (int k = 0; k < t.n; k++) {
      int seen = 0;
      for (int i = 0; i < n; i++)
        seen += tids[i] == t.tids[k];
      missing += seen != 1;
    }
  }
  snprintf(detail, sizeof detail, "%d listings short of a lasting thread (or listing failed: %s)",
           missing, n < 0 ? val(n) : "no");
  expect_true("lasting_once", missing == 0 && n >= 0, detail);
  snprintf(detail, sizeof detail, "%d duplicate entries", dup);
  expect_true("no_duplicates", dup == 0, detail);
  snprintf(detail, sizeof detail, "no short-lived thread was ever listed (the churn did not run?)");
  expect_true("churn_seen", churned > 0, detail);
  stop_target(&t);

  // Open, then let the process go.
  if (start_target(&t, 1, 0, 0) < 0)
    return;
  snprintf(path, sizeof path, "/proc/%d/task", t.pid);
  fd = open(path, O_RDONLY);
  snprintf(path, sizeof path, "/proc/%d/stat", t.pid);
  fd2 = open(path, O_RDONLY);
  if (need("open", fd) && need("open", fd2) && need("read", read(fd, &de, sizeof de))) {
    stop_target(&t);
    r = read(fd, &de, sizeof de);
    snprintf(detail, sizeof detail, "read %s, want 0 or an error", val(r));
    expect_true("gone_dir", r <= 0, detail);
    r = read(fd2, buf, sizeof buf);
    snprintf(detail, sizeof detail, "read %s, want -3 (ESRCH) or -2 (ENOENT)", val(r));
    expect_true("gone_file", r == -ESRCH || r == -ENOENT, detail);
    snprintf(path, sizeof path, "/proc/%d/status", t.pid);
    expect("gone_open", open(path, O_RDONLY), -ENOENT);
  } else {
    stop_target(&t);
  }
  close(fd);
  close(fd2);
}


// A /proc file read in pieces is one snapshot, as with Linux's seq_file:
// later pieces come from the state the first read saw, however it changed
// since; a read from offset 0 takes a new snapshot. (The state changed
// here is the knob /proc/sys/kernel/io_thread_race_ticks, put back after.)
void
t_snapshot(void)
{
  const char *knob = "/proc/sys/kernel/io_thread_race_ticks";
  char old[16], got[16];
  int rfd, wfd, n, r;

  rfd = open(knob, O_RDONLY);
  wfd = open(knob, O_WRONLY);
  if (!need("open", rfd) || !need("open", wfd))
    return;
  n = read(rfd, old, sizeof old);
  if (!need("read", n) || !need("write", write(wfd, "7\n", 2)))
    return;
  lseek(rfd, 0, SEEK_SET);
  r = read(rfd, got, 1);                 // "7", the snapshot "7\n"
  write(wfd, "999\n", 4);
  r += read(rfd, got + r, sizeof got - 1 - r);
  got[r < 0 ? 0 : r] = 0;
  snprintf(detail, sizeof detail, "read \"%s\" in two pieces around the change, want \"7\\n\"", got);
  expect_true("pieces_one_state", r == 2 && strcmp(got, "7\n") == 0, detail);
  lseek(rfd, 0, SEEK_SET);
  r = read(rfd, got, sizeof got - 1);
  got[r < 0 ? 0 : r] = 0;
  snprintf(detail, sizeof detail, "read \"%s\" from offset 0, want \"999\\n\"", got);
  expect_true("offset0_fresh", r == 4 && strcmp(got, "999\n") == 0, detail);
  write(wfd, old, n);
  close(rfd);
  close(wfd);
}

// No pages leak: 200 attach/detach cycles on one thread, 25 on each of 9.
void
t_leak(void)
{
  struct target t;
  long before, after, first;
  int st, bad = 0;

  first = freemem();
  if (start_target(&t, 8, 0, 0) < 0)
    return;
  attach_wait(t.pid, &st);                      // warm up
  ptrace(PTRACE_DETACH, t.pid, 0, 0);
  before = freemem();
  for (int i = 0; i < 200 && !bad; i++) {
    if (attach_wait(t.pid, &st) < 0 || ptrace(PTRACE_DETACH, t.pid, 0, 0) < 0) {
      snprintf(detail, sizeof detail, "cycle %d failed", i);
      bad = 1;
    }
  }
  expect_true("cycles1", !bad, detail);
  for (int i = 0; i < 25 && !bad; i++)
    if (!attach_target(&t) || !detach_target(&t))
      bad = 1;
  expect_true("cycles9", !bad, detail);
  after = freemem();
  snprintf(detail, sizeof detail, "%ld free pages before, %ld after", before, after);
  expect_true("freemem", before == after, detail);
  stop_target(&t);
  sleep(5);
  after = freemem();
  snprintf(detail, sizeof detail, "%ld free pages before the target, %ld after it was reaped", first, after);
  expect_true("freemem_reaped", first == after, detail);
}

// ------------------------------------------------------------ execstop

static int es_go[2], es_tid[2];

// Wait until fd has a byte, then exec /echo (which exits 0).
static void
es_exec(int fd)
{
  char c, *argv[] = { "echo", "execstop:", "exec", "done", 0 };

  read(fd, &c, 1);
  exec("/echo", argv);
  exit(99);
}

// A thread of the child: send its tid, then exec on the signal.
static void
es_thread(void *arg)
{
  int tid = gettid();

  (void)arg;
  write(es_tid[1], &tid, sizeof tid);
  es_exec(es_go[0]);
}

// Trace tid of child pid, let it exec, and check the stop that follows
// (reported under pid: a thread that execs takes the leader's tid), the
// new program's name, and its exit once continued. check names the case.
static void
es_check(const char *check, int pid, int tid)
{
  int st = 0, r;
  struct procstat ps;
  char name[48];

  snprintf(name, sizeof name, "%s_attach", check);
  if (!expect(name, attach_wait(tid, &st), 0) || ptrace(PTRACE_CONT, tid, 0, 0) < 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
    return;
  }
  write(es_go[1], "x", 1);
  for (int i = 0; i < 10 * HZ && (r = waitpid(pid, &st, __WALL | WNOHANG)) == 0; i++)
    sleep(1);
  snprintf(detail, sizeof detail, "waitpid(%d) %s, %s; want stopped by SIGTRAP after the exec",
           pid, val(r), wstatus(st));
  snprintf(name, sizeof name, "%s_sigtrap_stop", check);
  if (expect_true(name, r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, detail)) {
    snprintf(name, sizeof name, "%s_new_image", check);
    snprintf(detail, sizeof detail, "comm %s, want echo", task_stat(pid, pid, &ps) == 0 ? ps.comm : "?");
    expect_true(name, task_stat(pid, pid, &ps) == 0 && strcmp(ps.comm, "echo") == 0, detail);
    ptrace(PTRACE_CONT, pid, 0, 0);
  }
  r = reap_within(pid, &st, 10 * HZ);
  if (r != pid) {
    kill(pid, SIGKILL);
    waitpid(pid, &st, 0);
  }
  snprintf(detail, sizeof detail, "waitpid %s, %s; want exited 0", val(r), wstatus(st));
  snprintf(name, sizeof name, "%s_runs_on", check);
  expect_true(name, r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, detail);
}

// execstop: a traced task that execs stops with SIGTRAP before the new
// program runs, as on Linux (a debugger starting a program waits for it),
// and runs on when continued; a traced thread other than the leader takes
// the leader's tid and its tracer sees the stop there (it once lost the
// thread: no stop, and ESRCH for the old tid).
void
t_execstop(void)
{
  int pid, tid = 0;

  if (!need("pipe", pipe(es_go)) || !need("pipe2", pipe(es_tid)))
    return;
  pid = tfork();
  if (pid == 0)
    es_exec(es_go[0]);
  if (need("fork", pid))
    es_check("leader", pid, pid);
  pid = tfork();
  if (pid == 0) {
    if (thread_create(es_thread, 0) < 0)
      exit(98);
    for (;;)
      sleep(100);
  }
  if (need("fork_threaded", pid) && read(es_tid[0], &tid, sizeof tid) == sizeof tid)
    es_check("thread", pid, tid);
  for (int i = 0; i < 2; i++) {
    close(es_go[i]);
    close(es_tid[i]);
  }
}
