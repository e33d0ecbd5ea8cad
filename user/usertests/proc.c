// usertests: processes, exec, pipes.

#include "usertests.h"

// ------------------------------------------------------------ tests: processes

static int fork_var = 1;        // changed by the fork test's child only

// fork: 0 in the child and the child's pid in the parent; getppid; the
// child gets a copy of memory (data and heap) and shares open files.
void
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

#define FORKBIG_PAGES 300   // several of fork's 64-page copy batches

// forkbig: a heap of several hundred pages, its break inside a page, is
// copied whole: every page holds its own number in the child, and the
// bytes up to the break are there.
void
t_forkbig(void)
{
  long len = FORKBIG_PAGES * PGSIZE + 123;
  char *heap = sbrk(len);
  int pid, st = -1;

  if (is_sbrk_error(heap))
    return;
  for (int i = 0; i < FORKBIG_PAGES; i++)
    memset(heap + (long)i * PGSIZE, i & 0xff, PGSIZE);
  memset(heap + FORKBIG_PAGES * PGSIZE, 0xa5, 123);
  pid = tfork();
  if (pid == 0) {
    for (int i = 0; i < FORKBIG_PAGES; i++)
      if (heap[(long)i * PGSIZE] != (char)(i & 0xff) || heap[(long)i * PGSIZE + PGSIZE - 1] != (char)(i & 0xff))
        exit(10);
    exit(heap[len - 1] == (char)0xa5 ? 0 : 11);
  }
  if (!expect_ok("fork", pid))
    return;
  expect("waitpid", waitpid(pid, &st, 0), pid);
  expect_exit("child_has_every_page", st, 0);
  sbrk(-len);
}

// exit: only the low 8 bits of the status reach waitpid, in Linux's encoding.
void
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
void
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
void
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
void
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
void
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
int
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
void
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
void
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
#define ELF_MACHINE_SELF 62
#else
#define OTHER_MACHINE 62    // EM_X86_64
#define ELF_MACHINE_SELF 243
#endif

// execnonelf: files that are not ELF programs for this machine give ENOEXEC.
void
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

// The program of exechigh: io_uring_setup(4, sp - 256), then exit with
// its result. Returns the number of bytes written at b.
static int
put_setup_code(uchar *b)
{
#if defined(__x86_64__)
  static const uchar code[] = {
    0xb8, 0x2b, 0, 0, 0,                        // mov $43, %eax
    0xbf, 0x04, 0, 0, 0,                        // mov $4, %edi
    0x48, 0x8d, 0xb4, 0x24, 0x00, 0xff, 0xff, 0xff,   // lea -256(%rsp), %rsi
    0x0f, 0x05,                                 // syscall
    0x89, 0xc7,                                 // mov %eax, %edi
    0xb8, 0x02, 0, 0, 0,                        // mov $2, %eax (exit)
    0x0f, 0x05,                                 // syscall
  };
#else
  static const uchar code[] = {
    0x13, 0x05, 0x40, 0x00,     // addi a0, zero, 4
    0x93, 0x05, 0x01, 0xf0,     // addi a1, sp, -256
    0x93, 0x08, 0xb0, 0x02,     // addi a7, zero, 43
    0x73, 0x00, 0x00, 0x00,     // ecall
    0x93, 0x08, 0x20, 0x00,     // addi a7, zero, 2 (exit)
    0x73, 0x00, 0x00, 0x00,     // ecall
  };
#endif
  memcpy(b, code, sizeof code);
  return sizeof code;
}

// A one-segment ELF at vaddr whose code (at file offset 120) sets up a
// ring. Returns its size.
static int
make_setup_elf(uchar *b, ulong vaddr)
{
  int n = 120 + put_setup_code(b + 120);

  make_elf(b, 2, ELF_MACHINE_SELF);
  put_le(b + 24, vaddr + 120, 8);   // e_entry
  put_le(b + 80, vaddr, 8);         // p_vaddr
  put_le(b + 88, vaddr, 8);         // p_paddr
  put_le(b + 96, n, 8);             // p_filesz
  put_le(b + 104, 0x1000, 8);       // p_memsz
  return n;
}

#define MMAP_BASE 0x2000000000UL    // the kernel's USER_MMAP_BASE: rings from here

