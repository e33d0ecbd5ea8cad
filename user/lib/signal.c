// Signal calls in the POSIX shape, over the kernel's rt_sigaction.
#include "user.h"   // SA_RESTORER comes with kernel/signal_abi.h


// Install a handler. The kernel needs a restorer to return through:
// rt_sigreturn's own stub, which the handler's return lands in.
int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
  struct kernel_sigaction k, ko;
  if (act) {
    k.handler = (ulong)act->sa_handler;
    k.flags = (ulong)(uint)act->sa_flags | SA_RESTORER;
    k.restorer = (ulong)rt_sigreturn;
    k.mask = act->sa_mask;
  }
  int r = rt_sigaction(sig, act ? &k : NULL, old ? &ko : NULL);
  if (r == 0 && old) {
    old->sa_handler = (void (*)(int))ko.handler;
    old->sa_mask = ko.mask;
    old->sa_flags = ko.flags & ~SA_RESTORER;
  }
  return r;
}

// BSD semantics, like glibc's signal(): the call restarts, the handler stays.
sighandler_t signal(int sig, sighandler_t handler)
{
  struct sigaction sa = { handler, 0, SA_RESTART }, old = { 0, 0, 0 };
  if (sigaction(sig, &sa, &old) < 0)
    return SIG_ERR;
  return old.sa_handler;
}

int raise(int sig) { return tgkill(getpid(), gettid(), sig); }

static int bad_sig(int sig) { return sig < 1 || sig > NSIG; }

int sigemptyset(sigset_t *set) { *set = 0; return 0; }
int sigfillset(sigset_t *set) { *set = ~0UL; return 0; }

int sigaddset(sigset_t *set, int sig)
{
  if (bad_sig(sig))
    return -EINVAL;
  *set |= 1UL << (sig - 1);
  return 0;
}

int sigdelset(sigset_t *set, int sig)
{
  if (bad_sig(sig))
    return -EINVAL;
  *set &= ~(1UL << (sig - 1));
  return 0;
}

int sigismember(const sigset_t *set, int sig)
{
  return !bad_sig(sig) && (*set >> (sig - 1)) & 1;
}

static const char *const names[] = {
  [SIGHUP] "HUP", [SIGINT] "INT", [SIGQUIT] "QUIT", [SIGILL] "ILL",
  [SIGTRAP] "TRAP", [SIGABRT] "ABRT", [SIGBUS] "BUS", [SIGFPE] "FPE",
  [SIGKILL] "KILL", [SIGUSR1] "USR1", [SIGSEGV] "SEGV", [SIGUSR2] "USR2",
  [SIGPIPE] "PIPE", [SIGALRM] "ALRM", [SIGTERM] "TERM", [16] "STKFLT",
  [SIGCHLD] "CHLD", [SIGCONT] "CONT", [SIGSTOP] "STOP", [SIGTSTP] "TSTP",
  [SIGTTIN] "TTIN", [SIGTTOU] "TTOU", [23] "URG", [24] "XCPU", [25] "XFSZ",
  [26] "VTALRM", [27] "PROF", [28] "WINCH", [29] "IO", [30] "PWR", [31] "SYS",
};

const char *signame(int sig)
{
  if (sig < 1 || sig >= (int)(sizeof(names) / sizeof(names[0])))
    return NULL;
  return names[sig];
}

int signum(const char *name)
{
  if (strncmp(name, "SIG", 3) == 0)
    name += 3;
  for (int i = 1; i < (int)(sizeof(names) / sizeof(names[0])); i++)
    if (names[i] && strcmp(names[i], name) == 0)
      return i;
  return -1;
}
