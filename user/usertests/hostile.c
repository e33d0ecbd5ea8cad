// usertests: what a careless or hostile program does to the kernel's
// shared objects: closes a file another thread is using, links /proc
// files, changes the shared cwd from two threads, piles up links, reads
// padding out of fstat, execs from a thread with a join word, removes
// /proc, and keeps many disk operations going at once. None of it may
// panic, hang or corrupt the kernel.

#include "usertests.h"
#include "user/proc.h"

// ------------------------------------------------------------ closeinuse

static int cp[2];                       // the pipe closeinuse closes
static volatile int closer_done;

// Thread body: close both ends of the pipe while the main thread reads.
static void
closer(void *arg)
{
  (void)arg;
  sleep(10);
  close(cp[0]);
  close(cp[1]);
  closer_done = 1;
}

static int churn_fd;
static volatile int churn_stop;

// Thread body: dup and close churn_fd's file as fast as it can.
static void
churner(void *arg)
{
  (void)arg;
  while (!churn_stop) {
    int fd = dup(churn_fd);
    if (fd >= 0)
      close(fd);
  }
}

// Expect a child's status st to be a clean exit; a FAIL says how it
// ended, and why[code] for an exit code 10..10+nwhy-1 it names.
static void
expect_child_ok(const char *check, int st, const char *const *why, int nwhy)
{
  int code = st > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : 0;
  char d[160];

  snprintf(d, sizeof d, "child %s%s%s", wstatus(st), code >= 10 && code < 10 + nwhy ? ": " : "",
           code >= 10 && code < 10 + nwhy ? why[code - 10] : "");
  expect_true(check, st == 0, d);
}

// closeinuse's child: a read blocked on a pipe whose two ends another
// thread closes; then fstat, lseek, read and dup racing close on one file.
static void
closeinuse_child(long unused)
{
  struct stat st;
  char c;
  int r, tid;

  (void)unused;
  if (pipe(cp) < 0)
    exit(10);
  if ((tid = thread_create(closer, 0)) < 0)
    exit(11);
  r = read(cp[0], &c, 1);       // the reference it holds keeps the pipe
  if (r != 0 || !closer_done)
    exit(12);                   // EOF once the write end is gone
  thread_join(tid);
  if (put_file("ciu", "0123456789", 10) < 0)
    exit(13);
  for (int round = 0; round < 200; round++) {
    churn_stop = 0;
    if ((churn_fd = open("ciu", O_RDONLY)) < 0)
      exit(14);
    if ((tid = thread_create(churner, 0)) < 0)
      exit(15);
    for (int i = 0; i < 20; i++) {
      fstat(churn_fd, &st);
      lseek(churn_fd, 0, SEEK_SET);
      read(churn_fd, &c, 1);
    }
    close(churn_fd);            // under the churner's dup
    churn_stop = 1;
    thread_join(tid);
    for (int fd = 3; fd < NOFILE; fd++)
      close(fd);
  }
  exit(0);
}

// closeinuse: a file a system call is using stays alive when another
// thread closes its descriptor: the blocked read ends with EOF (not a
// wedged machine), and fstat/lseek/read/dup racing close() end cleanly.
void
t_closeinuse(void)
{
  static const char *const why[] = {   // the child's exit codes 10, 11, ...
    "pipe failed", "thread_create failed",
    "the read did not end with EOF after both ends were closed",
    "put_file failed", "open failed", "thread_create failed",
  };
  int st;

  if (!enter_scratch("/ut_ciu"))
    return;
  st = in_child(closeinuse_child, 0);
  expect_child_ok("survives", st, why, (int)(sizeof why / sizeof why[0]));
  unlink("ciu");
  leave_scratch("/ut_ciu");
}

// ------------------------------------------------------------ links

#define LP_PROCS 50

