// kill: send a signal to processes.
//
//   kill [-s NAME | -NAME | -NUM] [--] PID...   default SIGTERM
//   kill -l                                     list signal numbers and names
//   kill -l SIG...                              name for a number, number for a name
//
// Names may be given with or without "SIG", in any case. A negative
// PID (after "--" or a signal option) names a process group.

#include "user.h"

// Return c in upper case.
static char
upper(char c)
{
  return (c >= 'a' && c <= 'z') ? c - 'a' + 'A' : c;
}

// Parse a decimal integer, optionally negative, into *n; return 0, or
// -1 if s is not entirely such a number.
static int
parseint(const char *s, int *n)
{
  int neg = 0;
  long v = 0;

  if (*s == '-') {
    neg = 1;
    s++;
  }
  if (*s == 0)
    return -1;
  for (; *s; s++) {
    if (*s < '0' || *s > '9' || v > 100000000)
      return -1;
    v = v * 10 + (*s - '0');
  }
  *n = neg ? -v : v;
  return 0;
}

// Return the signal that s names ("9", "KILL", "sigkill"), or -1. Names
// are the library's (signame, signum), in any case.
static int
parsesig(const char *s)
{
  char name[16];
  int n, i;

  if (parseint(s, &n) == 0)
    return (n >= 0 && n <= NSIG) ? n : -1;
  for (i = 0; s[i] && i < (int)sizeof name - 1; i++)
    name[i] = upper(s[i]);
  if (s[i])
    return -1;
  name[i] = 0;
  return signum(name);
}

// Print every known signal as " N) SIGNAME", five to a line, in
// columns, with no trailing blanks.
static void
listall(void)
{
  int n, last = 0, col = 0;

  for (n = 1; n <= NSIG; n++)
    if (signame(n))
      last = n;
  for (n = 1; n <= last; n++) {
    if (signame(n) == NULL)
      continue;
    if (col % 5 != 0)
      printf(" ");
    if (col % 5 == 4 || n == last)
      printf("%2d) SIG%s\n", n, signame(n));
    else
      printf("%2d) SIG%-7s", n, signame(n));
    col++;
  }
}

// kill -l SIG...: print the name of each number (128+N, a shell exit
// status, counts as N) and the number of each name. Returns 0 or 1.
static int
listsome(int argc, char **argv)
{
  int i, n, status = 0;

  for (i = 0; i < argc; i++) {
    if (parseint(argv[i], &n) == 0) {
      if (n > 128)
        n -= 128;
      if (n > 0 && n <= NSIG && signame(n)) {
        printf("%s\n", signame(n));
        continue;
      }
    } else if ((n = parsesig(argv[i])) > 0) {
      printf("%d\n", n);
      continue;
    }
    fprintf(STDERR, "kill: unknown signal: %s\n", argv[i]);
    status = 1;
  }
  return status;
}

// Print how kill is used and exit 1.
static void
usage(void)
{
  fprintf(STDERR, "usage: kill [-s NAME | -NAME | -NUM] PID...\n"
                  "       kill -l [SIG...]\n");
  exit(1);
}

// Return sig's parsed number, exiting with a message if it is unknown.
static int
needsig(const char *s)
{
  int sig = parsesig(s);

  if (sig < 0) {
    fprintf(STDERR, "kill: unknown signal: %s\n", s);
    exit(1);
  }
  return sig;
}

// Parse the options, then signal each PID; exit 1 if any kill failed.
int
main(int argc, char *argv[])
{
  int i = 1, sig = SIGTERM, pid, r, status = 0;

  if (argc < 2)
    usage();
  if (strcmp(argv[1], "-l") == 0 || strcmp(argv[1], "-L") == 0) {
    if (argc == 2) {
      listall();
      return 0;
    }
    return listsome(argc - 2, argv + 2);
  }
  if (strcmp(argv[1], "-s") == 0) {
    if (argc < 3)
      usage();
    sig = needsig(argv[2]);
    i = 3;
  } else if (argv[1][0] == '-' && strcmp(argv[1], "--") != 0) {
    sig = needsig(argv[1] + 1);
    i = 2;
  }
  if (i < argc && strcmp(argv[i], "--") == 0)
    i++;
  if (i >= argc)
    usage();

  for (; i < argc; i++) {
    if (parseint(argv[i], &pid) < 0) {
      fprintf(STDERR, "kill: failed to parse argument: '%s'\n", argv[i]);
      status = 1;
      continue;
    }
    r = kill(pid, sig);
    if (r < 0) {
      fprintf(STDERR, "kill: (%d) - %s\n", pid, strerror(r));
      status = 1;
    }
  }
  return status;
}
