// mkbig [-c] [-s SEED] FILE SIZE: make (or, with -c, check) a file of SIZE
// bytes holding a deterministic pattern, for copy tests and the labs.
//
// SIZE is a count of bytes, optionally followed by K (KiB) or M (MiB),
// and optionally "+N" or "-N" bytes: 4000000, 32K-1, 1M+7, 4M.
//
// The pattern: the file is a run of 32-bit little-endian words, and word
// number w (the bytes at 4w .. 4w+3) is (w + SEED) * 2654435761 mod 2^32
// (Knuth's multiplicative hash; SEED defaults to 0). The multiplier is odd,
// so no two words of a file under 16 GiB are equal: a chunk copied to the
// wrong place, twice, or not at all always shows. The last word may be cut
// short by SIZE.
//
// mkbig FILE SIZE creates or truncates FILE and writes the pattern.
// mkbig -c FILE SIZE exits 0 if FILE is exactly that; otherwise it prints
// where it first differs and exits 1. Errors: message and exit 1; usage: 2.

#include "user.h"

#define CHUNK 16384             // bytes per read() or write()

static uchar buf[CHUNK];
static uchar want[CHUNK];
static uint seed;

// Byte off of the pattern.
static uchar
pattern_byte(ulong off)
{
  uint w = (uint)((off / 4 + seed) * 2654435761UL);

  return (uchar)(w >> (8 * (off % 4)));
}

// Fill b with the n bytes of the pattern that start at off.
static void
pattern(uchar *b, ulong off, int n)
{
  for (int i = 0; i < n; i++)
    b[i] = pattern_byte(off + i);
}

// Parse SIZE ("4000000", "32K-1", "1M+7"); -1 if it is not one.
static long
parsesize(const char *s)
{
  long n = 0, unit = 1, adj = 0;
  int digits = 0, sign;

  for (; *s >= '0' && *s <= '9'; s++, digits++) {
    n = n * 10 + (*s - '0');
    if (n > (1L << 40))
      return -1;
  }
  if (!digits)
    return -1;
  if (*s == 'k' || *s == 'K')
    unit = 1024, s++;
  else if (*s == 'm' || *s == 'M')
    unit = 1024 * 1024, s++;
  if (*s == '+' || *s == '-') {
    sign = *s++ == '-' ? -1 : 1;
    digits = 0;
    for (; *s >= '0' && *s <= '9'; s++, digits++) {
      adj = adj * 10 + (*s - '0');
      if (adj > (1L << 40))
        return -1;
    }
    if (!digits)
      return -1;
    adj *= sign;
  }
  if (*s || n * unit + adj < 0)
    return -1;
  return n * unit + adj;
}

// Print "mkbig: WHAT: error" and exit 1.
static void
die(const char *what, int err)
{
  fprintf(STDERR, "mkbig: %s: %s\n", what, strerror(err));
  exit(1);
}

// Write size bytes of the pattern to a new path.
static int
make(const char *path, long size)
{
  int fd, n, r;
  long off;

  fd = open(path, O_WRONLY | O_CREAT | O_TRUNC);
  if (fd < 0)
    die(path, fd);
  for (off = 0; off < size; off += n) {
    n = size - off > CHUNK ? CHUNK : size - off;
    pattern(buf, off, n);
    r = write(fd, buf, n);
    if (r < 0)
      die(path, r);
    if (r != n) {
      fprintf(STDERR, "mkbig: %s: short write (%d of %d bytes at %ld): disk full?\n",
              path, r, n, off);
      exit(1);
    }
  }
  r = close(fd);
  if (r < 0)
    die(path, r);
  return 0;
}

// Compare path with size bytes of the pattern; 0 if equal, else 1.
static int
check(const char *path, long size)
{
  int fd, n, i;
  long off = 0;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    die(path, fd);
  for (;;) {
    n = read(fd, buf, CHUNK);
    if (n < 0)
      die(path, n);
    if (n == 0)
      break;
    if (off + n > size) {
      printf("mkbig: %s is longer than %ld bytes\n", path, size);
      return 1;
    }
    pattern(want, off, n);
    for (i = 0; i < n; i++) {
      if (buf[i] != want[i]) {
        printf("mkbig: %s differs at byte %ld: 0x%x, want 0x%x\n", path, off + i, buf[i],
               want[i]);
        return 1;
      }
    }
    off += n;
  }
  close(fd);
  if (off != size) {
    printf("mkbig: %s ends after %ld bytes, want %ld\n", path, off, size);
    return 1;
  }
  return 0;
}

static void
usage(void)
{
  fprintf(STDERR, "usage: mkbig [-c] [-s SEED] FILE SIZE   (SIZE: 4000000, 32K-1, 1M+7, 4M)\n");
  exit(2);
}

int
main(int argc, char *argv[])
{
  int checking = 0, i;
  long size;

  for (i = 1; i < argc && argv[i][0] == '-'; i++) {
    if (strcmp(argv[i], "-c") == 0) {
      checking = 1;
    } else if (strcmp(argv[i], "-s") == 0 && i + 1 < argc) {
      seed = (uint)atol(argv[++i]);
    } else {
      usage();
    }
  }
  if (argc - i != 2)
    usage();
  size = parsesize(argv[i + 1]);
  if (size < 0) {
    fprintf(STDERR, "mkbig: bad size '%s'\n", argv[i + 1]);
    usage();
  }
  return checking ? check(argv[i], size) : make(argv[i], size);
}
