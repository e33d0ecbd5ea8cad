// ptracetests: what a debugger that starts and steps programs needs
// (gdbserver): PTRACE_TRACEME, PTRACE_O_TRACECLONE and its event stops,
// PTRACE_SINGLESTEP, software breakpoints, PTRACE_O_EXITKILL.

#include "ptracetests.h"

static volatile int dbg_thread_ran;

// The loop the debugged children run: a call to a function of its own
// (for breakpoints: aligned, as PEEKDATA and POKEDATA want) and a system
// call (for steps across one).
__attribute__((noinline, aligned(8))) void
dbg_tick(void)
{
  counters[1]++;
}

static void __attribute__((noreturn))
dbg_loop(void)
{
  for (;;) {
    counters[0]++;
    dbg_tick();
    getpid();
  }
}

// A child traced by us from its first instruction on (PTRACE_TRACEME),
// stopped by its own SIGSTOP; it then runs fn. Returns its pid, or -1
// (the child is reaped).
static int
start_traced_child(void (*fn)(void))
{
  int pid, st = 0, r;

  pid = tfork();
  if (pid == 0) {
    if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
      exit(10);
    kill(getpid(), SIGSTOP);
    fn();
    exit(0);
  }
  if (!need("fork", pid))
    return -1;
  r = wait_ticks(pid, &st, __WALL, 10 * HZ);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by SIGSTOP", val(r), wstatus(st));
  if (!expect_true("child_stops", r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, detail)) {
    kill(pid, SIGKILL);
    reap_within(pid, &st, 5 * HZ);
    return -1;
  }
  return pid;
}

// Kill a traced child and reap it.
static void
end_child(int pid)
{
  int st;

  if (pid > 0) {
    kill(pid, SIGKILL);
    reap_within(pid, &st, 5 * HZ);
  }
}

static void
exec_echo(void)
{
  char *argv[] = { "echo", "traceme:", "exec", "done", 0 };

  if (ptrace(PTRACE_TRACEME, 0, 0, 0) != -EPERM)   // twice: already traced
    exit(11);
  exec("/echo", argv);
  exit(12);
}

// traceme: a child that calls PTRACE_TRACEME is traced by its parent
// (TracerPid), a second call fails with EPERM (else the child exits 11),
// and its exec stops it
// with SIGTRAP before the new program runs; continued, it runs to the end.
void
t_traceme(void)
{
  int pid, st = 0, r;
  struct procstat ps;

  if ((pid = start_traced_child(exec_echo)) < 0)
    return;
  expect("tracerpid", tracer_of(pid, pid), getpid());
  need("cont", ptrace(PTRACE_CONT, pid, 0, 0));
  r = wait_ticks(pid, &st, __WALL, 10 * HZ);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by SIGTRAP after the exec",
           val(r), wstatus(st));
  if (expect_true("exec_sigtrap", r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, detail)) {
    snprintf(detail, sizeof detail, "comm %s, want echo", task_stat(pid, pid, &ps) == 0 ? ps.comm : "?");
    expect_true("new_image", task_stat(pid, pid, &ps) == 0 && strcmp(ps.comm, "echo") == 0, detail);
    ptrace(PTRACE_CONT, pid, 0, 0);
  }
  r = reap_within(pid, &st, 10 * HZ);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want exited 0", val(r), wstatus(st));
  if (!expect_true("runs_on", r == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0, detail))
    end_child(pid);
}

static void
clone_thread(void *arg)
{
  (void)arg;
  dbg_thread_ran = 1;
  for (;;)
    sleep(1);
}

static void
clone_one(void)
{
  if (thread_create(clone_thread, 0) < 0)
    exit(13);
  dbg_loop();
}

// Collect the two stops a traced clone makes, in either order: the
// parent's PTRACE_EVENT_CLONE (its message the new tid) and the new
// thread's SIGSTOP. Returns the new tid, or -1 with a FAIL line.
static int
clone_stops(int pid)
{
  int st, r, tid = -1, event = 0, stop = 0;
  ulong msg = 0;

  for (int i = 0; i < 2; i++) {
    r = wait_ticks(-1, &st, __WALL, 10 * HZ);
    if (r == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP && (st >> 16) == PTRACE_EVENT_CLONE) {
      expect("geteventmsg", ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg), 0);
      event = (int)msg;
    } else if (r > 0 && r != pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP) {
      stop = r;
    } else {
      snprintf(detail, sizeof detail, "stop %d: waitpid %s, %s; want PTRACE_EVENT_CLONE of %d "
               "and SIGSTOP of the new thread", i + 1, val(r), wstatus(st), pid);
      expect_true("clone_stops", 0, detail);
      return -1;
    }
  }
  snprintf(detail, sizeof detail, "event message %d, SIGSTOP from %d", event, stop);
  if (expect_true("event_names_the_thread", event > 0 && event == stop, detail))
    tid = stop;
  return tid;
}

