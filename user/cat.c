// cat [FILE...]: copy each file, or standard input, to standard output.

#include "user.h"

static char buf[8192];

// Copy fd to standard output; name is for messages. Returns 0, or 1 if
// fd could not be read; exits if standard output fails, since nothing
// more can be done.
static int
cat(int fd, const char *name)
{
  int n, w, off;

  while ((n = read(fd, buf, sizeof buf)) > 0) {
    for (off = 0; off < n; off += w) {
      w = write(STDOUT, buf + off, n - off);
      if (w <= 0) {
        fprintf(STDERR, "cat: write error: %s\n", strerror(w < 0 ? w : -EIO));
        exit(1);
      }
    }
  }
  if (n < 0) {
    fprintf(STDERR, "cat: %s: %s\n", name, strerror(n));
    return 1;
  }
  return 0;
}

// Concatenate the arguments ("-" or none: standard input); exit 1 if
// any could not be read.
int
main(int argc, char *argv[])
{
  int i, fd, status = 0;

  if (argc < 2)
    return cat(STDIN, "-");
  for (i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-") == 0) {
      status |= cat(STDIN, "-");
      continue;
    }
    fd = open(argv[i], O_RDONLY);
    if (fd < 0) {
      fprintf(STDERR, "cat: %s: %s\n", argv[i], strerror(fd));
      status = 1;
      continue;
    }
    status |= cat(fd, argv[i]);
    close(fd);
  }
  return status;
}
