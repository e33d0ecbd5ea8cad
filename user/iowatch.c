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

// Print the end of the given-up-on command and return iowatch's status.
static int
killed(const char *cmd, int pid, int idle, int ticks)
{
  printf("iowatch: %s killed: process %d did %s for %d s (%d.%02d s in all)\n", cmd, pid,
         idle > 0 ? "no I/O" : "I/O all along", idle > 0 ? idle : -idle, ticks / HZ,
         ticks % HZ * 100 / HZ);
  return 124;
}

int
main(int argc, char *argv[])
{
  int secs, pid, child, st, t0, t_io;
  long io, now;

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
  t0 = t_io = uptime();
  io = proc_io(pid);
  while (waitpid(child, &st, WNOHANG) == 0) {
    if ((now = proc_io(pid)) != io) {
      io = now;
      t_io = uptime();
    }
    if (uptime() - t_io >= secs * HZ || uptime() - t0 >= 10 * secs * HZ) {
      kill(child, SIGKILL);
      waitpid(child, &st, 0);
      return killed(argv[4], pid, uptime() - t_io >= secs * HZ ? secs : -10 * secs, uptime() - t0);
    }
    sleep(POLL);
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
