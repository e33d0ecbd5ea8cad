// sigtests: fork and exec, forged frames, threads, group exit.

#include "sigtests.h"

// ------------------------------------------------------------ tests: fork and exec

// fork: the child gets the parent's handlers, ignored signals and mask,
// but no pending signals; the parent keeps its pending signal.
void
t_fork(void)
{
  int pid, st, code;

  reset_log();
  setmask(0);
  handle(SIGUSR1, on_signal, 0, 0);
  handle(SIGALRM, on_signal, 0, 0);
  signal(SIGUSR2, SIG_IGN);
  setmask(SB(SIGTERM) | SB(SIGALRM));
  raise(SIGALRM);
  pid = tfork();
  if (pid == 0) {
    code = 0;
    if (handler_of(SIGUSR1) != on_signal)
      code |= 1;
    if (handler_of(SIGUSR2) != SIG_IGN)
      code |= 2;
    if (curmask() != (SB(SIGTERM) | SB(SIGALRM)))
      code |= 4;
    if (pending() != 0)
      code |= 8;
    raise(SIGUSR1);
    if (hits[SIGUSR1] != 1)
      code |= 16;
    exit(code);
  }
  st = reap(pid, 5 * HZ);
  code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("child_ok", st, ST_EXIT(0));
  if (code >= 0) {
    expect_true("handler_inherited", !(code & 1), "the child's SIGUSR1 action differs");
    expect_true("ignore_inherited", !(code & 2), "SIGUSR2 is not ignored in the child");
    expect_true("mask_inherited", !(code & 4), "the child's mask differs");
    expect_true("pending_not_inherited", !(code & 8), "the child starts with signals pending");
    expect_true("handler_works_in_child", !(code & 16), "raise in the child did not run its handler");
  }
  expect_set("parent_still_pending", pending(), SB(SIGALRM));
  setmask(0);
  expect("parent_pending_ran", hits[SIGALRM], 1);
  signal(SIGUSR2, SIG_DFL);
}

// Run this program as a probe in a child: exec SELF with argv
// {PROBE, a1, a2}; returns the child's wait status. The child first calls
// setup() if given.
static int
run_probe(const char *a1, const char *a2, void (*setup)(void))
{
  char *av[4];
  int pid, r;

  av[0] = PROBE;
  av[1] = (char *)a1;
  av[2] = (char *)a2;
  av[3] = 0;
  pid = tfork();
  if (pid == 0) {
    if (setup)
      setup();
    r = exec(SELF, av);
    exit(200 + (r < 0 ? -r % 50 : 0));
  }
  return pid < 0 ? pid : reap(pid, 10 * HZ);
}

// The state exec must sort out: a caught SIGUSR1 and SIGINT, an ignored
// SIGUSR2, SIGTERM and SIGHUP blocked, SIGHUP pending.
static void
exec_setup(void)
{
  handle(SIGUSR1, on_signal, SA_RESTART, SB(SIGALRM));
  handle(SIGINT, on_signal, 0, 0);
  signal(SIGUSR2, SIG_IGN);
  setmask(SB(SIGTERM) | SB(SIGHUP));
  raise(SIGHUP);
}

// exec: caught signals go back to SIG_DFL, ignored ones stay ignored, the
// mask and pending signals stay (the probe checks, see probe()); a reset
// handler then kills, an ignored signal stays harmless.
void
t_exec(void)
{
  int st = run_probe("sigstate", 0, exec_setup), code;

  code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("probe", st, ST_EXIT(0));
  if (code >= 0 && code < 64) {
    expect_true("caught_reset", !(code & 1), "SIGUSR1's handler survived exec");
    expect_true("caught_reset_int", !(code & 2), "SIGINT's handler survived exec");
    expect_true("ignored_kept", !(code & 4), "SIGUSR2 is no longer ignored after exec");
    expect_true("mask_kept", !(code & 8), "the blocked mask changed across exec");
    expect_true("pending_kept", !(code & 16), "the pending SIGHUP was lost in exec");
    expect_true("sa_mask_cleared", !(code & 32), "SIGUSR1's sa_mask or flags survived exec");
  }
  expect_status("reset_handler_kills", run_probe("raise", "10", exec_setup), ST_SIGNAL(SIGUSR1));
  expect_status("ignored_stays_harmless", run_probe("raise", "12", exec_setup), ST_EXIT(0));
}