// linkproc: link() of a /proc file is refused with EXDEV before anything
// changes: /proc/meminfo, and /proc/PID/stat of 50 live processes. A
// kernel that counted the link first "updated" each /proc inode on disk,
// over the real inodes sharing its number's block: nothing may be
// written to the disk meanwhile. Then a file of 100 blocks is written
// and read back through the buffer cache.
void
t_linkproc(void)
{
  int pids[LP_PROCS], n = 0, p[2], bad = 0, r, fd;
  char path[40], c, d[96], disk[16];
  long ds0[7], ds1[7];
  int nds;

  int rm;

  if (!need("pipe", pipe(p)))
    return;
  for (; n < LP_PROCS; n++) {
    if ((pids[n] = fork()) == 0) {
      close(p[1]);
      read(p[0], &c, 1);        // until the parent closes the pipe
      exit(0);
    }
    if (pids[n] < 0)
      break;
  }
  // No check is made (each one writes its result to disk) until ds1.
  nds = read_diskstats(disk, ds0, 7);
  rm = link("/proc/meminfo", "/ut_lp");
  if (rm == 0)
    unlink("/ut_lp");
  for (int i = 0; i < n; i++) {
    snprintf(path, sizeof path, "/proc/%d/stat", pids[i]);
    if ((r = link(path, "/ut_lp")) != -EXDEV) {
      if (!bad)
        snprintf(d, sizeof d, "link(%s) returned %s, want -EXDEV", path, val(r));
      bad++;
      if (r == 0)
        unlink("/ut_lp");
    }
  }
  if (nds == 7)
    nds = read_diskstats(disk, ds1, 7);
  expect("meminfo", rm, -EXDEV);
  expect_true("pid_stat_50", n == LP_PROCS && !bad, n < LP_PROCS ? "fork failed" : d);
  if (nds == 7) {
    snprintf(d, sizeof d, "%ld disk writes (%ld sectors) during the refused links, want 0",
             ds1[4] - ds0[4], ds1[6] - ds0[6]);
    expect_true("no_disk_write", ds1[4] == ds0[4], d);
  } else {
    expect_true("no_disk_write", 0, "/proc/diskstats cannot be read");
  }
  close(p[1]);
  for (int i = 0; i < n; i++)
    waitpid(pids[i], 0, 0);
  close(p[0]);
  r = open("/usertests", O_RDONLY);
  expect_true("root_intact", r >= 0 && read(r, buf, 4) == 4 && memcmp(buf, "\177ELF", 4) == 0,
              "/usertests no longer reads as an ELF file");
  if (r >= 0)
    close(r);
  fd = open("/ut_lp100", O_CREAT | O_RDWR);
  r = fd < 0 ? -1 : write_pattern(fd, 0, 100 * BSIZE, 7);
  expect("write_100_blocks", r, 100 * BSIZE);
  if (fd >= 0)
    lseek(fd, 0, SEEK_SET);
  r = fd < 0 ? -1 : check_pattern(fd, 0, 100 * BSIZE, 7, 4096);
  expect("read_100_blocks", r, 100 * BSIZE);
  close(fd);
  unlink("/ut_lp100");
}

#define LINKDIRS 32

// linkmax: nlink stops at LINK_MAX: the next link() fails with EMLINK and
// the file is unchanged; every name then unlinks (a wrapped nlink made
// the next unlink panic). Slow (32767 links): run by name.
void
t_linkmax(void)
{
  char name[32], d[96];
  int made = 1, r = 0;
  struct stat st;

  if (!enter_scratch("/ut_lm") || !need("file", put_file("f", "x", 1)))
    return;
  for (int dir = 0; dir < LINKDIRS; dir++) {
    snprintf(name, sizeof name, "d%d", dir);
    need("mkdir", mkdir(name));
  }
  while (made < LINK_MAX) {
    snprintf(name, sizeof name, "d%d/%d", made % LINKDIRS, made / LINKDIRS);
    if ((r = link("f", name)) < 0)
      break;
    made++;
  }
  snprintf(d, sizeof d, "link number %d failed with %s", made + 1, val(r));
  expect_true("to_max", made == LINK_MAX, d);
  expect("one_more", link("f", "extra"), -EMLINK);
  int fd = open("f", O_RDONLY);
  expect_true("nlink_max", fd >= 0 && fstat(fd, &st) == 0 && st.nlink == LINK_MAX,
              "fstat does not say LINK_MAX links");
  close(fd);
  r = 0;
  for (int i = 1; i < made && r == 0; i++) {
    snprintf(name, sizeof name, "d%d/%d", i % LINKDIRS, i / LINKDIRS);
    r = unlink(name);
  }
  expect("unlink_all", r, 0);
  expect("unlink_last", unlink("f"), 0);
  for (int dir = 0; dir < LINKDIRS; dir++) {
    snprintf(name, sizeof name, "d%d", dir);
    unlink(name);
  }
  leave_scratch("/ut_lm");
}

