// poweroff [CODE]: stop the machine; QEMU exits with CODE (default 0,
// success).

#include "user.h"

// Ask the kernel to power off; only returns on failure.
int
main(int argc, char *argv[])
{
  int r;

  r = poweroff(argc > 1 ? atoi(argv[1]) : 0);
  fprintf(STDERR, "poweroff: %s\n", strerror(r));
  return 1;
}
