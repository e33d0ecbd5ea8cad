// echo: print the arguments separated by spaces; -n omits the newline.

#include "user.h"

static char buf[1024];
static int len;

// Append the n bytes at s to the output, writing out a full buffer.
static void
put(const char *s, int n)
{
  int k;

  while (n > 0) {
    if (len == sizeof buf) {
      write(STDOUT, buf, len);
      len = 0;
    }
    k = (int)sizeof buf - len;
    if (k > n)
      k = n;
    memmove(buf + len, s, k);
    len += k;
    s += k;
    n -= k;
  }
}

// Gather the whole line and write it at once, so that concurrent
// echoes do not interleave.
int
main(int argc, char *argv[])
{
  int i = 1, newline = 1, r;

  if (argc > 1 && strcmp(argv[1], "-n") == 0) {
    newline = 0;
    i++;
  }
  for (; i < argc; i++) {
    put(argv[i], strlen(argv[i]));
    if (i + 1 < argc)
      put(" ", 1);
  }
  if (newline)
    put("\n", 1);
  r = write(STDOUT, buf, len);
  if (r < 0) {
    fprintf(STDERR, "echo: write error: %s\n", strerror(r));
    return 1;
  }
  return 0;
}
