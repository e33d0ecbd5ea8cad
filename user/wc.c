// wc [FILE...]: count lines, words and bytes of each file (or standard
// input), printed as "LINES WORDS BYTES NAME"; a "total" line follows
// when there are several files.

#include "user.h"

static char buf[8192];

// Counts for one file.
struct counts {
  long lines, words, bytes;
};

// Return 1 if c separates words.
static int
isspace(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Count fd into *c; return 0, or -errno if a read failed.
static int
wc(int fd, struct counts *c)
{
  int n, i, inword = 0;

  c->lines = c->words = c->bytes = 0;
  while ((n = read(fd, buf, sizeof buf)) > 0) {
    c->bytes += n;
    for (i = 0; i < n; i++) {
      if (buf[i] == '\n')
        c->lines++;
      // A word is counted where it starts.
      if (isspace(buf[i]))
        inword = 0;
      else if (!inword) {
        inword = 1;
        c->words++;
      }
    }
  }
  return n < 0 ? n : 0;
}

// Print one line of counts; name may be NULL (standard input).
static void
report(struct counts *c, const char *name)
{
  if (name)
    printf("%ld %ld %ld %s\n", c->lines, c->words, c->bytes, name);
  else
    printf("%ld %ld %ld\n", c->lines, c->words, c->bytes);
}

// Count each argument, or standard input; exit 1 if any failed.
int
main(int argc, char *argv[])
{
  struct counts c, total = { 0, 0, 0 };
  int i, fd, r, status = 0;

  if (argc < 2) {
    r = wc(STDIN, &c);
    if (r < 0) {
      fprintf(STDERR, "wc: read error: %s\n", strerror(r));
      return 1;
    }
    report(&c, NULL);
    return 0;
  }
  for (i = 1; i < argc; i++) {
    fd = open(argv[i], O_RDONLY);
    if (fd < 0) {
      fprintf(STDERR, "wc: %s: %s\n", argv[i], strerror(fd));
      status = 1;
      continue;
    }
    r = wc(fd, &c);
    close(fd);
    if (r < 0) {
      fprintf(STDERR, "wc: %s: %s\n", argv[i], strerror(r));
      status = 1;
      continue;
    }
    report(&c, argv[i]);
    total.lines += c.lines;
    total.words += c.words;
    total.bytes += c.bytes;
  }
  if (argc > 2)
    report(&total, "total");
  return status;
}
