// mkdir DIR...: create directories.

#include "user.h"

// Create each argument; exit 1 if any could not be created.
int
main(int argc, char *argv[])
{
  int i, r, status = 0;

  if (argc < 2) {
    fprintf(STDERR, "usage: mkdir DIR...\n");
    return 1;
  }
  for (i = 1; i < argc; i++) {
    r = mkdir(argv[i]);
    if (r < 0) {
      fprintf(STDERR, "mkdir: cannot create directory '%s': %s\n", argv[i], strerror(r));
      status = 1;
    }
  }
  return status;
}