// traceclone: with PTRACE_O_TRACECLONE, a new thread is traced from
// birth: the creator stops at PTRACE_EVENT_CLONE (PTRACE_GETEVENTMSG
// gives the tid), the thread stops with SIGSTOP before its first
// instruction, and both run on when continued. Unknown options: EINVAL.
void
t_traceclone(void)
{
  int pid, tid, st;
  ulong ran = 1;

  if ((pid = start_traced_child(clone_one)) < 0)
    return;
  expect("bad_option", ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)0x2UL), -EINVAL);
  expect("setoptions", ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)PTRACE_O_TRACECLONE), 0);
  need("cont", ptrace(PTRACE_CONT, pid, 0, 0));
  tid = clone_stops(pid);
  if (tid > 0) {
    expect("thread_traced", tracer_of(pid, tid), getpid());
    expect("peek", ptrace(PTRACE_PEEKDATA, tid, (void *)&dbg_thread_ran, &ran), 0);
    snprintf(detail, sizeof detail, "dbg_thread_ran %lu at its SIGSTOP, want 0", ran & 0xffffffff);
    expect_true("stopped_before_running", (ran & 0xffffffff) == 0, detail);
    expect("cont_thread", ptrace(PTRACE_CONT, tid, 0, 0), 0);
    expect("cont_creator", ptrace(PTRACE_CONT, pid, 0, 0), 0);
    sleep(HZ / 2);
    int w = waitpid(-1, &st, __WALL | WNOHANG);
    snprintf(detail, sizeof detail, "waitpid after both ran on: %s", val(w));
    expect_true("no_more_stops", w == 0, detail);
  }
  end_child(pid);
}

#if HAVE_SINGLE_STEP
// Single-step pid once; returns its pc after the step, or 0 with a FAIL.
static ulong
step_once(int pid, const char *check)
{
  struct user_regs r;
  int st = 0, w;

  if (ptrace(PTRACE_SINGLESTEP, pid, 0, 0) < 0)
    return 0;
  w = wait_ticks(pid, &st, __WALL, 10 * HZ);
  if (w != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
    snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by SIGTRAP", val(w), wstatus(st));
    expect_true(check, 0, detail);
    return 0;
  }
  if (ptrace(PTRACE_GETREGS, pid, 0, &r) < 0)
    return 0;
  return USER_REGS_PC(&r);
}

// The stub's syscall instruction (0f 05) is at getpid+8, its ret at +10
// (user/lib/x86_64/usys.S).
#define SYSCALL_AT ((ulong)getpid + 8)

// Step pid until its pc is the syscall instruction of getpid(), then
// across it: the step must end on the ret right after, as on Linux
// (without the report at the system call's end, TF traps one
// instruction later, past the ret).
static void
step_syscall(int pid)
{
  ulong pc = 0;
  int n;

  for (n = 0; n < 2000 && pc != SYSCALL_AT; n++)
    if ((pc = step_once(pid, "steps")) == 0)
      return;
  snprintf(detail, sizeof detail, "%d steps did not reach getpid's syscall at %lx", n, SYSCALL_AT);
  if (!expect_true("reach_syscall", pc == SYSCALL_AT, detail))
    return;
  pc = step_once(pid, "step_syscall");
  snprintf(detail, sizeof detail, "pc %lx after stepping the syscall at %lx, want %lx (the ret)",
           pc, SYSCALL_AT, SYSCALL_AT + 2);
  expect_true("step_across_syscall", pc == SYSCALL_AT + 2, detail);
}
#endif

// singlestep: where the CPU can step (x86_64), each PTRACE_SINGLESTEP
// runs one instruction and stops with SIGTRAP; TF is not shown to the
// debugger; a step across a system call ends right after it; and after
// PTRACE_CONT the program runs with no more traps. Where it cannot
// (riscv64): -EIO, as on Linux, and the tracee is unharmed.
void
t_singlestep(void)
{
  int pid, st;
  ulong before, after;
  struct user_regs r;

  if ((pid = start_traced_child(dbg_loop)) < 0)
    return;
#if HAVE_SINGLE_STEP
  ulong pc0, pc1;
  if (need("getregs", ptrace(PTRACE_GETREGS, pid, 0, &r))) {
    pc0 = USER_REGS_PC(&r);
    pc1 = step_once(pid, "step");
    snprintf(detail, sizeof detail, "pc %lx -> %lx", pc0, pc1);
    expect_true("one_instruction", pc1 != 0 && pc1 != pc0, detail);
    need("getregs", ptrace(PTRACE_GETREGS, pid, 0, &r));
    snprintf(detail, sizeof detail, "eflags %lx after a step: TF shown", r.eflags);
    expect_true("tf_hidden", !(r.eflags & 0x100), detail);
    step_syscall(pid);
  }
#else
  expect("singlestep_eio", ptrace(PTRACE_SINGLESTEP, pid, 0, 0), -EIO);
  expect("still_stopped", ptrace(PTRACE_GETREGS, pid, 0, &r), 0);
#endif
  ptrace(PTRACE_PEEKDATA, pid, (void *)&counters[0], &before);
  need("cont", ptrace(PTRACE_CONT, pid, 0, 0));
  sleep(HZ / 2);
  int w = waitpid(pid, &st, __WALL | WNOHANG);
  snprintf(detail, sizeof detail, "a stop after PTRACE_CONT: waitpid %s", val(w));
  expect_true("cont_runs_free", w == 0, detail);
  kill(pid, SIGSTOP);
  if (wait_ticks(pid, &st, __WALL, 10 * HZ) == pid) {
    ptrace(PTRACE_PEEKDATA, pid, (void *)&counters[0], &after);
    snprintf(detail, sizeof detail, "counter %lu -> %lu", before, after);
    expect_true("made_progress", after > before, detail);
  }
  end_child(pid);
}

