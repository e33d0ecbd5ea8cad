// vpump [-l] SRC DST: copy SRC to DST with the kernel's vhost copy engine
// (kernel/vhost.c): the copy runs in a worker thread, vhost-PID, while
// this program waits in read() of the device for it to end, then prints
// the bytes copied.
//
//   -l   copy again and again, forever (VHOST_F_LOOP): the worker stays
//        busy until the program is ended; it prints nothing
//
// Lab 07 asks what that worker should be: a kernel thread (as here), or
// a thread of this process. The exit status is 1 on an error, 2 on a
// usage error.

#include "user.h"

static void
usage(void)
{
  fprintf(2, "usage: vpump [-l] SRC DST\n");
  exit(2);
}

int
main(int argc, char **argv)
{
  int flags = 0, i = 1;
  if (i < argc && strcmp(argv[i], "-l") == 0) {
    flags |= VHOST_F_LOOP;
    i++;
  }
  if (argc - i != 2)
    usage();
  int in = open(argv[i], O_RDONLY);
  if (in < 0) {
    fprintf(2, "vpump: %s: %s\n", argv[i], strerror(-in));
    exit(1);
  }
  int out = open(argv[i + 1], O_CREAT | O_TRUNC | O_WRONLY);
  if (out < 0) {
    fprintf(2, "vpump: %s: %s\n", argv[i + 1], strerror(-out));
    exit(1);
  }
  int dev = vhost_open(in, out, flags);
  if (dev < 0) {
    fprintf(2, "vpump: vhost_open: %s\n", strerror(-dev));
    exit(1);
  }
  close(in);    // the device holds its own references
  close(out);
  if (flags & VHOST_F_LOOP)
    for (;;)
      pause();
  unsigned long copied;
  int r = read(dev, &copied, sizeof(copied));
  if (r < 0) {
    fprintf(2, "vpump: %s\n", strerror(-r));
    exit(1);
  }
  printf("vpump: %lu bytes copied\n", copied);
  close(dev);
  exit(0);
}
