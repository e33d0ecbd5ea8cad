// Small library routines built on the system calls.

#include "user.h"

// Wait for any child to exit; return its pid (status stored in *status
// if status is not NULL) or -ECHILD if there are no children.
int
wait(int *status)
{
  return waitpid(-1, status, 0);
}

// Fill *st for the file at path; return 0 or -errno.
int
stat(const char *path, struct stat *st)
{
  int fd, r;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    return fd;
  r = fstat(fd, st);
  close(fd);
  return r;
}

// Read one line from fd 0 into buf, newline included, NUL-terminated,
// at most max-1 bytes. Returns buf; buf[0] == 0 means end of input.
// Reads a byte at a time so that no input meant for a child is consumed.
char *
gets(char *buf, int max)
{
  int i = 0;
  char c;

  while (i + 1 < max) {
    if (read(STDIN, &c, 1) != 1)
      break;
    buf[i++] = c;
    if (c == '\n' || c == '\r')
      break;
  }
  buf[i] = 0;
  return buf;
}

// Parse an optionally signed decimal number after leading blanks;
// stops at the first non-digit.
long
atol(const char *s)
{
  long n = 0;
  int neg = 0;

  while (*s == ' ' || *s == '\t' || *s == '\n')
    s++;
  if (*s == '-' || *s == '+')
    neg = (*s++ == '-');
  while (*s >= '0' && *s <= '9')
    n = n * 10 + (*s++ - '0');
  return neg ? -n : n;
}

// atol, truncated to an int.
int
atoi(const char *s)
{
  return (int)atol(s);
}

// Return 1 if p, a value sbrk() returned, encodes -errno.
// User addresses are small positive numbers, so the top of the
// address range is free to carry error codes; like Linux, treat the
// last 4095 values as errors, not just the errnos known today.
int
is_sbrk_error(char *p)
{
  long v = (long)p;

  return v < 0 && v >= -4095;
}

// Start argv[0] (looked for in / when it holds no '/') with argv in a
// child process, as a tool that wraps a command does; who names the tool
// in the error the child prints if exec fails (it then exits 127).
// Returns the child's pid, or -errno if fork failed.
int
spawn(const char *who, char **argv)
{
  char path[128];
  int pid, r;

  if (strchr(argv[0], '/'))
    snprintf(path, sizeof path, "%s", argv[0]);
  else
    snprintf(path, sizeof path, "/%s", argv[0]);
  pid = fork();
  if (pid != 0)
    return pid;
  r = exec(path, argv);
  fprintf(STDERR, "%s: %s: %s\n", who, path, strerror(r));
  exit(127);
}

// Print ticks as seconds and hundredths: "5.20 s".
void
print_secs(int ticks)
{
  printf("%d.%02d s", ticks / HZ, ticks % HZ * 100 / HZ);
}
