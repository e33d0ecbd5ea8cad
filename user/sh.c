// sh: the shell.
//
//   sh                 read commands from the console, prompting with "$ "
//   sh FILE [ARGS]     run the commands in FILE
//   sh -c 'COMMANDS'   run one command line
//
// Grammar (one line at a time):
//   line     := pipeline { (';' | '&') pipeline } [';' | '&']
//   pipeline := command { '|' command }
//   command  := { word | '<' word | '>' word | '>>' word }
// Words may be quoted with '...' or "..." and a backslash escapes one
// character; '#' at the start of a word begins a comment.
//
// Every pipeline becomes a job: a slot in the job table holding its
// pids. A foreground job is waited for at once; a background job ('&')
// stays in the table and is reaped, and reported as "[N]+ Done  cmd",
// before the next prompt.
//
// Job control, when the shell reads the console (as bash does only when
// interactive): each job runs in its own process group, whose id is the
// pid of its first command (both the shell and the child call setpgid,
// so neither order of running can go wrong); the foreground job gets the
// console (tcsetpgrp), so Ctrl-C (SIGINT) and Ctrl-Z (SIGTSTP) reach it
// alone, and the shell takes the console back when the job ends or stops.
// The shell itself ignores SIGINT, SIGQUIT, SIGTSTP, SIGTTIN and SIGTTOU;
// its children put them back to SIG_DFL before exec (exec keeps ignored
// signals ignored). A job that stops moves to the table and is reported
// as "[N]+ Stopped  cmd". Builtins: jobs, fg [%N], bg [%N]. The current
// job ('+', what fg and bg take by default) is the one most recently
// stopped or put in the background; the previous one is '-'.

#include "user.h"

#define MAXLINE  1024   // bytes in one command line
#define MAXARGS  32     // words in one command
#define MAXCMDS  8      // commands in one pipeline
#define MAXJOBS  32     // background and stopped jobs alive at once
#define JOBTEXT  80     // bytes of a job's command text kept for messages

// One command of a pipeline: its words and redirections.
struct cmd {
  char *argv[MAXARGS + 1];      // NULL-terminated
  int argc;
  char *infile;                 // '<', or NULL
  char *outfile;                // '>' or '>>', or NULL
  int append;                   // outfile was given with '>>'
};

// A parsed pipeline, ready to run.
struct pipeline {
  struct cmd cmds[MAXCMDS];
  int ncmds;
  int background;               // ended with '&'
  char text[JOBTEXT];           // the source text, for job messages
};

// A job's state. A job is stopped when every process of it that is
// still alive is stopped; done when none is alive.
enum jobstate { J_FREE, J_RUNNING, J_STOPPED, J_DONE };

// A pipeline that was started.
struct job {
  enum jobstate state;
  int id;                       // the N in "[N]": slot index + 1; 0 for fgjob
  int pgid;                     // its process group (job control), else first pid
  int pids[MAXCMDS];            // one per command; 0 once reaped
  int stopped[MAXCMDS];         // 1 while that process is stopped
  int npids;
  int nlive;                    // pids not yet reaped
  int status;                   // wait status of the last command
  int stopsig;                  // the signal that last stopped it
  int seq;                      // when it last became the current job
  int notified;                 // its last stop has been reported
  char text[JOBTEXT];
};

static struct job jobs[MAXJOBS];         // background and stopped jobs; [N] is index + 1
static struct job fgjob;                // a new foreground job, never refused
static int jobseq;                      // source of job.seq
static struct pipeline pipe1;          // the pipeline being parsed or run
static char line[MAXLINE];
static char wordstore[2 * MAXLINE];     // unquoted words, NUL-terminated
static int laststatus;                  // exit status of the last foreground job
static int interactive;
static int jobcontrol;                  // process groups and the console (interactive)
static int shell_pgid;                  // the shell's own process group

// The signals the shell ignores under job control and its children do not.
static const int jobsignals[] = { SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU };
#define NJOBSIGNALS ((int)(sizeof jobsignals / sizeof jobsignals[0]))

// ---------------------------------------------------------------- lexer

enum token { T_END, T_WORD, T_PIPE, T_AMP, T_SEMI, T_IN, T_OUT, T_APPEND, T_ERR };

