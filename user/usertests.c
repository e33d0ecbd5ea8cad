// usertests: regression tests for the tasklab kernel, in the spirit of
// xv6's usertests.
//
//   usertests            run every test (except those marked "only when named")
//   usertests NAME...    run only the named tests
//   usertests -l         list the tests
//
// Each test runs in its own child process, so a test that crashes or hangs
// is reported as a FAIL and the rest go on. Every check prints one line,
// "PASS test.check" or "FAIL test.check: detail"; the run closes with
// "N passed, N failed" alone on a line. The last check compares the free
// physical pages before and after the whole run. The runner, and how
// results reach it, is the shared one (user/testlib.h).
//
// The exec tests run this same program again as a "probe" (argv[0] is
// PROBE); see probe() at the end.

#include "user/user.h"
#include "user/testlib.h"

#include "kernel/fs_format.h"

#define PGSIZE     4096
#define NOFILE     16           // fds per process
#define NTASK      64           // tasks system-wide
#define MAXARG     32           // exec arguments
#define MAXPATH    128          // path bytes, NUL included
#define USTACK     16384        // user stack, just below the initial break
#define TEST_SECS  20           // a test running longer is killed (default)
#define SELF       "/usertests" // this program, for the exec tests
#define PROBE      "ut-probe"   // argv[0] that makes this program a probe
#define PROBE_BAD  250          // probe exit code for an unknown probe command

// Addresses that are never valid user memory.
#define BAD_NULL   ((void *)0)
#define BAD_KERN   ((void *)0x80000000UL)
#define BAD_HIGH   ((void *)0xffffffffffff0000UL)

static char *initial_brk;               // sbrk(0) when main started: the stack's top
static char buf[8192];                  // scratch buffers
static char buf2[8192];

// ------------------------------------------------------------ reporting

// Check that a call succeeded (returned >= 0). Returns 1 if it did.
static int
expect_ok(const char *check, long got)
{
  char d[128];

  snprintf(d, sizeof d, "got %s, want success", val(got));
  return expect_true(check, got >= 0, d);
}

// Check that wait status st says "exited with code".
static int
expect_exit(const char *check, int st, int code)
{
  char d[128];

  snprintf(d, sizeof d, "child %s, want exited %d", wstatus(st), code);
  return expect_true(check, st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == code, d);
}

// Check that wait status st says "killed by signal sig".
static int
expect_signal(const char *check, int st, int sig)
{
  char d[128];

  snprintf(d, sizeof d, "child %s, want killed by signal %d (%s)", wstatus(st), sig, signame(sig));
  return expect_true(check, st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == sig, d);
}

// ------------------------------------------------------------ processes

// Run fn(arg) in a child (which exits 0 if fn returns); return the child's
// wait status, or -errno if fork or waitpid failed.
static int
in_child(void (*fn)(long), long arg)
{
  int pid, st = 0, r;

  pid = tfork();
  if (pid < 0)
    return pid;
  if (pid == 0) {
    fn(arg);
    exit(0);
  }
  r = waitpid(pid, &st, 0);
  if (r != pid)
    return r < 0 ? r : -ECHILD;
  return st;
}

// Reap pid within ticks; if it does not end, kill it with SIGKILL and reap
// it. Returns the first wait_ticks() result (0: it had to be killed).
static int
reap_or_kill(int pid, int *st, int ticks)
{
  int r = wait_ticks(pid, st, 0, ticks);

  if (r == 0) {
    kill(pid, SIGKILL);
    wait_ticks(pid, st, 0, 2 * HZ);
  }
  return r;
}

// How many of this process's fds 0..NOFILE-1 are open (dup succeeds on
// an open fd as long as a slot is free).
static int
fds_in_use(void)
{
  int n = 0, d;

  for (int fd = 0; fd < NOFILE; fd++) {
    d = dup(fd);
    if (d >= 0) {
      close(d);
      n++;
    }
  }
  return n;
}

// Round the break up to a page boundary, so after growing the heap,
// sbrk(0)-1 is the last mapped byte. Returns the new break.
static char *
align_brk(void)
{
  char *b = sbrk(0);

  if ((ulong)b % PGSIZE)
    sbrk(PGSIZE - (ulong)b % PGSIZE);
  return sbrk(0);
}

// Child body: exit with code.
static void
exit_with(long code)
{
  exit((int)code);
}

// ------------------------------------------------------------ files

// Byte off of the test pattern number seed: changes within and across blocks.
static uchar
pat(long off, int seed)
{
  return (uchar)(off * 7 + seed + (off >> 10) * 13 + (off >> 18));
}

// Write n bytes of pattern seed at fd's offset, which must be off, in 4 KiB
// pieces. Returns the bytes written, or the error if nothing was.
static long
write_pattern(int fd, long off, long n, int seed)
{
  long done = 0;
  int k, r;

  while (done < n) {
    k = n - done > 4096 ? 4096 : n - done;
    for (int i = 0; i < k; i++)
      buf[i] = pat(off + done + i, seed);
    r = write(fd, buf, k);
    if (r <= 0)
      return done ? done : r;
    done += r;
  }
  return done;
}

// Read n bytes at fd's offset, which must be off, in pieces of size piece,
// and compare them with pattern seed. Returns how many bytes from the start
// were read and matched (n when all did).
static long
check_pattern(int fd, long off, long n, int seed, int piece)
{
  long done = 0;
  int k, r;

  while (done < n) {
    k = n - done > piece ? piece : n - done;
    r = read(fd, buf, k);
    if (r <= 0)
      return done;
    for (int i = 0; i < r; i++)
      if ((uchar)buf[i] != pat(off + done + i, seed))
        return done + i;
    done += r;
  }
  return done;
}

// Create or truncate path and write the n bytes at data. Returns 0 or -errno.
static int
put_file(const char *path, const void *data, int n)
{
  int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY), r;

  if (fd < 0)
    return fd;
  r = n ? write(fd, data, n) : 0;
  close(fd);
  if (r < 0)
    return r;
  return r == n ? 0 : -EIO;
}

// Read until EOF or n bytes from fd into dst; returns the count or -errno.
static int
read_all(int fd, void *dst, int n)
{
  int got = 0, r;

  while (got < n) {
    r = read(fd, (char *)dst + got, n - got);
    if (r < 0)
      return r;
    if (r == 0)
      break;
    got += r;
  }
  return got;
}

// Read up to n bytes of path into dst; returns the count or -errno.
static int
get_file(const char *path, void *dst, int n)
{
  int fd = open(path, O_RDONLY), r;

  if (fd < 0)
    return fd;
  r = read_all(fd, dst, n);
  close(fd);
  return r;
}

// Copy the name of directory entry de into name (DIRSIZ+1 bytes).
static void
dename(const struct dirent *de, char *name)
{
  memcpy(name, de->name, DIRSIZ);
  name[DIRSIZ] = 0;
}

// Remove path and, if it is a directory, everything below it. Best effort.
static void
rm_rf(const char *path, int depth)
{
  struct dirent de;
  struct stat st;
  char name[DIRSIZ + 1], sub[MAXPATH];
  int fd, guard = 0;

  fd = open(path, O_RDONLY);
  if (fd >= 0 && fstat(fd, &st) == 0 && st.type == T_DIR && depth < 8) {
    while (read(fd, &de, sizeof de) == sizeof de && guard++ < 4096) {
      dename(&de, name);
      if (de.inum == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        continue;
      if (strlen(path) + strlen(name) + 2 > sizeof sub)
        continue;
      strcpy(sub, path);
      strcat(sub, "/");
      strcat(sub, name);
      rm_rf(sub, depth + 1);
    }
  }
  if (fd >= 0)
    close(fd);
  unlink(path);
}

// Count the entries of directory path other than "." and ".."; -errno on error.
static int
count_entries(const char *path)
{
  struct dirent de;
  char name[DIRSIZ + 1];
  int fd = open(path, O_RDONLY), n = 0;

  if (fd < 0)
    return fd;
  while (read(fd, &de, sizeof de) == sizeof de) {
    dename(&de, name);
    if (de.inum != 0 && strcmp(name, ".") != 0 && strcmp(name, "..") != 0)
      n++;
  }
  close(fd);
  return n;
}

// Start a test's file work: remove leftovers of dir, create it, chdir into
// it. Returns 1 on success (silent), 0 after a FAIL line.
static int
enter_scratch(const char *dir)
{
  chdir("/");
  rm_rf(dir, 0);
  return need("mkdir_scratch", mkdir(dir)) && need("chdir_scratch", chdir(dir));
}

// End a test's file work: leave dir and remove it (a FAIL line if that fails).
static void
leave_scratch(const char *dir)
{
  int fd;

  chdir("/");
  rm_rf(dir, 0);
  fd = open(dir, O_RDONLY);
  if (fd >= 0) {
    close(fd);
    expect_true("cleanup", 0, "scratch directory could not be removed");
  }
}

// ------------------------------------------------------------ tests: processes

static int fork_var = 1;        // changed by the fork test's child only

// fork: 0 in the child and the child's pid in the parent; getppid; the
// child gets a copy of memory (data and heap) and shares open files.
static void
t_fork(void)
{
  int me = getpid(), p[2], pid, st = -1, code;
  char b[4] = { 0 };
  char *heap;

  heap = sbrk(PGSIZE);
  if (is_sbrk_error(heap) || !need("pipe", pipe(p)))
    return;
  memset(heap, 0x5a, PGSIZE);
  pid = tfork();
  if (pid == 0) {
    code = 42;
    if (getppid() != me)
      code = 1;
    else if (getpid() == me)
      code = 2;
    else if (heap[0] != 0x5a || heap[PGSIZE - 1] != 0x5a)
      code = 3;
    fork_var = 2;
    memset(heap, 0, PGSIZE);
    write(p[1], "hi", 2);
    exit(code);
  }
  close(p[1]);
  if (!expect_ok("fork", pid))
    return;
  expect_true("child_pid", pid != me, "fork returned the parent's own pid");
  expect("inherited_fd", read_all(p[0], b, 3), 2);
  expect("waitpid", waitpid(pid, &st, 0), pid);
  expect_exit("child_ids_and_memory", st, 42);
  expect("data_not_shared", fork_var, 1);
  expect_true("heap_not_shared", heap[0] == 0x5a && heap[PGSIZE - 1] == 0x5a,
              "the child's writes to its heap changed the parent's");
  close(p[0]);
}

// exit: only the low 8 bits of the status reach waitpid, in Linux's encoding.
static void
t_exitstatus(void)
{
  static const struct { const char *check; int code, want; } cases[] = {
    { "zero", 0, 0 }, { "small", 7, 7 }, { "max", 255, 255 },
    { "low8", 0x1234, 0x34 }, { "negative", -1, 255 },
  };
  int st;

  for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++)
    expect_exit(cases[i].check, in_child(exit_with, cases[i].code), cases[i].want);
  st = in_child(exit_with, 3);
  expect("encoding", st, 3 << 8);
  expect_true("not_signaled", !WIFSIGNALED(st), "WIFSIGNALED true for a normal exit");
}

