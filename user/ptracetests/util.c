// ptracetests: /proc, the ELF file, targets.

#include "ptracetests.h"

char detail[256];               // the detail of the next FAIL line

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
char
state_of(int pid, int tid)
{
  const char *s = status_field(pid, tid, "State:");

  return s ? *s : '-';
}

// The thread's TracerPid, or -1 if /proc has no such thread.
int
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
int
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
int
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
volatile int own_thread_go;      // perm: our own thread may end

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
__attribute__((noinline)) void
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
__attribute__((noinline)) void
exit42(void)
{
  exit(42);
}

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
int
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
int
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
int
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
int
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
int
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
int
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
int
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
           want == '!' ? "running or sleeping" : want == 't' ? "t (tracing stop)" :
           want == 'T' ? "T (group stop)" : "?");
  return 0;
}

// Read counters[0..n-1] of the (stopped) target through tid into v.
int
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
int
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