// breakpoint: a breakpoint instruction written with POKEDATA into the
// text stops the tracee with SIGTRAP at it (the pc DECR_PC_AFTER_BREAK
// past it); with the word put back and the pc set to it, the program
// runs on unharmed.
void
t_breakpoint(void)
{
  int pid, st = 0, w;
  ulong addr = (ulong)dbg_tick, word, bp, before, after;
  struct user_regs r;

  if ((pid = start_traced_child(dbg_loop)) < 0)
    return;
  if (!need("peek", ptrace(PTRACE_PEEKDATA, pid, (void *)addr, &word)))
    goto out;
  bp = (word & ~((1UL << (8 * BREAKPOINT_LEN)) - 1)) | BREAKPOINT_INSN;
  expect("poke", ptrace(PTRACE_POKEDATA, pid, (void *)addr, (void *)bp), 0);
  need("cont", ptrace(PTRACE_CONT, pid, 0, 0));
  w = wait_ticks(pid, &st, __WALL, 10 * HZ);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by SIGTRAP", val(w), wstatus(st));
  if (!expect_true("hit", w == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGTRAP, detail))
    goto out;
  need("getregs", ptrace(PTRACE_GETREGS, pid, 0, &r));
  snprintf(detail, sizeof detail, "pc %lx, want %lx", USER_REGS_PC(&r), addr + DECR_PC_AFTER_BREAK);
  expect_true("pc", USER_REGS_PC(&r) == addr + DECR_PC_AFTER_BREAK, detail);
  ptrace(PTRACE_PEEKDATA, pid, (void *)&counters[1], &before);
  expect("unpoke", ptrace(PTRACE_POKEDATA, pid, (void *)addr, (void *)word), 0);
  USER_REGS_PC(&r) = addr;
  expect("setregs", ptrace(PTRACE_SETREGS, pid, 0, &r), 0);
  need("cont", ptrace(PTRACE_CONT, pid, 0, 0));
  sleep(HZ / 2);
  kill(pid, SIGSTOP);
  w = wait_ticks(pid, &st, __WALL, 10 * HZ);
  snprintf(detail, sizeof detail, "waitpid %s, %s; want stopped by our SIGSTOP", val(w), wstatus(st));
  if (expect_true("runs_on", w == pid && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP, detail)) {
    ptrace(PTRACE_PEEKDATA, pid, (void *)&counters[1], &after);
    snprintf(detail, sizeof detail, "dbg_tick ran %lu -> %lu times", before, after);
    expect_true("made_progress", after > before, detail);
  }
out:
  end_child(pid);
}

// exitkill: a tracer that set PTRACE_O_EXITKILL takes its tracee with it
// when it exits (a debugger that started a program); without it, the
// tracee runs on (t_tracerdeath).
void
t_exitkill(void)
{
  struct target t;
  int helper, st = 0, r;

  if (start_target(&t, 0, 0, 0) < 0)
    return;
  helper = tfork();
  if (helper == 0) {
    if (attach_wait(t.pid, &st) < 0)
      exit(20);
    if (ptrace(PTRACE_SETOPTIONS, t.pid, 0, (void *)PTRACE_O_EXITKILL) < 0)
      exit(21);
    exit(0);
  }
  r = reap_within(helper, &st, 10 * HZ);
  snprintf(detail, sizeof detail, "helper %s", wstatus(st));
  if (expect_true("tracer_done", r == helper && WIFEXITED(st) && WEXITSTATUS(st) == 0, detail)) {
    r = reap_within(t.pid, &st, 10 * HZ);
    snprintf(detail, sizeof detail, "target: waitpid %s, %s; want killed by SIGKILL", val(r), wstatus(st));
    if (expect_true("tracee_killed", r == t.pid && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL, detail))
      return;
  }
  stop_target(&t);
}
