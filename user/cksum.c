// cksum [FILE...]: print the POSIX CRC-32 and the size of each file (or
// standard input), as "CRC SIZE NAME" ("CRC SIZE" for standard input),
// exactly like GNU cksum.

#include "user.h"

static char buf[8192];
static uint crctab[256];

// Fill crctab: crctab[b] is the CRC register change caused by top byte b,
// for the polynomial 0x04C11DB7 processed most significant bit first.
static void
maketable(void)
{
  uint c;
  int i, k;

  for (i = 0; i < 256; i++) {
    c = (uint)i << 24;
    for (k = 0; k < 8; k++)
      c = (c & 0x80000000) ? (c << 1) ^ 0x04C11DB7 : c << 1;
    crctab[i] = c;
  }
}

// Feed n bytes at p into crc; return the new crc.
static uint
crcupdate(uint crc, const uchar *p, long n)
{
  for (; n > 0; n--)
    crc = (crc << 8) ^ crctab[(crc >> 24) ^ *p++];
  return crc;
}

// Finish a crc: POSIX appends the length, least significant byte
// first and only as many bytes as it needs, then inverts.
static uint
crcfinish(uint crc, ulong len)
{
  uchar b;

  for (; len != 0; len >>= 8) {
    b = len & 0xff;
    crc = crcupdate(crc, &b, 1);
  }
  return ~crc;
}

// Checksum fd and print the result; name NULL means standard input.
// Returns 0, or 1 after a read error.
static int
cksum(int fd, const char *name)
{
  uint crc = 0;
  ulong len = 0;
  int n;

  while ((n = read(fd, buf, sizeof buf)) > 0) {
    crc = crcupdate(crc, (uchar *)buf, n);
    len += n;
  }
  if (n < 0) {
    fprintf(STDERR, "cksum: %s: %s\n", name ? name : "-", strerror(n));
    return 1;
  }
  if (name)
    printf("%u %lu %s\n", crcfinish(crc, len), len, name);
  else
    printf("%u %lu\n", crcfinish(crc, len), len);
  return 0;
}

// Checksum each argument ("-" or none: standard input); exit 1 if any
// failed.
int
main(int argc, char *argv[])
{
  int i, fd, status = 0;

  maketable();
  if (argc < 2)
    return cksum(STDIN, NULL);
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-") == 0) {
      status |= cksum(STDIN, "-");
      continue;
    }
    fd = open(argv[i], O_RDONLY);
    if (fd < 0) {
      fprintf(STDERR, "cksum: %s: %s\n", argv[i], strerror(fd));
      status = 1;
      continue;
    }
    status |= cksum(fd, argv[i]);
    close(fd);
  }
  return status;
}
