// gdbserver: the inferior, through ptrace: its threads (lwps), starting
// and attaching, stopping and resuming, memory and breakpoints. In the
// manner of GDB's gdbserver/linux-low.cc, in all-stop mode: when one
// thread stops for GDB, every other thread is stopped too (SIGSTOP), and
// a resume lets them all go.

#include "gdbserver.h"

int inferior_pid, inferior_attached, gdb15;
volatile int inferior_running;

struct breakpoint {
  ulong addr;
  int kind;                     // bytes: BREAKPOINT_LEN, or 2 (riscv's c.ebreak)
  uchar saved[8];               // what the breakpoint covers
};
static struct breakpoint bps[MAXBP];
static int nbp;

// ------------------------------------------------------------ threads

// waitpid(tid, __WALL) that a signal does not cut short.
static int
wait_lwp(int tid, int *st)
{
  int r;

  while ((r = waitpid(tid, st, __WALL)) == -EINTR)
    ;
  return r;
}

int
thread_name(int tid, char *name, int size)
{
  struct procstat ps;

  if (task_stat(inferior_pid, tid, &ps) < 0)
    return -1;
  snprintf(name, size, "%s", ps.comm);
  return 0;
}

// The stopped thread memory requests go through (any will do: they share
// the address space), or NULL.
static struct lwp *
memory_lwp(void)
{
  for (int i = 0; i < nlwp; i++)
    if (lwps[i].stopped)
      return &lwps[i];
  return NULL;
}

int
lwp_regs(struct lwp *lp, struct user_regs *r)
{
  return ptrace(PTRACE_GETREGS, lp->tid, 0, r);
}

int
lwp_set_regs(struct lwp *lp, const struct user_regs *r)
{
  return ptrace(PTRACE_SETREGS, lp->tid, 0, (void *)r);
}

// ------------------------------------------------------------ memory

// Read or write len bytes at addr, a word at a time (ptrace moves aligned
// words). Returns the bytes done before a failure.
static int
access_words(ulong addr, uchar *buf, int len, int write)
{
  struct lwp *lp = memory_lwp();
  int done = 0;

  if (!lp)
    return 0;
  while (done < len) {
    ulong a = (addr + done) & ~7UL, word;
    int off = (addr + done) & 7, n = 8 - off < len - done ? 8 - off : len - done;
    if (ptrace(PTRACE_PEEKDATA, lp->tid, (void *)a, &word) < 0)
      break;
    if (write) {
      memcpy((uchar *)&word + off, buf + done, n);
      if (ptrace(PTRACE_POKEDATA, lp->tid, (void *)a, (void *)word) < 0)
        break;
    } else {
      memcpy(buf + done, (uchar *)&word + off, n);
    }
    done += n;
  }
  return done;
}

// Memory as the program sees it: a breakpoint's bytes read as what it
// covers (GDB asks for the program's text, not our traps).
int
read_inferior_memory(ulong addr, uchar *buf, int len)
{
  int n = access_words(addr, buf, len, 0);

  for (int b = 0; b < nbp; b++)
    for (int i = 0; i < bps[b].kind; i++)
      if (bps[b].addr + i >= addr && bps[b].addr + i < addr + n)
        buf[bps[b].addr + i - addr] = bps[b].saved[i];
  return n;
}

// Write memory; bytes under a breakpoint go into what it saved, and the
// breakpoint stays. Returns 0, or -1 if not all of it could be written.
int
write_inferior_memory(ulong addr, const uchar *buf, int len)
{
  uchar tmp[PBUFSIZ / 2];

  if (len > (int)sizeof tmp)
    return -1;
  memcpy(tmp, buf, len);   // a breakpoint's bytes go over it for now
  for (int b = 0; b < nbp; b++)
    for (int i = 0; i < bps[b].kind; i++)
      if (bps[b].addr + i >= addr && bps[b].addr + i < addr + len)
        bps[b].saved[i] = tmp[bps[b].addr + i - addr];
  if (access_words(addr, tmp, len, 1) != len)
    return -1;
  // Put the breakpoints back over what was just written.
  for (int b = 0; b < nbp; b++) {
    ulong insn = bps[b].kind == BREAKPOINT_LEN ? BREAKPOINT_INSN : BREAKPOINT_INSN_C;
    if (bps[b].addr < addr + len && bps[b].addr + bps[b].kind > addr)
      access_words(bps[b].addr, (uchar *)&insn, bps[b].kind, 1);
  }
  return 0;
}

