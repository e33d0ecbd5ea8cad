// waitstop [-t SECS] CMD [ARG...]: run CMD as our child and tell what its
// parent (us) learns about it through waitpid(), as a shell would: is a
// stop reported?
//
//   waitstop: PID 5 started: uringcp -l -a big out
//
// Then, polling ten times a second with waitpid(WUNTRACED | WCONTINUED |
// WNOHANG) and /proc/PID/stat:
//   - when /proc first shows the main thread stopped (T), someone sent a
//     stop signal (kill -STOP PID):
//       waitstop: PID 5: main thread stopped (T); waiting 3 s for waitpid to report the stop
//   - a stop waitpid reports (the whole group stopped):
//       waitstop: PID 5 reported stopped by signal 19 (STOP) after 0.12 s
//   - no report, and SECS seconds in a row in which the process read and
//     wrote nothing (its rchar + wchar in /proc/PID/io did not move), or
//     a second of CPU time used since its last I/O (threads that spin):
//       waitstop: PID 5 not reported stopped: no report and no I/O for 3 s (5.20 s since the stop)
//       waitstop: PID 5 not reported stopped: no report and 1.00 s of CPU time and no I/O (spinning) (0.41 s since the stop)
//       waitstop: threads of 5: 5 T uringcp, 6 R iou-mgr-5, ...
//       waitstop: PID 5: 4 of 5 threads never stopped
//   - a continue:  waitstop: PID 5 continued
//   - the end:     waitstop: PID 5 killed by signal 9 (KILL)   (or "exited N")
//
// Why I/O: a stop can take as long as the I/O already queued, because an
// io-wq worker finishes the work in hand before it looks at its signals
// (as Linux's do). While the process still reads or writes, the stop may
// yet come; once it does nothing, it will not. So a slow machine makes the
// wait longer, never wrong. Nor does a thread of a stopping process burn
// CPU time without I/O, unless it spins: CPU time is a measure of work,
// which a slow machine cannot fake, so a spinning process is told at once.
// A process that does I/O for 10 * SECS without a report is given up on
// all the same.
//
// Exit status: 1 if a stop was seen in /proc but never reported, 2 on a
// usage or start error, else 0. CMD without a '/' is looked for in /.

#include "user.h"
#include "proc.h"

#define POLL (HZ / 10)
#define SPIN HZ                 // CPU time used with no I/O that means spinning
#define MAXTIDS 64              // threads in a process (NTASK)

// Print "tid S name, ..." for every thread of pid; return how many are
// not stopped (T) through *notstopped, and how many there are.
static int
show_threads(int pid, int *notstopped)
{
  struct procstat ps;
  char out[1024];
  int tids[MAXTIDS], ntids, n = 0, len = 0;

  *notstopped = 0;
  out[0] = 0;
  ntids = task_ids(pid, tids, MAXTIDS);
  for (int i = 0; i < ntids; i++) {
    if (task_stat(pid, tids[i], &ps) < 0)
      continue;
    n++;
    if (ps.state != 'T')
      (*notstopped)++;
    if (len < (int)sizeof out - 40)
      len += snprintf(out + len, sizeof out - len, "%s%d %c %s", n > 1 ? ", " : "", tids[i], ps.state, ps.comm);
  }
  if (ntids >= 0)
    printf("waitstop: threads of %d: %s\n", pid, out);
  return n;
}

// Say that the stop of w's process was not reported, for io_idle_check()'s
// verdict, and how long after its main thread stopped; then which
// threads did not stop.
static void
give_up(struct io_idle *w, int verdict)
{
  int nthreads, notstopped;

  printf("waitstop: PID %d not reported stopped: no report and ", w->pid);
  io_idle_print(w, verdict);
  printf(" (");
  print_secs(uptime() - w->t0);
  printf(" since the stop)\n");
  nthreads = show_threads(w->pid, &notstopped);
  printf("waitstop: PID %d: %d of %d threads never stopped\n", w->pid, notstopped, nthreads);
}

int
main(int argc, char *argv[])
{
  // watch: 0 waiting for the main thread to stop; 1 it has, waiting for
  // the report; 2 this stop is over (reported, or given up on) until a
  // continue.
  int secs = 3, i = 1, pid, st, r, watch = 0, unreported = 0, verdict;
  struct io_idle w;

  if (argc > 2 && strcmp(argv[1], "-t") == 0) {
    secs = atoi(argv[2]);
    i = 3;
  }
  if (i >= argc || secs <= 0) {
    fprintf(STDERR, "usage: waitstop [-t SECS] CMD [ARG...]\n");
    return 2;
  }
  pid = spawn("waitstop", argv + i);
  if (pid < 0) {
    fprintf(STDERR, "waitstop: fork: %s\n", strerror(pid));
    return 2;
  }
  printf("waitstop: PID %d started:", pid);
  for (int k = i; k < argc; k++)
    printf(" %s", argv[k]);
  printf("\n");

  for (;;) {
    r = waitpid(pid, &st, WUNTRACED | WCONTINUED | WNOHANG);
    if (r < 0) {
      fprintf(STDERR, "waitstop: waitpid: %s\n", strerror(r));
      return 2;
    }
    if (r == pid && WIFSTOPPED(st)) {
      printf("waitstop: PID %d reported stopped by signal %d (%s)", pid, WSTOPSIG(st),
             signame(WSTOPSIG(st)) ? signame(WSTOPSIG(st)) : "?");
      if (watch == 1) {
        printf(" after ");
        print_secs(uptime() - w.t0);
      }
      printf("\n");
      watch = 2;
      unreported = 0;
    } else if (r == pid && WIFCONTINUED(st)) {
      printf("waitstop: PID %d continued\n", pid);
      watch = 0;
    } else if (r == pid) {
      if (WIFSIGNALED(st))
        printf("waitstop: PID %d killed by signal %d (%s)\n", pid, WTERMSIG(st),
               signame(WTERMSIG(st)) ? signame(WTERMSIG(st)) : "?");
      else
        printf("waitstop: PID %d exited %d\n", pid, WEXITSTATUS(st));
      return unreported;
    }
    if (watch == 0 && task_state(pid, pid) == 'T') {
      watch = 1;
      io_idle_start(&w, pid, secs, SPIN);
      printf("waitstop: PID %d: main thread stopped (T); waiting for waitpid to report the stop"
             " (while it does I/O, or %d s)\n", pid, secs);
    }
    // While it still reads or writes, the stop may yet come.
    if (watch == 1 && (verdict = io_idle_check(&w)) != IO_MOVING) {
      watch = 2;
      unreported = 1;
      give_up(&w, verdict);
    }
    sleep(POLL);
  }
}
