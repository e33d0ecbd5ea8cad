// Connecting to QEMU's end of a guest serial line (see loopback.h).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "loopback.h"

// Connect to 127.0.0.1:port, retrying once a second for secs seconds
// (QEMU listens from its start; a busy host is slow to get there).
// Returns the socket, or -1.
int loopback_connect(int port, int secs)
{
  struct sockaddr_in a;
  memset(&a, 0, sizeof a);
  a.sin_family = AF_INET;
  a.sin_port = htons(port);
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int t = 0; t < secs; t++) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
      return -1;
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0)
      return s;
    close(s);
    sleep(1);
  }
  return -1;
}
