// usertests: regression tests for the tasklab kernel, in the spirit of
// xv6's usertests.
//
//   usertests            run every test (except those marked "only when named")
//   usertests NAME...    run only the named tests
//   usertests -l         list the tests
//
// Each test runs in its own child process, so a test that crashes or hangs
// is reported as a FAIL and the rest go on. Every check prints one line,
// "PASS test.check" or "FAIL test.check: detail"; the run closes with
// "N passed, N failed" alone on a line. The last check compares the free
// physical pages before and after the whole run. The runner, and how
// results reach it, is the shared one (user/testlib.h).
//
// The exec tests run this same program again as a "probe" (argv[0] is
// PROBE); see probe() at the end.
//
// This file holds the table and the runner's setup; the tests are in the
// other files here, one a topic (proc.c, fs.c, dirs.c, mem.c, syscalls.c,
// hostile.c), and the helpers they share in util.c (all declared in
// usertests.h).

#include "usertests.h"

char *initial_brk;                      // sbrk(0) when main started: the stack's top
char buf[8192];                         // scratch buffers
char buf2[8192];

// ------------------------------------------------------------ the tests

static const struct test tests[] = {
  { "fork", t_fork, 0, 0 },
  { "forkbig", t_forkbig, 0, 0 },
  { "forklatency", t_forklatency, 0, 0 },
  { "exitstatus", t_exitstatus, 0, 0 },
  { "wait", t_wait, 0, 0 },
  { "waitnohang", t_waitnohang, 0, 0 },
  { "manyprocs", t_manyprocs, 0, 0 },
  { "orphans", t_orphans, 0, 0 },
  { "exec", t_exec, 0, 0 },
  { "execerr", t_execerr, 0, 0 },
  { "execnonelf", t_execnonelf, 0, 0 },
  { "exechigh", t_exechigh, 0, 0 },
  { "pipe", t_pipe, 0, 0 },
  { "pipebig", t_pipebig, 0, 0 },
  { "pingpong", t_pingpong, 0, 0 },
  { "pipeeof", t_pipeeof, 0, 0 },
  { "pipeepipe", t_pipeepipe, 0, 0 },
  { "files", t_files, 0, 0 },
  { "shortwrite", t_shortwrite, 0, 0 },
  { "trunc", t_trunc, 0, 0 },
  { "append", t_append, 0, 0 },
  { "lseek", t_lseek, 0, 0 },
  { "openerr", t_openerr, 0, 0 },
  { "bigfile", t_bigfile, 0, 0 },
  { "maxfile", t_maxfile, 0, 0 },
  { "dirs", t_dirs, 0, 0 },
  { "deaddir", t_deaddir, 0, 0 },
  { "unlink", t_unlink, 0, 0 },
  { "links", t_links, 0, 0 },
  { "diskstats", t_diskstats, 0, 0 },
  { "interrupts", t_interrupts, 0, 0 },
  { "sysctl", t_sysctl, 0, 0 },
  { "dirsiz", t_dirsiz, 0, 0 },
  { "readdir", t_readdir, 0, 0 },
  { "concreate", t_concreate, 0, 0 },
  { "mknod", t_mknod, 0, 0 },
  { "itablefull", t_itablefull, 0, 0 },
  { "dup", t_dup, 0, 0 },
  { "fdleak", t_fdleak, 0, 0 },
  { "sbrk", t_sbrk, 0, 0 },
  { "sbrkoom", t_sbrkoom, 0, 0 },
  { "sbrkfault", t_sbrkfault, 0, 0 },
  { "faults", t_faults, 0, 0 },
  { "kill", t_kill, 0, 0 },
  { "sigframe", t_sigframe, 0, 0 },
  { "sleep", t_sleep, 0, 0 },
  { "badptr", t_badptr, 0, 0 },
  { "badfd", t_badfd, 0, 0 },
#if defined(__riscv) || defined(__x86_64__)
  { "nosys", t_nosys, 0, 0 },
#endif
  { "diskfull", t_diskfull, 240, TEST_NAMED_ONLY },
  { "closeinuse", t_closeinuse, 0, 0 },
  { "pipefault", t_pipefault, 0, 0 },
  { "linkproc", t_linkproc, 0, 0 },
  { "unlinkproc", t_unlinkproc, 0, 0 },
  { "bufstorm", t_bufstorm, 0, 0 },
  { "linkmax", t_linkmax, 600, TEST_NAMED_ONLY },
  { "chdirrace", t_chdirrace, 0, 0 },
  { "statpad", t_statpad, 0, 0 },
  { "cleartid", t_cleartid, 0, 0 },
  { "vhostargs", t_vhostargs, 0, 0 },
  { "vhostcopy", t_vhostcopy, 0, 0 },
  { "vhostclose", t_vhostclose, 0, 0 },
  { "vhostexit", t_vhostexit, 0, 0 },
};
#define NTESTS ((int)(sizeof tests / sizeof tests[0]))

// Probe mode, for the exec tests (argv[0] is PROBE or anything that is not
// this suite's name):
//   args N      exit 0 if argc == N, argv[N] == NULL, and each argv[i],
//               i >= 3, is i-3 copies of 'a'+i%26; else the bad index+1
//   fdwrite FD  write "pid=<pid>" to FD, exit 0
//   exit N      return N from main
//   cleartid    see t_cleartid() (hostile.c)
// Anything else exits PROBE_BAD.
static int
probe(int argc, char **argv)
{
  char out[32];
  int n, fd;

  if (argc >= 3 && strcmp(argv[1], "args") == 0) {
    n = atoi(argv[2]);
    if (argc != n || argv[argc] != 0)
      return 100;
    for (int i = 3; i < argc; i++) {
      if ((int)strlen(argv[i]) != i - 3)
        return i + 1;
      for (int j = 0; j < i - 3; j++)
        if (argv[i][j] != 'a' + i % 26)
          return i + 1;
    }
    return 0;
  }
  if (argc == 3 && strcmp(argv[1], "fdwrite") == 0) {
    fd = atoi(argv[2]);
    snprintf(out, sizeof out, "pid=%d", getpid());
    return write(fd, out, strlen(out)) == (int)strlen(out) ? 0 : 1;
  }
  if (argc == 3 && strcmp(argv[1], "exit") == 0)
    return atoi(argv[2]);
  if (argc == 2 && strcmp(argv[1], "cleartid") == 0)
    return probe_cleartid();
  return PROBE_BAD;
}

// What usertests does its own way: tests named only, the probe mode.
static const struct suite suite = {
  .name = "usertests", .tests = tests, .ntests = NTESTS, .secs = TEST_SECS,
  .flags = SUITE_FREEMEM, .probe = probe,
};

// Run the tests named on the command line (or all that are not
// TEST_NAMED_ONLY), then check that free memory is back where it started.
int
main(int argc, char **argv)
{
  initial_brk = sbrk(0);
  return run_suite(&suite, argc, argv);
}
