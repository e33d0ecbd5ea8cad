// usertests: the helpers the tests share: reporting, processes, files.

#include "usertests.h"

// ------------------------------------------------------------ reporting

// Check that a call succeeded (returned >= 0). Returns 1 if it did.
int
expect_ok(const char *check, long got)
{
  char d[128];

  snprintf(d, sizeof d, "got %s, want success", val(got));
  return expect_true(check, got >= 0, d);
}

// Check that wait status st says "exited with code".
int
expect_exit(const char *check, int st, int code)
{
  char d[128];

  snprintf(d, sizeof d, "child %s, want exited %d", wstatus(st), code);
  return expect_true(check, st >= 0 && WIFEXITED(st) && WEXITSTATUS(st) == code, d);
}

// Check that wait status st says "killed by signal sig".
int
expect_signal(const char *check, int st, int sig)
{
  char d[128];

  snprintf(d, sizeof d, "child %s, want killed by signal %d (%s)", wstatus(st), sig, signame(sig));
  return expect_true(check, st >= 0 && WIFSIGNALED(st) && WTERMSIG(st) == sig, d);
}

// ------------------------------------------------------------ processes

// Run fn(arg) in a child (which exits 0 if fn returns); return the child's
// wait status, or -errno if fork or waitpid failed.
int
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
int
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
int
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
char *
align_brk(void)
{
  char *b = sbrk(0);

  if ((ulong)b % PGSIZE)
    sbrk(PGSIZE - (ulong)b % PGSIZE);
  return sbrk(0);
}

// Child body: exit with code.
void
exit_with(long code)
{
  exit((int)code);
}

// ------------------------------------------------------------ files

// Byte off of the test pattern number seed: changes within and across blocks.
uchar
pat(long off, int seed)
{
  return (uchar)(off * 7 + seed + (off >> 10) * 13 + (off >> 18));
}

// Write n bytes of pattern seed at fd's offset, which must be off, in 4 KiB
// pieces. Returns the bytes written, or the error if nothing was.
long
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
long
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
int
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
int
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
int
get_file(const char *path, void *dst, int n)
{
  int fd = open(path, O_RDONLY), r;

  if (fd < 0)
    return fd;
  r = read_all(fd, dst, n);
  close(fd);
  return r;
}

// Check that path reads back as the string want.
void
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

// Copy the name of directory entry de into name (DIRSIZ+1 bytes).
void
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
int
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
int
enter_scratch(const char *dir)
{
  chdir("/");
  rm_rf(dir, 0);
  return need("mkdir_scratch", mkdir(dir)) && need("chdir_scratch", chdir(dir));
}

// End a test's file work: leave dir and remove it (a FAIL line if that fails).
void
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