// ------------------------------------------------------------ chdirrace

static volatile int cd_stop, cd_lost;

// Thread body: chdir between the two scratch directories, and resolve a
// relative path in whichever is the cwd now (a or b: both hold "here").
// A failed lookup means the cwd is no longer either directory.
static void
chdirrer(void *arg)
{
  int fd;

  (void)arg;
  while (!cd_stop) {
    chdir("/ut_cd/a");
    if ((fd = open("here", O_RDONLY)) >= 0)
      close(fd);
    else
      __atomic_add_fetch(&cd_lost, 1, __ATOMIC_RELAXED);
    chdir("/ut_cd/b");
  }
}

// chdirrace: threads sharing a cwd change it at once, 3 of them, for a
// few thousand rounds, while other inodes come and go: the old cwd is
// dropped exactly once each time (a double drop freed the inode under the
// others, and another file took its slot), relative lookups keep working
// all along, and the directories can be removed afterwards.
void
t_chdirrace(void)
{
  int tids[3], fd, ok = 0;

  if (!need("mkdir", mkdir("/ut_cd")) || !need("mkdir_a", mkdir("/ut_cd/a")) ||
      !need("mkdir_b", mkdir("/ut_cd/b")) || !need("file", put_file("/ut_cd/a/here", "a", 1)) ||
      !need("file", put_file("/ut_cd/b/here", "b", 1)))
    return;
  cd_stop = 0;
  cd_lost = 0;
  for (int i = 0; i < 3; i++)
    tids[i] = thread_create(chdirrer, 0);
  for (int i = 0; i < 2000; i++) {
    chdir("/ut_cd/b");
    chdir("/ut_cd/a");
    // Other inodes, in and out of the inode table: a cwd dropped once
    // too often has its slot taken by one of them.
    static const char *others[] = { "/README.md", "/init", "/sh", "/ls", "/cat" };
    if ((fd = open(others[i % 5], O_RDONLY)) >= 0)
      close(fd);
  }
  cd_stop = 1;
  for (int i = 0; i < 3; i++)
    if (tids[i] > 0)
      thread_join(tids[i]);
  chdir("/ut_cd/a");
  if ((fd = open("here", O_RDONLY)) >= 0) {
    ok = read(fd, buf, 1) == 1 && buf[0] == 'a';
    close(fd);
  }
  snprintf(buf2, sizeof buf2, "%d relative lookups failed while the cwd was changing", cd_lost);
  expect_true("lookups_during", cd_lost == 0, buf2);
  expect_true("relative_lookup", ok, "/ut_cd/a/here does not read 'a' through the cwd");
  chdir("/");
  unlink("/ut_cd/a/here");
  unlink("/ut_cd/b/here");
  expect("rmdir_a", unlink("/ut_cd/a"), 0);
  expect("rmdir_b", unlink("/ut_cd/b"), 0);
  expect("rmdir", unlink("/ut_cd"), 0);
}

// ------------------------------------------------------------ statpad