// ------------------------------------------------------------ tests: forged frames

// The frame the kernel pushes for a handler (kernel/arch/*/signal.c):
// the interrupted user registers, then the mask to restore.
struct sigframe {
  struct user_regs regs;
  sigset_t mask;
  unsigned long magic;
};

static int forge_what;          // which forgery the handler commits

static void
landing(void)
{
  exit(77);
}

// A handler that rewrites its own frame, then returns through sigreturn.
static void
forger(int sig, void *info, void *ctx)
{
  struct sigframe *f = ctx;

  switch (forge_what) {
  case 0:                       // back to kernel text
    USER_REGS_PC(&f->regs) = KERNEL_VA;
    break;
  case 1:                       // the kernel's physical address
    USER_REGS_PC(&f->regs) = KERNEL_PA;
    break;
  case 2:                       // garbage everywhere, pc and sp in the kernel
  case 5:                       // the same, but SIGSEGV left unblocked
    for (int i = 0; i < (int)(sizeof(f->regs) / sizeof(long)); i++)
      ((unsigned long *)&f->regs)[i] = 0xdead000000000000UL | (i * 0x1111UL);
    USER_REGS_PC(&f->regs) = KERNEL_VA + 0x1000;
    USER_REGS_SP(&f->regs) = KERNEL_VA + 0x200000;
    if (forge_what == 2)
      f->mask = ~0UL;
    f->magic = 0;
    break;
  case 3:                       // a legitimate redirect to user code
    USER_REGS_PC(&f->regs) = (unsigned long)landing;
    break;
  case 4:                       // block everything, KILL and STOP included
    f->mask = ~0UL;
    break;
  }
}

// Child body: install forger for SIGUSR1 (and SIGSEGV, with what >= 10:
// a handler the kernel cannot push a frame for), raise, exit 0 if it
// came back.
static void
forge_child(int what)
{
  forge_what = what % 10;
  handle(SIGUSR1, (sighandler_t)forger, 0, 0);
  if (what >= 10)
    handle(SIGSEGV, on_signal, 0, 0);
  raise(SIGUSR1);
  exit(0);
}

// System call numbers, from the table the stubs are made from.
#define SYSCALL(nr, name) SYS_##name = nr,
enum {
#include "kernel/syscalls.h"
};
#undef SYSCALL

// Child body: rt_sigreturn with the stack pointer at addr.
static void
sigreturn_at(unsigned long addr)
{
#if defined(__riscv)
  register unsigned long a7 asm("a7") = SYS_rt_sigreturn;
  register unsigned long sp_new asm("t0") = addr;
  asm volatile("mv sp, t0\n ecall" : : "r"(a7), "r"(sp_new) : "memory");
#elif defined(__x86_64__)
  asm volatile("mov %0, %%rsp\n syscall" : : "r"(addr), "a"((long)SYS_rt_sigreturn) : "memory");
#endif
  for (;;)
    ;
}