// waitpid: each child reaped once, by pid or as any; ECHILD; NULL status;
// a bad status pointer gives EFAULT and leaves the child to be reaped.
static void
t_wait(void)
{
  int st, pids[5], seen = 0, ok = 1, r, a, b, c;
  char d[96] = "";

  expect("echild_none", waitpid(-1, &st, 0), -ECHILD);
  expect("echild_not_mine", waitpid(1, &st, 0), -ECHILD);
  for (int i = 0; i < 5; i++) {
    pids[i] = tfork();
    if (pids[i] == 0)
      exit(10 + i);
  }
  for (int n = 0; n < 5 && ok; n++) {
    r = waitpid(-1, &st, 0);
    ok = 0;
    for (int i = 0; i < 5; i++)
      if (r == pids[i] && !(seen & (1 << i)) && WIFEXITED(st) && WEXITSTATUS(st) == 10 + i) {
        seen |= 1 << i;
        ok = 1;
      }
    if (!ok)
      snprintf(d, sizeof d, "wait %d returned %d, status 0x%x", n, r, st);
  }
  expect_true("any_five", ok, d);
  expect("echild_after", waitpid(-1, &st, 0), -ECHILD);

  a = tfork();
  if (a == 0) {
    sleep(10);
    exit(1);
  }
  b = tfork();
  if (b == 0)
    exit(2);
  expect("by_pid", waitpid(a, &st, 0), a);
  expect_exit("by_pid_status", st, 1);
  expect("other_later", waitpid(-1, &st, 0), b);
  expect_exit("other_status", st, 2);

  c = tfork();
  if (c == 0)
    exit(0);
  expect("null_status", waitpid(c, NULL, 0), c);

  c = tfork();
  if (c == 0)
    exit(5);
  expect("efault", waitpid(c, BAD_KERN, 0), -EFAULT);
  st = 0;
  expect("efault_keeps_child", waitpid(c, &st, 0), c);
  expect_exit("efault_status_kept", st, 5);
}

// waitpid WNOHANG: 0 while the child runs, its pid once it has exited.
static void
t_waitnohang(void)
{
  int p[2], pid, st = 0;
  char c;

  if (!need("pipe", pipe(p)))
    return;
  pid = tfork();
  if (pid == 0) {
    close(p[1]);
    read(p[0], &c, 1);
    exit(3);
  }
  close(p[0]);
  expect("running", waitpid(pid, &st, WNOHANG), 0);
  close(p[1]);
  expect("exited", reap_or_kill(pid, &st, 5 * HZ), pid);
  expect_exit("status", st, 3);
  expect("echild", waitpid(-1, &st, WNOHANG), -ECHILD);
}

// Fork children that block reading rd until it reaches EOF, until fork
// fails or max are running. Stores their pids; *err gets fork's error.
static int
fill_tasks(int rd, int wr, int *pids, int max, int *err)
{
  int n = 0, pid;
  char c;

  *err = 0;
  while (n < max) {
    pid = tfork();
    if (pid < 0) {
      *err = pid;
      break;
    }
    if (pid == 0) {
      close(wr);
      read(rd, &c, 1);
      exit(0);
    }
    pids[n++] = pid;
  }
  return n;
}

// manyprocs: fork until the task table is full (EAGAIN), reap them all,
// twice (same count: no slot leaks), then fork still works.
static void
t_manyprocs(void)
{
  int pids[NTASK + 8], counts[2], p[2], err, st, ok, r;
  char check[32], d[96];

  for (int round = 0; round < 2; round++) {
    if (!need("pipe", pipe(p)))
      return;
    counts[round] = fill_tasks(p[0], p[1], pids, NTASK + 8, &err);
    close(p[0]);
    close(p[1]);
    snprintf(check, sizeof check, "eagain%d", round + 1);
    expect(check, err, -EAGAIN);
    ok = 1;
    d[0] = 0;
    for (int i = 0; i < counts[round]; i++) {
      r = wait_ticks(-1, &st, 0, 5 * HZ);
      if (r <= 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        snprintf(d, sizeof d, "reaping child %d of %d: waitpid returned %d, status 0x%x",
                 i + 1, counts[round], r, st);
        ok = 0;
        break;
      }
    }
    snprintf(check, sizeof check, "reaped%d", round + 1);
    expect_true(check, ok, d);
    snprintf(check, sizeof check, "echild%d", round + 1);
    expect(check, waitpid(-1, &st, WNOHANG), -ECHILD);
  }
  snprintf(d, sizeof d, "%d children fit, want between 8 and %d", counts[0], NTASK - 2);
  expect_true("count", counts[0] >= 8 && counts[0] <= NTASK - 2, d);
  expect("same_count", counts[1], counts[0]);
  expect_exit("fork_after", in_child(exit_with, 9), 9);
}

// Child body: fork 4 grandchildren that sleep a little and exit, send
// their pids through pipe end wr, and exit at once, orphaning them.
static void
orphan_parent(long wr)
{
  int pid;

  for (int i = 0; i < 4; i++) {
    pid = fork();
    if (pid == 0) {
      close(wr);
      sleep(3 + 2 * i);
      exit(0);
    }
    if (pid > 0)
      write(wr, &pid, sizeof pid);
  }
  exit(0);
}

// orphans: children that outlive their parent are reaped by init
// (afterwards kill(pid, 0) says ESRCH), and are not ours to wait for.
static void
t_orphans(void)
{
  int p[2], pids[4], n = 0, gone = 0, t0, st;

  if (!need("pipe", pipe(p)))
    return;
  st = in_child(orphan_parent, p[1]);
  close(p[1]);
  expect_exit("parent_exit", st, 0);
  while (n < 4 && read_all(p[0], &pids[n], sizeof(int)) == sizeof(int))
    n++;
  close(p[0]);
  expect("pids", n, 4);
  t0 = uptime();
  while (uptime() - t0 < 5 * HZ) {
    gone = 0;
    for (int i = 0; i < n; i++)
      if (kill(pids[i], 0) == -ESRCH)
        gone++;
    if (gone == n)
      break;
    sleep(2);
  }
  expect("reaped_by_init", gone, n);
  expect("not_mine", waitpid(-1, &st, WNOHANG), -ECHILD);
}

// ------------------------------------------------------------ tests: exec

static char *xargv[MAXARG + 2];          // argv for the exec child
static char xstore[MAXARG + 2][40];      // its strings
static const char *x_path;               // what exec_child runs
static char **x_argv;
static volatile long x_canary;

// Fill xargv with a probe "args" command line of n entries (see probe()).
static char **
probe_args(int n)
{
  xargv[0] = PROBE;
  xargv[1] = "args";
  snprintf(xstore[2], sizeof xstore[2], "%d", n);
  xargv[2] = xstore[2];
  for (int i = 3; i < n; i++) {
    memset(xstore[i], 'a' + i % 26, i - 3);
    xstore[i][i - 3] = 0;
    xargv[i] = xstore[i];
  }
  xargv[n] = 0;
  return xargv;
}

// Child body: exec(x_path, x_argv). If exec returns, exit with its errno
// (200 if this process's memory no longer holds what it did before).
static void
exec_child(long unused)
{
  volatile long stackvar = 0x1234;
  int r;

  x_canary = 0x5eed;
  r = exec(x_path, x_argv);
  if (x_canary != 0x5eed || stackvar != 0x1234)
    exit(200);
  exit(r < 0 && r >= -EMAXERRNO ? -r : 201);
}

// Run exec(path, argv) in a child; return its wait status.
static int
try_exec(const char *path, char **argv)
{
  x_path = path;
  x_argv = argv;
  return in_child(exec_child, 0);
}

// Check that exec(path, argv) fails with -err and the caller goes on.
static int
expect_exec_err(const char *check, const char *path, char **argv, int err)
{
  char d[160];
  int st = try_exec(path, argv);

  if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == err) {
    expect_true(check, 1, 0);
    return 1;
  }
  if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == PROBE_BAD)
    snprintf(d, sizeof d, "exec succeeded, want -%d (%s)", err, errname(err));
  else if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 200)
    snprintf(d, sizeof d, "the failed exec damaged the caller's memory");
  else if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0)
    snprintf(d, sizeof d, "exec succeeded (the new program exited 0), want -%d (%s)", err, errname(err));
  else if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) <= EMAXERRNO)
    snprintf(d, sizeof d, "exec returned -%d (%s), want -%d (%s)",
             WEXITSTATUS(st), errname(WEXITSTATUS(st)), err, errname(err));
  else
    snprintf(d, sizeof d, "child %s, want exec to return -%d (%s)", wstatus(st), err, errname(err));
  expect_true(check, 0, d);
  return 0;
}

// exec: the arguments reach the new program intact (up to MAXARG), main's
// return value is the exit status, open fds and the pid survive exec.
static void
t_exec(void)
{
  char *ex[] = { PROBE, "exit", "37", 0 };
  char *fw[] = { PROBE, "fdwrite", 0, 0 };
  char fdstr[8], got[32] = "", want[32], d[96];
  int p[2], pid, st = -1, n;

  expect_exit("args", try_exec(SELF, probe_args(6)), 0);
  expect_exit("args_min", try_exec(SELF, probe_args(3)), 0);
  expect_exit("args_max", try_exec(SELF, probe_args(MAXARG)), 0);
  expect_exit("main_return", try_exec(SELF, ex), 37);

  if (!need("pipe", pipe(p)))
    return;
  snprintf(fdstr, sizeof fdstr, "%d", p[1]);
  fw[2] = fdstr;
  pid = tfork();
  if (pid == 0) {
    close(p[0]);
    exec(SELF, fw);
    exit(1);
  }
  close(p[1]);
  n = read_all(p[0], got, sizeof got - 1);
  got[n > 0 ? n : 0] = 0;
  close(p[0]);
  snprintf(want, sizeof want, "pid=%d", pid);
  snprintf(d, sizeof d, "the new program wrote \"%s\", want \"%s\"", got, want);
  expect_true("fd_and_pid_kept", strcmp(got, want) == 0, d);
  expect("fdwrite_reaped", waitpid(pid, &st, 0), pid);
  expect_exit("fdwrite_status", st, 0);
}

// execerr: each exec error of the contract, and the caller runs on after it.
static void
t_execerr(void)
{
  char *ok[] = { PROBE, 0 };
  char *argk[] = { PROBE, BAD_KERN, 0 };
  char *argh[] = { PROBE, BAD_HIGH, 0 };
  char *argn[] = { PROBE, 0, 0 };
  char *end, **av;

  expect_exec_err("enoent", "/no-such-program", ok, ENOENT);
  expect_exec_err("enoent_dir", "/no-such-dir/prog", ok, ENOENT);
  expect_exec_err("path_null", BAD_NULL, ok, EFAULT);
  expect_exec_err("path_kernel", BAD_KERN, ok, EFAULT);
  expect_exec_err("path_high", BAD_HIGH, ok, EFAULT);
  expect_exec_err("argv_kernel", SELF, (char **)BAD_KERN, EFAULT);
  expect_exec_err("argv_high", SELF, (char **)BAD_HIGH, EFAULT);
  expect_exec_err("arg_kernel", SELF, argk, EFAULT);
  expect_exec_err("arg_high", SELF, argh, EFAULT);
  expect_exec_err("e2big", SELF, probe_args(MAXARG + 1), E2BIG);

  // The last bytes of memory: a path and an argv that run past the end.
  align_brk();
  if (!need("sbrk", (long)sbrk(PGSIZE)))
    return;
  end = sbrk(0);
  end[-1] = '/';
  expect_exec_err("path_past_end", end - 1, ok, EFAULT);
  av = (char **)(end - sizeof(char *));
  av[0] = PROBE;                       // argv[1] would lie past the end
  expect_exec_err("argv_past_end", SELF, av, EFAULT);
  end[-1] = 'x';
  argn[1] = end - 1;                   // "x" with no NUL before the end
  expect_exec_err("arg_past_end", SELF, argn, EFAULT);
}

// Put a little-endian value of n bytes at b.
static void
put_le(uchar *b, ulong v, int n)
{
  for (int i = 0; i < n; i++)
    b[i] = (uchar)(v >> (8 * i));
}

