// mgdb's inferior: the process it is attached to, its threads, attaching
// the way GDB 10 does, and run control (user/mgdb/mgdb.h).

#include "user.h"
#include "proc.h"
#include "lwp.h"
#include "mgdb.h"

int pid;                        // the inferior, 0 when not attached
struct lwp *cur;                // the selected thread
int running;                    // resumed by continue, not yet interrupted
int gdb15, max_passes, timing;  // the options: --gdb15, -n, -t
static int next_num = 1;        // GDB's number for the next new thread

// ------------------------------------------------------------ /proc

// The thread's state letter from /proc, or 0 if it is gone.
char
lwp_state(int tid)
{
  char buf[512];
  const char *s;

  if (task_status(pid, tid, buf, sizeof buf) <= 0 || !(s = proc_field(buf, "State:")))
    return 0;
  return *s;
}

// The thread's name from /proc into name (size bytes), "" if gone.
void
lwp_name(int tid, char *name, int size)
{
  char buf[512];
  const char *s;
  int i = 0;

  if (task_status(pid, tid, buf, sizeof buf) > 0 && (s = proc_field(buf, "Name:")))
    for (; i < size - 1 && s[i] && s[i] != '\n'; i++)
      name[i] = s[i];
  name[i] = 0;
}

// ------------------------------------------------------------ threads

// Track tid (user/lib/lwp.c), with the next GDB thread number.
static struct lwp *
new_lwp(int tid)
{
  struct lwp *lp = add_lwp(tid);

  if (lp)
    lp->num = next_num++;
  return lp;
}

// Forget lp (it exited or was let go).
static void
forget_lwp(struct lwp *lp)
{
  drop_lwp(lp);
  if (cur == lp || cur >= &lwps[nlwp])
    cur = nlwp ? &lwps[0] : NULL;
  else if (cur > lp)
    cur--;
}

// Wait for the next stop of tracee tid. Returns the stop signal, or -1 if
// the thread is gone (its exit reported, or nothing left to wait for).
// Polls with WNOHANG; the sleep between polls ends early when SIGCHLD
// (sent by every tracee stop) arrives, so this costs no latency, and a
// thread that exits without a report cannot hang us.
int
wait_stop(int tid)
{
  int st, r;

  for (;;) {
    r = waitpid(tid, &st, __WALL | WNOHANG);
    if (r == tid)
      return WIFSTOPPED(st) ? WSTOPSIG(st) : -1;
    if (r < 0 && r != -EINTR)
      return -1;
    if (r == 0)
      sleep(1);
  }
}

// Wait until lp stops with the SIGSTOP that attach or interrupt sent. A
// different signal that stops it first is kept in pending_sig (delivered
// when we resume it) and the thread is let go on to the SIGSTOP.
// Returns 0, or -1 if the thread exited.
static int
wait_for_sigstop(struct lwp *lp)
{
  int sig;

  for (;;) {
    sig = wait_stop(lp->tid);
    if (sig < 0)
      return -1;
    if (sig == SIGSTOP) {
      lp->stopped = 1;
      return 0;
    }
    lp->pending_sig = sig;
    ptrace(PTRACE_CONT, lp->tid, 0, 0);
  }
}

int
get_regs(struct lwp *lp, struct user_regs *r)
{
  return ptrace(PTRACE_GETREGS, lp->tid, 0, r);
}

int
peek(struct lwp *lp, ulong addr, ulong *word)
{
  return ptrace(PTRACE_PEEKDATA, lp->tid, (void *)addr, word);
}

// Print the frame line of lp: "0x... in func ()".
void
print_where(struct lwp *lp)
{
  struct user_regs r;

  if (get_regs(lp, &r) == 0)
    printf("0x%016lx in %s ()\n", USER_REGS_PC(&r), func_name(USER_REGS_PC(&r)));
}

// ------------------------------------------------------------ attaching

// GDB's warning for a thread that cannot be attached, or (--gdb15) its error.
static void
attach_failed(int tid, int err)
{
  char reason[96];

  linux_ptrace_attach_fail_reason_string(pid, tid, reason, sizeof reason);
  fprintf(STDERR, "%sCannot attach to lwp %d: %s (%d)%s\n", gdb15 ? "" : "warning: ",
          tid, strerror(err), -err, reason);
}

// GDB's attach_proc_task_lwp_callback() for a thread not tracked yet:
// attach it and wait for its SIGSTOP. Returns 0 -- even when the attach
// failed, with a warning -- or -1 for a --gdb15 error (or a full table).
static int
attach_lwp(int tid)
{
  struct lwp *lp;
  int r;

  if (nlwp == MAXLWP) {
    fprintf(STDERR, "mgdb: too many threads\n");
    return -1;
  }
  r = ptrace(PTRACE_ATTACH, tid, 0, 0);
  if (r < 0) {
    if (r == -ESRCH || (r == -EPERM && linux_proc_pid_is_gone(pid, tid)))
      return 0;                 // raced with its exit: quiet
    attach_failed(tid, r);
    return gdb15 ? -1 : 0;
  }
  lp = new_lwp(tid);
  printf("[New LWP %d]\n", tid);
  if (wait_for_sigstop(lp) < 0) {
    printf("[LWP %d exited]\n", tid);
    forget_lwp(lp);
  }
  return 0;
}

