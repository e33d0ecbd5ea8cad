// serialecho [-w TICKS] [N]: send back every byte that comes in on
// /ttyS1, the second serial line, until N bytes have gone round
// (default: for ever). It prints "serialecho: ready" once the line is
// open and "serialecho: N bytes echoed" at the end. make check's serial
// suite runs it while a host program sends bytes through QEMU's TCP
// port and checks that each one comes back. With -w it first waits
// TICKS after "ready", so that
// more than the kernel's receive buffer (4096 bytes) comes in unread:
// the line must hold the host back, not drop bytes.

#include "user.h"

int
main(int argc, char *argv[])
{
  char buf[512];
  int wait = 0;
  if (argc > 2 && !strcmp(argv[1], "-w")) {
    wait = atoi(argv[2]);
    argv += 2;
    argc -= 2;
  }
  long want = argc > 1 ? atoi(argv[1]) : -1, done = 0;
  int fd, n;

  if ((fd = open("/ttyS1", O_RDWR)) < 0) {
    fprintf(STDERR, "serialecho: /ttyS1: %s\n", strerror(fd));
    exit(1);
  }
  printf("serialecho: ready\n");
  sleep(wait);
  while (want < 0 || done < want) {
    long room = want < 0 || want - done > (long)sizeof buf ? (long)sizeof buf : want - done;
    if ((n = read(fd, buf, room)) < 0) {
      fprintf(STDERR, "serialecho: read: %s\n", strerror(n));
      exit(1);
    }
    if (write(fd, buf, n) != n) {
      fprintf(STDERR, "serialecho: write failed\n");
      exit(1);
    }
    done += n;
  }
  printf("serialecho: %ld bytes echoed\n", done);
  return 0;
}