// Build at b a 120-byte ELF64 executable (header and one PT_LOAD program
// header) of ELF class cls for e_machine mach; returns its size.
static int
make_elf(uchar *b, int cls, int mach)
{
  memset(b, 0, 120);
  b[0] = 0x7f; b[1] = 'E'; b[2] = 'L'; b[3] = 'F';
  b[4] = cls;                   // ELFCLASS64 = 2
  b[5] = 1;                     // little-endian
  b[6] = 1;                     // EV_CURRENT
  put_le(b + 16, 2, 2);         // e_type ET_EXEC
  put_le(b + 18, mach, 2);      // e_machine
  put_le(b + 20, 1, 4);         // e_version
  put_le(b + 24, 0x1000, 8);    // e_entry
  put_le(b + 32, 64, 8);        // e_phoff
  put_le(b + 52, 64, 2);        // e_ehsize
  put_le(b + 54, 56, 2);        // e_phentsize
  put_le(b + 56, 1, 2);         // e_phnum
  put_le(b + 64, 1, 4);         // p_type PT_LOAD
  put_le(b + 68, 5, 4);         // p_flags R|X
  put_le(b + 80, 0x1000, 8);    // p_vaddr
  put_le(b + 88, 0x1000, 8);    // p_paddr
  put_le(b + 96, 120, 8);       // p_filesz
  put_le(b + 104, 120, 8);      // p_memsz
  put_le(b + 112, 0x1000, 8);   // p_align
  return 120;
}

#if defined(__x86_64__)
#define OTHER_MACHINE 243   // EM_RISCV
#else
#define OTHER_MACHINE 62    // EM_X86_64
#endif

// execnonelf: files that are not ELF programs for this machine give ENOEXEC.
static void
t_execnonelf(void)
{
  static const char script[] = "#!/bin/sh\necho hello\n";
  char *ok[] = { PROBE, 0 };
  uchar *b = (uchar *)buf;

  if (!enter_scratch("/ut_nonelf"))
    return;
  need("script", put_file("script", script, sizeof script - 1));
  need("empty", put_file("empty", "", 0));
  need("other", put_file("other", b, make_elf(b, 2, OTHER_MACHINE)));
  need("rv32", put_file("rv32", b, make_elf(b, 1, 243)));       // ELFCLASS32, EM_RISCV
  make_elf(b, 2, 243);
  b[3] = 'G';
  need("badmagic", put_file("badmagic", b, 120));
  make_elf(b, 2, 243);
  need("short", put_file("short", b, 10));
  expect_exec_err("script", "script", ok, ENOEXEC);
  expect_exec_err("empty", "empty", ok, ENOEXEC);
  expect_exec_err("other_machine", "other", ok, ENOEXEC);
  expect_exec_err("elf32", "rv32", ok, ENOEXEC);
  expect_exec_err("bad_magic", "badmagic", ok, ENOEXEC);
  expect_exec_err("truncated", "short", ok, ENOEXEC);
  leave_scratch("/ut_nonelf");
}

// ------------------------------------------------------------ tests: pipes

// pipe: fds, short reads return what is there, ESPIPE, wrong-end EBADF,
// 512 bytes fit without a reader, EOF once the write end is closed.
static void
t_pipe(void)
{
  int p[2] = { -1, -1 };

  if (!expect("create", pipe(p), 0))
    return;
  expect_true("fds", p[0] >= 0 && p[1] >= 0 && p[0] != p[1] && p[0] < NOFILE && p[1] < NOFILE,
              "pipe returned bad fds");
  expect("write", write(p[1], "0123456789", 10), 10);
  expect("short_read", read(p[0], buf, 100), 10);
  expect_true("data", memcmp(buf, "0123456789", 10) == 0, "bytes read differ from bytes written");
  expect("lseek_read_end", lseek(p[0], 0, SEEK_SET), -ESPIPE);
  expect("lseek_write_end", lseek(p[1], 0, SEEK_CUR), -ESPIPE);
  expect("read_write_end", read(p[1], buf, 1), -EBADF);
  expect("write_read_end", write(p[0], "x", 1), -EBADF);
  for (int i = 0; i < 512; i++)
    buf[i] = (char)(i * 3 + 1);
  expect("holds_512", write(p[1], buf, 512), 512);
  expect("read_512", read_all(p[0], buf2, 512), 512);
  expect_true("data_512", memcmp(buf, buf2, 512) == 0, "bytes read differ from bytes written");
  close(p[1]);
  expect("eof", read(p[0], buf, 10), 0);
  close(p[0]);
}

#define PIPEBIG (100 * 1024)

// Byte i of the pipebig stream.
static uchar
pipe_pat(long i)
{
  return (uchar)(i * 13 + (i >> 9) + 1);
}

// Child body: write PIPEBIG bytes of pipe_pat to pipe end wr in pieces of
// varying size; exit 1 on a failed or short write.
static void
pipe_writer(long wr)
{
  long off = 0;
  int k = 0, n;

  while (off < PIPEBIG) {
    n = 1 + (k++ * 331) % 1500;
    if (n > PIPEBIG - off)
      n = PIPEBIG - off;
    for (int i = 0; i < n; i++)
      buf[i] = pipe_pat(off + i);
    if (write(wr, buf, n) != n)
      exit(1);
    off += n;
  }
  exit(0);
}

// pipebig: 100 KiB from a child through a pipe arrive complete, in order,
// with the same checksum, then EOF.
static void
t_pipebig(void)
{
  int p[2], pid, st = -1, n = 0, k = 0, want;
  long off = 0, bad = -1;
  uint sum = 0, wantsum = 0;
  char d[96];

  if (!need("pipe", pipe(p)))
    return;
  pid = tfork();
  if (pid == 0) {
    close(p[0]);
    pipe_writer(p[1]);
  }
  close(p[1]);
  while (off <= PIPEBIG) {
    want = 1 + (k++ * 577) % (int)sizeof buf2;
    n = read(p[0], buf2, want);
    if (n <= 0)
      break;
    for (int i = 0; i < n; i++) {
      if ((uchar)buf2[i] != pipe_pat(off + i) && bad < 0)
        bad = off + i;
      sum = sum * 31 + (uchar)buf2[i];
    }
    off += n;
  }
  for (long i = 0; i < PIPEBIG; i++)
    wantsum = wantsum * 31 + pipe_pat(i);
  expect("eof", n, 0);
  expect("bytes", off, PIPEBIG);
  snprintf(d, sizeof d, "first wrong byte at offset %ld", bad);
  expect_true("order", bad < 0, d);
  snprintf(d, sizeof d, "checksum 0x%x, want 0x%x", sum, wantsum);
  expect_true("checksum", sum == wantsum, d);
  close(p[0]);
  expect("writer_reaped", waitpid(pid, &st, 0), pid);
  expect_exit("writer_status", st, 0);
}

// pingpong: 200 one-byte round trips between two processes, two pipes.
static void
t_pingpong(void)
{
  int a[2], b[2], pid, st = -1, bad = -1;
  uchar c = 0;

  if (!need("pipe", pipe(a)) || !need("pipe", pipe(b)))
    return;
  pid = tfork();
  if (pid == 0) {
    close(a[1]);
    close(b[0]);
    while (read(a[0], &c, 1) == 1) {
      c++;
      if (write(b[1], &c, 1) != 1)
        exit(1);
    }
    exit(0);
  }
  close(a[0]);
  close(b[1]);
  for (int i = 0; i < 200 && bad < 0; i++) {
    c = (uchar)(2 * i);
    if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1 || c != (uchar)(2 * i + 1))
      bad = i;
  }
  expect("round_trips", bad, -1);
  close(a[1]);
  close(b[0]);
  expect("child_reaped", reap_or_kill(pid, &st, 5 * HZ), pid);
  expect_exit("child_status", st, 0);
}

// pipeeof: with three writers, read returns 0 only after all have exited.
static void
t_pipeeof(void)
{
  int p[2], pids[3], st, n, total = 0, ok = 1;

  if (!need("pipe", pipe(p)))
    return;
  for (int i = 0; i < 3; i++) {
    pids[i] = tfork();
    if (pids[i] == 0) {
      close(p[0]);
      sleep(3 * i);
      memset(buf, 'a' + i, 100);
      exit(write(p[1], buf, 100) == 100 ? 0 : 1);
    }
  }
  close(p[1]);
  while ((n = read(p[0], buf2, sizeof buf2)) > 0)
    total += n;
  close(p[0]);
  expect("eof", n, 0);
  expect("all_data", total, 300);
  for (int i = 0; i < 3; i++)
    if (pids[i] < 0 || waitpid(pids[i], &st, 0) != pids[i] || st != 0)
      ok = 0;
  expect_true("writers_ok", ok, "a writer failed");
}

// Child body: make a pipe with no reader left (mode 0: close our read end;
// mode 1: the only reader is a child that exits) and write to it.
// Exits 0 if the write gave EPIPE, else with the write's errno (or 100+).
static void
epipe_child(long mode)
{
  int p[2], pid, r;

  if (pipe(p) < 0)
    exit(100);
  if (mode == 1) {
    pid = fork();
    if (pid == 0)
      exit(0);          // takes the read end with it
    if (pid < 0 || waitpid(pid, 0, 0) != pid)
      exit(101);
  }
  close(p[0]);
  r = write(p[1], "x", 1);
  exit(r == -EPIPE ? 0 : r < 0 ? -r : 102);
}

#define EPIPE_BIG (256 * 1024)     // more than any pipe holds

// Child body: fill a pipe while a child reads 100 bytes and exits; the
// blocked write must end (short count or EPIPE) instead of hanging.
static void
epipe_blocked(long unused)
{
  int p[2], pid, r;
  char c[100], *big = sbrk(EPIPE_BIG);

  if (is_sbrk_error(big) || pipe(p) < 0)
    exit(100);
  pid = fork();
  if (pid == 0) {
    close(p[1]);
    sleep(5);
    read(p[0], c, sizeof c);
    exit(0);
  }
  close(p[0]);
  r = write(p[1], big, EPIPE_BIG);
  exit(r == -EPIPE || (r > 0 && r < EPIPE_BIG) ? 0 : r < 0 ? -r : 102);
}

// Check an EPIPE child's status: it must have seen EPIPE. (A kernel that
// also raises SIGPIPE, as Linux does, kills it with that: accepted too.)
static void
expect_epipe(const char *check, int st)
{
  if (st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE)
    expect_true(check, 1, 0);
  else
    expect_exit(check, st, 0);
}

// pipeepipe: writing to a pipe whose readers are all gone gives EPIPE.
static void
t_pipeepipe(void)
{
  expect_epipe("reader_closed", in_child(epipe_child, 0));
  expect_epipe("reader_exited", in_child(epipe_child, 1));
  expect_epipe("blocked_writer_woken", in_child(epipe_blocked, 0));
}

// ------------------------------------------------------------ tests: files

// files: create, write, read back, EOF, reopen, overwrite in place without
// changing the size, O_CREAT of an existing file keeps its data.
static void
t_files(void)
{
  struct stat st;
  int fd;

  if (!enter_scratch("/ut_files"))
    return;
  fd = open("f", O_CREAT | O_RDWR);
  if (expect_ok("create", fd)) {
    expect("write", write_pattern(fd, 0, 5000, 1), 5000);
    expect("fstat", fstat(fd, &st), 0);
    expect("size", st.size, 5000);
    expect("type", st.type, T_FILE);
    expect("nlink", st.nlink, 1);
    expect("rewind", lseek(fd, 0, SEEK_SET), 0);
    expect("read", check_pattern(fd, 0, 5000, 1, 8000), 5000);
    expect("eof", read(fd, buf, 10), 0);
    close(fd);
  }
  fd = open("f", O_RDONLY);
  if (expect_ok("reopen", fd)) {
    expect("read_pieces", check_pattern(fd, 0, 5000, 1, 777), 5000);
    close(fd);
  }
  fd = open("f", O_WRONLY);
  if (expect_ok("open_write", fd)) {
    expect("overwrite", write(fd, "XYZ", 3), 3);
    close(fd);
  }
  expect("size_kept", get_file("f", buf2, sizeof buf2), 5000);
  expect_true("overwritten", memcmp(buf2, "XYZ", 3) == 0 && (uchar)buf2[3] == pat(3, 1) &&
              (uchar)buf2[4999] == pat(4999, 1), "file content wrong after overwriting 3 bytes");
  fd = open("f", O_CREAT | O_RDWR);
  if (expect_ok("creat_existing", fd)) {
    expect("creat_keeps_data", fstat(fd, &st) == 0 ? (long)st.size : -1, 5000);
    close(fd);
  }
  leave_scratch("/ut_files");
}

