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

#include "user/user.h"
#include "user/proc.h"
#include "kernel/elf.h"
#include "user/testlib.h"

#include "kernel/fs_format.h"

#define SELF      "/ptracetests"
#define TEST_SECS 60            // a test running longer is killed (real time: a busy host slows QEMU)
#define MAXT      12            // threads in a target, main included
#define MAGIC0    0x5ca1ab1e0ddba115UL
#define MAGIC1    0x0b5e55edfacade42UL
#define BAD_NULL  0x0UL
#define BAD_KERN  0x80000000UL
#define BAD_HIGH  0xffffffffffff0000UL
#define BAD_HOLE  0x40000000UL  // user range, never mapped in a small program
#define OUTMAX    4096          // bytes of mgdb output kept

static char detail[256];        // the detail of the next FAIL line

// ------------------------------------------------------------ /proc

// The value of "Field:" in /proc/PID/task/TID/status, or NULL.
static const char *
status_field(int pid, int tid, const char *name)
{
  static char buf[512];

  if (task_status(pid, tid, buf, sizeof buf) <= 0)
    return NULL;
  return proc_field(buf, name);
}

// The thread's state letter, or '-' if /proc has no such thread.
static char
state_of(int pid, int tid)
{
  const char *s = status_field(pid, tid, "State:");

  return s ? *s : '-';
}

// The thread's TracerPid, or -1 if /proc has no such thread.
static int
tracer_of(int pid, int tid)
{
  const char *s = status_field(pid, tid, "TracerPid:");

  return s ? atoi(s) : -1;
}

// ------------------------------------------------------------ ELF

// Read size bytes at off of fd into p; 0 or -1.
static int
pread_all(int fd, ulong off, void *p, long size)
{
  long n, done = 0;

  if (lseek(fd, off, SEEK_SET) != (long)off)
    return -1;
  while (done < size && (n = read(fd, (char *)p + done, size - done)) > 0)
    done += n;
  return done == size ? 0 : -1;
}

// The executable PT_LOAD segment of ELF file path: [*lo, *hi). 0 or -1.
static int
elf_text(const char *path, ulong *lo, ulong *hi)
{
  struct elf64_hdr eh;
  struct elf64_phdr ph;
  int fd = open(path, O_RDONLY), r = -1;

  if (fd < 0)
    return -1;
  if (pread_all(fd, 0, &eh, sizeof eh) == 0 && memcmp(eh.ident, "\177ELF", 4) == 0)
    for (int i = 0; i < eh.phnum && r < 0; i++)
      if (pread_all(fd, eh.phoff + i * sizeof ph, &ph, sizeof ph) == 0 &&
          ph.type == PT_LOAD && (ph.flags & PF_X)) {
        *lo = ph.vaddr;
        *hi = ph.vaddr + ph.memsz;
        r = 0;
      }
  close(fd);
  return r;
}

// Symbol name of ELF file path: its value and size. 0 or -1.
static int
elf_symbol(const char *path, const char *name, ulong *value, ulong *size)
{
  struct elf64_hdr eh;
  struct elf64_shdr sh, strsh;
  struct elf64_sym sym;
  char nm[40];
  int fd = open(path, O_RDONLY), r = -1, len = strlen(name) + 1;

  if (fd < 0)
    return -1;
  if (pread_all(fd, 0, &eh, sizeof eh) == 0 && memcmp(eh.ident, "\177ELF", 4) == 0)
    for (int i = 0; i < eh.shnum && r < 0; i++) {
      if (pread_all(fd, eh.shoff + i * sizeof sh, &sh, sizeof sh) < 0 || sh.type != SHT_SYMTAB ||
          pread_all(fd, eh.shoff + sh.link * sizeof sh, &strsh, sizeof strsh) < 0)
        continue;
      for (ulong off = 0; off + sizeof sym <= sh.size && r < 0; off += sizeof sym)
        if (pread_all(fd, sh.offset + off, &sym, sizeof sym) == 0 && sym.name + len <= strsh.size &&
            pread_all(fd, strsh.offset + sym.name, nm, len) == 0 && memcmp(nm, name, len) == 0) {
          *value = sym.value;
          *size = sym.size;
          r = 0;
        }
    }
  close(fd);
  return r;
}

// ------------------------------------------------------------ targets

volatile ulong counters[MAXT];          // rounds per target thread; [0] main
volatile ulong magic = MAGIC0;          // peekpoke changes it in a target
static volatile int tgt_started;        // target threads in their loops
static volatile int own_thread_go;      // perm: our own thread may end