// ------------------------------------------------------------ breakpoints

static struct breakpoint *
find_breakpoint(ulong addr)
{
  for (int b = 0; b < nbp; b++)
    if (bps[b].addr == addr)
      return &bps[b];
  return NULL;
}

// Z0: a software breakpoint of kind bytes at addr (GDB's kinds: 1 on
// x86, 4 or 2 on riscv). Returns 0, or -1 (bad kind, no room, no memory).
int
insert_breakpoint(ulong addr, int kind)
{
  struct breakpoint *bp = find_breakpoint(addr);
  ulong insn;

  if (bp)
    return bp->kind == kind ? 0 : -1;
  if (kind == BREAKPOINT_LEN)
    insn = BREAKPOINT_INSN;
  else if (kind == 2 && BREAKPOINT_INSN_C)
    insn = BREAKPOINT_INSN_C;
  else
    return -1;
  if (nbp == MAXBP)
    return -1;
  bp = &bps[nbp];
  bp->addr = addr;
  bp->kind = kind;
  if (access_words(addr, bp->saved, kind, 0) != kind || access_words(addr, (uchar *)&insn, kind, 1) != kind)
    return -1;
  nbp++;
  return 0;
}

int
remove_breakpoint(ulong addr, int kind)
{
  struct breakpoint *bp = find_breakpoint(addr);

  if (!bp || bp->kind != kind)
    return -1;
  access_words(addr, bp->saved, kind, 1);
  *bp = bps[--nbp];
  return 0;
}

// Take every breakpoint out (before we let go of the program).
static void
remove_all_breakpoints(void)
{
  while (nbp > 0)
    remove_breakpoint(bps[0].addr, bps[0].kind);
}

// Did lp's SIGTRAP come from one of our breakpoints? If so, move its pc
// back onto the breakpoint where the CPU leaves it past (x86) and say so.
static int
stopped_by_breakpoint(struct lwp *lp)
{
  struct user_regs r;
  ulong pc;

  if (lwp_regs(lp, &r) < 0)
    return 0;
  pc = regs_pc(&r) - DECR_PC_AFTER_BREAK;
  if (!find_breakpoint(pc))
    return 0;
  if (DECR_PC_AFTER_BREAK) {
    regs_set_pc(&r, pc);
    lwp_set_regs(lp, &r);
  }
  return 1;
}

// ------------------------------------------------------------ starting, attaching

// Start argv under ptrace (PTRACE_TRACEME, then exec, which stops it with
// SIGTRAP before its first instruction). Returns its pid, or -1.
int
start_inferior(char **argv)
{
  char path[128];
  int pid, st;

  snprintf(path, sizeof path, "%s%s", strchr(argv[0], '/') ? "" : "/", argv[0]);
  pid = fork();
  if (pid == 0) {
    ptrace(PTRACE_TRACEME, 0, 0, 0);
    exec(path, argv);
    fprintf(STDERR, "gdbserver: cannot exec %s\n", path);
    exit(127);
  }
  if (pid < 0 || wait_lwp(pid, &st) != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGTRAP) {
    fprintf(STDERR, "gdbserver: %s did not start\n", path);
    return -1;
  }
  // New threads are ours from birth; the program dies with us.
  ptrace(PTRACE_SETOPTIONS, pid, 0, (void *)(PTRACE_O_TRACECLONE | PTRACE_O_EXITKILL));
  inferior_pid = pid;
  inferior_attached = 0;
  nlwp = 0;
  add_lwp(pid)->stopped = 1;
  printf("Process %s created; pid = %d\n", path, pid);
  return pid;
}

