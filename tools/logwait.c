// logwait: wait until a growing log file holds what grep would find.
// A host tool for labs/grade/lib.sh: every wait of the graders goes
// through it, so that waiting costs no CPU. It sleeps in poll() on an
// inotify watch of the log and on a pidfd of the process that writes it,
// and reads only the bytes added since its last look; a shell loop of
// grep and sleep forks twenty times a second and, on a 2-core machine,
// took CPU from the QEMU it was waiting for.
//
//   logwait [-F | -E] [-x] [-o] [-a SKIP] [-n COUNT] [-p PID] [-t SECS] [-e] PATTERN LOG
//
//   -F        PATTERN is a fixed string (the default)
//   -E        PATTERN is a POSIX extended regular expression
//   -x        it must match a whole line
//   -o        count every occurrence in a line, not matching lines (-F only)
//   -a SKIP   ignore the first SKIP lines of LOG
//   -n COUNT  wait for COUNT matches in all (default 1)
//   -p PID    give up once process PID has ended (after a last look)
//   -t SECS   give up after SECS seconds (default 60; 0: look once)
//   -e PATTERN  the pattern (as grep takes it: for one that starts with -)
//
// Lines are the log's lines with every carriage return removed; the last
// line counts even before its newline has come (a shell prompt has none).
// Exit status: 0 found, 1 timed out, 2 PID ended first, 3 bad usage or an
// error (with a message on stderr).

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int opt_regex, opt_whole, opt_each;
static const char *pattern;
static regex_t re;

static char *line;              // the line being read, without its CRs
static size_t len, cap;
static long lines_seen;         // complete lines read so far
static long found;              // matches in complete lines after SKIP

static void die(const char *what)
{
  fprintf(stderr, "logwait: %s: %s\n", what, strerror(errno));
  exit(3);
}

static void usage(void)
{
  fprintf(stderr, "usage: logwait [-F|-E] [-x] [-o] [-a SKIP] [-n COUNT] [-p PID] [-t SECS] [-e] PATTERN LOG\n");
  exit(3);
}

// How many matches line s (NUL-terminated, n bytes) holds: 0 or 1, or
// with -o the number of non-overlapping occurrences of the pattern.
static long matches(const char *s, size_t n)
{
  if (opt_regex) {
    if (!opt_whole)
      return regexec(&re, s, 0, NULL, 0) == 0;
    regmatch_t m;
    return regexec(&re, s, 1, &m, 0) == 0 && m.rm_so == 0 && (size_t)m.rm_eo == n;
  }
  size_t plen = strlen(pattern);
  if (opt_whole)
    return n == plen && memcmp(s, pattern, n) == 0;
  long k = 0;
  for (const char *p = s; (p = strstr(p, pattern)) != NULL; p += plen ? plen : 1) {
    k++;
    if (!opt_each)
      break;
  }
  return k;
}

// Append the bytes buf[0..n) to the current line, ending lines at each
// newline and counting the matches of the lines past the first skip.
static void take(const char *buf, size_t n, long skip)
{
  for (size_t i = 0; i < n; i++) {
    char c = buf[i];
    if (c == '\r')
      continue;
    if (c == '\n') {
      line[len] = '\0';
      if (lines_seen++ >= skip)
        found += matches(line, len);
      len = 0;
      continue;
    }
    if (len + 2 > cap) {
      cap = cap ? 2 * cap : 4096;
      if (!(line = realloc(line, cap)))
        die("realloc");
    }
    line[len++] = c;
  }
}

// Read what the log gained since the last call; the matches so far,
// counting the unfinished last line.
static long look(int fd, long skip)
{
  char buf[65536];
  ssize_t r;
  while ((r = read(fd, buf, sizeof buf)) > 0)
    take(buf, r, skip);
  if (r < 0)
    die("read");
  if (lines_seen < skip)
    return found;
  line[len] = '\0';
  return found + (len ? matches(line, len) : 0);
}

// Milliseconds on the monotonic clock.
static long long now_ms(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

int main(int argc, char **argv)
{
  long skip = 0, want = 1, pid = 0, secs = 60;
  int c;
  while ((c = getopt(argc, argv, "FExoa:n:p:t:e:")) != -1) {
    switch (c) {
    case 'F': opt_regex = 0; break;
    case 'E': opt_regex = 1; break;
    case 'x': opt_whole = 1; break;
    case 'o': opt_each = 1; break;
    case 'a': skip = atol(optarg); break;
    case 'n': want = atol(optarg); break;
    case 'p': pid = atol(optarg); break;
    case 't': secs = atol(optarg); break;
    case 'e': pattern = optarg; break;
    default: usage();
    }
  }
  cap = 4096;
  if (!(line = malloc(cap)))
    die("malloc");
  if (!pattern && optind < argc)
    pattern = argv[optind++];
  if (!pattern || argc - optind != 1 || (opt_each && opt_regex) || skip < 0 || want < 1 || secs < 0)
    usage();
  const char *log = argv[optind];
  if (opt_regex && regcomp(&re, pattern, REG_EXTENDED | (opt_whole ? 0 : REG_NOSUB)) != 0) {
    fprintf(stderr, "logwait: bad regular expression: %s\n", pattern);
    return 3;
  }

  // The watch first, then the first look: a write between the two is
  // both read and signalled, never missed.
  int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (in < 0)
    die("inotify_init1");
  if (inotify_add_watch(in, log, IN_MODIFY) < 0)
    die(log);
  int fd = open(log, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    die(log);
  int pfd = -1;
  if (pid > 0 && (pfd = syscall(SYS_pidfd_open, (pid_t)pid, 0)) < 0 && errno != ESRCH)
    die("pidfd_open");

  long long deadline = now_ms() + secs * 1000LL;
  for (;;) {
    if (look(fd, skip) >= want)
      return 0;
    if (pid > 0 && pfd < 0)             // it had ended before we began
      return look(fd, skip) >= want ? 0 : 2;
    long long left = deadline - now_ms();
    if (left <= 0)
      return 1;
    struct pollfd p[2] = { { .fd = in, .events = POLLIN }, { .fd = pfd, .events = POLLIN } };
    int r = poll(p, pfd >= 0 ? 2 : 1, left > 1000000 ? 1000000 : (int)left);
    if (r < 0 && errno != EINTR)
      die("poll");
    if (r > 0 && (p[0].revents & POLLIN)) {
      char ev[4096];
      while (read(in, ev, sizeof ev) > 0)
        ;
    }
    if (r > 0 && pfd >= 0 && (p[1].revents & POLLIN))
      return look(fd, skip) >= want ? 0 : 2;
  }
}