// trunc: O_TRUNC empties a file; blocks written later read back as zeros,
// never as the old data.
static void
t_trunc(void)
{
  struct stat st;
  int fd, stale = 0;

  if (!enter_scratch("/ut_trunc"))
    return;
  fd = open("f", O_CREAT | O_WRONLY);
  if (!need("create", fd))
    goto out;
  need("fill", write_pattern(fd, 0, 20000, 5));
  close(fd);
  fd = open("f", O_RDWR | O_TRUNC);
  if (!expect_ok("open_trunc", fd))
    goto out;
  expect("size_zero", fstat(fd, &st) == 0 ? (long)st.size : -1, 0);
  expect("read_empty", read(fd, buf, 10), 0);
  expect("write", write(fd, "abc", 3), 3);
  expect("seek", lseek(fd, 10000, SEEK_SET), 10000);
  expect("write_far", write(fd, "z", 1), 1);
  expect("size", fstat(fd, &st) == 0 ? (long)st.size : -1, 10001);
  lseek(fd, 0, SEEK_SET);
  expect("read_back", read_all(fd, buf2, 8192), 8192);
  for (int i = 3; i < 8192; i++)
    if (buf2[i] != 0)
      stale++;
  expect("no_stale_data", stale, 0);
  expect_true("head", memcmp(buf2, "abc", 3) == 0, "first bytes are not \"abc\"");
  close(fd);
out:
  leave_scratch("/ut_trunc");
}

// append: O_APPEND writes go to the end whatever the offset, from two fds.
static void
t_append(void)
{
  int fd, fd2;
  char got[32] = "";

  if (!enter_scratch("/ut_append"))
    return;
  need("create", put_file("f", "hello", 5));
  fd = open("f", O_WRONLY | O_APPEND);
  fd2 = open("f", O_RDWR | O_APPEND);
  if (!expect_ok("open", fd) || !expect_ok("open2", fd2))
    goto out;
  lseek(fd, 0, SEEK_SET);
  expect("write", write(fd, " world", 6), 6);
  expect("after_seek", get_file("f", got, sizeof got - 1), 11);
  expect_true("content", memcmp(got, "hello world", 11) == 0, "O_APPEND write did not go to the end");
  write(fd, "1", 1);
  write(fd2, "2", 1);
  write(fd, "3", 1);
  memset(got, 0, sizeof got);
  expect("two_fds", get_file("f", got, sizeof got - 1), 14);
  expect_true("two_fds_content", strcmp(got, "hello world123") == 0, "writes through two O_APPEND fds overlapped");
  expect("offset_at_end", lseek(fd, 0, SEEK_CUR), 14);
  lseek(fd2, 0, SEEK_SET);
  expect("read", read(fd2, got, 5), 5);
  close(fd);
  close(fd2);
out:
  leave_scratch("/ut_append");
}

// lseek: SET/CUR/END, errors leave the offset alone, holes read as zeros,
// reading past the end gives 0.
static void
t_lseek(void)
{
  struct stat st;
  int fd, nz = 0;

  if (!enter_scratch("/ut_lseek"))
    return;
  fd = open("f", O_CREAT | O_RDWR);
  if (!need("create", fd))
    goto out;
  expect("end_empty", lseek(fd, 0, SEEK_END), 0);
  expect("write", write(fd, "0123456789", 10), 10);
  expect("cur", lseek(fd, 0, SEEK_CUR), 10);
  expect("end_minus", lseek(fd, -4, SEEK_END), 6);
  expect("read_at", read(fd, buf, 2), 2);
  expect_true("read_at_data", buf[0] == '6' && buf[1] == '7', "read after lseek got the wrong bytes");
  expect("set", lseek(fd, 3, SEEK_SET), 3);
  expect("negative_cur", lseek(fd, -20, SEEK_CUR), -EINVAL);
  expect("negative_set", lseek(fd, -1, SEEK_SET), -EINVAL);
  expect("negative_end", lseek(fd, -11, SEEK_END), -EINVAL);
  expect("bad_whence", lseek(fd, 0, 7), -EINVAL);
  expect("bad_whence_neg", lseek(fd, 0, -1), -EINVAL);
  expect("offset_kept", lseek(fd, 0, SEEK_CUR), 3);
  expect("hole_seek", lseek(fd, 5000, SEEK_SET), 5000);
  expect("hole_write", write(fd, "Z", 1), 1);
  expect("hole_size", fstat(fd, &st) == 0 ? (long)st.size : -1, 5001);
  expect("far_seek", lseek(fd, 20000, SEEK_SET), 20000);
  expect("far_write", write(fd, "W", 1), 1);
  lseek(fd, 10, SEEK_SET);
  expect("hole_read", read_all(fd, buf2, 8000), 8000);
  for (int i = 0; i < 8000; i++)
    if (buf2[i] != (i == 4990 ? 'Z' : 0))
      nz++;
  lseek(fd, 8010, SEEK_SET);
  expect("hole_read2", read_all(fd, buf, 8000), 8000);
  for (int i = 0; i < 8000; i++)
    if (buf[i] != 0)
      nz++;
  expect("hole_zeros", nz, 0);
  expect("past_end", lseek(fd, 30000, SEEK_SET), 30000);
  expect("read_past_end", read(fd, buf, 10), 0);
  close(fd);
out:
  leave_scratch("/ut_lseek");
}

// openerr: ENOENT, ENOTDIR, EISDIR, EBADF for the wrong direction,
// ENAMETOOLONG (component and whole path), EMFILE on the 17th fd.
static void
t_openerr(void)
{
  static char lp[200];
  char name[DIRSIZ + 2];
  int fd, fds[NOFILE + 2], n = 0, inuse, r = 0;

  if (!enter_scratch("/ut_openerr"))
    return;
  need("create", put_file("f", "data", 4));
  expect("enoent", open("missing", O_RDONLY), -ENOENT);
  expect("enoent_dir", open("nodir/x", O_CREAT | O_RDWR), -ENOENT);
  expect("enotdir", open("f/x", O_RDONLY), -ENOTDIR);
  expect("enotdir_creat", open("f/x", O_CREAT | O_RDWR), -ENOTDIR);
  expect("eisdir_wronly", open(".", O_WRONLY), -EISDIR);
  expect("eisdir_rdwr", open(".", O_RDWR), -EISDIR);
  fd = open(".", O_RDONLY);
  if (expect_ok("dir_rdonly", fd))
    close(fd);

  fd = open("f", O_WRONLY);
  if (need("open_wronly", fd)) {
    expect("read_wronly", read(fd, buf, 4), -EBADF);
    close(fd);
  }
  fd = open("f", O_RDONLY);
  if (need("open_rdonly", fd)) {
    expect("write_rdonly", write(fd, "x", 1), -EBADF);
    close(fd);
  }

  memset(name, 'n', DIRSIZ + 1);
  name[DIRSIZ + 1] = 0;
  expect("long_name", open(name, O_CREAT | O_RDWR), -ENAMETOOLONG);
  name[DIRSIZ] = 0;
  expect("long_name_not_truncated", open(name, O_RDONLY), -ENOENT);
  for (int i = 0; i < (int)sizeof lp - 1; i++)
    lp[i] = i % 2 ? '/' : 'a';           // "a/a/a/..."
  lp[sizeof lp - 1] = 0;
  expect("long_path", open(lp, O_RDONLY), -ENAMETOOLONG);
  lp[MAXPATH] = 0;                        // MAXPATH bytes, no NUL among them
  expect("path_maxpath", open(lp, O_RDONLY), -ENAMETOOLONG);
  lp[MAXPATH - 1] = 0;                    // MAXPATH-1 bytes and the NUL: fits
  expect("path_fits", open(lp, O_RDONLY), -ENOENT);

  inuse = fds_in_use();
  while (n < NOFILE + 2 && (r = open("f", O_RDONLY)) >= 0)
    fds[n++] = r;
  expect("emfile", r, -EMFILE);
  expect("fd_count", n + inuse, NOFILE);
  for (int i = 0; i < n; i++)
    close(fds[i]);
  leave_scratch("/ut_openerr");
}

#define BIGFILE (600 * 1024)

// bigfile: 600 KiB (direct, indirect and doubly-indirect blocks) written,
// read back in odd pieces, and removed.
static void
t_bigfile(void)
{
  struct stat st;
  int fd;

  if (!enter_scratch("/ut_bigfile"))
    return;
  fd = open("big", O_CREAT | O_RDWR);
  if (!need("create", fd))
    goto out;
  expect("write", write_pattern(fd, 0, BIGFILE, 3), BIGFILE);
  expect("size", fstat(fd, &st) == 0 ? (long)st.size : -1, BIGFILE);
  close(fd);
  fd = open("big", O_RDONLY);
  if (need("reopen", fd)) {
    expect("read", check_pattern(fd, 0, BIGFILE, 3, 3000), BIGFILE);
    expect("eof", read(fd, buf, 10), 0);
    expect("seek_doubly", lseek(fd, 400 * 1024 + 17, SEEK_SET), 400 * 1024 + 17);
    expect("read_doubly", check_pattern(fd, 400 * 1024 + 17, 5000, 3, 5000), 5000);
    close(fd);
  }
  expect("unlink", unlink("big"), 0);
  expect("gone", open("big", O_RDONLY), -ENOENT);
out:
  leave_scratch("/ut_bigfile");
}

// maxfile: a file ends at MAXFILE*BSIZE bytes: the last byte can be
// written, one more gives EFBIG; holes in between read as zeros.
static void
t_maxfile(void)
{
  long max = (long)MAXFILE * BSIZE, r;
  struct stat st;
  int fd, nz = 0;
  char c = 0;

  if (!enter_scratch("/ut_maxfile"))
    return;
  fd = open("f", O_CREAT | O_RDWR);
  if (!need("create", fd))
    goto out;
  expect("seek_last", lseek(fd, max - 1, SEEK_SET), max - 1);
  expect("write_last", write(fd, "L", 1), 1);
  expect("size", fstat(fd, &st) == 0 ? (long)st.size : -1, max);
  expect("efbig", write(fd, "M", 1), -EFBIG);
  // Seeking beyond the limit may fail (EINVAL, as on Linux); if it
  // succeeds, the write there must fail with EFBIG.
  r = lseek(fd, max + 4096, SEEK_SET);
  if (r == -EINVAL)
    expect_true("beyond_max", 1, 0);
  else if (expect("seek_beyond", r, max + 4096))
    expect("beyond_max", write(fd, "M", 1), -EFBIG);
  expect("size_kept", fstat(fd, &st) == 0 ? (long)st.size : -1, max);
  lseek(fd, max - 1, SEEK_SET);
  expect("read_last", read(fd, &c, 1), 1);
  expect("last_byte", c, 'L');
  lseek(fd, 300 * 1024 + 5, SEEK_SET);
  expect("read_hole", read(fd, buf, 100), 100);
  for (int i = 0; i < 100; i++)
    if (buf[i] != 0)
      nz++;
  expect("hole_zeros", nz, 0);
  close(fd);
  expect("unlink", unlink("f"), 0);
out:
  leave_scratch("/ut_maxfile");
}

