// ptracetests: attach and detach, PEEK/POKE, GETREGS/SETREGS.

#include "ptracetests.h"

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

void t_attach1(void) { attach_detach(0); }
void t_attach8(void) { attach_detach(8); }

// PEEKDATA/POKEDATA: data and text, round trips, the tracee sees the
// change, our own copy does not change.
void
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
void
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
void
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
void
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

// ------------------------------------------------------------ stopstate

#define STOP_ROUNDS 100

// Fork a child that reads /proc/pid/status in a loop until it is killed
// (or the file goes). Each read holds tasklist_lock, so a thread on its
// way into a stop often waits for that lock between marking the stop and
// sleeping. Returns the child's pid.
static int
proc_reader(int pid)
{
  char path[32], buf[256];
  int h = tfork(), fd;

  if (h != 0)
    return h;
  snprintf(path, sizeof path, "/proc/%d/status", pid);
  while ((fd = open(path, O_RDONLY)) >= 0) {
    while (read(fd, buf, sizeof buf) > 0)
      ;
    close(fd);
  }
  exit(0);
}

// waitpid(pid, st, flags | WNOHANG) until it reports something (no
// sleep between tries: the caller must look at /proc the moment it
// returns), for up to 10 s. Its result, 0 if nothing came.
static int
waitpid_spin(int pid, int *st, int flags)
{
  int r, deadline = uptime() + 10 * HZ;

  while ((r = waitpid(pid, st, flags | WNOHANG)) == 0 && uptime() < deadline)
    ;
  return r;
}

// The first of the n threads of t not in state want, or 0 if all are.
static int
not_in_state(struct target *t, char want, char *got)
{
  for (int i = 0; i < t->n; i++)
    if ((*got = state_of(t->pid, t->tids[i])) != want)
      return t->tids[i];
  return 0;
}

// A stop is in its state before anyone is told of it, as Linux's
// set_special_state() before the notification: the moment waitpid()
// reports a ptrace stop, /proc shows the thread in t; the moment it
// reports a group stop, every thread is in T. Two readers of /proc keep
// tasklist_lock busy (the stopping thread takes it to notify), so a
// kernel that sets the state only once it goes to sleep is caught in R.
void
t_stopstate(void)
{
  struct target t;
  int st, r, rd[2], wrong = 0, tid = 0, i;
  char s = 0, first = '-';

  if (start_target(&t, 1, 1, 0) < 0)
    return;
  rd[0] = proc_reader(t.pid);
  rd[1] = proc_reader(t.pid);
  for (i = 0; i < STOP_ROUNDS; i++) {
    tid = t.tids[i % t.n];
    if ((r = ptrace(PTRACE_ATTACH, tid, 0, 0)) < 0 ||
        (r = waitpid_spin(tid, &st, __WALL)) != tid)
      break;
    if ((s = state_of(t.pid, tid)) != 't' && wrong++ == 0)
      first = s;
    if ((r = ptrace(PTRACE_DETACH, tid, 0, 0)) < 0)
      break;
  }
  snprintf(detail, sizeof detail, "%d of %d ptrace stops were not in t when waitpid reported them "
           "(first seen %c); round %d: %s", wrong, i, first, i, val(r));
  expect_true("traced", i == STOP_ROUNDS && wrong == 0, detail);

  wrong = 0;
  for (i = 0; i < STOP_ROUNDS; i++) {
    kill(t.pid, SIGSTOP);
    if ((r = waitpid_spin(t.pid, &st, WUNTRACED)) != t.pid || !WIFSTOPPED(st))
      break;
    if ((tid = not_in_state(&t, 'T', &s)) && wrong++ == 0)
      first = s;
    kill(t.pid, SIGCONT);
    if ((r = waitpid_spin(t.pid, &st, WCONTINUED)) != t.pid || !WIFCONTINUED(st))
      break;
  }
  snprintf(detail, sizeof detail, "%d of %d group stops had a thread not in T when waitpid reported "
           "them (first seen %c); ended at round %d: waitpid %s, %s", wrong, i, first, i, val(r), wstatus(st));
  expect_true("stopped", i == STOP_ROUNDS && wrong == 0, detail);

  for (i = 0; i < 2; i++) {
    kill(rd[i], SIGKILL);
    waitpid(rd[i], &st, 0);
  }
  stop_target(&t);
}

