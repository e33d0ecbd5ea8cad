// init: the first user process.
//
// Opens the console as fds 0, 1 and 2, makes /ttyS1 (the second serial
// line), then keeps a shell running:
// starts /sh, restarts it whenever it exits, and meanwhile reaps every
// other child, since orphans are handed to init.

#include "user.h"

static char *shargv[] = { "sh", NULL };

// Make fds 0, 1 and 2 the console, creating /console if it is missing.
// Returns 0, or -errno if there is no console to open.
static int
openconsole(void)
{
  int fd;

  fd = open("/console", O_RDWR);
  if (fd < 0) {
    mknod("/console", 1, 0);
    fd = open("/console", O_RDWR);
  }
  if (fd < 0)
    return fd;
  // init starts with no files, so the console is fd 0; dup fills 1 and 2.
  dup(fd);
  dup(fd);
  return 0;
}

// Make the device file of the second serial line, /ttyS1 (major 2, minor
// 1), if it is missing. Opening it says ENODEV on a machine without one.
static void
makettys1(void)
{
  struct stat st;

  if (stat("/ttyS1", &st) < 0)
    mknod("/ttyS1", 2, 1);
}

// Start /sh; return its pid, or -errno if fork failed.
static int
startsh(void)
{
  int pid, r;

  pid = fork();
  if (pid == 0) {
    r = exec("/sh", shargv);
    fprintf(STDERR, "init: exec /sh: %s\n", strerror(r));
    exit(127);
  }
  return pid;
}

// Reap children until the shell itself has exited; report why it ended
// if that looks like a failure.
static void
waitsh(int shpid)
{
  int pid, status;

  for (;;) {
    pid = wait(&status);
    if (pid == shpid)
      break;
    if (pid == -ECHILD) {
      // Only possible if someone else reaped the shell.
      fprintf(STDERR, "init: wait: %s\n", strerror(pid));
      return;
    }
    // Any other pid is an orphan: reaping it is all there is to do.
  }
  if (WIFSIGNALED(status))
    fprintf(STDERR, "init: sh killed by signal %d, restarting\n", WTERMSIG(status));
  else if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
    sleep(HZ);   // exec failed: do not flood the console
}

// Set up the console and /ttyS1, then run the shell forever.
int
main(void)
{
  int r, pid;

  r = openconsole();
  if (r < 0)
    exit(1);    // no console: nowhere to say what went wrong
  makettys1();

  printf("init: starting sh\n");
  for (;;) {
    pid = startsh();
    if (pid < 0) {
      fprintf(STDERR, "init: fork: %s\n", strerror(pid));
      sleep(HZ);
      continue;
    }
    waitsh(pid);
  }
}