// Check that path reads back as the string want.
static void
expect_content(const char *check, const char *path, const char *want)
{
  char got[64], d[128];
  int n = get_file(path, got, sizeof got - 1);

  got[n > 0 ? n : 0] = 0;
  if (n < 0)
    snprintf(got, sizeof got, "%s", val(n));
  snprintf(d, sizeof d, "%s holds \"%s\", want \"%s\"", path, got, want);
  expect_true(check, n >= 0 && strcmp(got, want) == 0, d);
}

// ------------------------------------------------------------ tests: directories

// dirs: mkdir, EEXIST, nested dirs, chdir down and back with "..",
// "." and ".." inside paths, "/.." is "/", the errors of mkdir and chdir.
static void
t_dirs(void)
{
  struct stat st;
  int fd;

  if (!enter_scratch("/ut_dirs"))
    return;
  expect("mkdir", mkdir("a"), 0);
  expect("eexist", mkdir("a"), -EEXIST);
  expect("mkdir_nested", mkdir("a/b"), 0);
  expect("mkdir_nested2", mkdir("a/b/c"), 0);
  need("create", put_file("a/b/c/f", "deep", 4));
  fd = open("a/b", O_RDONLY);
  if (expect_ok("open_dir", fd)) {
    expect("dir_type", fstat(fd, &st) == 0 ? st.type : -1, T_DIR);
    close(fd);
  }
  expect("chdir_down", chdir("a/b/c"), 0);
  expect_content("relative", "f", "deep");
  expect("chdir_up", chdir("../../.."), 0);
  expect_content("back_up", "a/b/c/f", "deep");
  expect_content("dot_dotdot", "a/./b/../b/c/./f", "deep");
  expect("chdir_root_parent", chdir("/.."), 0);
  expect_content("root_parent_is_root", "ut_dirs/a/b/c/f", "deep");
  expect("chdir_back", chdir("/ut_dirs"), 0);
  expect("chdir_file", chdir("a/b/c/f"), -ENOTDIR);
  expect("chdir_missing", chdir("nope"), -ENOENT);
  expect("mkdir_under_file", mkdir("a/b/c/f/x"), -ENOTDIR);
  expect("mkdir_missing_parent", mkdir("nope/x"), -ENOENT);
  expect("mkdir_file_exists", mkdir("a/b/c/f"), -EEXIST);
  leave_scratch("/ut_dirs");
}

// unlink: files and empty dirs go; ENOENT, ENOTEMPTY, EINVAL for . and ..
static void
t_unlink(void)
{
  if (!enter_scratch("/ut_unlink"))
    return;
  expect("enoent", unlink("missing"), -ENOENT);
  need("create", put_file("f", "x", 1));
  expect("file", unlink("f"), 0);
  expect("file_gone", open("f", O_RDONLY), -ENOENT);
  expect("again", unlink("f"), -ENOENT);
  need("mkdir", mkdir("d"));
  need("create_in_dir", put_file("d/f", "x", 1));
  expect("enotempty", unlink("d"), -ENOTEMPTY);
  expect("dot", unlink("."), -EINVAL);
  expect("dotdot", unlink(".."), -EINVAL);
  expect("dir_dot", unlink("d/."), -EINVAL);
  expect("dir_dotdot", unlink("d/.."), -EINVAL);
  expect("in_dir", unlink("d/f"), 0);
  expect("empty_dir", unlink("d"), 0);
  expect("dir_gone", open("d", O_RDONLY), -ENOENT);
  expect("missing_parent", unlink("nodir/x"), -ENOENT);
  need("create_g", put_file("g", "x", 1));
  expect("enotdir", unlink("g/x"), -ENOTDIR);
  need("mkdir_again", mkdir("d"));
  expect("name_reusable", put_file("d/f", "y", 1), 0);
  leave_scratch("/ut_unlink");
}

// links: link counts via fstat, EEXIST, ENOENT, EPERM for directories,
// rename by link+unlink, an unlinked open file stays readable.
static void
t_links(void)
{
  struct stat sa, sb;
  int fd;

  if (!enter_scratch("/ut_links"))
    return;
  need("create", put_file("a", "data", 4));
  expect("nlink1", stat("a", &sa) == 0 ? sa.nlink : -1, 1);
  expect("link", link("a", "b"), 0);
  expect("nlink2", stat("a", &sa) == 0 ? sa.nlink : -1, 2);
  expect("same_inode", stat("b", &sb) == 0 ? (long)sb.ino : -1, sa.ino);
  expect_content("content_via_link", "b", "data");
  expect("eexist", link("a", "b"), -EEXIST);
  expect("enoent", link("missing", "c"), -ENOENT);
  expect("enoent_dir", link("a", "nodir/c"), -ENOENT);
  need("mkdir", mkdir("d"));
  expect("eperm_dir", link("d", "e"), -EPERM);
  expect("eperm_dot", link(".", "e"), -EPERM);
  expect("rename_link", link("b", "d/moved"), 0);
  expect("rename_unlink", unlink("b"), 0);
  expect("old_name_gone", open("b", O_RDONLY), -ENOENT);
  expect_content("renamed", "d/moved", "data");
  expect("nlink_after_rename", stat("a", &sa) == 0 ? sa.nlink : -1, 2);
  expect("unlink_first", unlink("a"), 0);
  expect("nlink_last", stat("d/moved", &sa) == 0 ? sa.nlink : -1, 1);
  fd = open("d/moved", O_RDONLY);
  if (need("open", fd)) {
    expect("unlink_open", unlink("d/moved"), 0);
    memset(buf, 0, 8);
    expect("read_unlinked", read(fd, buf, 8), 4);
    expect_true("unlinked_data", memcmp(buf, "data", 4) == 0, "open file lost its data when unlinked");
    expect("nlink_zero", fstat(fd, &sa) == 0 ? sa.nlink : -1, 0);
    close(fd);
  }
  leave_scratch("/ut_links");
}

// dirsiz: a name of exactly DIRSIZ characters works (and is stored
// without a NUL); DIRSIZ+1 gives ENAMETOOLONG; a prefix does not match.
static void
t_dirsiz(void)
{
  char name[DIRSIZ + 2], d[DIRSIZ + 1];
  struct dirent de;
  int fd, found = 0;

  if (!enter_scratch("/ut_dirsiz"))
    return;
  for (int i = 0; i < DIRSIZ; i++)
    name[i] = 'a' + i % 26;
  name[DIRSIZ] = 0;
  expect("create", put_file(name, "full", 4), 0);
  expect_content("open", name, "full");
  fd = open(".", O_RDONLY);
  if (need("open_dir", fd)) {
    while (read(fd, &de, sizeof de) == sizeof de)
      if (de.inum != 0 && memcmp(de.name, name, DIRSIZ) == 0)
        found++;
    close(fd);
  }
  expect("in_dir", found, 1);
  memcpy(d, name, DIRSIZ - 1);
  d[DIRSIZ - 1] = 0;
  expect("prefix_no_match", open(d, O_RDONLY), -ENOENT);
  name[DIRSIZ] = 'z';
  name[DIRSIZ + 1] = 0;
  expect("too_long", open(name, O_RDONLY), -ENAMETOOLONG);
  expect("too_long_creat", open(name, O_CREAT | O_RDWR), -ENAMETOOLONG);
  expect("too_long_mkdir", mkdir(name), -ENAMETOOLONG);
  name[DIRSIZ] = 0;
  expect("unlink", unlink(name), 0);
  expect("mkdir_full", mkdir(name), 0);
  expect("chdir_full", chdir(name), 0);
  expect("chdir_back", chdir(".."), 0);
  leave_scratch("/ut_dirsiz");
}

// readdir: a directory reads as struct dirent records: "." and ".." with
// the right inode numbers and one record per name; unlinked names vanish.
static void
t_readdir(void)
{
  struct stat sdir, sroot, sf;
  struct dirent de;
  char name[DIRSIZ + 1], fname[8], d[96];
  int fd, n, found = 0, extra = 0, dot = -1, dotdot = -1, f0 = -1, f2 = 0;

  if (!enter_scratch("/ut_readdir"))
    return;
  for (int i = 0; i < 5; i++) {
    snprintf(fname, sizeof fname, "f%d", i);
    need("create", put_file(fname, "x", 1));
  }
  need("mkdir", mkdir("sub"));
  if (!need("stat_dot", stat(".", &sdir)) || !need("stat_root", stat("/", &sroot)) ||
      !need("stat_f0", stat("f0", &sf)))
    goto out;
  fd = open(".", O_RDONLY);
  if (!need("open", fd))
    goto out;
  expect("size_multiple", sdir.size % sizeof(struct dirent), 0);
  while ((n = read(fd, &de, sizeof de)) == sizeof de) {
    if (de.inum == 0)
      continue;
    dename(&de, name);
    if (strcmp(name, ".") == 0)
      dot = de.inum;
    else if (strcmp(name, "..") == 0)
      dotdot = de.inum;
    else if (strcmp(name, "sub") == 0)
      found |= 1 << 5;
    else if (name[0] == 'f' && name[1] >= '0' && name[1] <= '4' && name[2] == 0) {
      found |= 1 << (name[1] - '0');
      if (name[1] == '0')
        f0 = de.inum;
    } else
      extra++;
  }
  close(fd);
  expect("record_size", n, 0);
  snprintf(d, sizeof d, "names found: mask 0x%x, want 0x3f", found);
  expect_true("all_names", found == 0x3f, d);
  expect("no_extra", extra, 0);
  expect("dot_inode", dot, sdir.ino);
  expect("dotdot_inode", dotdot, sroot.ino);
  expect("file_inode", f0, sf.ino);
  need("unlink", unlink("f2"));
  fd = open(".", O_RDONLY);
  if (need("reopen", fd)) {
    while (read(fd, &de, sizeof de) == sizeof de)
      if (de.inum != 0 && memcmp(de.name, "f2", 3) == 0)
        f2++;
    close(fd);
  }
  expect("unlinked_gone", f2, 0);
out:
  leave_scratch("/ut_readdir");
}

#define CC_PROCS 4
#define CC_FILES 12

// Child body: create CC_FILES files p<id>_<j>, each holding its own name.
static void
cc_create(long id)
{
  char name[16];
  int fd, len;

  for (int j = 0; j < CC_FILES; j++) {
    snprintf(name, sizeof name, "p%ld_%d", id, j);
    len = strlen(name) + 1;
    fd = open(name, O_CREAT | O_RDWR);
    if (fd < 0)
      exit(10);
    if (write(fd, name, len) != len)
      exit(11);
    close(fd);
  }
  exit(0);
}

// Child body: create and unlink the same five names as its siblings.
static void
cc_race(long id)
{
  char name[8];
  int fd, r;

  for (int i = 0; i < 40; i++) {
    snprintf(name, sizeof name, "s%d", i % 5);
    if ((i + id) % 3) {
      fd = open(name, O_CREAT | O_RDWR);
      if (fd < 0)
        exit(20);
      write(fd, "x", 1);
      close(fd);
    } else {
      r = unlink(name);
      if (r < 0 && r != -ENOENT)
        exit(21);
    }
  }
  exit(0);
}

// Start CC_PROCS children running fn(id); return 1 if all exit 0.
static int
cc_run(void (*fn)(long))
{
  int pids[CC_PROCS], st, ok = 1;

  for (int id = 0; id < CC_PROCS; id++) {
    pids[id] = tfork();
    if (pids[id] == 0)
      fn(id);
  }
  for (int id = 0; id < CC_PROCS; id++)
    if (pids[id] < 0 || reap_or_kill(pids[id], &st, 10 * HZ) != pids[id] || st != 0)
      ok = 0;
  return ok;
}