// statpad: fstat writes every byte of struct stat, the padding after
// nlink too (it used to carry four bytes of kernel stack out).
void
t_statpad(void)
{
  struct stat st;
  uchar *b = (uchar *)&st;
  int fds[3], bad = 0;
  char d[96];

  fds[0] = open("/usertests", O_RDONLY);
  fds[1] = open("/", O_RDONLY);
  fds[2] = open("/proc/meminfo", O_RDONLY);
  for (int i = 0; i < 3; i++) {
    memset(&st, 0xa5, sizeof st);
    if (fds[i] < 0 || fstat(fds[i], &st) < 0) {
      bad = -1;
      continue;
    }
    for (ulong o = __builtin_offsetof(struct stat, nlink) + sizeof st.nlink;
         o < __builtin_offsetof(struct stat, size); o++)
      if (b[o] != 0 && !bad) {
        snprintf(d, sizeof d, "fd %d: padding byte %lu is 0x%x, want 0", i, o, b[o]);
        bad = 1;
      }
    close(fds[i]);
  }
  expect_true("zeroed", bad == 0, bad < 0 ? "open or fstat failed" : d);
}

// ------------------------------------------------------------ cleartid

// Thread body for cleartid's child: exec the probe, which sees whether
// the kernel still means to zero our join word in its image.
static void
exec_probe(void *arg)
{
  char *av[] = { PROBE, "cleartid", 0 };

  (void)arg;
  exec(SELF, av);
  exit(120);
}

static void
sleeper(void *arg)
{
  (void)arg;
  for (;;)
    sleep(HZ);
}

// cleartid's child: thread slot 0 sleeps, slot 1 execs (so its join word
// is the second slot's); the exit status is the probe's.
static void
cleartid_child(long unused)
{
  (void)unused;
  if (thread_create(sleeper, 0) < 0 || thread_create(exec_probe, 0) < 0)
    exit(121);
  for (;;)
    sleep(HZ);
}

// cleartid: exec forgets the join word (CLONE_CHILD_CLEARTID) of the
// thread that execs: it is an address in the old image, and at exit the
// kernel would zero whatever the new program keeps there.
void
t_cleartid(void)
{
  char d[96];
  int st = in_child(cleartid_child, 0);

  snprintf(d, sizeof d, "child %s%s", wstatus(st),
           st > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 1
             ? ": the exec'd thread's exit zeroed a word of the new image" : "");
  expect_true("reset_at_exec", st == 0, d);
}

static volatile int w2_done;

// The probe's second thread: lives a while, then says so and ends.
static void
late_thread(void *arg)
{
  (void)arg;
  sleep(HZ / 2);
  w2_done = 1;
}

// The probe's first thread: join the second. A join that returns before
// the second thread ended means its join word was zeroed by someone else.
static void
joiner(void *arg)
{
  thread_join((int)(long)arg);
  exit(w2_done ? 0 : 1);
}

// Probe "cleartid": two threads (slots 0 and 1, so the second one's join
// word sits where the exec'd thread's was), then the main thread alone
// ends. Exit 0 if the join worked, 1 if the word was zeroed early.
int
probe_cleartid(void)
{
  int w2 = thread_create(sleeper, 0);   // slot 0, a stand-in
  int t;

  if (w2 < 0 || (t = thread_create(late_thread, 0)) < 0 || thread_create(joiner, (void *)(long)t) < 0)
    return 122;
  exit_thread(0);                       // the exec'd thread's exit
}

// unlinkproc: the disk directory /proc is mounted on cannot be removed
// (EBUSY, as Linux refuses to remove a mount point): unlink looks the
// name up without crossing into procfs, and once removed the empty
// directory took /proc away from every process (a fuzzer did it).
void
t_unlinkproc(void)
{
  int fd;

  expect("unlink", unlink("/proc"), -EBUSY);
  expect("unlink_slash", unlink("/proc/"), -EBUSY);
  expect("unlink_dot", unlink("/./proc"), -EBUSY);
  expect("mkdir", mkdir("/proc"), -EEXIST);
  fd = open("/proc/meminfo", O_RDONLY);
  expect_true("still_there", fd >= 0, "/proc/meminfo cannot be opened");
  if (fd >= 0)
    close(fd);
}