// A target thread that sleeps in a loop, counting rounds.
__attribute__((noinline)) static void
pt_sleeper(void *arg)
{
  long i = (long)arg;

  __atomic_add_fetch(&tgt_started, 1, __ATOMIC_SEQ_CST);
  for (;;) {
    counters[i]++;
    sleep(2);
  }
}

// A target thread that spins (never enters the kernel by itself).
__attribute__((noinline)) static void
pt_spinner(void *arg)
{
  long i = (long)arg;

  __atomic_add_fetch(&tgt_started, 1, __ATOMIC_SEQ_CST);
  for (;;)
    counters[i]++;
}

// A short-lived thread for the churn.
static void
pt_brief(void *arg)
{
  (void)arg;
  sleep(5);
}

// A target thread that starts and joins short-lived threads forever.
static void
pt_churner(void *arg)
{
  int tids[3];

  __atomic_add_fetch(&tgt_started, 1, __ATOMIC_SEQ_CST);
  counters[(long)arg]++;
  for (;;) {
    for (int i = 0; i < 3; i++)
      tids[i] = thread_create(pt_brief, 0);
    for (int i = 0; i < 3; i++)
      if (tids[i] > 0)
        thread_join(tids[i]);
  }
}

// Where setregs sends a target's pc.
__attribute__((noinline)) static void
exit42(void)
{
  exit(42);
}

struct target {
  int pid;
  int n;                        // threads, main included
  int tids[MAXT];               // [0] is pid
};

// The target's main thread: start the threads, send their tids on fd,
// then sleep in a loop; exit 42 once magic has become MAGIC1.
static void __attribute__((noreturn))
target_main(int fd, int nsleep, int nspin, int churn)
{
  int tids[MAXT], n = 1, tid;

  tids[0] = getpid();
  for (int i = 0; i < nsleep + nspin + churn && n < MAXT; i++, n++) {
    tid = thread_create(i < nsleep ? pt_sleeper : i < nsleep + nspin ? pt_spinner : pt_churner,
                        (void *)(long)n);
    if (tid < 0)
      exit(99);
    tids[n] = tid;
  }
  while (__atomic_load_n(&tgt_started, __ATOMIC_SEQ_CST) < n - 1)
    sleep(1);
  write(fd, tids, n * sizeof(int));
  close(fd);
  for (;;) {
    counters[0]++;
    if (magic == MAGIC1)
      exit(42);
    sleep(2);
  }
}

// Start a target with nsleep sleeping, nspin spinning and churn churning
// threads besides its main thread. Returns 0 or -1 (with a FAIL line).
static int
start_target(struct target *t, int nsleep, int nspin, int churn)
{
  int p[2], got = 0, r;

  t->n = 1 + nsleep + nspin + churn;
  if (!need("pipe", pipe(p)))
    return -1;
  t->pid = tfork();
  if (t->pid == 0) {
    close(p[0]);
    target_main(p[1], nsleep, nspin, churn);
  }
  close(p[1]);
  while (t->pid > 0 && got < t->n * (int)sizeof(int) &&
         (r = read(p[0], (char *)t->tids + got, t->n * sizeof(int) - got)) > 0)
    got += r;
  close(p[0]);
  if (t->pid < 0 || got != t->n * (int)sizeof(int)) {
    snprintf(detail, sizeof detail, "target did not start (fork %s, %d bytes of tids)", val(t->pid), got);
    expect_true("start_target", 0, detail);
    if (t->pid > 0)
      kill(t->pid, SIGKILL);
    return -1;
  }
  return 0;
}

// Kill a target and reap it (skipping stop reports); its wait status, or
// -1 if it could not be reaped within 5 s.
static int
stop_target(struct target *t)
{
  int st, r;

  if (t->pid <= 0)
    return -1;
  kill(t->pid, SIGKILL);
  for (int i = 0; i < 5 * HZ; i++) {
    r = waitpid(t->pid, &st, WNOHANG);
    if (r == t->pid && !WIFSTOPPED(st))
      return st;
    if (r < 0)
      return -1;
    if (r == 0)
      sleep(1);
  }
  return -1;
}

// Wait (up to ticks) for a child to end; waitpid's result, 0 if not yet.
static int
reap_within(int pid, int *st, int ticks)
{
  int r;

  for (int i = 0;; i++) {
    r = waitpid(pid, st, WNOHANG);
    if (r != 0 && !(r == pid && WIFSTOPPED(*st)))
      return r;
    if (i >= ticks)
      return 0;
    sleep(1);
  }
}

