// gdbserver: the remote protocol's framing. A packet is $data#cc, cc the
// sum of data's bytes modulo 256 in two hex digits; the receiver answers
// '+' (good) or '-' (send it again). In binary data, '#', '$', '}' and
// '*' go as '}' and the byte XOR 0x20. A line that carries garbage, half
// a packet, or a packet too long for us does no harm: we skip to the next
// '$', NAK a bad checksum, and drop what does not fit (answered as empty,
// the protocol's "not supported").

#include "gdbserver.h"

int remote_fd = -1, input_fd = -1;

static uchar inbuf[256];
static int inlen, inpos;

// The next byte from GDB, or -1 if the line is gone.
static int
readchar(void)
{
  if (inpos == inlen) {
    inlen = read(input_fd, inbuf, sizeof inbuf);
    inpos = 0;
    if (inlen <= 0) {
      inlen = 0;
      return -1;
    }
  }
  return inbuf[inpos++];
}

static void
writeall(const char *p, int n)
{
  int w;

  while (n > 0 && (w = write(remote_fd, p, n)) > 0) {
    p += w;
    n -= w;
  }
}

int
hexval(int c)
{
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

void
bin2hex(const uchar *bin, char *hex, int n)
{
  static const char digits[] = "0123456789abcdef";

  for (int i = 0; i < n; i++) {
    hex[2 * i] = digits[bin[i] >> 4];
    hex[2 * i + 1] = digits[bin[i] & 15];
  }
  hex[2 * n] = 0;
}

// Decode n bytes from hex. Returns n, or -1 if a digit is bad or missing.
int
hex2bin(const char *hex, uchar *bin, int n)
{
  for (int i = 0; i < n; i++) {
    int hi = hexval(hex[2 * i]), lo = hi < 0 ? -1 : hexval(hex[2 * i + 1]);
    if (lo < 0)
      return -1;
    bin[i] = hi << 4 | lo;
  }
  return n;
}

// Read a hex number at *p into *v, moving *p past it. Returns the number
// of digits (0: none there); more than 16 digits is no number (0).
int
unpack_hex(const char **p, ulong *v)
{
  int n = 0, d;

  *v = 0;
  while ((d = hexval((*p)[n])) >= 0) {
    if (n == 16)
      return 0;
    *v = *v << 4 | d;
    n++;
  }
  *p += n;
  return n;
}

// Read one packet's data into buf (PBUFSIZ bytes, NUL-terminated), ack
// it, and return its length; -1 if the line is gone. A packet longer than
// PBUFSIZ - 1 comes back as the empty string (acked: sending it again
// would not make it fit).
int
getpkt(char *buf)
{
  int c, n, sum, over;

  for (;;) {
    while ((c = readchar()) != '$')   // acks, Ctrl-C, noise: not ours here
      if (c < 0)
        return -1;
  restart:
    n = 0;
    sum = 0;
    over = 0;
    while ((c = readchar()) != '#') {
      if (c < 0)
        return -1;
      if (c == '$')                   // a new packet: the old one was cut
        goto restart;
      sum += c;
      if (n < PBUFSIZ - 1)
        buf[n++] = c;
      else
        over = 1;
    }
    int h1 = readchar(), h2 = h1 < 0 ? -1 : readchar();
    if (h2 < 0)
      return -1;
    if (hexval(h1) < 0 || hexval(h2) < 0 || (hexval(h1) << 4 | hexval(h2)) != (sum & 0xff)) {
      writeall("-", 1);
      continue;
    }
    writeall("+", 1);
    if (over)
      n = 0;
    buf[n] = 0;
    return n;
  }
}

// Frame and send n bytes of data (escaping those the framing uses), then
// wait for GDB's '+', sending again on '-'. A '$' instead of an ack is
// GDB's next packet after a lost ack: taken as the ack, and pushed back.
void
putpkt_bin(const char *data, int n)
{
  static char out[2 * PBUFSIZ + 8];
  int len = 0, sum = 0, c;

  out[len++] = '$';
  for (int i = 0; i < n && len < (int)sizeof out - 8; i++) {
    uchar b = data[i];
    if (b == '$' || b == '#' || b == '}' || b == '*') {
      out[len++] = '}';
      sum += '}';
      b ^= 0x20;
    }
    out[len++] = b;
    sum += b;
  }
  len += snprintf(out + len, 4, "#%02x", sum & 0xff);
  for (int tries = 0; tries < 10; tries++) {
    writeall(out, len);
    while ((c = readchar()) != '+' && c != '-' && c != '$')
      if (c < 0)
        return;
    if (c == '$')
      inpos--;
    if (c != '-')
      return;
  }
}

void
putpkt(const char *data)
{
  putpkt_bin(data, strlen(data));
}
