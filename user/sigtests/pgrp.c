// sigtests: process groups, registers.

#include "sigtests.h"

// ------------------------------------------------------------ tests: process groups

// pgrp: setpgid makes and joins groups; kill(-pgid) reaches every member;
// kill(0) reaches the caller's group; waitpid(-pgid) and waitpid(0) wait
// for children in a group; errors for groups and children that are not
// there.
void
t_pgrp(void)
{
  int a, b, p[2], g = 0, st = 0, c;

  if (!need("pipe", pipe(p)))
    return;
  a = tfork();
  if (a == 0) {
    setpgid(0, 0);
    g = getpgrp();
    write(p[1], &g, sizeof g);
    for (;;)
      pause();
  }
  setpgid(a, a);                // as shells do: whoever is first wins
  read(p[0], &g, sizeof g);
  expect("getpgrp_after_setpgid", g, a);
  b = tfork();
  if (b == 0) {
    for (;;)
      pause();
  }
  expect("join_group", setpgid(b, a), 0);
  expect("kill_group_probe", kill(-a, 0), 0);
  expect("waitpid_group_nohang", waitpid(-a, &st, WNOHANG), 0);
  expect("kill_group", kill(-a, SIGTERM), 0);
  expect_status("group_member_a", reap(a, 5 * HZ), ST_SIGNAL(SIGTERM));
  expect_status("group_member_b", reap(b, 5 * HZ), ST_SIGNAL(SIGTERM));
  expect("empty_group", kill(-a, SIGTERM), -ESRCH);
  expect("not_my_child", setpgid(1, 1), -ESRCH);
  expect("negative_pgid", setpgid(0, -1), -EINVAL);

  // waitpid(-pgid): the member that exits is reaped through its group.
  a = tfork();
  if (a == 0) {
    setpgid(0, 0);
    sleep(5);
    exit(3);
  }
  setpgid(a, a);
  st = 0;
  if (expect("waitpid_group", waitpid(-a, &st, 0), a))
    expect_status("waitpid_group_status", st, ST_EXIT(3));
  kill_reap(a);

  // kill(0) and waitpid(0), inside a new group.
  c = tfork();
  if (c == 0) {
    int d, code = 0, r;
    setpgid(0, 0);
    reset_log();
    d = fork();
    if (d == 0) {
      for (;;)
        pause();
    }
    handle(SIGUSR1, on_signal, 0, 0);   // d keeps the default: death
    kill(0, SIGUSR1);
    if (hits[SIGUSR1] != 1)
      code |= 1;
    r = waitpid(d, &st, 0);
    if (r != d || st != SIGUSR1)
      code |= 2;
    d = fork();
    if (d == 0)
      exit(4);
    r = waitpid(0, &st, 0);
    if (r != d || st != ST_EXIT(4))
      code |= 4;
    kill(d, SIGKILL);
    waitpid(d, &st, 0);
    exit(code);
  }
  st = reap(c, 5 * HZ);
  g = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("own_group_child", st, ST_EXIT(g >= 0 ? g : 0));
  if (g >= 0) {
    expect_true("kill_zero_runs_own_handler", !(g & 1), "kill(0, SIGUSR1) did not reach the sender");
    expect_true("kill_zero_reaches_group", !(g & 2), "kill(0, SIGUSR1) did not kill the group's other process");
    expect_true("waitpid_zero", !(g & 4), "waitpid(0) did not reap a child of the caller's group");
  }
  close(p[0]);
  close(p[1]);
}