// PTRACE_ATTACH tid and wait (waitpid __WALL) for its stop. Returns 0
// with the status in *st, or the failing call's -errno.
static int
attach_wait(int tid, int *st)
{
  int r = ptrace(PTRACE_ATTACH, tid, 0, 0);

  if (r < 0)
    return r;
  r = waitpid(tid, st, __WALL);
  return r == tid ? 0 : r < 0 ? r : -ECHILD;
}

// Attach every thread of t and see each stop with SIGSTOP. Returns 1, or
// 0 with detail set.
static int
attach_target(struct target *t)
{
  int st, r;

  for (int i = 0; i < t->n; i++) {
    r = attach_wait(t->tids[i], &st);
    if (r < 0) {
      snprintf(detail, sizeof detail, "tid %d: attach/waitpid: %s", t->tids[i], val(r));
      return 0;
    }
    if (!WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
      snprintf(detail, sizeof detail, "tid %d: %s, want stopped by SIGSTOP", t->tids[i], wstatus(st));
      return 0;
    }
  }
  return 1;
}

// PTRACE_DETACH every thread of t. Returns 1, or 0 with detail set.
static int
detach_target(struct target *t)
{
  long r;

  for (int i = 0; i < t->n; i++)
    if ((r = ptrace(PTRACE_DETACH, t->tids[i], 0, 0)) != 0) {
      snprintf(detail, sizeof detail, "tid %d: PTRACE_DETACH: %s", t->tids[i], val(r));
      return 0;
    }
  return 1;
}

// Are all of t's threads in state want (or, with want '!', not in t)?
// Polls up to ticks. Returns 1, or 0 with detail set.
static int
states_are(struct target *t, char want, int ticks)
{
  char s = 0;
  int i = 0;

  for (int round = 0; round <= ticks; round++) {
    for (i = 0; i < t->n; i++) {
      s = state_of(t->pid, t->tids[i]);
      if (want == '!' ? (s == 't' || s == '-' || s == 'Z') : s != want)
        break;
    }
    if (i == t->n)
      return 1;
    sleep(1);
  }
  snprintf(detail, sizeof detail, "tid %d is in state %c, want %s", t->tids[i], s,
           want == '!' ? "running or sleeping" : want == 't' ? "t (tracing stop)" : "?");
  return 0;
}

// Read counters[0..n-1] of the (stopped) target through tid into v.
static int
peek_counters(int tid, int n, ulong *v)
{
  int r;

  for (int i = 0; i < n; i++)
    if ((r = ptrace(PTRACE_PEEKDATA, tid, (void *)&counters[i], &v[i])) < 0)
      return r;
  return 0;
}

// Has every thread of t made progress since before[]? Attaches t to look
// and detaches again. Returns 1, or 0 with detail set.
static int
made_progress(struct target *t, ulong *before)
{
  ulong now[MAXT];
  int r;

  sleep(15);
  if (!attach_target(t))
    return 0;
  r = peek_counters(t->pid, t->n, now);
  if (!detach_target(t))
    return 0;
  if (r < 0) {
    snprintf(detail, sizeof detail, "PTRACE_PEEKDATA: %s", val(r));
    return 0;
  }
  for (int i = 0; i < t->n; i++)
    if (now[i] <= before[i]) {
      snprintf(detail, sizeof detail, "thread %d (tid %d) made no progress: counter %lu then %lu",
               i, t->tids[i], before[i], now[i]);
      return 0;
    }
  return 1;
}

// ------------------------------------------------------------ tests

