// iowatch -t SECS PID CMD [ARG...]: run CMD, and end it if process PID
// stops making progress while CMD runs: once PID has read and written
// nothing (rchar + wchar in /proc/PID/io) for SECS seconds in a row, CMD
// gets SIGKILL and iowatch says so:
//
//   iowatch: mgdb killed: process 5 did no I/O for 60 s (62.10 s in all)
//
// The graders run the debugger under it. A debugger that attaches waits
// for each thread to stop, and an io-wq worker stops only once it has
// finished the work in hand, however long the machine takes for that. So
// "no stop yet" means "wrong" only when the process has also stopped
// doing I/O: a fixed time limit would fail a right kernel on a slow
// machine. As a bound, CMD is ended after 10 * SECS in all.
//
// Exit status: CMD's, 124 if iowatch ended it, 2 on a usage error.

#include "user.h"
#include "proc.h"

#define POLL (HZ / 10)

int
main(int argc, char *argv[])
{
  struct io_idle w;
  int secs, pid, child, st, verdict;

  if (argc < 5 || strcmp(argv[1], "-t") != 0 || (secs = atoi(argv[2])) <= 0 ||
      (pid = atoi(argv[3])) <= 0) {
    fprintf(STDERR, "usage: iowatch -t SECS PID CMD [ARG...]\n");
    return 2;
  }
  child = spawn("iowatch", argv + 4);
  if (child < 0) {
    fprintf(STDERR, "iowatch: fork: %s\n", strerror(child));
    return 2;
  }
  io_idle_start(&w, pid, secs, 0);
  while (waitpid(child, &st, WNOHANG) == 0) {
    if ((verdict = io_idle_check(&w)) != IO_MOVING) {
      kill(child, SIGKILL);
      waitpid(child, &st, 0);
      printf("iowatch: %s killed: process %d did ", argv[4], pid);
      io_idle_print(&w, verdict);
      printf(" (");
      print_secs(uptime() - w.t0);
      printf(" in all)\n");
      return 124;
    }
    sleep(POLL);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