// concreate: four processes create distinct files in one directory at
// once; all arrive intact. Then they race creating and unlinking the
// same names; the directory stays consistent.
static void
t_concreate(void)
{
  char name[16], got[16];
  struct stat st;
  int good = 0, bad = 0, r;

  if (!enter_scratch("/ut_cc"))
    return;
  expect_true("create_children", cc_run(cc_create), "a creating child failed");
  for (int id = 0; id < CC_PROCS; id++)
    for (int j = 0; j < CC_FILES; j++) {
      snprintf(name, sizeof name, "p%d_%d", id, j);
      if (get_file(name, got, sizeof got) == (int)strlen(name) + 1 && strcmp(got, name) == 0)
        good++;
    }
  expect("files", good, CC_PROCS * CC_FILES);
  expect("entries", count_entries("."), CC_PROCS * CC_FILES);
  good = 0;
  for (int id = 0; id < CC_PROCS; id++)
    for (int j = 0; j < CC_FILES; j++) {
      snprintf(name, sizeof name, "p%d_%d", id, j);
      if (unlink(name) == 0)
        good++;
    }
  expect("unlinked", good, CC_PROCS * CC_FILES);
  expect_true("race_children", cc_run(cc_race), "a racing child got an unexpected error");
  for (int i = 0; i < 5; i++) {
    snprintf(name, sizeof name, "s%d", i);
    r = stat(name, &st);
    if (r == 0 && (st.type != T_FILE || st.nlink != 1))
      bad++;
    if (r < 0 && r != -ENOENT)
      bad++;
    unlink(name);
  }
  expect("race_consistent", bad, 0);
  expect("empty", count_entries("."), 0);
  leave_scratch("/ut_cc");
}

// mknod: makes a device node; EEXIST over any existing name; unlinkable.
static void
t_mknod(void)
{
  if (!enter_scratch("/ut_mknod"))
    return;
  expect("create", mknod("dev", 1, 7), 0);
  expect("eexist", mknod("dev", 1, 7), -EEXIST);
  need("create_file", put_file("f", "x", 1));
  expect("eexist_file", mknod("f", 1, 7), -EEXIST);
  expect("eexist_dir", mknod(".", 1, 7), -EEXIST);
  expect("entries", count_entries("."), 2);
  expect("unlink", unlink("dev"), 0);
  expect("gone", unlink("dev"), -ENOENT);
  leave_scratch("/ut_mknod");
}

// ------------------------------------------------------------ tests: fds

// dup: the copy shares the offset; closing one leaves the other; fork
// shares offsets too; EBADF for bad fds, EMFILE when the table is full.
static void
t_dup(void)
{
  int fd, fd2, fds[NOFILE + 2], n = 0, r = 0, pid, st = -1, inuse, p[2];
  char got[32] = "";

  if (!enter_scratch("/ut_dup"))
    return;
  fd = open("f", O_CREAT | O_RDWR);
  if (!need("create", fd))
    goto out;
  fd2 = dup(fd);
  expect_true("dup", fd2 >= 0 && fd2 != fd, "dup failed or returned the same fd");
  write(fd, "ab", 2);
  write(fd2, "cd", 2);
  expect("shared_offset", lseek(fd, 0, SEEK_CUR), 4);
  expect("close_original", close(fd), 0);
  expect("copy_works", write(fd2, "e", 1), 1);
  expect("close_twice", close(fd), -EBADF);
  expect_content("content", "f", "abcde");

  pid = tfork();
  if (pid == 0) {
    exit(write(fd2, "child", 5) == 5 ? 0 : 1);
  }
  expect("fork_child", waitpid(pid, &st, 0) == pid && st == 0, 1);
  write(fd2, "parent", 6);
  expect_content("fork_shared_offset", "f", "abcdechildparent");
  close(fd2);

  expect("bad_neg", dup(-1), -EBADF);
  expect("bad_big", dup(NOFILE), -EBADF);
  expect("bad_closed", dup(fd2), -EBADF);
  inuse = fds_in_use();
  fd = open("f", O_RDONLY);
  if (need("reopen", fd)) {
    while (n < NOFILE + 2 && (r = dup(fd)) >= 0)
      fds[n++] = r;
    expect("emfile", r, -EMFILE);
    expect("fd_count", n + 1 + inuse, NOFILE);
    for (int i = 0; i < n; i++)
      close(fds[i]);
    close(fd);
  }

  if (need("pipe", pipe(p))) {
    fd = dup(p[1]);
    close(p[1]);
    expect("dup_pipe_write", write(fd, "z", 1), 1);
    close(fd);
    expect("dup_pipe_read", read(p[0], got, 5), 1);
    expect("dup_pipe_eof", read(p[0], got, 5), 0);
    close(p[0]);
  }
out:
  leave_scratch("/ut_dup");
}

// fdleak: 1000 opens and closes hand back the same fd every time (and
// need far more than NFILE file slots); 200 pipes leave no fds or pages.
static void
t_fdleak(void)
{
  int first, fd, bad = 0, inuse, p[2];
  long free0;

  if (!enter_scratch("/ut_fdleak"))
    return;
  need("create", put_file("f", "x", 1));
  inuse = fds_in_use();
  first = open("f", O_RDONLY);
  close(first);
  for (int i = 0; i < 1000 && !bad; i++) {
    fd = open("f", O_RDONLY);
    if (fd != first)
      bad = i + 1;
    close(fd);
  }
  expect("open_close_1000", bad, 0);
  free0 = freemem();
  bad = 0;
  for (int i = 0; i < 200 && !bad; i++) {
    if (pipe(p) < 0)
      bad = i + 1;
    close(p[0]);
    close(p[1]);
  }
  expect("pipes_200", bad, 0);
  expect("pipe_pages", freemem(), free0);
  expect("fds", fds_in_use(), inuse);
  leave_scratch("/ut_fdleak");
}

// ------------------------------------------------------------ tests: memory

// Return 1 if the n bytes at p are all zero.
static int
all_zero(const char *p, long n)
{
  for (long i = 0; i < n; i++)
    if (p[i])
      return 0;
  return 1;
}

static char *sbrk_area;         // what sbrk_fork_child checks
// Child body: check that the 3 pages at sbrk_area hold 0xab.
static void
sbrk_fork_child(long unused)
{
  for (int i = 0; i < 3 * PGSIZE; i++)
    if ((uchar)sbrk_area[i] != 0xab)
      exit(1);
  exit(0);
}

// sbrk: growing returns the old break and gives zeroed memory, also after
// shrinking and growing again (whole or part of a page); fork copies the
// heap; odd sizes; a larger area is usable page by page.
static void
t_sbrk(void)
{
  char *a = align_brk(), *p, *q;
  long big = 8L << 20;
  int bad = 0;

  p = sbrk(3 * PGSIZE);
  expect("grow_returns_old", (long)p, (long)a);
  expect("break_moved", (long)sbrk(0), (long)(a + 3 * PGSIZE));
  if (is_sbrk_error(p))
    return;
  expect_true("zeroed", all_zero(p, 3 * PGSIZE), "new sbrk memory is not zero");
  memset(p, 0xab, 3 * PGSIZE);
  sbrk_area = p;
  expect_exit("fork_copies_heap", in_child(sbrk_fork_child, 0), 0);
  expect("shrink_returns_old", (long)sbrk(-3 * PGSIZE), (long)(a + 3 * PGSIZE));
  expect("break_back", (long)sbrk(0), (long)a);
  p = sbrk(3 * PGSIZE);
  expect("regrow", (long)p, (long)a);
  if (is_sbrk_error(p))
    return;
  expect_true("zeroed_after_regrow", all_zero(p, 3 * PGSIZE), "memory from sbrk after a shrink is not zero");
  memset(p, 0xcd, 3 * PGSIZE);
  sbrk(-(PGSIZE + 100));
  sbrk(PGSIZE + 100);
  expect_true("zeroed_partial_page", all_zero(p + 2 * PGSIZE - 100, PGSIZE + 100),
              "bytes given back by sbrk(-n) and regrown are not zero");
  sbrk(-3 * PGSIZE);

  q = sbrk(0);
  expect("odd_grow", (long)sbrk(1), (long)q);
  expect("odd_break", (long)sbrk(0), (long)(q + 1));
  q[0] = 7;
  expect("odd_shrink", (long)sbrk(-1), (long)(q + 1));

  p = sbrk(big);
  if (!expect_true("large", !is_sbrk_error(p), "sbrk of 8 MiB failed"))
    return;
  for (long i = 0; i < big; i += PGSIZE)
    p[i] = (char)(i / PGSIZE + 1);
  for (long i = 0; i < big && !bad; i += PGSIZE)
    if (p[i] != (char)(i / PGSIZE + 1) || p[i + 1] != 0)
      bad = 1;
  expect("large_usable", bad, 0);
  expect("large_shrink", (long)sbrk(-big), (long)(p + big));
}

// sbrkoom: asking for more than free memory gives ENOMEM, the break stays,
// and the process (and the kernel) go on working.
static void
t_sbrkoom(void)
{
  char *a = sbrk(0), *r;
  char d[96];

  r = sbrk(1L << 40);
  snprintf(d, sizeof d, "sbrk(1 TiB) returned %p, want -ENOMEM", r);
  expect_true("huge", (long)r == -ENOMEM, d);
  expect("break_kept", (long)sbrk(0), (long)a);
  r = sbrk((freemem() + 64) * PGSIZE);
  snprintf(d, sizeof d, "sbrk(free memory + 64 pages) returned %p, want -ENOMEM", r);
  expect_true("beyond_free", (long)r == -ENOMEM, d);
  expect("break_kept2", (long)sbrk(0), (long)a);
  r = sbrk(PGSIZE);
  if (expect_true("usable", !is_sbrk_error(r), "sbrk(4096) failed after ENOMEM")) {
    r[0] = 1;
    r[PGSIZE - 1] = 2;
    sbrk(-PGSIZE);
  }
  expect_exit("fork_after", in_child(exit_with, 0), 0);
}

static volatile long fault_at;  // the address the fault children use

// Fault child bodies: each should be killed before reaching exit(0).
// f_write: store an int at fault_at.
__attribute__((noinline)) static void
f_write(long unused)
{
  *(volatile int *)fault_at = 1;
  exit(0);
}

// f_read: load an int from fault_at.
__attribute__((noinline)) static void
f_read(long unused)
{
  (void)*(volatile int *)fault_at;
  exit(0);
}

// f_call: jump to fault_at.
__attribute__((noinline)) static void
f_call(long unused)
{
  ((void (*)(void))fault_at)();
  exit(0);
}

// f_illegal: execute an illegal instruction.
__attribute__((noinline)) static void
f_illegal(long unused)
{
#if defined(__riscv)
  asm volatile(".word 0");
#elif defined(__x86_64__)
  asm volatile("ud2");
#endif
  exit(0);
}

#if defined(__riscv)
// f_privileged: read a supervisor CSR from user mode.
__attribute__((noinline)) static void
f_privileged(long unused)
{
  long x;

  asm volatile("csrr %0, sstatus" : "=r"(x));
  exit(0);
}
#elif defined(__x86_64__)
// f_fpu: an x87 instruction (mode 0) or an SSE one (mode 1): tasklab keeps
// no FPU state for tasks, so both trap (SIGILL) instead of leaking state.
__attribute__((noinline)) static void
f_fpu(long mode)
{
  if (mode)
    asm volatile(".byte 0x0f, 0x57, 0xc0");   // xorps %xmm0, %xmm0
  else
    asm volatile("fninit");
  exit(0);
}

// f_privileged: halt the CPU from user mode (a #GP: SIGSEGV, as on Linux).
__attribute__((noinline)) static void
f_privileged(long unused)
{
  asm volatile("hlt");
  exit(0);
}
#endif

// Recurse n deep with a 512-byte frame each (not a tail call).
__attribute__((noinline)) static long
recurse(long n)
{
  volatile char frame[512];

  frame[0] = (char)n;
  if (n == 0)
    return frame[0];
  return recurse(n - 1) + frame[0];
}