// Attach to and detach from every thread of a target with nthreads extra
// threads: the stops, the states, frozen counters, then progress again.
static void
attach_detach(int nthreads)
{
  struct target t;
  ulong c1[MAXT], c2[MAXT];
  int st = 0, r, ok = 1, tids[MAXT * 2], n = 0, fd, k;
  struct dirent de;
  char path[32];

  if (start_target(&t, nthreads, 0, 0) < 0)
    return;
  snprintf(path, sizeof path, "/proc/%d/task", t.pid);
  if ((fd = open(path, O_RDONLY)) >= 0) {
    while (n < MAXT * 2 && read(fd, &de, sizeof de) == sizeof de)
      if (de.name[0] >= '1' && de.name[0] <= '9')
        tids[n++] = atoi(de.name);
    close(fd);
  }
  for (k = 0; k < t.n && n == t.n; k++) {
    int found = 0;
    for (int j = 0; j < n; j++)
      found += tids[j] == t.tids[k];
    if (found != 1)
      break;
  }
  snprintf(detail, sizeof detail, "/proc/%d/task lists %d threads, want the %d the target made", t.pid, n, t.n);
  expect_true("tasklist", n == t.n && k == t.n, detail);

  for (int i = 0; i < t.n && ok; i++) {
    r = ptrace(PTRACE_ATTACH, t.tids[i], 0, 0);
    snprintf(detail, sizeof detail, "PTRACE_ATTACH tid %d: %s", t.tids[i], val(r));
    ok = r == 0;
  }
  if (!expect_true("attach", ok, detail))
    goto out;
  for (int i = 0; i < t.n && ok; i++) {
    r = waitpid(t.tids[i], &st, __WALL);
    snprintf(detail, sizeof detail, "waitpid(%d, __WALL) returned %s", t.tids[i], val(r));
    ok = r == t.tids[i];
    if (ok && !(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP)) {
      snprintf(detail, sizeof detail, "tid %d: %s, want stopped by SIGSTOP", t.tids[i], wstatus(st));
      ok = 0;
    }
  }
  expect_true("stopped", ok, detail);
  expect_true("state_t", states_are(&t, 't', 0), detail);
  for (int i = 0; i < t.n && ok; i++) {
    r = tracer_of(t.pid, t.tids[i]);
    snprintf(detail, sizeof detail, "tid %d: TracerPid %d, want %d", t.tids[i], r, getpid());
    ok = r == getpid();
  }
  expect_true("tracerpid", ok, detail);
  r = peek_counters(t.pid, t.n, c1);
  sleep(10);
  if (need("peek_counters", r) && need("peek_counters", peek_counters(t.pid, t.n, c2)))
    expect_true("frozen", memcmp(c1, c2, t.n * sizeof c1[0]) == 0,
                "a stopped thread's counter moved");
  if (!expect_true("detach", detach_target(&t), detail))
    goto out;
  expect_true("resumed", states_are(&t, '!', HZ), detail);
  for (int i = 0; i < t.n && ok; i++) {
    r = tracer_of(t.pid, t.tids[i]);
    snprintf(detail, sizeof detail, "tid %d: TracerPid %d after detach, want 0", t.tids[i], r);
    ok = r == 0;
  }
  expect_true("untraced", ok, detail);
  expect_true("progress", made_progress(&t, c2), detail);
out:
  stop_target(&t);
}

static void t_attach1(void) { attach_detach(0); }
static void t_attach8(void) { attach_detach(8); }

// PEEKDATA/POKEDATA: data and text, round trips, the tracee sees the
// change, our own copy does not change.
static void
t_peekpoke(void)
{
  struct target t;
  ulong w = 0, text = 0, *code = (ulong *)((ulong)pt_spinner & ~7UL);
  int st;

  if (start_target(&t, 0, 0, 0) < 0 || !need("attach", attach_wait(t.pid, &st)))
    goto out;
  expect("peek", ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, &w), 0);
  snprintf(detail, sizeof detail, "read 0x%lx, want 0x%lx", w, MAGIC0);
  expect_true("peek_value", w == MAGIC0, detail);
  expect("poke", ptrace(PTRACE_POKEDATA, t.pid, (void *)&magic, (void *)MAGIC1), 0);
  w = 0;
  ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, &w);
  snprintf(detail, sizeof detail, "read back 0x%lx, want 0x%lx", w, MAGIC1);
  expect_true("roundtrip", w == MAGIC1, detail);
  expect_true("private", magic == MAGIC0, "POKEDATA changed the tracer's own memory");
  // Text is the same binary: the word must equal our own copy.
  expect("peek_text", ptrace(PTRACE_PEEKDATA, t.pid, code, &text), 0);
  expect_true("peek_text_value", text == *code, "the tracee's text differs from this program's");
  // A debugger writes breakpoints into read-only text (FOLL_FORCE).
  expect("poke_text", ptrace(PTRACE_POKEDATA, t.pid, code, (void *)~text), 0);
  w = 0;
  ptrace(PTRACE_PEEKDATA, t.pid, code, &w);
  expect_true("poke_text_roundtrip", w == ~text, "the written text word did not read back");
  ptrace(PTRACE_POKEDATA, t.pid, code, (void *)text);
  expect_true("text_private", *code == text, "POKEDATA to text changed the tracer's text");
  need("detach", ptrace(PTRACE_DETACH, t.pid, 0, 0));
  st = 0;
  reap_within(t.pid, &st, 2 * HZ);
  snprintf(detail, sizeof detail, "target %s, want exited 42 (it exits on seeing the poked value)", wstatus(st));
  expect_true("seen", WIFEXITED(st) && WEXITSTATUS(st) == 42, detail);
