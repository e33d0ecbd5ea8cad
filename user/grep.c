// grep [-c] [-v] PATTERN [FILE...]: print the lines that match PATTERN.
//
// PATTERN is a fixed string or a small regular expression:
//   ^  at the start: anchor to the start of the line
//   $  at the end: anchor to the end of the line
//   .  any character
//   x* zero or more of the preceding character (or '.')
//   \x the character x itself
// -c prints the number of selected lines instead of the lines;
// -v selects the lines that do not match.
// With several files each output line starts with "FILE:".
// Exit status: 0 if a line was selected, 1 if none, 2 on error.

#include "user.h"

static char inbuf[8192];
static char outbuf[4096];
static int outlen;
static int countonly, invert, showname;

static int matchhere(const char *re, const char *text);

// Return the length of the atom that starts re: 2 for "\x", else 1.
static int
atomlen(const char *re)
{
  return (re[0] == '\\' && re[1]) ? 2 : 1;
}

// Return 1 if the atom at re matches the character c.
static int
atommatch(const char *re, char c)
{
  if (re[0] == '\\' && re[1])
    return re[1] == c;
  return re[0] == '.' || re[0] == c;
}

// Match "atom*" followed by rest at text. Tries the longest run of
// atoms first, then gives characters back until rest matches.
static int
matchstar(const char *atom, const char *rest, const char *text)
{
  const char *t = text;

  while (*t && atommatch(atom, *t))
    t++;
  for (;; t--) {
    if (matchhere(rest, t))
      return 1;
    if (t == text)
      return 0;
  }
}

// Return 1 if re matches a prefix of text.
static int
matchhere(const char *re, const char *text)
{
  int n;

  for (;;) {
    if (re[0] == 0)
      return 1;
    n = atomlen(re);
    if (re[n] == '*')
      return matchstar(re, re + n + 1, text);
    if (re[0] == '$' && re[1] == 0)
      return *text == 0;
    if (*text == 0 || !atommatch(re, *text))
      return 0;
    re += n;
    text++;
  }
}

// Return 1 if re matches anywhere in text.
static int
match(const char *re, const char *text)
{
  if (re[0] == '^')
    return matchhere(re + 1, text);
  // The empty string at the end of text counts too (for "$", "x*").
  do {
    if (matchhere(re, text))
      return 1;
  } while (*text++);
  return 0;
}

// Return 1 if re uses any of the special characters.
static int
isregex(const char *re)
{
  for (; *re; re++)
    if (strchr("^$.*\\", *re))
      return 1;
  return 0;
}

// Send the buffered output to standard output.
static void
flushout(void)
{
  if (outlen > 0 && write(STDOUT, outbuf, outlen) != outlen) {
    fprintf(STDERR, "grep: write error\n");
    exit(2);
  }
  outlen = 0;
}

// Append n bytes at s to the output.
static void
out(const char *s, int n)
{
  int k;

  while (n > 0) {
    if (outlen == sizeof outbuf)
      flushout();
    k = sizeof outbuf - outlen;
    if (k > n)
      k = n;
    memmove(outbuf + outlen, s, k);
    outlen += k;
    s += k;
    n -= k;
  }
}

// Print line (without its newline) if selected; return 1 if it was.
static int
consider(const char *re, int fixed, char *line, const char *name)
{
  int hit;

  hit = fixed ? strstr(line, re) != NULL : match(re, line);
  if (hit == invert)
    return 0;
  if (!countonly) {
    if (showname) {
      out(name, strlen(name));
      out(":", 1);
    }
    out(line, strlen(line));
    out("\n", 1);
  }
  return 1;
}

// Return the first newline in [p, end), or NULL.
static char *
findnl(char *p, char *end)
{
  for (; p < end; p++)
    if (*p == '\n')
      return p;
  return NULL;
}

// Search the file open as fd; return the number of selected lines,
// or -1 after a read error.
static int
grep(const char *re, int fd, const char *name)
{
  int fixed = !isregex(re), n, len = 0, count = 0;
  char *p, *nl;

  for (;;) {
    n = read(fd, inbuf + len, sizeof inbuf - 1 - len);
    if (n < 0) {
      fprintf(STDERR, "grep: %s: %s\n", name, strerror(n));
      return -1;
    }
    len += n;
    p = inbuf;
    while ((nl = findnl(p, inbuf + len)) != NULL) {
      *nl = 0;
      count += consider(re, fixed, p, name);
      p = nl + 1;
    }
    len -= p - inbuf;
    // At end of input, or with a line longer than the buffer,
    // what is left is taken as a line of its own.
    if (len > 0 && (n == 0 || len == sizeof inbuf - 1)) {
      p[len] = 0;
      count += consider(re, fixed, p, name);
      len = 0;
    }
    if (n == 0)
      return count;
    memmove(inbuf, p, len);
  }
}

// Search path ("-": standard input), printing the count if -c;
// return the number of selected lines, or -1 on error.
static int
searchfile(const char *re, const char *path)
{
  int fd = STDIN, n;
  const char *name = "(standard input)";

  if (strcmp(path, "-") != 0) {
    name = path;
    fd = open(path, O_RDONLY);
    if (fd < 0) {
      fprintf(STDERR, "grep: %s: %s\n", path, strerror(fd));
      return -1;
    }
  }
  n = grep(re, fd, name);
  if (fd != STDIN)
    close(fd);
  if (n >= 0 && countonly) {
    flushout();
    if (showname)
      printf("%s:%d\n", name, n);
    else
      printf("%d\n", n);
  }
  return n;
}

// Print how grep is used and exit with status 2.
static void
usage(void)
{
  fprintf(STDERR, "usage: grep [-c] [-v] PATTERN [FILE...]\n");
  exit(2);
}

// Parse the options, search each file (or standard input), report.
int
main(int argc, char *argv[])
{
  int i, n, total = 0, err = 0;
  const char *re, *o;

  for (i = 1; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
    if (strcmp(argv[i], "--") == 0) {
      i++;
      break;
    }
    for (o = argv[i] + 1; *o; o++) {
      if (*o == 'c')
        countonly = 1;
      else if (*o == 'v')
        invert = 1;
      else
        usage();
    }
  }
  if (i >= argc)
    usage();
  re = argv[i++];
  showname = (argc - i > 1);

  if (i == argc) {
    n = searchfile(re, "-");
    err = n < 0;
    total = n;
  }
  for (; i < argc; i++) {
    n = searchfile(re, argv[i]);
    if (n < 0)
      err = 1;
    else
      total += n;
  }
  flushout();
  if (err)
    return 2;
  return total > 0 ? 0 : 1;
}