// Fault child body: overflow the 16 KiB stack many times over.
static void
f_recurse(long unused)
{
  recurse(1000);
  exit(0);
}

// Run fault child fn with fault_at = addr; check it dies of signal sig.
static void
expect_fault(const char *check, void (*fn)(long), ulong addr, int sig)
{
  fault_at = (long)addr;
  expect_signal(check, in_child(fn, 0), sig);
}

// sbrkfault: memory given back with sbrk(-n), or beyond the break, faults.
static void
t_sbrkfault(void)
{
  char *a = align_brk(), *p;

  p = sbrk(2 * PGSIZE);
  if (is_sbrk_error(p))
    return;
  p[0] = 1;
  p[PGSIZE + 5] = 1;
  sbrk(-2 * PGSIZE);
  expect_fault("read_after_shrink", f_read, (ulong)p, SIGSEGV);
  expect_fault("write_after_shrink", f_write, (ulong)(p + PGSIZE + 4), SIGSEGV);
  expect_fault("beyond_break", f_read, (ulong)(a + 16 * PGSIZE), SIGSEGV);
  p = sbrk(PGSIZE);
  expect_true("regrow_zero", !is_sbrk_error(p) && all_zero(p, PGSIZE), "regrown page is not zero");
}

// faults: NULL, kernel and non-canonical addresses, writes to text and
// rodata, the page below the stack, a stack overflow kill with SIGSEGV;
// an illegal or privileged instruction with SIGILL.
static void
t_faults(void)
{
  static const char ro[] = "read-only";

  expect_fault("null_write", f_write, 0, SIGSEGV);
  expect_fault("null_read", f_read, 0, SIGSEGV);
  expect_fault("null_call", f_call, 0, SIGSEGV);
  expect_fault("page0_read", f_read, 0x800, SIGSEGV);
  expect_fault("kernel_read", f_read, 0x80000000UL, SIGSEGV);
  expect_fault("kernel_write", f_write, 0x80000000UL, SIGSEGV);
  expect_fault("high_read", f_read, 0xffffffffffff0000UL, SIGSEGV);
  expect_fault("text_write", f_write, (ulong)&f_write, SIGSEGV);
  expect_fault("rodata_write", f_write, (ulong)ro, SIGSEGV);
  fault_at = (long)(initial_brk - USTACK);
  expect_exit("stack_bottom_mapped", in_child(f_read, 0), 0);
  expect_fault("below_stack", f_read, (ulong)(initial_brk - USTACK - 8), SIGSEGV);
  expect_signal("stack_overflow", in_child(f_recurse, 0), SIGSEGV);
  expect_fault("illegal_instruction", f_illegal, 0, SIGILL);
#if defined(__riscv)
  expect_fault("privileged_instruction", f_privileged, 0, SIGILL);
#elif defined(__x86_64__)
  expect_fault("privileged_instruction", f_privileged, 0, SIGSEGV);
  expect_signal("x87_instruction", in_child(f_fpu, 0), SIGILL);
  expect_signal("sse_instruction", in_child(f_fpu, 1), SIGILL);
#endif
}

// ------------------------------------------------------------ tests: signal frames

// Where the interrupted pc sits in the kernel's signal frame (the frame
// starts with the user registers, in the arch's user_regs_struct order),
// and an address in the kernel half.
#if defined(__x86_64__)
#define FRAME_PC     16         // r15 ... orig_rax, then rip
#define FRAME_CS     17
#define FRAME_EFLAGS 18
#define FRAME_SS     20
#define KERNEL_PC    0xffffffff80100000UL
#else
#define FRAME_PC     0          // pc, then x1..x31
#define KERNEL_PC    0xffffffc080000000UL
#endif

static volatile long sf_mode;

// SIGUSR1 handler for f_sigframe: forge the frame rt_sigreturn will read.
static void
sf_handler(int sig, long unused, ulong *frame)
{
  if (sf_mode == 1)
    frame[FRAME_PC] = KERNEL_PC;
#if defined(__x86_64__)
  if (sf_mode == 2) {
    frame[FRAME_CS] = 0x08;                  // the kernel's code segment
    frame[FRAME_SS] = 0x10;
    frame[FRAME_EFLAGS] |= 0x3000 | 0x4000;  // IOPL 3, NT
  }
#endif
}

// Child body: take SIGUSR1 with sf_handler in mode `mode`, then report
// (exit 0) that user mode resumed with user privileges only.
static void
f_sigframe(long mode)
{
  struct sigaction sa = { (void (*)(int))sf_handler, 0, 0 };

  sf_mode = mode;
  sigaction(SIGUSR1, &sa, 0);
  raise(SIGUSR1);
#if defined(__x86_64__)
  ulong fl, cs, ss;
  asm volatile("pushfq; popq %0; movq %%cs, %1; movq %%ss, %2" : "=r"(fl), "=r"(cs), "=r"(ss));
  if ((fl & 0x7000) || (cs & 3) != 3 || (ss & 3) != 3)
    exit(1);
#endif
  exit(0);
}

// sigframe: rt_sigreturn takes only user state from the frame on the
// user stack: a kernel pc kills the process (SIGSEGV, not the kernel);
// on x86_64 forged CS, SS, IOPL and NT are ignored.
static void
t_sigframe(void)
{
  expect_exit("plain", in_child(f_sigframe, 0), 0);
  expect_signal("kernel_pc", in_child(f_sigframe, 1), SIGSEGV);
#if defined(__x86_64__)
  expect_exit("privileged_state", in_child(f_sigframe, 2), 0);
#endif
}

// ------------------------------------------------------------ tests: signals, time

static volatile long spin_count;

// Child body: spin in user mode forever.
static void
k_spin(long unused)
{
  for (;;)
    spin_count++;
}

// Start fn(arg) in a child, wait a little, send sig, and check the child
// dies of it within 3 s. check names the case.
static void
kill_case(const char *check, void (*fn)(long), long arg, int sig)
{
  char c2[48];
  int pid, st = -1, r;

  pid = tfork();
  if (pid == 0) {
    fn(arg);
    exit(0);
  }
  if (!need(check, pid))
    return;
  sleep(3);
  snprintf(c2, sizeof c2, "%s_kill", check);
  expect(c2, kill(pid, sig), 0);
  r = reap_or_kill(pid, &st, 3 * HZ);
  snprintf(c2, sizeof c2, "%s_died", check);
  if (expect(c2, r, pid))
    expect_signal(check, st, sig);
}

// Child body: sleep for ticks.
static void
k_sleep(long ticks)
{
  sleep(ticks);
}

// Child body: block reading pipe end rd.
static void
k_read(long rd)
{
  char c;

  read(rd, &c, 1);
}

// kill: a sleeping, a blocked and a running child each die of the signal
// sent, promptly; ESRCH, EINVAL, and signal 0 only checks.
static void
t_kill(void)
{
  int p[2], pid, st;

  kill_case("sleeping", k_sleep, 1000, SIGTERM);
  if (need("pipe", pipe(p))) {
    kill_case("blocked_read", k_read, p[0], SIGKILL);
    close(p[0]);
    close(p[1]);
  }
  kill_case("running", k_spin, 0, SIGUSR1);
  kill_case("signal_64", k_spin, 0, 64);

  expect("esrch", kill(99999, SIGTERM), -ESRCH);
  expect("esrch_sig0", kill(99999, 0), -ESRCH);
  expect("self_sig0", kill(getpid(), 0), 0);
  pid = tfork();
  if (pid == 0) {
    sleep(1000);
    exit(0);
  }
  expect("einval_neg", kill(pid, -1), -EINVAL);
  expect("einval_65", kill(pid, 65), -EINVAL);
  expect("sig0_alive", kill(pid, 0), 0);
  expect("still_running", waitpid(pid, &st, WNOHANG), 0);
  kill(pid, SIGKILL);
  reap_or_kill(pid, &st, 3 * HZ);
}

// sleep: EINVAL for negative ticks; sleep(0) returns; sleep(n) takes at
// least n ticks by uptime, and not much more.
static void
t_sleep(void)
{
  int t0, t1;
  char d[64];

  expect("negative", sleep(-1), -EINVAL);
  expect("zero", sleep(0), 0);
  t0 = uptime();
  expect("five", sleep(5), 0);
  t1 = uptime();
  snprintf(d, sizeof d, "sleep(5) took %d ticks", t1 - t0);
  expect_true("duration", t1 - t0 >= 5 && t1 - t0 < 5 + 2 * HZ, d);
  expect_true("uptime", t0 > 0 && t1 >= t0, "uptime is not positive and increasing");
}

// ------------------------------------------------------------ tests: bad arguments

static int bp_rfd = -1, bp_wfd = -1;    // a file with data; a file to write
static char *bp_argv[] = { PROBE, 0 };

// Run an exec child and turn its status into exec's return value.
static long
bp_exec(const char *path, char **argv)
{
  int st = try_exec(path, argv);

  if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) >= 1 && WEXITSTATUS(st) <= EMAXERRNO)
    return -WEXITSTATUS(st);
  return 1000 + st;     // 1000 + wait status: exec succeeded or the child died
}

// One wrapper per system call; p is the pointer argument under test.
static long bp_read(void *p) { lseek(bp_rfd, 0, SEEK_SET); return read(bp_rfd, p, 64); }
static long bp_write(void *p) { return write(bp_wfd, p, 64); }
static long bp_write_console(void *p) { return write(STDOUT, p, 64); }
static long bp_fstat(void *p) { return fstat(bp_rfd, p); }
static long bp_pipe(void *p) { return pipe(p); }
static long bp_open(void *p) { return open(p, O_RDONLY); }
static long bp_creat(void *p) { return open(p, O_CREAT | O_RDWR); }
static long bp_mkdir(void *p) { return mkdir(p); }
static long bp_chdir(void *p) { return chdir(p); }
static long bp_unlink(void *p) { return unlink(p); }
static long bp_mknod(void *p) { return mknod(p, 1, 7); }
static long bp_link_old(void *p) { return link(p, "bp_new"); }
static long bp_link_new(void *p) { return link("bp_file", p); }
static long bp_exec_path(void *p) { return bp_exec(p, bp_argv); }
static long bp_exec_argv(void *p) { return bp_exec(SELF, p); }

// read and write through a fresh pipe holding 64 bytes.
static long
bp_pipe_io(void *p, int wr)
{
  int q[2];
  long r;

  if (pipe(q) < 0)
    return 2000;
  write(q[1], buf2, 64);
  r = wr ? write(q[1], p, 64) : read(q[0], p, 64);
  close(q[0]);
  close(q[1]);
  return r;
}
// The pipe cases of the badptr table.
static long bp_read_pipe(void *p) { return bp_pipe_io(p, 0); }
static long bp_write_pipe(void *p) { return bp_pipe_io(p, 1); }

// waitpid with a bad status pointer, on a child that has exited; the child
// is reaped afterwards either way.
static long
bp_waitpid(void *p)
{
  int pid = tfork(), st;
  long r;

  if (pid == 0)
    exit(7);
  if (pid < 0)
    return 3000;
  r = waitpid(pid, p, 0);
  waitpid(pid, &st, 0);
  return r;
}

// exec with an argv whose second element is p.
static long
bp_exec_arg(void *p)
{
  static char *av[3];

  av[0] = PROBE;
  av[1] = p;
  av[2] = 0;
  return bp_exec(SELF, av);
}