// forged: a handler that points its saved pc into the kernel, or fills
// its frame with garbage, or blocks SIGKILL through the saved mask, gains
// nothing: the process dies of SIGSEGV (or stays killable) and the
// kernel goes on. A legitimate redirect shows the frame is honoured.
void
t_forged(void)
{
  static const struct { const char *check; int what; } cases[] = {
    { "pc_kernel_va", 0 }, { "pc_kernel_pa", 1 }, { "garbage_frame", 2 },
    { "garbage_frame_segv_handler", 15 },
  };
  int pid, p[2];
  char c = 0;

  for (int i = 0; i < (int)(sizeof cases / sizeof cases[0]); i++) {
    pid = tfork();
    if (pid == 0)
      forge_child(cases[i].what);
    expect_status(cases[i].check, reap(pid, 5 * HZ), ST_SIGNAL(SIGSEGV));
  }
  pid = tfork();
  if (pid == 0)
    forge_child(3);
  expect_status("redirect_honoured", reap(pid, 5 * HZ), ST_EXIT(77));

  for (int i = 0; i < 2; i++) {
    pid = tfork();
    if (pid == 0)
      sigreturn_at(i ? 0 : KERNEL_VA);
    expect_status(i ? "sigreturn_null_sp" : "sigreturn_kernel_sp", reap(pid, 5 * HZ),
                  ST_SIGNAL(SIGSEGV));
  }

  // A forged mask with SIGKILL and SIGSTOP in it.
  if (!need("pipe", pipe(p)))
    return;
  pid = tfork();
  if (pid == 0) {
    forge_what = 4;
    handle(SIGUSR1, (sighandler_t)forger, 0, 0);
    raise(SIGUSR1);
    c = curmask() & (SB(SIGKILL) | SB(SIGSTOP)) ? 'b' : 'r';
    write(p[1], &c, 1);
    for (;;)
      pause();
  }
  close(p[1]);
  read(p[0], &c, 1);
  close(p[0]);
  expect("mask_keeps_kill_stop", c, 'r');
  kill(pid, SIGSTOP);
  int st = 0;
  wait_ticks(pid, &st, WUNTRACED, 5 * HZ);
  expect_status("still_stoppable", st, ST_STOP(SIGSTOP));
  kill(pid, SIGKILL);
  expect_status("still_killable", reap(pid, 5 * HZ), ST_SIGNAL(SIGKILL));

  pid = tfork();
  if (pid == 0)
    exit(getppid() > 0 ? 5 : 6);
  expect_status("kernel_alive", reap(pid, 5 * HZ), ST_EXIT(5));
}

// ------------------------------------------------------------ tests: threads

static volatile int counter;
static volatile int seen_tid[NTHREADS], seen_pid[NTHREADS], squares[NTHREADS];
static int share_fd = -1;

// Thread body: note who we are, add 1000 to counter, write a square.
static void
worker(void *arg)
{
  int i = (int)(long)arg;
  char c = 'A' + i;

  seen_tid[i] = gettid();
  seen_pid[i] = getpid();
  for (int k = 0; k < 1000; k++)
    __atomic_fetch_add(&counter, 1, __ATOMIC_SEQ_CST);
  squares[i] = i * i;
  write(share_fd, &c, 1);
}

static volatile int raise_result = 1;

// Thread body: raise SIGUSR1 in this thread.
static void
raiser(void *arg)
{
  raise_result = raise(SIGUSR1);
}

static void
nothing(void *arg)
{
}

// threads: 8 threads run, share memory and files, get distinct tids that
// thread_create returns, see the process id as getpid(); join works once;
// raise() in a thread runs the handler there.
void
t_threads(void)
{
  int tids[NTHREADS], p[2], ok, n, tid;
  char b[NTHREADS + 1], d[128];

  counter = 0;
  if (!need("pipe", pipe(p)))
    return;
  share_fd = p[1];
  for (int i = 0; i < NTHREADS; i++)
    seen_tid[i] = seen_pid[i] = squares[i] = -1;
  for (n = 0; n < NTHREADS; n++) {
    tids[n] = thread_create(worker, (void *)(long)n);
    if (tids[n] < 0)
      break;
  }
  expect("create", n, NTHREADS);
  ok = 1;
  for (int i = 0; i < n; i++)
    ok &= thread_join(tids[i]) == 0;
  expect_true("join", ok, "thread_join failed");
  expect("shared_counter", counter, n * 1000);
  ok = 1;
  for (int i = 0; i < n; i++) {
    ok &= squares[i] == i * i && seen_tid[i] == tids[i] && seen_tid[i] != getpid();
    for (int j = 0; j < i; j++)
      ok &= tids[i] != tids[j];
  }
  expect_true("tids_and_memory", ok, "a thread's tid is not what thread_create returned, "
              "is repeated or is the process id, or its writes were lost");
  ok = 1;
  for (int i = 0; i < n; i++)
    ok &= seen_pid[i] == getpid();
  snprintf(d, sizeof d, "getpid() in thread 0 returned %d (its tid is %d), want the process id %d",
           seen_pid[0], seen_tid[0], getpid());
  expect_true("getpid_is_tgid", ok, d);
  expect("shared_files", read(p[0], b, n), n);
  expect("join_again", thread_join(tids[0]), -ESRCH);
  expect("join_unknown", thread_join(30000), -ESRCH);
  close(p[0]);
  close(p[1]);

  reset_log();
  handle(SIGUSR1, on_signal, 0, 0);
  tid = thread_create(raiser, 0);
  if (need("create_raiser", tid)) {
    thread_join(tid);
    expect("raise_in_thread", raise_result, 0);
    snprintf(d, sizeof d, "the handler ran %d times, first in %d, want once in thread %d",
             ntid, ntid ? tidlog[0] : 0, tid);
    expect_true("raise_handled_in_thread", ntid == 1 && tidlog[0] == tid, d);
  }
  tid = thread_create(nothing, 0);
  expect("create_after", tid > 0 && thread_join(tid) == 0, 1);
}

