// rm FILE...: remove directory entries (empty directories too, as xv6's
// unlink allows).

#include "user.h"

// Unlink each argument; exit 1 if any could not be removed.
int
main(int argc, char *argv[])
{
  int i, r, status = 0;

  if (argc < 2) {
    fprintf(STDERR, "usage: rm FILE...\n");
    return 1;
  }
  for (i = 1; i < argc; i++) {
    r = unlink(argv[i]);
    if (r < 0) {
      fprintf(STDERR, "rm: cannot remove '%s': %s\n", argv[i], strerror(r));
      status = 1;
    }
  }
  return status;
}