// The system calls that take a pointer; span: bytes they access at it;
// null_ok: NULL is legal there (waitpid's status; an argv element, where
// it ends the list), so it is not tried.
static const struct badcall {
  const char *name;
  long (*call)(void *p);
  int span;
  int null_ok;
} badcalls[] = {
  { "read", bp_read, 64, 0 },
  { "read_pipe", bp_read_pipe, 64, 0 },
  { "write", bp_write, 64, 0 },
  { "write_pipe", bp_write_pipe, 64, 0 },
  { "write_console", bp_write_console, 64, 0 },
  { "fstat", bp_fstat, sizeof(struct stat), 0 },
  { "pipe", bp_pipe, 2 * sizeof(int), 0 },
  { "waitpid", bp_waitpid, sizeof(int), 1 },
  { "open", bp_open, 2, 0 },
  { "open_creat", bp_creat, 2, 0 },
  { "mkdir", bp_mkdir, 2, 0 },
  { "chdir", bp_chdir, 2, 0 },
  { "unlink", bp_unlink, 2, 0 },
  { "mknod", bp_mknod, 2, 0 },
  { "link_old", bp_link_old, 2, 0 },
  { "link_new", bp_link_new, 2, 0 },
  { "exec_path", bp_exec_path, 2, 0 },
  { "exec_argv", bp_exec_argv, 2 * sizeof(char *), 0 },
  { "exec_arg", bp_exec_arg, 2, 1 },
};

// badptr: every system call taking a pointer, given NULL, a kernel address,
// a non-canonical address and a pointer to the last mapped byte (for
// accesses longer than 1 byte), fails with EFAULT, leaks no fd, and the
// kernel keeps running. Also: read must not write into read-only text.
static void
t_badptr(void)
{
  struct { const char *name; void *addr; } addrs[4] = {
    { "null", BAD_NULL }, { "kernel", BAD_KERN }, { "high", BAD_HIGH }, { "end", 0 },
  };
  char check[48], *end;
  int inuse, fd;

  if (!enter_scratch("/ut_badptr"))
    return;
  memset(buf2, 'd', 100);
  need("create", put_file("bp_file", buf2, 100));
  bp_rfd = open("bp_file", O_RDONLY);
  bp_wfd = open("bp_out", O_CREAT | O_WRONLY);
  if (!need("open", bp_rfd) || !need("open_out", bp_wfd))
    goto out;
  end = align_brk();
  if (is_sbrk_error(sbrk(PGSIZE)))
    goto out;
  end = sbrk(0);
  end[-1] = 'a';                // a string that runs off the end of memory
  addrs[3].addr = end - 1;
  inuse = fds_in_use();
  for (int i = 0; i < (int)(sizeof badcalls / sizeof badcalls[0]); i++)
    for (int j = 0; j < 4; j++) {
      if ((j == 3 && badcalls[i].span < 2) || (j == 0 && badcalls[i].null_ok))
        continue;
      end[-1] = 'a';            // a faulty partial copy may have changed it
      snprintf(check, sizeof check, "%s_%s", badcalls[i].name, addrs[j].name);
      expect(check, badcalls[i].call(addrs[j].addr), -EFAULT);
    }
  expect("read_span_end", bp_read(end - 10), -EFAULT);
  expect("fds_not_leaked", fds_in_use(), inuse);
  expect("nothing_created", count_entries("."), 2);

  // Read code bytes over the code itself: the text is read-only.
  fd = open("code", O_CREAT | O_RDWR);
  if (need("code", fd)) {
    write(fd, (void *)&f_read, 16);
    lseek(fd, 0, SEEK_SET);
    expect("read_into_text", read(fd, (void *)&f_read, 16), -EFAULT);
    close(fd);
  }
  expect("still_alive", getppid() > 0, 1);
out:
  close(bp_rfd);
  close(bp_wfd);
  leave_scratch("/ut_badptr");
}

// Calls that take an fd, for the badfd table.
static long bf_read(int fd) { return read(fd, buf, 1); }
static long bf_write(int fd) { return write(fd, buf, 1); }
static long bf_close(int fd) { return close(fd); }
static long bf_fstat(int fd) { struct stat st; return fstat(fd, &st); }
static long bf_dup(int fd) { return dup(fd); }
static long bf_lseek(int fd) { return lseek(fd, 0, SEEK_SET); }

static const struct { const char *name; long (*call)(int fd); } badfdcalls[] = {
  { "read", bf_read }, { "write", bf_write }, { "close", bf_close },
  { "fstat", bf_fstat }, { "dup", bf_dup }, { "lseek", bf_lseek },
};

// badfd: every call taking an fd, given -1, NOFILE, 1000 and a closed fd,
// fails with EBADF; read and write of a negative count give EINVAL.
static void
t_badfd(void)
{
  struct { const char *name; int fd; } fds[4] = {
    { "neg", -1 }, { "nofile", NOFILE }, { "big", 1000 }, { "closed", -1 },
  };
  char check[48];
  int fd, p[2];

  fd = open("/", O_RDONLY);
  if (!need("open", fd))
    return;
  close(fd);
  fds[3].fd = fd;
  for (int i = 0; i < (int)(sizeof badfdcalls / sizeof badfdcalls[0]); i++)
    for (int j = 0; j < 4; j++) {
      snprintf(check, sizeof check, "%s_%s", badfdcalls[i].name, fds[j].name);
      expect(check, badfdcalls[i].call(fds[j].fd), -EBADF);
    }
  if (need("pipe", pipe(p))) {
    write(p[1], "abc", 3);
    expect("read_negative", read(p[0], buf, -1), -EINVAL);
    expect("write_negative", write(p[1], buf, -1), -EINVAL);
    expect("read_zero", read(p[0], buf, 0), 0);
    expect("data_kept", read(p[0], buf, 10), 3);
    close(p[0]);
    close(p[1]);
  }
}

#if defined(__riscv)
// Issue system call number nr with zero arguments.
static long
raw_syscall(long nr)
{
  register long a0 asm("a0") = 0;
  register long a7 asm("a7") = nr;

  asm volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
  return a0;
}
#elif defined(__x86_64__)
// Issue system call number nr with zero arguments.
static long
raw_syscall(long nr)
{
  long ret;

  asm volatile("syscall" : "=a"(ret) : "a"(nr), "D"(0L) : "rcx", "r11", "memory");
  return ret;
}
#endif

#if defined(__riscv) || defined(__x86_64__)

// nosys: system call numbers outside the table give ENOSYS.
static void
t_nosys(void)
{
  expect("zero", raw_syscall(0), -ENOSYS);
  expect("large", raw_syscall(9999), -ENOSYS);
  expect("negative", raw_syscall(-1), -ENOSYS);
}
#endif

// diskfull (slow, only when named): writing until the disk is full ends
// with a short write or ENOSPC, then ENOSPC; unlinking gives the space back.
static void
t_diskfull(void)
{
  struct stat st;
  long total = 0, r = 0;
  int fd;

  if (!enter_scratch("/ut_diskfull"))
    return;
  fd = open("fill", O_CREAT | O_WRONLY);
  if (!expect_ok("create", fd))
    goto out;
  memset(buf, 'F', 4096);
  while (total < 40L << 20 && (r = write(fd, buf, 4096)) == 4096)
    total += r;
  if (r > 0 && r < 4096) {
    total += r;
    r = write(fd, buf, 4096);
  }
  expect("enospc", r, -ENOSPC);
  expect("enospc_again", write(fd, buf, 1), -ENOSPC);
  expect_true("filled", total > 16L << 20, "the disk filled up before 16 MiB");
  expect("size", fstat(fd, &st) == 0 ? (long)st.size : -1, total);
  close(fd);
  expect("unlink", unlink("fill"), 0);
  fd = open("again", O_CREAT | O_RDWR);
  if (need("create_again", fd)) {
    expect("space_back", write_pattern(fd, 0, 1L << 20, 9), 1L << 20);
    close(fd);
  }
out:
  leave_scratch("/ut_diskfull");
}

// ------------------------------------------------------------ the tests

static const struct test tests[] = {
  { "fork", t_fork, 0, 0 },
  { "exitstatus", t_exitstatus, 0, 0 },
  { "wait", t_wait, 0, 0 },
  { "waitnohang", t_waitnohang, 0, 0 },
  { "manyprocs", t_manyprocs, 0, 0 },
  { "orphans", t_orphans, 0, 0 },
  { "exec", t_exec, 0, 0 },
  { "execerr", t_execerr, 0, 0 },
  { "execnonelf", t_execnonelf, 0, 0 },
  { "pipe", t_pipe, 0, 0 },
  { "pipebig", t_pipebig, 0, 0 },
  { "pingpong", t_pingpong, 0, 0 },
  { "pipeeof", t_pipeeof, 0, 0 },
  { "pipeepipe", t_pipeepipe, 0, 0 },
  { "files", t_files, 0, 0 },
  { "trunc", t_trunc, 0, 0 },
  { "append", t_append, 0, 0 },
  { "lseek", t_lseek, 0, 0 },
  { "openerr", t_openerr, 0, 0 },
  { "bigfile", t_bigfile, 0, 0 },
  { "maxfile", t_maxfile, 0, 0 },
  { "dirs", t_dirs, 0, 0 },
  { "unlink", t_unlink, 0, 0 },
  { "links", t_links, 0, 0 },
  { "dirsiz", t_dirsiz, 0, 0 },
  { "readdir", t_readdir, 0, 0 },
  { "concreate", t_concreate, 0, 0 },
  { "mknod", t_mknod, 0, 0 },
  { "dup", t_dup, 0, 0 },
  { "fdleak", t_fdleak, 0, 0 },
  { "sbrk", t_sbrk, 0, 0 },
  { "sbrkoom", t_sbrkoom, 0, 0 },
  { "sbrkfault", t_sbrkfault, 0, 0 },
  { "faults", t_faults, 0, 0 },
  { "kill", t_kill, 0, 0 },
  { "sigframe", t_sigframe, 0, 0 },
  { "sleep", t_sleep, 0, 0 },
  { "badptr", t_badptr, 0, 0 },
  { "badfd", t_badfd, 0, 0 },
#if defined(__riscv) || defined(__x86_64__)
  { "nosys", t_nosys, 0, 0 },
#endif
  { "diskfull", t_diskfull, 240, TEST_NAMED_ONLY },
};
#define NTESTS ((int)(sizeof tests / sizeof tests[0]))

// Probe mode, for the exec tests (argv[0] is PROBE or anything that is not
// this suite's name):
//   args N      exit 0 if argc == N, argv[N] == NULL, and each argv[i],
//               i >= 3, is i-3 copies of 'a'+i%26; else the bad index+1
//   fdwrite FD  write "pid=<pid>" to FD, exit 0
//   exit N      return N from main
// Anything else exits PROBE_BAD.
static int
probe(int argc, char **argv)
{
  char out[32];
  int n, fd;

  if (argc >= 3 && strcmp(argv[1], "args") == 0) {
    n = atoi(argv[2]);
    if (argc != n || argv[argc] != 0)
      return 100;
    for (int i = 3; i < argc; i++) {
      if ((int)strlen(argv[i]) != i - 3)
        return i + 1;
      for (int j = 0; j < i - 3; j++)
        if (argv[i][j] != 'a' + i % 26)
          return i + 1;
    }
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "fdwrite") == 0) {
    fd = atoi(argv[2]);
    snprintf(out, sizeof out, "pid=%d", getpid());
    return write(fd, out, strlen(out)) == (int)strlen(out) ? 0 : 1;
  }
  if (argc == 3 && strcmp(argv[1], "exit") == 0)
    return atoi(argv[2]);
  return PROBE_BAD;
}

// What usertests does its own way: tests named only, the probe mode.
static const struct suite suite = {
  .name = "usertests", .tests = tests, .ntests = NTESTS, .secs = TEST_SECS,
  .flags = SUITE_FREEMEM, .probe = probe,
};

// Run the tests named on the command line (or all that are not
// TEST_NAMED_ONLY), then check that free memory is back where it started.
int
main(int argc, char **argv)
{
  initial_brk = sbrk(0);
  return run_suite(&suite, argc, argv);
}