// The lexer's position in the line and in wordstore.
struct lexer {
  char *s;          // next byte of the line
  char *tok;        // where the last token started
  char *out;        // next free byte of wordstore
  const char *err;  // why T_ERR was returned
};

// Return 1 if c separates words.
static int
isblank(char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Return 1 if c is a one-character operator (or starts '>>').
static int
isop(char c)
{
  return c == '|' || c == '&' || c == ';' || c == '<' || c == '>';
}

// Copy one word, removing quotes and backslashes, into wordstore;
// set *word to it. Returns T_WORD, or T_ERR for an unterminated quote.
static enum token
lexword(struct lexer *lx, char **word)
{
  char q;

  *word = lx->out;
  while (*lx->s && !isblank(*lx->s) && !isop(*lx->s)) {
    if (*lx->s == '\'' || *lx->s == '"') {
      q = *lx->s++;
      while (*lx->s && *lx->s != q) {
        // Inside "...", a backslash escapes only " and \, as in sh.
        if (q == '"' && *lx->s == '\\' && (lx->s[1] == '"' || lx->s[1] == '\\'))
          lx->s++;
        *lx->out++ = *lx->s++;
      }
      if (*lx->s != q) {
        lx->err = "unterminated quote";
        return T_ERR;
      }
      lx->s++;
    } else if (*lx->s == '\\' && lx->s[1]) {
      lx->s++;
      *lx->out++ = *lx->s++;
    } else {
      *lx->out++ = *lx->s++;
    }
  }
  *lx->out++ = 0;
  return T_WORD;
}

// Return the next token; for T_WORD, *word is the unquoted word.
static enum token
gettoken(struct lexer *lx, char **word)
{
  while (isblank(*lx->s))
    lx->s++;
  lx->tok = lx->s;
  switch (*lx->s) {
  case 0:
  case '#':
    return T_END;
  case '|':
    lx->s++;
    return T_PIPE;
  case '&':
    lx->s++;
    return T_AMP;
  case ';':
    lx->s++;
    return T_SEMI;
  case '<':
    lx->s++;
    return T_IN;
  case '>':
    lx->s++;
    if (*lx->s == '>') {
      lx->s++;
      return T_APPEND;
    }
    return T_OUT;
  }
  return lexword(lx, word);
}

// ---------------------------------------------------------------- parser

// Report a syntax error at the token that starts at tok; return -1.
static int
syntax(const char *why, const char *tok)
{
  if (why)
    fprintf(STDERR, "sh: syntax error: %s\n", why);
  else if (*tok == 0 || *tok == '#')
    fprintf(STDERR, "sh: syntax error near end of line\n");
  else
    fprintf(STDERR, "sh: syntax error near '%c'\n", *tok);
  return -1;
}

// Return 1 if c has nothing in it yet.
static int
cmdempty(struct cmd *c)
{
  return c->argc == 0 && c->infile == NULL && c->outfile == NULL;
}

// Store the source text from start to end as pl's job text.
static void
settext(struct pipeline *pl, const char *start, const char *end)
{
  int n = end - start;

  if (n > JOBTEXT - 1)
    n = JOBTEXT - 1;
  memmove(pl->text, start, n);
  pl->text[n] = 0;
}

// Parse one redirection whose operator was op into c.
// Returns 0, or -1 after reporting a syntax error.
static int
parseredir(struct lexer *lx, struct cmd *c, enum token op)
{
  char *file;

  if (gettoken(lx, &file) != T_WORD)
    return syntax(lx->err, lx->tok);
  if (op == T_IN) {
    c->infile = file;
  } else {
    c->outfile = file;
    c->append = (op == T_APPEND);
  }
  return 0;
}

// Parse the next pipeline of the line into *pl. Returns 1 if there is
// one, 0 at the end of the line, or -1 after reporting a syntax error.
// Empty pipelines (";;", blank lines) are skipped.
static int
parsenext(struct lexer *lx, struct pipeline *pl)
{
  struct cmd *c;
  const char *start = NULL, *end = NULL;
  enum token t;
  char *word;

  memset(pl, 0, sizeof *pl);
  c = &pl->cmds[0];
  for (;;) {
    t = gettoken(lx, &word);
    if (start == NULL && t != T_END && t != T_SEMI)
      start = lx->tok;
    switch (t) {
    case T_WORD:
      if (c->argc == MAXARGS)
        return syntax("too many arguments", NULL);
      c->argv[c->argc++] = word;
      break;
    case T_IN:
    case T_OUT:
    case T_APPEND:
      if (parseredir(lx, c, t) < 0)
        return -1;
      break;
    case T_PIPE:
      if (cmdempty(c))
        return syntax(NULL, lx->tok);
      if (pl->ncmds + 1 == MAXCMDS)
        return syntax("pipeline too long", NULL);
      c = &pl->cmds[++pl->ncmds];
      break;
    case T_ERR:
      return syntax(lx->err, NULL);
    case T_AMP:
    case T_SEMI:
    case T_END:
      if (!cmdempty(c)) {
        pl->ncmds++;
        pl->background = (t == T_AMP);
        settext(pl, start, end);
        return 1;
      }
      // "a |" at the end, or '&' with nothing to put in the background.
      if (pl->ncmds > 0 || t == T_AMP)
        return syntax(NULL, lx->tok);
      if (t == T_END)
        return 0;
      start = NULL;
      break;
    }
    end = lx->s;
  }
}

// Start a lexer at the beginning of buf, with an empty word store.
static void
lexinit(struct lexer *lx, char *buf)
{
  lx->s = lx->tok = buf;
  lx->out = wordstore;
  lx->err = NULL;
}

// ---------------------------------------------------------------- jobs

// Return an empty running job with text: the foreground job, or (fg 0)
// a free slot of the table (NULL if it is full).
static struct job *
newjob(int fg, const char *text)
{
  struct job *j = NULL;
  int i;

  if (fg)
    j = &fgjob;
  for (i = 0; j == NULL && i < MAXJOBS; i++)
    if (jobs[i].state == J_FREE)
      j = &jobs[i];
  if (j == NULL)
    return NULL;
  memset(j, 0, sizeof *j);
  j->state = J_RUNNING;
  j->id = fg ? 0 : j - jobs + 1;
  j->seq = fg ? 0 : ++jobseq;
  strcpy(j->text, text);
  return j;
}

// Return the job (the foreground one or one in the table) that pid
// belongs to, and its index in *idx; NULL if none.
static struct job *
findjob(int pid, int *idx)
{
  struct job *j;
  int i;

  for (j = jobs; j <= &jobs[MAXJOBS]; j++) {
    struct job *k = j < &jobs[MAXJOBS] ? j : &fgjob;
    for (i = 0; k->state != J_FREE && i < k->npids; i++)
      if (k->pids[i] == pid) {
        *idx = i;
        return k;
      }
  }
  return NULL;
}

// How many processes of j are alive and not stopped.
static int
nrunning(struct job *j)
{
  int i, n = 0;

  for (i = 0; i < j->npids; i++)
    if (j->pids[i] != 0 && !j->stopped[i])
      n++;
  return n;
}

// Record what waitpid said about pid: it stopped, continued, or ended
// (then it is reaped). Updates its job's state.
static void
record(int pid, int status)
{
  struct job *j;
  int i;

  j = findjob(pid, &i);
  if (j == NULL)
    return;                     // not ours (an orphan's child, say)
  if (WIFSTOPPED(status)) {
    j->stopped[i] = 1;
    j->stopsig = WSTOPSIG(status);
  } else if (WIFCONTINUED(status)) {
    j->stopped[i] = 0;
  } else {
    j->pids[i] = 0;
    j->stopped[i] = 0;
    j->nlive--;
    // Like sh, a pipeline's status is that of its last command.
    if (i == j->npids - 1)
      j->status = status;
  }
  if (j->nlive == 0) {
    j->state = J_DONE;
  } else if (nrunning(j) == 0) {
    if (j->state != J_STOPPED) {
      j->state = J_STOPPED;
      j->notified = 0;
      j->seq = ++jobseq;
    }
  } else {
    j->state = J_RUNNING;
  }
}

// Collect, without waiting, what every child has to report.
static void
pollchildren(void)
{
  int pid, status, opts = WNOHANG;

  if (jobcontrol)
    opts |= WUNTRACED | WCONTINUED;
  while ((pid = waitpid(-1, &status, opts)) > 0)
    record(pid, status);
}

// Return how bash describes a death by signal sig.
static const char *
sig_describe(int sig)
{
  switch (sig) {
  case SIGHUP:  return "Hangup";
  case SIGINT:  return "Interrupt";
  case SIGQUIT: return "Quit";
  case SIGILL:  return "Illegal instruction";
  case SIGTRAP: return "Trace/breakpoint trap";
  case SIGABRT: return "Aborted";
  case SIGBUS:  return "Bus error";
  case SIGFPE:  return "Floating point exception";
  case SIGKILL: return "Killed";
  case SIGUSR1: return "User defined signal 1";
  case SIGSEGV: return "Segmentation fault";
  case SIGUSR2: return "User defined signal 2";
  case SIGPIPE: return "Broken pipe";
  case SIGALRM: return "Alarm clock";
  case SIGTERM: return "Terminated";
  }
  return NULL;
}

// Format how a job with wait status status ended ("Done", "Exit 1",
// "Killed") into buf.
static void
describe(char *buf, int size, int status)
{
  const char *name;

  if (WIFSIGNALED(status)) {
    name = sig_describe(WTERMSIG(status));
    if (name)
      snprintf(buf, size, "%s", name);
    else
      snprintf(buf, size, "Signal %d", WTERMSIG(status));
  } else if (WEXITSTATUS(status) != 0) {
    snprintf(buf, size, "Exit %d", WEXITSTATUS(status));
  } else {
    snprintf(buf, size, "Done");
  }
}

// Report a foreground job that a signal killed, the way bash does.
static void
reportfg(int status)
{
  const char *name;

  // Interrupt and Broken pipe are what the user asked for; keep quiet.
  if (!WIFSIGNALED(status) || WTERMSIG(status) == SIGINT || WTERMSIG(status) == SIGPIPE)
    return;
  name = sig_describe(WTERMSIG(status));
  if (name)
    fprintf(STDERR, "%s\n", name);
  else
    fprintf(STDERR, "Signal %d\n", WTERMSIG(status));
}

// The job marker bash shows: '+' for the current job (the one fg and
// bg take by default), '-' for the previous one, ' ' for the others.
static char
jobmark(struct job *j)
{
  struct job *k, *cur = NULL, *prev = NULL;

  for (k = jobs; k < &jobs[MAXJOBS]; k++) {
    if (k->state == J_FREE)
      continue;
    if (cur == NULL || k->seq > cur->seq) {
      prev = cur;
      cur = k;
    } else if (prev == NULL || k->seq > prev->seq) {
      prev = k;
    }
  }
  return j == cur ? '+' : j == prev ? '-' : ' ';
}

// Print one line about table job j: "[N]+ Stopped  cmd".
static void
showjob(struct job *j)
{
  char how[32];

  if (j->state == J_DONE)
    describe(how, sizeof how, j->status);
  else
    snprintf(how, sizeof how, "%s", j->state == J_STOPPED ? "Stopped" : "Running");
  printf("[%d]%c %s  %s\n", j->id, jobmark(j), how, j->text);
}

// Send sig to every process of job j: its process group, or its
// processes one by one without job control.
static void
signaljob(struct job *j, int sig)
{
  int i;

  if (jobcontrol && j->pgid > 0 && kill(-j->pgid, sig) == 0)
    return;
  for (i = 0; i < j->npids; i++)
    if (j->pids[i])
      kill(j->pids[i], sig);
}

// Reap what has ended or stopped, and report, once, each table job that
// finished ("[N]+ Done  cmd", then its slot is freed) or stopped
// ("[N]+ Stopped  cmd"); only when interactive: like other shells,
// scripts stay quiet about jobs.
static void
reapjobs(void)
{
  struct job *j;

  pollchildren();
  for (j = jobs; j < &jobs[MAXJOBS]; j++) {
    if (j->state == J_DONE) {
      if (interactive)
        showjob(j);
      j->state = J_FREE;
    } else if (j->state == J_STOPPED && !j->notified) {
      if (interactive)
        showjob(j);
      j->notified = 1;
    }
  }
}

// Move stopped foreground job j into the table; returns where it went,
// or NULL (after restarting it) if the table is full.
static struct job *
parkjob(struct job *j)
{
  struct job *k = newjob(0, j->text);
  int id;

  if (k == NULL) {
    fprintf(STDERR, "sh: too many jobs to stop another; continuing it\n");
    signaljob(j, SIGCONT);
    for (int i = 0; i < j->npids; i++)
      j->stopped[i] = 0;
    j->state = J_RUNNING;
    return NULL;
  }
  id = k->id;
  *k = *j;
  k->id = id;
  k->seq = ++jobseq;
  j->state = J_FREE;
  return k;
}

// Wait for foreground job j (fgjob, or a table job brought back by fg)
// until none of its processes runs. Returns the status to leave in
// laststatus: that of its last command, or 128+signal if it stopped.
// A stopped job stays (or goes) in the table and is reported; a
// finished one is freed. Under job control the shell then takes the
// console back.
static int
waitfg(struct job *j)
{
  int pid, status, i, opts = jobcontrol ? WUNTRACED : 0;

  while (j->state == J_RUNNING && nrunning(j) > 0) {
    pid = waitpid(-1, &status, opts);
    if (pid == -EINTR)
      continue;
    if (pid < 0) {
      // Lost the children somehow: do not wait for them forever.
      fprintf(STDERR, "sh: waitpid: %s\n", strerror(pid));
      for (i = 0; i < j->npids; i++)
        if (j->pids[i])
          record(j->pids[i], 0);
      break;
    }
    record(pid, status);
  }
  if (jobcontrol)
    tcsetpgrp(STDIN, shell_pgid);
  if (j->state == J_STOPPED) {
    status = (128 + j->stopsig) << 8;
    if (j == &fgjob)
      j = parkjob(j);
    if (j != NULL) {
      if (interactive)
        showjob(j);
      j->notified = 1;
      return status;
    }
    return waitfg(&fgjob);      // the table was full: it runs again
  }
  status = j->status;
  j->state = J_FREE;
  return status;
}

// ---------------------------------------------------------------- builtins

// cd [DIR]: change directory, to / if DIR is missing.
static int
builtin_cd(int argc, char **argv)
{
  const char *dir = argc > 1 ? argv[1] : "/";
  int r;

  r = chdir(dir);
  if (r < 0) {
    fprintf(STDERR, "sh: cd: %s: %s\n", dir, strerror(r));
    return 1;
  }
  return 0;
}

// Leave the shell with status code. Stopped jobs would be stuck for
// ever, so, as bash does, send them SIGHUP and SIGCONT first.
static void __attribute__((noreturn))
leave(int code)
{
  struct job *j;

  for (j = jobs; jobcontrol && j < &jobs[MAXJOBS]; j++)
    if (j->state == J_STOPPED) {
      signaljob(j, SIGHUP);
      signaljob(j, SIGCONT);
    }
  exit(code);
}

// exit [N]: leave the shell with status N, or that of the last command.
static int
builtin_exit(int argc, char **argv)
{
  leave(argc > 1 ? atoi(argv[1]) : WEXITSTATUS(laststatus));
  return 0;
}

// jobs: list the jobs, Running, Stopped or Done; Done ones then go.
static int
builtin_jobs(int argc, char **argv)
{
  struct job *j;

  pollchildren();
  for (j = jobs; j < &jobs[MAXJOBS]; j++) {
    if (j->state == J_FREE)
      continue;
    showjob(j);
    if (j->state == J_DONE)
      j->state = J_FREE;
    else if (j->state == J_STOPPED)
      j->notified = 1;
  }
  return 0;
}

// The table job that spec names: NULL, "%", "%%" or "%+" for the
// current job, "%-" for the previous one, "%N" or "N" for job N.
// NULL (after a message naming the builtin who) if there is none.
static struct job *
jobspec(const char *who, const char *spec)
{
  struct job *j;
  const char *s = spec;
  int n;
  char want = '+';

  if (s && *s == '%')
    s++;
  if (s && *s >= '0' && *s <= '9') {
    n = atoi(s);
    if (n >= 1 && n <= MAXJOBS && jobs[n - 1].state != J_FREE)
      return &jobs[n - 1];
    fprintf(STDERR, "sh: %s: %s: no such job\n", who, spec);
    return NULL;
  }
  if (s && *s == '-')
    want = '-';
  else if (s && *s != 0 && strcmp(s, "%") != 0 && strcmp(s, "+") != 0) {
    fprintf(STDERR, "sh: %s: %s: no such job\n", who, spec);
    return NULL;
  }
  for (j = jobs; j < &jobs[MAXJOBS]; j++)
    if (j->state != J_FREE && jobmark(j) == want)
      return j;
  fprintf(STDERR, "sh: %s: %s: no such job\n", who, spec ? spec : "current");
  return NULL;
}

// Mark every process of j running again and send the group SIGCONT.
static void
continuejob(struct job *j)
{
  for (int i = 0; i < j->npids; i++)
    j->stopped[i] = 0;
  if (j->state == J_STOPPED)
    j->state = J_RUNNING;
  signaljob(j, SIGCONT);
}

// fg [%N]: bring a job to the foreground: give it the console, print
// its command, continue it, and wait for it like any foreground job.
static int
builtin_fg(int argc, char **argv)
{
  struct job *j;
  int status;

  if (!jobcontrol) {
    fprintf(STDERR, "sh: fg: no job control\n");
    return 1;
  }
  pollchildren();
  j = jobspec("fg", argc > 1 ? argv[1] : NULL);
  if (j == NULL)
    return 1;
  if (j->state == J_DONE) {
    fprintf(STDERR, "sh: fg: job %d has terminated\n", j->id);
    j->state = J_FREE;
    return 1;
  }
  // The console first, so that a Ctrl-C typed once the command is
  // shown goes to the job.
  tcsetpgrp(STDIN, j->pgid);
  printf("%s\n", j->text);
  continuejob(j);
  status = waitfg(j);
  reportfg(status);
  if (WIFSIGNALED(status))
    return 128 + WTERMSIG(status);
  return WEXITSTATUS(status);
}

// bg [%N]: continue a stopped job in the background.
static int
builtin_bg(int argc, char **argv)
{
  struct job *j;

  if (!jobcontrol) {
    fprintf(STDERR, "sh: bg: no job control\n");
    return 1;
  }
  pollchildren();
  j = jobspec("bg", argc > 1 ? argv[1] : NULL);
  if (j == NULL)
    return 1;
  if (j->state != J_STOPPED) {
    fprintf(STDERR, "sh: bg: job %d already in background\n", j->id);
    return 0;
  }
  continuejob(j);
  j->seq = ++jobseq;
  printf("[%d]%c %s &\n", j->id, jobmark(j), j->text);
  return 0;
}

// A command the shell runs itself.
struct builtin {
  const char *name;
  int (*fn)(int argc, char **argv);
};

static struct builtin builtins[] = {
  { "bg", builtin_bg },
  { "cd", builtin_cd },
  { "exit", builtin_exit },
  { "fg", builtin_fg },
  { "jobs", builtin_jobs },
};

// Return the builtin that c names, or NULL.
static struct builtin *
findbuiltin(struct cmd *c)
{
  struct builtin *b;

  if (c->argc == 0)
    return NULL;
  for (b = builtins; b < builtins + sizeof builtins / sizeof builtins[0]; b++)
    if (strcmp(c->argv[0], b->name) == 0)
      return b;
  return NULL;
}

// ---------------------------------------------------------------- running

// Make fd `from` appear as fd `to` and close `from`. There is no dup2:
// after close(to), dup() returns the lowest free fd, which is `to`
// because 0, 1 and 2 are always open. Exits on failure (children only).
static void
movefd(int from, int to)
{
  if (from == to)
    return;
  close(to);
  if (dup(from) != to) {
    fprintf(STDERR, "sh: cannot move fd %d to %d\n", from, to);
    exit(1);
  }
  close(from);
}

// Open file for a redirection and put it on fd to; exits on failure.
static void
redirect(const char *file, int flags, int to)
{
  int fd;

  fd = open(file, flags);
  if (fd < 0) {
    fprintf(STDERR, "sh: %s: %s\n", file, strerror(fd));
    exit(1);
  }
  movefd(fd, to);
}

// In a child: apply c's redirections and run it. Never returns.
static void
runcmd(struct cmd *c)
{
  struct builtin *b;
  char path[128];
  int r;

  if (c->infile)
    redirect(c->infile, O_RDONLY, STDIN);
  if (c->outfile)
    redirect(c->outfile, O_WRONLY | O_CREAT | (c->append ? O_APPEND : O_TRUNC), STDOUT);
  if (c->argc == 0)
    exit(0);
  b = findbuiltin(c);
  if (b)
    exit(b->fn(c->argc, c->argv));

  // Programs live in /: a bare name means /NAME.
  if (strchr(c->argv[0], '/'))
    r = exec(c->argv[0], c->argv);
  else if (snprintf(path, sizeof path, "/%s", c->argv[0]) >= (int)sizeof path)
    r = -ENAMETOOLONG;
  else
    r = exec(path, c->argv);
  fprintf(STDERR, "sh: %s: %s\n", c->argv[0], strerror(r));
  exit(r == -ENOENT ? 127 : 126);
}

// In a child of job j (pgid 0: the child is the job's first process):
// under job control, join the job's process group, take the console if
// the job is in the foreground, and give back the signals the shell
// ignores, so that the command can be interrupted and stopped. The
// child (a builtin in a pipeline, say) has no job control of its own:
// fg and bg there must not touch the shell's jobs.
static void
childsetup(int pgid, int fg)
{
  int i;

  if (!jobcontrol)
    return;
  if (pgid == 0)
    pgid = getpid();
  setpgid(0, pgid);
  if (fg)
    tcsetpgrp(STDIN, pgid);     // SIGTTOU is still ignored here
  for (i = 0; i < NJOBSIGNALS; i++)
    signal(jobsignals[i], SIG_DFL);
  jobcontrol = 0;
}

// Fork one child per command of pl, connected by pipes, recording the
// pids in j; under job control they form one process group (the first
// child's pid), which gets the console if fg. Stops early (leaving the
// started ones in j) if pipe or fork fails.
static void
launch(struct pipeline *pl, struct job *j, int fg)
{
  int i, pid, last, prev = -1, p[2] = { -1, -1 };

  for (i = 0; i < pl->ncmds; i++) {
    last = (i == pl->ncmds - 1);
    if (!last && (pid = pipe(p)) < 0) {
      fprintf(STDERR, "sh: pipe: %s\n", strerror(pid));
      break;
    }
    pid = fork();
    if (pid == 0) {
      childsetup(j->pgid, fg);
      if (prev >= 0)
        movefd(prev, STDIN);
      if (!last) {
        close(p[0]);
        movefd(p[1], STDOUT);
      }
      runcmd(&pl->cmds[i]);
    }
    // The parent keeps only the read end the next command needs.
    if (prev >= 0)
      close(prev);
    prev = -1;
    if (!last) {
      close(p[1]);
      prev = p[0];
    }
    if (pid < 0) {
      fprintf(STDERR, "sh: fork: %s\n", strerror(pid));
      break;
    }
    if (j->npids == 0)
      j->pgid = pid;
    if (jobcontrol) {
      // Also here, so the group exists before the next child joins it
      // and before the console is handed over, whoever runs first.
      setpgid(pid, j->pgid);
      if (fg && j->npids == 0)
        tcsetpgrp(STDIN, j->pgid);
    }
    j->pids[j->npids++] = pid;
    j->nlive++;
  }
  if (prev >= 0)
    close(prev);
}

// Run one pipeline: a lone builtin in the shell itself, anything else
// as a job, in the foreground or the background.
static void
runpipeline(struct pipeline *pl)
{
  struct builtin *b;
  struct job *j;
  struct cmd *c = &pl->cmds[0];

  // cd, exit, fg and bg must act in the shell itself; with redirections
  // or in a pipeline they run in a child, as in other shells' subshells.
  b = findbuiltin(c);
  if (b && pl->ncmds == 1 && !pl->background && !c->infile && !c->outfile) {
    laststatus = b->fn(c->argc, c->argv) << 8;
    return;
  }

  j = newjob(!pl->background, pl->text);
  if (j == NULL) {
    fprintf(STDERR, "sh: too many background jobs\n");
    laststatus = 1 << 8;
    return;
  }
  launch(pl, j, !pl->background);
  if (j->npids == 0) {          // nothing started
    j->state = J_FREE;
    laststatus = 1 << 8;
    return;
  }
  if (pl->background) {
    if (interactive)
      printf("[%d] %d\n", j->id, j->pids[j->npids - 1]);
    return;
  }
  laststatus = waitfg(j);
  reportfg(laststatus);
}

// Parse and run one command line. The whole line is checked first,
// so that a syntax error anywhere runs nothing, as in other shells.
static void
runline(char *buf)
{
  struct lexer lx;
  int r;

  lexinit(&lx, buf);
  while ((r = parsenext(&lx, &pipe1)) > 0)
    ;
  if (r < 0) {
    laststatus = 2 << 8;
    return;
  }
  lexinit(&lx, buf);
  while (parsenext(&lx, &pipe1) > 0)
    runpipeline(&pipe1);
}

// ---------------------------------------------------------------- input

// Read one line from fd into buf (size bytes) without the newline,
// a byte at a time so that input meant for commands stays unread.
// Returns 1 for a line, 0 at end of input. A line too long is
// discarded with a message and returned empty.
static int
readline(int fd, char *buf, int size)
{
  int n = 0, toolong = 0, r;
  char c;

  for (;;) {
    r = read(fd, &c, 1);
    if (r == -EINTR)
      continue;                 // a signal is no reason to stop reading
    if (r != 1) {
      if (n == 0 && !toolong)
        return 0;
      break;                    // a last line without a newline
    }
    if (c == '\n')
      break;
    if (n + 1 < size)
      buf[n++] = c;
    else
      toolong = 1;
  }
  buf[n] = 0;
  if (toolong) {
    fprintf(STDERR, "sh: line too long\n");
    buf[0] = 0;
  }
  return 1;
}

// Return 1 if fd is a device (the console): then the shell prompts.
static int
isconsole(int fd)
{
  struct stat st;

  return fstat(fd, &st) == 0 && st.type == T_DEVICE;
}

// Under job control: put the shell in a process group of its own, make
// that the console's foreground group, and ignore the signals the
// console sends to it. Started as a background job of another shell
// (then it leads its own group, and another live group has the
// console), first wait, stopped by SIGTTIN, until brought to the
// foreground. Started by init, it just takes the console, whatever
// group (maybe a dead shell's) had it.
static void
initjobcontrol(void)
{
  int i, fg;

  while (getpgrp() == getpid() && (fg = tcgetpgrp(STDIN)) > 0 && fg != getpgrp() &&
         kill(-fg, 0) == 0)
    kill(0, SIGTTIN);
  jobcontrol = 1;
  for (i = 0; i < NJOBSIGNALS; i++)
    signal(jobsignals[i], SIG_IGN);
  shell_pgid = getpid();
  setpgid(0, shell_pgid);
  tcsetpgrp(STDIN, shell_pgid);
}

// Run commands from the console, a script, or -c; exit with the
// status of the last command.
int
main(int argc, char *argv[])
{
  int fd = STDIN;

  if (argc > 2 && strcmp(argv[1], "-c") == 0) {
    strncpy(line, argv[2], sizeof line - 1);
    runline(line);
    exit(WEXITSTATUS(laststatus));
  }
  if (argc > 1) {
    fd = open(argv[1], O_RDONLY);
    if (fd < 0) {
      fprintf(STDERR, "sh: %s: %s\n", argv[1], strerror(fd));
      exit(127);
    }
  }
  interactive = (fd == STDIN && isconsole(STDIN));
  if (interactive)
    initjobcontrol();

  for (;;) {
    reapjobs();
    if (interactive)
      write(STDERR, "$ ", 2);
    if (!readline(fd, line, sizeof line))
      break;
    runline(line);
  }
  leave(WEXITSTATUS(laststatus));
}