// threadchild: children forked by a thread that has since exited are
// still the process's: waitpid() in the main thread reaps them with their
// status, one a zombie already when the thread exited and one still
// running (Linux gives a dying thread's children to another thread of its
// group; they once went to init, and waitpid() failed with ECHILD).
static int tc_pids[2], tc_pipe[2];

static void
tc_forker(void *arg)
{
  char c;

  (void)arg;
  tc_pids[0] = fork();
  if (tc_pids[0] == 0)
    exit(7);
  tc_pids[1] = fork();
  if (tc_pids[1] == 0) {
    read(tc_pipe[0], &c, 1);
    exit(8);
  }
  // wait until the first is a zombie, so that both cases are covered
  while (task_state(tc_pids[0], tc_pids[0]) != 'Z')
    sleep(1);
}

void
t_threadchild(void)
{
  int tid, st = 0, r;
  char d[96];

  if (!need("pipe", pipe(tc_pipe)))
    return;
  tc_pids[0] = tc_pids[1] = -1;
  tid = thread_create(tc_forker, 0);
  if (need("create", tid))
    expect("join", thread_join(tid), 0);
  if (!need("forked", tc_pids[0] > 0 && tc_pids[1] > 0 ? 0 : -1)) {
    close(tc_pipe[0]);
    close(tc_pipe[1]);
    return;
  }
  r = waitpid(tc_pids[0], &st, 0);
  snprintf(d, sizeof d, "waitpid %d, status %x (want %d, exited 7)", r, st, tc_pids[0]);
  expect_true("reap_zombie", r == tc_pids[0] && WIFEXITED(st) && WEXITSTATUS(st) == 7, d);
  write(tc_pipe[1], "x", 1);
  r = waitpid(tc_pids[1], &st, 0);
  snprintf(d, sizeof d, "waitpid %d, status %x (want %d, exited 8)", r, st, tc_pids[1]);
  expect_true("reap_running", r == tc_pids[1] && WIFEXITED(st) && WEXITSTATUS(st) == 8, d);
  if (r != tc_pids[1])
    kill(tc_pids[1], SIGKILL);
  close(tc_pipe[0]);
  close(tc_pipe[1]);
}

// threadleak: 1000 thread create/join cycles (one at a time, then four
// at a time) leave free memory where it was.
void
t_threadleak(void)
{
  int tids[4], bad = 0, r;
  long before, after;
  char d[128];

  for (int i = 0; i < 4; i++) {         // let malloc grow the heap first
    tids[i] = thread_create(nothing, 0);
    if (tids[i] > 0)
      thread_join(tids[i]);
  }
  for (int i = 0; i < 4; i++)
    tids[i] = thread_create(nothing, 0);
  for (int i = 0; i < 4; i++)
    if (tids[i] > 0)
      thread_join(tids[i]);
  before = freemem();
  for (int i = 0; i < LEAK_ROUNDS / 2; i++) {
    r = thread_create(nothing, 0);
    if (r < 0 || thread_join(r) != 0)
      bad++;
  }
  for (int i = 0; i < LEAK_ROUNDS / 8; i++) {
    for (int k = 0; k < 4; k++)
      tids[k] = thread_create(nothing, 0);
    for (int k = 0; k < 4; k++)
      if (tids[k] < 0 || thread_join(tids[k]) != 0)
        bad++;
  }
  expect("all_created_and_joined", bad, 0);
  sleep(2);
  after = freemem();
  snprintf(d, sizeof d, "%ld free pages before, %ld after %d cycles (%ld lost)",
           before, after, LEAK_ROUNDS, before - after);
  expect_true("freemem_unchanged", before == after, d);
}

// ------------------------------------------------------------ tests: group exit

static volatile int exit_code_for_thread;