// ------------------------------------------------------------ bufstorm

#define BS_PROCS 8
#define BS_SIZE  (96 * 1024)
#define BS_CHUNK (32 * 1024)

static char bs_data[BS_SIZE];

// bufstorm: 8 processes write a file each, in 32 KiB writes, and read it
// back in 1 KiB reads, all at once: the log pins the blocks of every
// transaction until its commit while the readers hold buffers waiting for
// the disk. Every file reads back as written. When every buffer is
// taken, bget() waits for one; it once panicked ("bget: all N buffers in
// use"). The kernel's cache (NBUF) is larger than this needs; built with
// NBUF 96 the old kernel panics here. (bio.c says why NBUF must exceed
// what the log can pin.)
void
t_bufstorm(void)
{
  int pids[BS_PROCS], st, bad = 0, n;
  char path[32], d[96] = "";

  if (!enter_scratch("/ut_bufstorm"))
    return;
  for (n = 0; n < BS_PROCS; n++) {
    pids[n] = fork();
    if (pids[n] < 0)
      break;
    if (pids[n] == 0) {
      snprintf(path, sizeof path, "f%d", n);
      int fd = open(path, O_CREAT | O_RDWR);
      for (int i = 0; i < BS_SIZE; i++)
        bs_data[i] = pat(i, n);
      // 32 KiB a write: the kernel splits it into operations of as many
      // blocks as the log allows, each pinned until its commit.
      for (int off = 0; fd >= 0 && off < BS_SIZE; off += BS_CHUNK)
        if (write(fd, bs_data + off, BS_CHUNK) != BS_CHUNK)
          exit(1);
      if (fd < 0)
        exit(1);
      if (lseek(fd, 0, SEEK_SET) != 0 || check_pattern(fd, 0, BS_SIZE, n, 1024) != BS_SIZE)
        exit(2);
      exit(0);
    }
  }
  expect("forked", n, BS_PROCS);
  for (int i = 0; i < n; i++)
    if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      if (!bad++)
        snprintf(d, sizeof d, "process %d: %s", i, !WIFEXITED(st) ? "killed" :
                 WEXITSTATUS(st) == 1 ? "a write failed" : "the file read back wrong");
    }
  expect_true("all_intact", bad == 0, d);
  leave_scratch("/ut_bufstorm");
}

// ------------------------------------------------------------ pipefault

static volatile int pf_stop;
static int *volatile pf_bad = (int *)0x10;   // unmapped (volatile: no compile-time check)

// Thread body: close every fd above stdio, again and again.
static void
fdcloser(void *arg)
{
  (void)arg;
  while (!pf_stop)
    for (int fd = 3; fd < NOFILE; fd++)
      close(fd);
}

// pipefault's child: pipe() into an unmapped address, 2000 times, while
// another thread closes every fd that may appear meanwhile.
static void
pipefault_child(long unused)
{
  int tid;

  (void)unused;
  if ((tid = thread_create(fdcloser, 0)) < 0)
    exit(10);
  for (int i = 0; i < 2000; i++)
    if (pipe(pf_bad) != -EFAULT)
      exit(11);
  pf_stop = 1;
  thread_join(tid);
  exit(0);
}

// pipefault: a pipe() whose answer cannot be written fails with EFAULT,
// and leaves no fd and no file behind, even while another thread closes
// every fd it sees. The old error path installed both fds, then took
// back their slots and closed both files: an fd the other thread had
// closed meanwhile had its file closed twice ("fileclose: free file").
void
t_pipefault(void)
{
  static const char *const why[] = {   // the child's exit codes 10, 11, ...
    "thread_create failed", "pipe() into an unmapped address did not fail with EFAULT",
  };
  int st;

  st = in_child(pipefault_child, 0);
  expect_child_ok("survives", st, why, (int)(sizeof why / sizeof why[0]));
}
