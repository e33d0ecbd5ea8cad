// The threads a debugger traces, and GDB's way of attaching to all the
// threads of a process (see user/lwp.h): mgdb and gdbserver both use it,
// so that both loop on the baseline exactly as GDB 10 and gdbserver 10 did.

#include "user.h"
#include "proc.h"
#include "lwp.h"

struct lwp lwps[MAXLWP];
int nlwp;

struct lwp *
find_lwp(int tid)
{
  for (int i = 0; i < nlwp; i++)
    if (lwps[i].tid == tid)
      return &lwps[i];
  return NULL;
}

struct lwp *
add_lwp(int tid)
{
  struct lwp *lp;

  if (nlwp == MAXLWP)
    return NULL;
  lp = &lwps[nlwp++];
  memset(lp, 0, sizeof *lp);
  lp->tid = tid;
  return lp;
}

void
drop_lwp(struct lwp *lp)
{
  int i = lp - lwps;

  memmove(&lwps[i], &lwps[i + 1], (nlwp - i - 1) * sizeof lwps[0]);
  nlwp--;
}

// GDB's linux_proc_pid_is_gone(): no status file, or state Z or X.
int
linux_proc_pid_is_gone(int pid, int tid)
{
  char s = task_state(pid, tid);

  return s == 0 || s == 'Z' || s == 'X';
}

// What GDB's linux_ptrace_attach_fail_reason_string() adds after the
// error: ", process N is already traced by process M" when /proc shows
// a tracer, or that it is a zombie; "" if neither.
void
linux_ptrace_attach_fail_reason_string(int pid, int tid, char *buf, int size)
{
  char status[512];
  const char *tracer;

  buf[0] = 0;
  if (task_status(pid, tid, status, sizeof status) > 0 &&
      (tracer = proc_field(status, "TracerPid:")) && atoi(tracer) > 0)
    snprintf(buf, size, ", process %d is already traced by process %d", tid, atoi(tracer));
  else if (task_state(pid, tid) == 'Z')
    snprintf(buf, size, ", process %d is a zombie - the process has already terminated", tid);
}

// GDB's linux_proc_attach_tgid_threads(): read /proc/PID/task again and
// again, calling attach(tid) for each thread not in lwps[], until two
// whole passes in a row find none. A thread counts as found even if its
// attach failed and it was not added, so the next pass finds it again:
// GDB's bug, kept on purpose (an I/O thread that refuses ptrace makes it
// loop for ever). attach returns 0, or -1 to stop (an error). Returns 0,
// -1 for an error, or -2 after max_passes unsettled passes (0: no limit).
int
linux_proc_attach_tgid_threads(int pid, int (*attach)(int tid), int max_passes)
{
  int tids[MAXLWP * 2], n, quiet = 0, passes = 0, found;

  while (quiet < 2) {
    if (max_passes && passes == max_passes)
      return -2;
    found = 0;
    n = task_ids(pid, tids, MAXLWP * 2);
    for (int i = 0; i < n; i++) {
      if (find_lwp(tids[i]))
        continue;
      found = 1;
      if (attach(tids[i]) < 0)
        return -1;
    }
    passes++;
    quiet = found ? 0 : quiet + 1;
  }
  return 0;
}
