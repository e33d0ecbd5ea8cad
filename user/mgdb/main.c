// mgdb: a small debugger that attaches to a running process the way GDB
// 10 does, so that the labs can reproduce GDB's endless attach loop.
//
//   mgdb -p PID [-n PASSES] [--gdb15] [-t] [-r N] [-batch] [-ex CMD]... [FILE]
//
// Attaching (GDB's linux_nat_target::attach and
// linux_proc_attach_tgid_threads()): PTRACE_ATTACH the main thread (PID)
// and wait for its SIGSTOP; then read /proc/PID/task again and again
// until two whole passes in a row find no thread that is not tracked yet.
// Each untracked thread is attached and waited for. A thread whose attach
// FAILS also counts as "found new", and is not recorded, so the next pass
// finds it again: GDB's bug, kept on purpose. A failure is quiet on ESRCH,
// or on EPERM when /proc says the thread is a zombie or gone; otherwise it
// prints
//   warning: Cannot attach to lwp N: Operation not permitted (1)
// (GDB's linux_ptrace_attach_fail_reason_string(), which adds ", process N
// is already traced by process M" when /proc shows a tracer).
//
//   -n PASSES  give up after PASSES passes over /proc/PID/task that did not
//              settle ("mgdb: giving up after N passes"), detach, exit 1.
//              A healthy attach needs 3 passes (one finds the threads, two
//              find nothing new). Without -n mgdb loops forever, like GDB.
//   --gdb15    GDB 15's behaviour (commit c6f7f9c80c3b): the first thread
//              that cannot be attached is an error; detach the threads
//              already held and exit 1.
//   -t         print how many ticks attaching and detaching took.
//   -r N       (for make bench) attach and detach N times, quietly, and
//              print the time one attach+detach cycle takes.
//   -batch     run the -ex commands, then quit (detaching), like gdb -batch.
//   FILE       the program, for symbols; default /NAME, NAME from /proc.
//
// Commands: info threads, thread [N], info registers, x/N[x] ADDR, bt,
// continue, interrupt, detach, kill, quit, help. ADDR is a number, $reg,
// or a symbol. Interactively, continue lets the program run and gives the
// prompt back: type interrupt (or Ctrl-C) to stop every thread again.
//
// The files: inferior.c (attaching, threads, run control), commands.c,
// symbols.c, and this one (the options, the command loop, -r).

#include "user.h"
#include "lwp.h"
#include "mgdb.h"

#define MAXEX     32

static int batch, repeat;       // -batch, -r N
static volatile int sigint_seen;

// SIGINT (Ctrl-C) is noted for the command loop; SIGCHLD only cuts a sleep
// of wait_stop() short.
static void
on_signal(int sig)
{
  if (sig == SIGINT)
    sigint_seen = 1;
}

// Read one line from the console into buf. Returns its length, -1 at end
// of input, or -EINTR if Ctrl-C came first.
static int
read_line(char *buf, int size)
{
  int n = 0, r;
  char c;

  for (;;) {
    r = read(STDIN, &c, 1);
    if (r == -EINTR)
      return -EINTR;
    if (r <= 0)
      return n ? n : -1;
    if (c == '\n')
      break;
    if (n < size - 1)
      buf[n++] = c;
  }
  buf[n] = 0;
  return n;
}

// The interactive loop. Ctrl-C while the program runs interrupts it.
static void
interact(void)
{
  char line[256];
  int r;

  for (;;) {
    poll_events();
    printf("(mgdb) ");
    r = read_line(line, sizeof line);
    if (r == -EINTR) {           // Ctrl-C
      sigint_seen = 0;
      if (running)
        stop_all(1);
      else
        printf("Quit\n");
      continue;
    }
    if (r < 0) {
      printf("quit\n");
      return;
    }
    poll_events();
    if (run_command(line) == 1)
      return;
  }
}

// -r N: attach to and detach from process p N times, with stdout closed
// meanwhile (warnings still show), and print the time one cycle takes.
// For make bench: uptime() counts 10 ms ticks, so one cycle is too short
// to time alone. Returns the exit status.
static int
bench_cycles(int p, int n)
{
  int saved = dup(STDOUT), t0, ticks, threads = 0, i;

  close(STDOUT);
  t0 = uptime();
  for (i = 0; i < n && attach_process(p) == 0; i++) {
    threads = nlwp;
    detach_all();
  }
  ticks = uptime() - t0;
  dup(saved);
  close(saved);
  if (i < n) {
    fprintf(STDERR, "mgdb: attach %d of %d failed\n", i + 1, n);
    return 1;
  }
  printf("mgdb: %d attach+detach cycles of %d threads took %d ticks: %d us each\n",
         n, threads, ticks, ticks * (1000000 / HZ) / n);
  return 0;
}

static void
usage(void)
{
  fprintf(STDERR, "usage: mgdb -p PID [-n PASSES] [--gdb15] [-t] [-r N] [-batch] [-ex CMD]... [FILE]\n");
  exit(2);
}

int
main(int argc, char **argv)
{
  char *ex[MAXEX], path[40], name[32];
  const char *file = NULL;
  int nex = 0, target = 0, t0, r = 0;
  struct sigaction sa = { on_signal, 0, 0 };

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
      target = atoi(argv[++i]);
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      max_passes = atoi(argv[++i]);
    else if (strcmp(argv[i], "--gdb15") == 0)
      gdb15 = 1;
    else if (strcmp(argv[i], "-t") == 0)
      timing = 1;
    else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "-batch") == 0 || strcmp(argv[i], "--batch") == 0)
      batch = 1;
    else if (strcmp(argv[i], "-ex") == 0 && i + 1 < argc && nex < MAXEX)
      ex[nex++] = argv[++i];
    else if (strcmp(argv[i], "-q") == 0)
      continue;
    else if (argv[i][0] != '-' && !file)
      file = argv[i];
    else
      usage();
  }
  if (target <= 0)
    usage();
  sigaction(SIGCHLD, &sa, NULL);        // cuts wait_stop()'s sleeps short
  sigaction(SIGINT, &sa, NULL);         // Ctrl-C: interrupt
  if (!file) {
    pid = target;
    lwp_name(target, name, sizeof name);
    pid = 0;
    snprintf(path, sizeof path, "/%s", name);
    file = name[0] ? path : NULL;
  }
  if (file && load_symbols(file) == 0)
    printf("Reading symbols from %s...\n", file);
  if (repeat)
    return bench_cycles(target, repeat);
  t0 = uptime();
  if (attach_process(target) < 0)
    exit(1);
  if (timing)
    printf("mgdb: attach took %d ticks (%d threads)\n", uptime() - t0, nlwp);
  print_where(cur);
  for (int i = 0; i < nex && r != 1; i++) {
    poll_events();
    r = run_command(ex[i]);
  }
  if (!batch && r != 1)
    interact();
  if (pid)
    cmd_detach();
  return batch && r < 0 ? 1 : 0;
}
