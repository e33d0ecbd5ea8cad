// sleep SECONDS: pause for SECONDS seconds, which may have a fraction
// ("0.5"); the kernel counts in ticks of 1/HZ seconds.

#include "user.h"

// Convert "S" or "S.FFF" to ticks; return -1 if s is not such a number.
static long
toticks(const char *s)
{
  long whole = 0, frac = 0, scale = 1;

  if (*s == 0 || (*s == '.' && s[1] == 0))
    return -1;
  for (; *s >= '0' && *s <= '9'; s++) {
    whole = whole * 10 + (*s - '0');
    if (whole > 20000000)
      return -1;        // sleep() takes an int count of ticks
  }
  if (*s == '.') {
    // Digits past 1/HZ cannot matter; keep a few for rounding.
    for (s++; *s >= '0' && *s <= '9'; s++) {
      if (scale < 1000000) {
        frac = frac * 10 + (*s - '0');
        scale *= 10;
      }
    }
  }
  if (*s != 0)
    return -1;
  // Round the fraction up, so that "sleep 0.001" still sleeps.
  return whole * HZ + (frac * HZ + scale - 1) / scale;
}

// Sleep for argv[1] seconds; exit 1 on a bad argument.
int
main(int argc, char *argv[])
{
  long ticks, deadline, left;
  int r;

  if (argc != 2) {
    fprintf(STDERR, "usage: sleep SECONDS\n");
    return 1;
  }
  ticks = toticks(argv[1]);
  if (ticks < 0) {
    fprintf(STDERR, "sleep: invalid time interval '%s'\n", argv[1]);
    return 1;
  }
  // sleep() returns -EINTR when a signal arrives; one that does not
  // kill us (a stop and continue, say) is no reason to wake early.
  deadline = uptime() + ticks;
  while ((left = deadline - uptime()) > 0) {
    r = sleep(left);
    if (r < 0 && r != -EINTR) {
      fprintf(STDERR, "sleep: %s\n", strerror(r));
      return 1;
    }
  }
  return 0;
}
