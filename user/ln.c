// ln TARGET LINKNAME: make LINKNAME a hard link to TARGET.

#include "user.h"

// Create the link; exit 1 on failure.
int
main(int argc, char *argv[])
{
  int r;

  if (argc != 3) {
    fprintf(STDERR, "usage: ln TARGET LINKNAME\n");
    return 1;
  }
  r = link(argv[1], argv[2]);
  if (r < 0) {
    fprintf(STDERR, "ln: failed to create hard link '%s' => '%s': %s\n",
            argv[2], argv[1], strerror(r));
    return 1;
  }
  return 0;
}
