// Signals: what a thread group shares (signal_struct, sighand_struct) and
// the entry points of signal.c. Locking: sighand->siglock guards every
// signal field of every task in the group and of the shared structures;
// tasklist_lock, when both are needed, is taken first.
#ifndef TASKLAB_SIGNAL_H
#define TASKLAB_SIGNAL_H
#include "kernel.h"
#include "spinlock.h"
#include "signal_abi.h"
#include "task_io_accounting.h"

#define SIG_DFL ((u64)0)
#define SIG_IGN ((u64)1)

// Kernel-internal "restart me" results of an interrupted system call,
// turned into a restart or -EINTR on the way out (never seen by users).
#define ERESTARTSYS    512   // restart unless a handler without SA_RESTART runs
#define ERESTARTNOHAND 514   // restart only if no handler runs (pause)

// The action for one signal, as sigaction() stores it.
struct k_sigaction {
  u64 handler;               // SIG_DFL, SIG_IGN or a user function
  u64 flags;                 // SA_*
  u64 restorer;              // user code that calls rt_sigreturn
  sigset_t mask;             // blocked while the handler runs
};

// Handlers: shared by the threads of a process.
struct sighand_struct {
  int count;                 // atomic
  struct spinlock siglock;
  struct k_sigaction action[NSIG];
};

// signal->flags
#define SIGNAL_STOP_STOPPED   0x1   // group stop is complete
#define SIGNAL_STOP_CONTINUED 0x2   // SIGCONT came; not yet reported by wait
#define SIGNAL_GROUP_EXIT     0x4   // the group is exiting
#define SIGNAL_STOP_REPORTED  0x8   // the parent's wait has seen the stop
#define SIGNAL_CLD_CONTINUED  0x10  // the parent is still to hear of the SIGCONT
#define SIGNAL_UNKILLABLE     0x20  // init: only signals it handles reach it

// task->jobctl (siglock)
#define JOBCTL_STOP_PENDING   0x1   // must join the group stop
#define JOBCTL_STOP_CONSUME   0x2   // counted in group_stop_count

// What the threads of a process share besides handlers.
struct signal_struct {
  int count;                 // tasks referring to it (atomic)
  int nr_threads;            // live threads (siglock)
  sigset_t shared_pending;   // process-directed signals (siglock)
  int flags;                 // SIGNAL_* (siglock)
  int group_exit_code;       // wait status of the group exit (siglock)
  int group_stop_count;      // threads still to stop (siglock)
  int group_stop_sig;        // the signal that stopped the group (siglock)
  struct task *group_exit_task; // exec waits here for the others to die
  int pgrp;                  // process group (tasklist_lock)
  int session;               // session (tasklist_lock)
  u64 utime, stime;          // CPU time of threads that have exited (siglock)
  struct task_io_accounting ioac; // I/O of threads that have exited (siglock)
  int nr_user_threads;       // threads that are not I/O threads (atomic)
  struct io_wq *io_wq;       // io-wq pool, made by io_uring on first use
};

struct task;
struct pt_regs;

// signal.c
void signal_wake_up(struct task *t, bool resume);
int  send_signal(struct task *t, int sig, bool group);
int  group_send_sig(struct task *leader, int sig);
int  kill_pgrp(int pgrp, int sig);
int  kill_pid_info(int pid, int sig);
bool fatal_signal_pending(struct task *t);
void recalc_sigpending(struct task *t);
void set_current_blocked(sigset_t mask);
bool get_signal(struct k_sigaction *ka, int *sig);
void do_signal(struct pt_regs *regs);
void zap_other_threads(struct task *t);
bool task_set_jobctl_pending(struct task *t, u32 mask);
void task_join_group_stop(struct task *t);
void flush_signal_handlers(struct task *t);
void do_notify_parent_cldstop(struct task *t);
bool sig_kernel_only(int sig);
// Is the group exiting, or being emptied by an exec (de_thread())?
static inline bool signal_group_exit(const struct signal_struct *sig)
{
  return (sig->flags & SIGNAL_GROUP_EXIT) || sig->group_exit_task;
}

int  kill_all(int sig);
int  do_tkill(int tgid, int tid, int sig);
int  de_thread(void);

#define sigmask(sig) (1UL << ((sig) - 1))   // the sigset_t bit of sig
#define SIG_UNBLOCKABLE (sigmask(SIGKILL) | sigmask(SIGSTOP))
#endif
