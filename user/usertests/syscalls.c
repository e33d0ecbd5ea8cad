// usertests: bad system call arguments, unknown system calls, a full disk.

#include "usertests.h"

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
void
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
void
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
void
t_nosys(void)
{
  expect("zero", raw_syscall(0), -ENOSYS);
  expect("large", raw_syscall(9999), -ENOSYS);
  expect("negative", raw_syscall(-1), -ENOSYS);
}
#endif

// diskfull (slow, only when named): writing until the disk is full ends
// with a short write or ENOSPC, then ENOSPC; unlinking gives the space back.
void
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
