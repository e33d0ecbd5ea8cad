// cmp A B: compare two files byte by byte.
// Silent with exit 0 if they are equal; otherwise prints where they
// first differ ("A B differ: byte N, line M") or that one ended first
// ("cmp: EOF on A after byte N"), and exits 1. Exit 2 on errors.
// "-" names standard input.

#include "user.h"

#define CHUNK 8192

// One input: its name, fd and a buffer of what has been read.
struct input {
  const char *name;
  int fd;
  char buf[CHUNK];
  int len;          // bytes in buf
  int pos;          // next byte of buf to compare
};

static struct input in[2];

// Open path as input f; exits with 2 if it cannot.
static void
openinput(struct input *f, const char *path)
{
  f->name = path;
  f->fd = strcmp(path, "-") == 0 ? STDIN : open(path, O_RDONLY);
  if (f->fd < 0) {
    fprintf(STDERR, "cmp: %s: %s\n", path, strerror(f->fd));
    exit(2);
  }
}

// Make sure f has unread bytes; return 0 at end of file, else 1.
// Exits with 2 on a read error.
static int
fill(struct input *f)
{
  int n;

  if (f->pos < f->len)
    return 1;
  n = read(f->fd, f->buf, CHUNK);
  if (n < 0) {
    fprintf(STDERR, "cmp: %s: %s\n", f->name, strerror(n));
    exit(2);
  }
  f->len = n;
  f->pos = 0;
  return n > 0;
}

// Compare the two inputs; return the exit status.
static int
compare(void)
{
  struct input *a = &in[0], *b = &in[1];
  ulong byte = 0, line = 1;
  int more0, more1, n;
  char c;

  for (;;) {
    more0 = fill(a);
    more1 = fill(b);
    if (!more0 || !more1)
      break;
    // Compare as far as both buffers go.
    n = a->len - a->pos;
    if (b->len - b->pos < n)
      n = b->len - b->pos;
    for (; n > 0; n--) {
      c = a->buf[a->pos++];
      byte++;
      if (c != b->buf[b->pos++]) {
        printf("%s %s differ: byte %lu, line %lu\n", a->name, b->name, byte, line);
        return 1;
      }
      if (c == '\n')
        line++;
    }
  }
  if (more0 == more1)
    return 0;
  fprintf(STDERR, "cmp: EOF on %s after byte %lu\n", more0 ? b->name : a->name, byte);
  return 1;
}

// Compare argv[1] with argv[2].
int
main(int argc, char *argv[])
{
  if (argc != 3) {
    fprintf(STDERR, "usage: cmp A B\n");
    return 2;
  }
  openinput(&in[0], argv[1]);
  openinput(&in[1], argv[2]);
  return compare();
}