out:
  stop_target(&t);
}

// PEEK/POKE outside the tracee's user memory fail (EIO, as on Linux); a
// bad buffer in the tracer is EFAULT.
static void
t_peekbad(void)
{
  static const struct { const char *name; ulong addr; } bad[] = {
    { "null", BAD_NULL }, { "kernel", BAD_KERN }, { "high", BAD_HIGH }, { "hole", BAD_HOLE },
  };
  struct target t;
  struct user_regs *regs = (struct user_regs *)BAD_KERN;
  char name[32];
  ulong w;
  int st;

  if (start_target(&t, 0, 0, 0) < 0 || !need("attach", attach_wait(t.pid, &st)))
    goto out;
  for (int i = 0; i < 4; i++) {
    snprintf(name, sizeof name, "peek_%s", bad[i].name);
    expect(name, ptrace(PTRACE_PEEKDATA, t.pid, (void *)bad[i].addr, &w), -EIO);
    snprintf(name, sizeof name, "poke_%s", bad[i].name);
    expect(name, ptrace(PTRACE_POKEDATA, t.pid, (void *)bad[i].addr, (void *)1), -EIO);
  }
  expect("peek_badbuf", ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, (void *)BAD_KERN), -EFAULT);
  expect("getregs_badbuf", ptrace(PTRACE_GETREGS, t.pid, 0, regs), -EFAULT);
  expect("setregs_badbuf", ptrace(PTRACE_SETREGS, t.pid, 0, regs), -EFAULT);
  expect("still_usable", ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, &w), 0);
out:
  stop_target(&t);
}

// GETREGS: the pc of a stopped thread lies in this program's text (the
// ELF's executable segment) and, for a spinning thread, inside the
// function it spins in (pt_spinner's symbol bounds).
static void
t_getregs(void)
{
  struct target t;
  struct user_regs r;
  ulong lo = 0, hi = 0, fn = 0, size = 0, pc = 0;
  int st;

  if (!need("elf_text", elf_text(SELF, &lo, &hi)) ||
      !need("elf_symbol", elf_symbol(SELF, "pt_spinner", &fn, &size)))
    return;
  expect_true("symbol", fn == (ulong)pt_spinner && size > 0,
              "the ELF's pt_spinner is not this program's");
  if (start_target(&t, 0, 1, 0) < 0)
    return;
  for (int i = 0; i < 2; i++) {             // the sleeping main, the spinner
    const char *who = i ? "spinner" : "main";
    char name[32];
    if (!need("attach", attach_wait(t.tids[i], &st)))
      break;
    snprintf(name, sizeof name, "getregs_%s", who);
    memset(&r, 0, sizeof r);
    expect(name, ptrace(PTRACE_GETREGS, t.tids[i], 0, &r), 0);
    pc = USER_REGS_PC(&r);
    snprintf(name, sizeof name, "pc_text_%s", who);
    snprintf(detail, sizeof detail, "pc 0x%lx outside the text [0x%lx, 0x%lx)", pc, lo, hi);
    expect_true(name, pc >= lo && pc < hi, detail);
    ptrace(PTRACE_DETACH, t.tids[i], 0, 0);
  }
  snprintf(detail, sizeof detail, "pc 0x%lx outside pt_spinner [0x%lx, 0x%lx)", pc, fn, fn + size);
  expect_true("pc_in_spinner", pc >= fn && pc < fn + size, detail);
  stop_target(&t);
}