// GDB's linux_proc_attach_tgid_threads() (user/lib/lwp.c): pass after
// pass until two in a row find nothing new. Returns 0, or -1 (gave up,
// or a --gdb15 error).
static int
attach_all_threads(void)
{
  int r = linux_proc_attach_tgid_threads(pid, attach_lwp, max_passes);

  if (r == -2)
    printf("mgdb: giving up after %d passes\n", max_passes);
  return r < 0 ? -1 : 0;
}


#ifdef USER_CS64
// GDB's x86_linux_nat_target::read_description(): tell a 64-bit process
// from a 32-bit one by the code segment of one of its threads. GDB 10
// asks a thread other than the main one (the last it attached: "usually
// the IO thread", as Torvalds put it); GDB 11 and later ask the main
// thread (fbf3c4b97907). An I/O thread with zeroed registers (Linux 5.12)
// has cs 0, so GDB 10 took the process for i386 and warned, as here.
static void
read_description(void)
{
  struct user_regs r;
  struct lwp *lp = gdb15 ? find_lwp(pid) : &lwps[nlwp - 1];

  if (lp && get_regs(lp, &r) == 0 && USER_REGS_CS(&r) != USER_CS64)
    fprintf(STDERR, "warning: Selected architecture i386:x86-64 is not compatible with "
            "reported target architecture i386\n\n"
            "warning: Architecture rejected target-supplied description\n");
}
#else
// Other architectures have no 32/64-bit probe to get wrong.
static void read_description(void) { }
#endif

// Attach to process p: the main thread, then every other one. Returns 0,
// or -1 with nothing held.
int
attach_process(int p)
{
  struct lwp *lp;
  int r;

  pid = p;
  next_num = 1;
  printf("Attaching to process %d\n", pid);
  r = ptrace(PTRACE_ATTACH, pid, 0, 0);
  if (r < 0) {
    fprintf(STDERR, "ptrace: %s.\n", strerror(r));
    pid = 0;
    return -1;
  }
  lp = new_lwp(pid);
  cur = lp;
  if (wait_for_sigstop(lp) < 0) {
    fprintf(STDERR, "mgdb: process %d exited while attaching\n", pid);
    nlwp = 0;
    pid = 0;
    return -1;
  }
  if (attach_all_threads() < 0) {
    detach_all();
    return -1;
  }
  read_description();
  return 0;
}

// ------------------------------------------------------------ run control

// Stop every running thread (tgkill SIGSTOP) and collect the stops. With
// verbose (interrupt), also catch up with threads started meanwhile (we
// have no PTRACE_O_TRACECLONE) and show where the selected thread is.
void
stop_all(int verbose)
{
  for (int i = 0; i < nlwp; i++)
    if (!lwps[i].stopped)
      tgkill(pid, lwps[i].tid, SIGSTOP);
  for (int i = 0; i < nlwp; i++) {
    if (lwps[i].stopped)
      continue;
    if (wait_for_sigstop(&lwps[i]) < 0) {
      printf("[LWP %d exited]\n", lwps[i].tid);
      forget_lwp(&lwps[i--]);
    }
  }
  running = 0;
  if (verbose && nlwp)
    attach_all_threads();
  if (verbose && cur) {
    char name[32];
    lwp_name(cur->tid, name, sizeof name);
    printf("\nThread %d \"%s\" stopped.\n", cur->num, name);
    print_where(cur);
  }
}

// Let every thread go on (PTRACE_CONT), each with its pending signal.
void
resume_all(void)
{
  for (int i = 0; i < nlwp; i++) {
    if (!lwps[i].stopped)
      continue;
    ptrace(PTRACE_CONT, lwps[i].tid, 0, (void *)(long)lwps[i].pending_sig);
    lwps[i].pending_sig = 0;
    lwps[i].stopped = 0;
  }
  running = 1;
}

// Stop everything, then PTRACE_DETACH every thread: the program runs on
// as it did before we came.
void
detach_all(void)
{
  int p = pid;

  stop_all(0);
  for (int i = 0; i < nlwp; i++)
    ptrace(PTRACE_DETACH, lwps[i].tid, 0, (void *)(long)lwps[i].pending_sig);
  nlwp = 0;
  cur = NULL;
  pid = 0;
  running = 0;
  printf("[Inferior 1 (process %d) detached]\n", p);
}

// While running: report threads that stopped for a signal of their own
// (then stop the rest, as GDB's all-stop mode does) or exited.
void
poll_events(void)
{
  int st, r;

  for (int i = 0; running && i < nlwp; i++) {
    r = waitpid(lwps[i].tid, &st, __WALL | WNOHANG);
    if (r == lwps[i].tid && WIFSTOPPED(st)) {
      char name[32];
      lwps[i].stopped = 1;
      lwps[i].pending_sig = WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);
      cur = &lwps[i];
      lwp_name(cur->tid, name, sizeof name);
      printf("\nThread %d \"%s\" received signal SIG%s.\n", cur->num, name,
             signame(WSTOPSIG(st)) ? signame(WSTOPSIG(st)) : "?");
      stop_all(0);
      print_where(cur);
    } else if (r == lwps[i].tid || r == -ECHILD) {
      printf("[LWP %d exited]\n", lwps[i].tid);
      forget_lwp(&lwps[i--]);
    }
  }
  if (pid && nlwp == 0) {
    printf("[Inferior 1 (process %d) exited]\n", pid);
    pid = 0;
    running = 0;
  }
}