// Wait until lp stops with the SIGSTOP we sent it (attach, stop_all); a
// different signal that stops it first is kept to give back on resume.
// Returns 0, or -1 if the thread is gone.
static int
wait_for_sigstop(struct lwp *lp)
{
  int st, sig;

  for (;;) {
    if (wait_lwp(lp->tid, &st) != lp->tid || !WIFSTOPPED(st))
      return -1;
    sig = WSTOPSIG(st);
    if (sig == SIGSTOP && (st >> 16) == 0)
      break;
    if ((st >> 16) == 0 && !(sig == SIGTRAP && (lp->stepping || stopped_by_breakpoint(lp))))
      lp->pending_sig = sig;   // a step or a breakpoint hit again on resume
    ptrace(PTRACE_CONT, lp->tid, 0, 0);
  }
  lp->stopped = 1;
  lp->sigstop_expected = 0;
  return 0;
}

// Attach one thread (gdbserver's linux_attach_lwp()): 0 or -errno.
static int
attach_lwp(int tid)
{
  struct lwp *lp;
  int r = ptrace(PTRACE_ATTACH, tid, 0, 0);

  if (r < 0)
    return r;
  if (!(lp = add_lwp(tid)))
    return -ENOMEM;
  if (wait_for_sigstop(lp) < 0) {
    drop_lwp(lp);
    return 0;
  }
  ptrace(PTRACE_SETOPTIONS, tid, 0, (void *)PTRACE_O_TRACECLONE);
  return 0;
}

// gdbserver's attach_proc_task_lwp_callback() for a thread not tracked
// yet. A failure is a warning and not remembered -- so that, as in
// gdbserver 10, the next pass over /proc/PID/task finds the thread again
// (user/lib/lwp.c) -- or, with --gdb15, an error (-1).
static int
attach_task_lwp(int tid)
{
  char reason[96];
  int r = attach_lwp(tid);

  if (r == 0 || r == -ESRCH || (r == -EPERM && linux_proc_pid_is_gone(inferior_pid, tid)))
    return 0;
  linux_ptrace_attach_fail_reason_string(inferior_pid, tid, reason, sizeof reason);
  fprintf(STDERR, "gdbserver: Cannot attach to lwp %d: %s (%d)%s\n", tid, strerror(r), -r, reason);
  return gdb15 ? -1 : 0;
}

// Attach to process pid and all its threads. Returns 0, or -errno with
// nothing held.
int
attach_inferior(int pid)
{
  int r;

  nlwp = 0;
  inferior_pid = pid;
  inferior_attached = 1;
  if ((r = attach_lwp(pid)) < 0 || nlwp == 0 ||
      (r = linux_proc_attach_tgid_threads(pid, attach_task_lwp, 0)) < 0) {
    for (int i = 0; i < nlwp; i++)
      ptrace(PTRACE_DETACH, lwps[i].tid, 0, 0);
    nlwp = 0;
    inferior_pid = 0;
    return r == -1 ? -EPERM : r < 0 ? r : -ESRCH;
  }
  printf("Attached; pid = %d\n", pid);
  return 0;
}

// ------------------------------------------------------------ run control

void
resume_lwp(struct lwp *lp, int step, int sig)
{
  if (!lp->stopped)
    return;
  if (!sig)
    sig = lp->pending_sig;
  lp->pending_sig = 0;
  lp->stepping = step;
  lp->stopped = 0;
  ptrace(step ? PTRACE_SINGLESTEP : PTRACE_CONT, lp->tid, 0, (void *)(long)sig);
}