// SETREGS: round trips, and a new pc takes effect (the spinner is sent to
// exit42()). Then, on a second target, a pc in the kernel only makes the
// tracee fault in user mode: SIGSEGV, reported to the tracer first (as
// Linux does for every signal but SIGKILL), fatal once passed on.
static void
t_setregs(void)
{
  struct target t;
  struct user_regs r0, r1, r2;
  int st = 0, tid, r = 0;

  if (start_target(&t, 0, 1, 0) < 0)
    return;
  tid = t.tids[1];
  if (!need("attach", attach_wait(tid, &st)) || !need("getregs", ptrace(PTRACE_GETREGS, tid, 0, &r0)))
    goto out;
  expect("same", ptrace(PTRACE_SETREGS, tid, 0, &r0), 0);
  ptrace(PTRACE_GETREGS, tid, 0, &r2);
  expect_true("same_roundtrip", memcmp(&r0, &r2, sizeof r0) == 0,
              "registers changed by writing them back");
  r1 = r0;
  for (int i = 0; i < (int)(sizeof r1 / sizeof(ulong)); i++)   // put back below
    ((ulong *)&r1)[i] = 0x0123456700000000UL + 0x1000UL * (i + 1);
#if defined(__x86_64__)
  // Segment selectors, bases and RFLAGS are privileged state that
  // SETREGS ignores on purpose: keep them as they were.
  r1.cs = r0.cs; r1.ss = r0.ss; r1.eflags = r0.eflags;
  r1.fs_base = r0.fs_base; r1.gs_base = r0.gs_base;
  r1.ds = r0.ds; r1.es = r0.es; r1.fs = r0.fs; r1.gs = r0.gs;
#endif
  expect("changed", ptrace(PTRACE_SETREGS, tid, 0, &r1), 0);
  ptrace(PTRACE_GETREGS, tid, 0, &r2);
  expect_true("changed_roundtrip", memcmp(&r1, &r2, sizeof r1) == 0,
              "GETREGS does not return what SETREGS set");
  r1 = r0;
  USER_REGS_PC(&r1) = (ulong)exit42;
  expect("redirect", ptrace(PTRACE_SETREGS, tid, 0, &r1), 0);
  ptrace(PTRACE_DETACH, tid, 0, 0);
  st = 0;
  reap_within(t.pid, &st, 2 * HZ);
  snprintf(detail, sizeof detail, "target %s, want exited 42 (from exit42())", wstatus(st));
  if (expect_true("pc_redirect", WIFEXITED(st) && WEXITSTATUS(st) == 42, detail))
    t.pid = 0;

  if (t.pid > 0)
    stop_target(&t);
  if (start_target(&t, 0, 1, 0) < 0)
    return;
  tid = t.tids[1];
  if (!need("attach", attach_wait(tid, &st)) || !need("getregs", ptrace(PTRACE_GETREGS, tid, 0, &r1)))
    goto out;
  USER_REGS_PC(&r1) = BAD_KERN;
  ptrace(PTRACE_SETREGS, tid, 0, &r1);
  ptrace(PTRACE_CONT, tid, 0, 0);
  st = 0;
  for (int i = 0; i < 2 * HZ && (r = waitpid(tid, &st, __WALL | WNOHANG)) == 0; i++)
    sleep(1);
  snprintf(detail, sizeof detail, "waitpid(%d, __WALL) %s (%s); want stopped by SIGSEGV",
           tid, val(r), r > 0 ? wstatus(st) : "no status");
  expect_true("kernel_pc_segv", r == tid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSEGV, detail);
  if (r == tid && WIFSTOPPED(st))
    ptrace(PTRACE_DETACH, tid, 0, (void *)SIGSEGV);
  st = 0;
  r = reap_within(t.pid, &st, 2 * HZ);
  snprintf(detail, sizeof detail, "target %s, want killed by SIGSEGV", r > 0 ? wstatus(st) : "not reaped");
  if (expect_true("kernel_pc_fatal",
                  r == t.pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, detail))
    return;
out:
  stop_target(&t);
}

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
static int
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
static void
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
static void
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

// Signals to a tracee stop it and are reported first; the tracer decides:
// CONT without the signal cancels it, DETACH with it delivers it.
static void
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

// A tracer that dies while its tracees are stopped leaves them running.
static void
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
static void
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
static int
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
static void
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
static void
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
static void
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
static void
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

static void t_mgdbloop(void) { mgdb_refused(0); }
static void t_mgdbgdb15(void) { mgdb_refused(1); }

// ------------------------------------------------------------ the tests

static const struct test tests[] = {
  { "attach1", t_attach1 },
  { "attach8", t_attach8 },
  { "peekpoke", t_peekpoke },
  { "peekbad", t_peekbad },
  { "getregs", t_getregs },
  { "setregs", t_setregs },
  { "perm", t_perm },
  { "sigreport", t_sigreport },
  { "tracerdeath", t_tracerdeath },
  { "ptkill", t_ptkill },
  { "tasklist", t_tasklist },
  { "snapshot", t_snapshot },
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
