// The threads a debugger traces (LWPs, as GDB calls them), and attaching
// to every thread of a process (user/lib/lwp.c): what mgdb and gdbserver
// share, as GDB and its gdbserver share nat/linux-procfs.c and
// nat/linux-ptrace.c.
#ifndef TASKLAB_LWP_H
#define TASKLAB_LWP_H

#define MAXLWP 64               // NTASK

struct lwp {
  int tid;
  int num;                      // mgdb: GDB's thread number (1: the main thread)
  int stopped;                  // in a ptrace stop we have collected
  int pending_sig;              // a signal it stopped with, given back on resume
  int sigstop_expected;         // gdbserver: we sent it SIGSTOP (or it is new)
  int stepping;                 // gdbserver: resumed with PTRACE_SINGLESTEP
};

extern struct lwp lwps[MAXLWP];
extern int nlwp;

struct lwp *find_lwp(int tid);
struct lwp *add_lwp(int tid);   // NULL if the table is full
void drop_lwp(struct lwp *lp);  // the entries after it move down one

int  linux_proc_pid_is_gone(int pid, int tid);
void linux_ptrace_attach_fail_reason_string(int pid, int tid, char *buf, int size);
int  linux_proc_attach_tgid_threads(int pid, int (*attach)(int tid), int max_passes);
#endif