// Thread body: exit() the whole process.
static void
exiter(void *arg)
{
  sleep((int)(long)arg);
  exit(exit_code_for_thread);
}

// Thread body: sleep, then end this thread only.
static void
thread_quitter(void *arg)
{
  sleep((int)(long)arg);
  thread_exit();
}

// exitgroup: exit() from any thread ends the process with that status,
// whatever the other threads do; the leader may leave first (thread_exit)
// and the process lives on until its last thread; a process whose threads
// all thread_exit ends with status 0.
void
t_exitgroup(void)
{
  int pid, t[2];

  pid = tfork();
  if (pid == 0) {
    exit_code_for_thread = 42;
    start_threads(1, spinner, t);
    thread_create(exiter, (void *)2L);
    for (;;)
      pause();
  }
  expect_status("exit_from_thread", reap(pid, 5 * HZ), ST_EXIT(42));

  pid = tfork();
  if (pid == 0) {
    start_threads(1, spinner, t);
    start_threads(1, sleeper, t);
    exit(43);
  }
  expect_status("exit_from_leader", reap(pid, 5 * HZ), ST_EXIT(43));

  pid = tfork();
  if (pid == 0) {
    exit_code_for_thread = 5;
    thread_create(exiter, (void *)10L);
    thread_exit();
  }
  expect_status("leader_exits_first", reap(pid, 5 * HZ), ST_EXIT(5));

  pid = tfork();
  if (pid == 0) {
    thread_create(thread_quitter, (void *)5L);
    thread_create(thread_quitter, (void *)8L);
    thread_exit();
  }
  expect_status("all_threads_exit", reap(pid, 5 * HZ), ST_EXIT(0));
}

static volatile int exec_from_thread_pid;

// Thread body: exec the probe, which checks it is alone and kept the pid.
static void
thread_execer(void *arg)
{
  char pidbuf[16], *av[4];

  snprintf(pidbuf, sizeof pidbuf, "%d", exec_from_thread_pid);
  av[0] = PROBE;
  av[1] = "threads";
  av[2] = pidbuf;
  av[3] = 0;
  sleep(2);
  exec(SELF, av);
  exit(99);
}

// execthreads: exec in a process with several threads ends the others;
// from the leader or from another thread, the process keeps its pid and
// ends up with one thread (the probe checks /proc/self).
void
t_execthreads(void)
{
  int pid, t[3];

  pid = tfork();
  if (pid == 0) {
    exec_from_thread_pid = getpid();
    start_threads(1, spinner, t);
    start_threads(2, sleeper, t + 1);
    thread_execer(0);
  }
  expect_status("from_leader", reap(pid, 10 * HZ), ST_EXIT(0));

  pid = tfork();
  if (pid == 0) {
    exec_from_thread_pid = getpid();
    start_threads(2, sleeper, t);
    thread_create(thread_execer, 0);
    for (;;)
      pause();
  }
  expect_status("from_other_thread", reap(pid, 10 * HZ), ST_EXIT(0));
}

// Thread body: read from the pipe whose read end is arg; nothing ever
// comes, so only the group's exit ends the read.
static void
pipe_reader(void *arg)
{
  char c;

  read((int)(long)arg, &c, 1);
  thread_exit();
}

// exitread: exit() while another thread is going to sleep in a pipe
// read. The exit sends that thread SIGKILL; it must end the read, however
// close to the reader's own look at signal_pending() the kill comes (the
// kernel once tested for a signal before taking the scheduler's lock, and
// a kill in between left the reader asleep and the process unreaped).
// The delay before exit() varies, to land in that moment some times.
void
t_exitread(void)
{
  int pid, bad = -1;
  char d[96];

  for (int i = 0; i < 100 && bad < 0; i++) {
    pid = tfork();
    if (pid == 0) {
      int p[2];
      if (pipe(p) < 0)
        exit(2);
      thread_create(pipe_reader, (void *)(long)p[0]);
      for (volatile int k = 0; k < i * 20000; k++)
        ;
      exit(7);
    }
    if (reap(pid, 5 * HZ) != ST_EXIT(7))
      bad = i;
  }
  snprintf(d, sizeof d, "round %d of 100: the process did not end with exit(7) within 5 s", bad);
  expect_true("exit_while_reading", bad < 0, d);
}