// ttin: a process outside the console's foreground group that reads the
// console is stopped by SIGTTIN; ignoring or blocking SIGTTIN makes the
// read fail with EIO instead. Run in a child that makes itself the
// foreground group and gives the console back afterwards.
void
t_ttin(void)
{
  int orig = tcgetpgrp(STDIN), g1, st, code;
  char d[96];

  snprintf(d, sizeof d, "tcgetpgrp(0) = %d, want the foreground group %d", orig, getpgrp());
  if (!expect_true("foreground", orig > 0 && orig == getpgrp(), d))
    return;
  expect("tcsetpgrp_not_a_tty", tcsetpgrp(resfd, orig), -ENOTTY);
  g1 = tfork();
  if (g1 == 0) {
    int g2, r;
    char c;
    code = 0;
    signal(SIGTTOU, SIG_IGN);
    setpgid(0, 0);
    if (tcsetpgrp(STDIN, getpid()) != 0)
      exit(100);
    if (tcgetpgrp(STDIN) != getpid())
      code |= 8;
    g2 = fork();
    if (g2 == 0) {
      setpgid(0, 0);
      signal(SIGTTOU, SIG_DFL);
      read(STDIN, &c, 1);
      exit(1);
    }
    setpgid(g2, g2);
    st = 0;
    wait_ticks(g2, &st, WUNTRACED, 3 * HZ);
    if (st != ST_STOP(SIGTTIN))
      code |= 1;
    kill(g2, SIGKILL);
    wait_ticks(g2, &st, 0, 3 * HZ);
    for (int k = 0; k < 2; k++) {
      g2 = fork();
      if (g2 == 0) {
        sigset_t s = SB(SIGTTIN);
        setpgid(0, 0);
        if (k == 0)
          signal(SIGTTIN, SIG_IGN);
        else
          sigprocmask(SIG_BLOCK, &s, NULL);
        r = read(STDIN, &c, 1);
        exit(r == -EIO ? 0 : 1);
      }
      setpgid(g2, g2);
      st = 0;
      r = wait_ticks(g2, &st, 0, 3 * HZ);
      if (r != g2 || st != 0) {
        code |= 2 << k;
        kill(g2, SIGKILL);
        wait_ticks(g2, &st, 0, 3 * HZ);
      }
    }
    tcsetpgrp(STDIN, orig);
    exit(code);
  }
  st = reap(g1, 15 * HZ);
  code = st >= 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  expect_status("child", st, ST_EXIT(code >= 0 ? code : 0));
  if (code >= 0 && code < 100) {
    expect_true("tcsetpgrp", !(code & 8), "tcgetpgrp did not return what tcsetpgrp set");
    expect_true("background_read_stops", !(code & 1), "a background read did not stop with SIGTTIN");
    expect_true("ignored_ttin_eio", !(code & 2), "a background read ignoring SIGTTIN did not fail with EIO");
    expect_true("blocked_ttin_eio", !(code & 4), "a background read blocking SIGTTIN did not fail with EIO");
  }
  signal(SIGTTOU, SIG_IGN);    // a background tcsetpgrp stops otherwise
  if (tcgetpgrp(STDIN) != orig)
    tcsetpgrp(STDIN, orig);
  expect("console_given_back", tcgetpgrp(STDIN), orig);
}

// ------------------------------------------------------------ tests: registers

// A register-hungry computation.
static __attribute__((noipa)) unsigned long
mix(int n, unsigned long seed)
{
  unsigned long a = seed, b = seed ^ 0x9e3779b97f4a7c15UL, c = 1, d = 2, e = 3, f = 5,
                g = 7, h = 11, k = 13, m = 17;

  for (int i = 0; i < n; i++) {
    a += b ^ (c << 3);
    b ^= d + (e >> 2);
    c += f * 3 + i;
    d ^= g + (h << 1);
    e += a >> 7;
    f ^= b << 5;
    g += c ^ d;
    h ^= e + f + g;
    k += h ^ (a >> 3);
    m ^= k + (b << 9);
  }
  return a ^ b ^ c ^ d ^ e ^ f ^ g ^ h ^ k ^ m;
}

static volatile unsigned long sink;

// A handler that uses every register it can.
static void
on_signal_busy(int sig)
{
  __atomic_fetch_add(&hits[sig], 1, __ATOMIC_SEQ_CST);
  sink = mix(200, sig);
}

// Helper body: send SIGUSR1 to pid n times, a tick apart.
static void
pelt(int pid, int n)
{
  for (int i = 0; i < n; i++) {
    kill(pid, SIGUSR1);
    sleep(1);
  }
  exit(0);
}

// asyncregs: signals arriving at any point of a computation (through the
// timer interrupt, not a system call) leave every register as it was.
// The loop makes a system call (uptime) only every 1024 rounds: a signal
// sent from another CPU is noticed at the target's next trap, and that
// must be a timer interrupt in the middle of mix(), not the way out of a
// system call between rounds.
void
t_asyncregs(void)
{
  unsigned long ref;
  int h, rounds = 0, bad = 0, interrupted = 0, before, t0;
  char d[96];

  reset_log();
  setmask(0);
  handle(SIGUSR1, on_signal_busy, 0, 0);
  ref = mix(20000, 1234);
  h = tfork();
  if (h == 0)
    pelt(getppid(), 30);
  t0 = uptime();
  while (hits[SIGUSR1] < 30 && (rounds % 1024 != 0 || uptime() - t0 < 10 * HZ)) {
    before = hits[SIGUSR1];
    if (mix(20000, 1234) != ref)
      bad++;
    interrupted += hits[SIGUSR1] != before;
    rounds++;
  }
  reap(h, 5 * HZ);
  snprintf(d, sizeof d, "%d of %d rounds computed a wrong result", bad, rounds);
  expect_true("results_unchanged", bad == 0, d);
  snprintf(d, sizeof d, "no round was interrupted (%d rounds, %d signals)", rounds, hits[SIGUSR1]);
  expect_true("interrupted", interrupted > 0, d);
}