// exechigh: a program's segments cannot reach the addresses where the
// kernel maps io_uring rings. One that ends just below them (its stack
// would land among them) either is refused or runs and sets up a ring
// elsewhere; one inside them, or far above, is refused with ENOEXEC.
void
t_exechigh(void)
{
  char *av[] = { "high", 0 }, d[160];
  uchar *b = (uchar *)buf;
  int st;

  if (!enter_scratch("/ut_high"))
    return;
  need("below", put_file("below", b, make_setup_elf(b, MMAP_BASE - 0x1000)));
  need("inside", put_file("inside", b, make_setup_elf(b, MMAP_BASE + 0x1000)));
  need("above", put_file("above", b, make_setup_elf(b, 0x100000000000UL)));
  st = try_exec("below", av);
  snprintf(d, sizeof d, "child %s: want exec to fail with ENOEXEC or the program to exit",
           wstatus(st));
  expect_true("just_below_window", st >= 0 && WIFEXITED(st), d);
  expect_exec_err("inside_window", "inside", av, ENOEXEC);
  expect_exec_err("far_above", "above", av, ENOEXEC);
  leave_scratch("/ut_high");
}

// ------------------------------------------------------------ tests: pipes

// pipe: fds, short reads return what is there, ESPIPE, wrong-end EBADF,
// 512 bytes fit without a reader, EOF once the write end is closed.
void
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
void
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
void
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
void
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
void
t_pipeepipe(void)
{
  expect_epipe("reader_closed", in_child(epipe_child, 0));
  expect_epipe("reader_exited", in_child(epipe_child, 1));
  expect_epipe("blocked_writer_woken", in_child(epipe_blocked, 0));
}

#define FORKLAT_PAGES 10240 // 40 MiB: a copy that takes a while under QEMU
#define FORKLAT_ROUNDS 5

static volatile int fl_stop;

static void
fl_onusr1(int sig)
{
  (void)sig;
  fl_stop = 1;
}

// forklatency's ticker: sleep one tick at a time until SIGUSR1, then write
// the longest time one such sleep took (in ticks) to fd.
static void
fl_ticker(int fd)
{
  struct sigaction sa = { fl_onusr1, 0, 0 };
  int longest = 0, t;

  sigaction(SIGUSR1, &sa, 0);
  while (!fl_stop) {
    t = uptime();
    sleep(1);
    if (uptime() - t > longest)
      longest = uptime() - t;
  }
  write(fd, &longest, sizeof longest);
  exit(0);
}

// The longest of FORKLAT_ROUNDS forks of a FORKLAT_PAGES heap, in ticks,
// or -1 if the heap or a fork could not be had.
static int
fl_forks(void)
{
  long len = FORKLAT_PAGES * PGSIZE;
  char *heap = sbrk(len);
  int longest = 0, t0, pid, st;
  char name[16];

  if (is_sbrk_error(heap))
    return -1;
  for (long i = 0; i < FORKLAT_PAGES; i++)
    heap[i * PGSIZE] = (char)i;
  sleep(HZ / 5);                // the ticker is ticking
  for (int r = 0; r < FORKLAT_ROUNDS && longest >= 0; r++) {
    t0 = uptime();
    if ((pid = tfork()) == 0)
      exit(0);
    if (uptime() - t0 > longest)
      longest = uptime() - t0;
    snprintf(name, sizeof name, "fork_%d", r + 1);
    if (!expect_ok(name, pid))
      longest = -1;
    else
      waitpid(pid, &st, 0);
  }
  sbrk(-len);
  return longest;
}

// forklatency: fork() of a 40 MiB heap does not stop the machine while it
// copies. A ticker process that sleeps one tick at a time must wake up
// while a copy goes on: its longest sleep stays under half the longest of
// five forks. (The copy once held mm->lock, interrupts off, for the whole
// heap: on one CPU nothing else ran until it was done, and the ticker's
// sleep lasted as long as the fork.) The check means something with one
// CPU; with more, the ticker may run beside the copy.
void
t_forklatency(void)
{
  int p[2], ticker, st, longest = -1, took;
  char d[160];

  if (!need("pipe", pipe(p)))
    return;
  if ((ticker = tfork()) == 0) {
    close(p[0]);
    fl_ticker(p[1]);
  }
  close(p[1]);
  if (!expect_ok("fork_ticker", ticker))
    return;
  took = fl_forks();
  kill(ticker, SIGUSR1);
  read(p[0], &longest, sizeof longest);
  close(p[0]);
  waitpid(ticker, &st, 0);
  if (took < 0)
    return;
  snprintf(d, sizeof d, "the longest fork of a 40 MiB heap took %d ticks; the ticker's "
           "longest one-tick sleep took %d", took, longest);
  expect_true("others_run", longest >= 0 && longest <= took / 2 + 1, d);
}
