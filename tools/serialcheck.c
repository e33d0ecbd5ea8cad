// serialcheck PORT N [WINDOW]: a host program for make check's serial
// suite. It connects to QEMU's end of the guest's second serial line
// (127.0.0.1:PORT), sends N bytes that take every value from 0 to 255, a
// window of WINDOW bytes (1024) at a time, and checks that each one comes
// back in order
// (the guest runs serialecho). It waits for events: the connection is
// retried until QEMU listens, and a read gives up only after IDLE_SECS
// without a byte. Prints one line, "serialcheck: ..." with what it saw,
// and exits 0 if every byte came back, 1 if not, 2 on a usage error.
//
// serialcheck -p: print a TCP port of localhost that is free now, for QEMU
// to listen on (the kernel picks it: no guess that another run may share).
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "loopback.h"

#define WINDOW 1024       // bytes in flight by default: the guest's receive buffer holds 4096
#define MAXWINDOW 65536
#define IDLE_SECS 60      // no byte for this long: the line is dead
#define CONNECT_SECS 60   // QEMU listens from its start; give a busy host time

// The byte at position i of the stream: every value, in a scrambled order.
static unsigned char pattern(long i)
{
  return (unsigned char)(i * 131 + 7 + i / 256);
}

// Read exactly n bytes into buf, giving up after IDLE_SECS without one.
// Returns the bytes read.
static long read_all(int s, unsigned char *buf, long n)
{
  long got = 0;
  while (got < n) {
    struct pollfd p = { .fd = s, .events = POLLIN };
    if (poll(&p, 1, IDLE_SECS * 1000) <= 0)
      break;
    long r = read(s, buf + got, n - got);
    if (r <= 0)
      break;
    got += r;
  }
  return got;
}

// Print a port the kernel gives a socket bound to port 0. Returns 0 or 1.
static int free_port(void)
{
  struct sockaddr_in a;
  socklen_t len = sizeof a;
  int s = socket(AF_INET, SOCK_STREAM, 0);
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (s < 0 || bind(s, (struct sockaddr *)&a, sizeof a) < 0 ||
      getsockname(s, (struct sockaddr *)&a, &len) < 0) {
    perror("serialcheck: no free port");
    return 1;
  }
  printf("%d\n", ntohs(a.sin_port));
  close(s);
  return 0;
}

int main(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "-p") == 0)
    return free_port();
  long window = argc == 4 ? atol(argv[3]) : WINDOW;
  if (argc < 3 || argc > 4 || atoi(argv[1]) <= 0 || atol(argv[2]) <= 0 || window <= 0 ||
      window > MAXWINDOW) {
    fprintf(stderr, "usage: serialcheck PORT N [WINDOW] | serialcheck -p\n");
    return 2;
  }
  int port = atoi(argv[1]);
  long n = atol(argv[2]), done = 0;
  int s = loopback_connect(port, CONNECT_SECS);
  if (s < 0) {
    printf("serialcheck: cannot connect to 127.0.0.1:%d: %s\n", port, strerror(errno));
    return 1;
  }
  static unsigned char out[MAXWINDOW], in[MAXWINDOW];
  while (done < n) {
    long m = n - done < window ? n - done : window;
    for (long i = 0; i < m; i++)
      out[i] = pattern(done + i);
    if (write(s, out, m) != m) {
      printf("serialcheck: write to the line failed after %ld bytes: %s\n", done, strerror(errno));
      return 1;
    }
    long got = read_all(s, in, m);
    for (long i = 0; i < got; i++)
      if (in[i] != out[i]) {
        printf("serialcheck: byte %ld came back as 0x%02x, sent 0x%02x\n", done + i, in[i], out[i]);
        return 1;
      }
    if (got < m) {
      printf("serialcheck: %ld of %ld bytes came back, then nothing for %d s\n", done + got, n, IDLE_SECS);
      return 1;
    }
    done += m;
  }
  printf("serialcheck: %ld bytes sent and all came back in order, every value 0-255\n", n);
  close(s);
  return 0;
}