// PEEK/POKE racing the tracee's death: a third process sends SIGKILL
// while the tracer pokes and peeks as fast as it can, 30 times. Each
// call works or fails cleanly (ESRCH, EIO) as the tracee goes; none
// reaches its memory once it is freed, and the tracee is reaped.
void
t_pokeexit(void)
{
  struct target t;
  int st, killer, bad = 0, rounds = 0;
  long r;
  ulong w;

  for (; rounds < 30 && !bad; rounds++) {
    if (start_target(&t, 0, 0, 0) < 0 || !need("attach", attach_wait(t.pid, &st)))
      break;
    if ((killer = fork()) == 0) {
      sleep(1 + rounds % 3);
      kill(t.pid, SIGKILL);
      exit(0);
    }
    do {
      r = ptrace(PTRACE_POKEDATA, t.pid, (void *)&magic, (void *)MAGIC0);
      if (r == 0)
        r = ptrace(PTRACE_PEEKDATA, t.pid, (void *)&magic, &w);
    } while (r == 0);
    if (r != -ESRCH && r != -EIO) {
      snprintf(detail, sizeof detail, "round %d: ptrace returned %s, want 0, ESRCH or EIO",
               rounds, val(r));
      bad = 1;
    }
    waitpid(killer, 0, 0);
    st = 0;
    if (!bad && reap_within(t.pid, &st, 3 * HZ) != t.pid) {
      snprintf(detail, sizeof detail, "round %d: the killed tracee was not reaped in 3 s", rounds);
      bad = 1;
    } else if (!bad && !(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL)) {
      snprintf(detail, sizeof detail, "round %d: tracee %s, want killed by 9", rounds, wstatus(st));
      bad = 1;
    }
    if (bad)
      stop_target(&t);
  }
  expect_true("rounds_30", !bad && rounds == 30, bad ? detail : "a target did not start");
}

// attachstopped: attaching to a process in a group stop (kill -STOP)
// reports a stop, as on Linux: the attach's SIGSTOP takes the thread
// from the group stop to a tracing stop (waitpid once blocked for ever,
// GDB attaching to a stopped program with it). Detaching puts it back in
// the group stop, which its parent was told of, instead of letting it run.
void
t_attachstopped(void)
{
  struct target t;
  int st = 0, r;

  if (start_target(&t, 1, 0, 0) < 0)
    return;
  kill(t.pid, SIGSTOP);
  r = waitpid_spin(t.pid, &st, WUNTRACED);
  snprintf(detail, sizeof detail, "waitpid(WUNTRACED) %s, %s", val(r), wstatus(st));
  expect_true("group_stopped", r == t.pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, detail);
  expect("attach", ptrace(PTRACE_ATTACH, t.pid, 0, 0), 0);
  r = waitpid_spin(t.pid, &st, __WALL);
  snprintf(detail, sizeof detail, "waitpid(__WALL) %s, %s (no stop reported in 10 s?)", val(r), wstatus(st));
  expect_true("stop_reported", r == t.pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, detail);
  expect("in_tracing_stop", state_of(t.pid, t.pid), 't');
  ulong v;
  expect("peek_works", peek_counters(t.pid, 1, &v), 0);
  expect("detach", ptrace(PTRACE_DETACH, t.pid, 0, 0), 0);
  expect_true("back_in_group_stop", states_are(&t, 'T', 5 * HZ), detail);
  kill(t.pid, SIGCONT);
  char s = 'T';
  for (int i = 0; i < 5 * HZ && (s = state_of(t.pid, t.tids[1])) == 'T'; i++)
    sleep(1);
  snprintf(detail, sizeof detail, "thread %d still in %c after SIGCONT", t.tids[1], s);
  expect_true("runs_after_sigcont", s != 'T' && s != 't', detail);
  stop_target(&t);
}