// Stop every running thread but the one that just stopped (all-stop).
static void
stop_all(void)
{
  for (int i = 0; i < nlwp; i++)
    if (!lwps[i].stopped) {
      tgkill(inferior_pid, lwps[i].tid, SIGSTOP);
      lwps[i].sigstop_expected = 1;
    }
  for (int i = 0; i < nlwp; i++)
    if (!lwps[i].stopped && wait_for_sigstop(&lwps[i]) < 0)
      drop_lwp(&lwps[i--]);
}

// A thread was born (PTRACE_EVENT_CLONE of its creator, or its first
// SIGSTOP, whichever wait sees first): track it and let it run.
static void
new_thread(int tid, int seen_stop)
{
  struct lwp *lp = find_lwp(tid);

  if (!lp) {
    if (!(lp = add_lwp(tid)))
      return;
    lp->sigstop_expected = 1;
  }
  if (seen_stop) {
    lp->sigstop_expected = 0;
    lp->stopped = 1;
    resume_lwp(lp, 0, 0);
  }
}

// Wait until a thread stops for GDB (a signal, a breakpoint, a step's
// end) or the process ends; then stop every other thread. Thread births
// and deaths are dealt with on the way.
void
wait_for_event(struct event *ev)
{
  int st, r, sig;
  struct lwp *lp;
  ulong msg;

  memset(ev, 0, sizeof *ev);
  for (;;) {
    r = wait_lwp(-1, &st);
    if (r < 0) {                        // nothing left to wait for
      ev->kind = EV_EXITED;
      break;
    }
    lp = find_lwp(r);
    if (!WIFSTOPPED(st)) {              // a thread or the process ended
      if (r == inferior_pid) {
        ev->kind = WIFEXITED(st) ? EV_EXITED : EV_SIGNALLED;
        ev->sig = WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st);
        break;
      }
      if (lp)
        drop_lwp(lp);
      continue;
    }
    sig = WSTOPSIG(st);
    if (!lp) {                          // a new thread, before its creator's event
      new_thread(r, 1);
      continue;
    }
    lp->stopped = 1;
    if ((st >> 16) == PTRACE_EVENT_CLONE) {
      if (ptrace(PTRACE_GETEVENTMSG, r, 0, &msg) == 0)
        new_thread((int)msg, 0);
      resume_lwp(lp, 0, 0);
      continue;
    }
    if (sig == SIGSTOP && lp->sigstop_expected) {   // a new thread's first stop
      lp->sigstop_expected = 0;
      resume_lwp(lp, 0, 0);
      continue;
    }
    ev->kind = EV_STOP;
    ev->tid = r;
    ev->sig = sig;
    if (sig == SIGTRAP && !lp->stepping)
      ev->swbreak = stopped_by_breakpoint(lp);
    lp->stepping = 0;
    break;
  }
  inferior_running = 0;
  if (ev->kind == EV_STOP)
    stop_all();
  else
    nlwp = 0, inferior_pid = 0;
}

// Ctrl-C from GDB while the program runs (main.c's reader thread): a
// SIGINT to the process, whose first thread to take it stops; GDB is
// told "SIGINT" and does not pass it on (gdbserver's request_interrupt()).
void
interrupt_inferior(void)
{
  if (inferior_pid && inferior_running)
    kill(inferior_pid, SIGINT);
}

// Let the program go, as it was before we came: breakpoints out, each
// thread detached with the signal it had pending.
void
detach_inferior(void)
{
  remove_all_breakpoints();
  for (int i = 0; i < nlwp; i++)
    ptrace(PTRACE_DETACH, lwps[i].tid, 0, (void *)(long)lwps[i].pending_sig);
  printf("Detaching from process %d\n", inferior_pid);
  nlwp = 0;
  inferior_pid = 0;
}

// End the program, and wait until it is gone.
void
kill_inferior(void)
{
  int st, r;

  if (!inferior_pid)
    return;
  kill(inferior_pid, SIGKILL);
  while ((r = wait_lwp(-1, &st)) > 0 && !(r == inferior_pid && !WIFSTOPPED(st)))
    ;
  nlwp = 0;
  inferior_pid = 0;
}
