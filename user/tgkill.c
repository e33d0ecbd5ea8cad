// tgkill: send a signal to one thread, with the tgkill() system call
// (kill names a process; this names a thread of one).
//
//   tgkill TGID TID [SIG]     SIG a number or a name (KILL, SIGKILL); default TERM
//
// Prints "tgkill: (TID) - No such process" and exits 1 if the call fails,
// as kill does.

#include "user.h"

// The signal s names: a number, or a name with or without "SIG" in upper
// case; -1 if none.
static int
parsesig(const char *s)
{
  if (*s >= '0' && *s <= '9')
    return atoi(s);
  return signum(s);
}

int
main(int argc, char *argv[])
{
  int sig = SIGTERM, r;

  if (argc < 3 || argc > 4 || (argc == 4 && (sig = parsesig(argv[3])) < 0)) {
    fprintf(STDERR, "usage: tgkill TGID TID [SIG]\n");
    return 2;
  }
  r = tgkill(atoi(argv[1]), atoi(argv[2]), sig);
  if (r < 0) {
    fprintf(STDERR, "tgkill: (%s) - %s\n", argv[2], strerror(r));
    return 1;
  }
  return 0;
}
