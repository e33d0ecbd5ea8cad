// sigtests: what the files of user/sigtests/ share: limits, wait statuses,
// the handlers' log, the helpers (util.c) and the tests (the table is in
// main.c).

#include "user.h"
#include "proc.h"
#include "testlib.h"

#define TEST_SECS  60           // a test running longer is killed (real time: a busy host slows QEMU)
#define SELF       "/sigtests"  // this program, for the exec tests
#define PROBE      "st-probe"   // argv[0] that makes this program a probe
#define PROBE_BAD  250          // probe exit code for an unknown probe command
#define NTHREADS   8            // threads in the thread tests
#define LEAK_ROUNDS 1000        // thread create/join cycles in threadleak
#define NTASK      64           // tasks system-wide

// Kernel addresses a forged signal frame tries to return to.
#if defined(__riscv)
#define KERNEL_VA  0xffffffc080000000UL   // the kernel's linear map of RAM
#define KERNEL_PA  0x80000000UL           // where the kernel sits in RAM
#else
#define KERNEL_VA  0xffffffff80100000UL   // the kernel's image
#define KERNEL_PA  0x100000UL             // where the kernel sits in RAM
#endif

#define SB(sig) (1UL << ((sig) - 1))      // the sigset_t bit of sig

// Wait statuses in Linux's encoding.
#define ST_EXIT(code)   (((code) & 0xff) << 8)
#define ST_SIGNAL(sig)  (sig)
#define ST_STOP(sig)    (((sig) << 8) | 0x7f)
#define ST_CONT         0xffff

// util.c: what the handlers record.
extern volatile int hits[NSIG + 1];     // handler runs per signal
extern volatile int lastsig;            // the argument of the last run
extern volatile int tidlog[64];         // the thread each run happened in
extern volatile int ntid;
extern volatile sigset_t inmask;        // the blocked mask inside the last handler
extern volatile int ackfd;              // if >= 0, each handler run writes a byte here
// util.c: the helper process (helper()).
extern int ack_rfd;                     // read end of the pipe the handler acknowledges on
extern int helper_fd;                   // write end of the data pipe
extern int helper_pid2;                 // a process to kill
extern int helper_target;               // the process the helper signals
// util.c: the threads.
extern volatile int stop_threads;       // threads loop until this is set
extern volatile int thread_ready;       // threads count themselves in here

// util.c
int expect_status(const char *check, int st, int want);
int expect_set(const char *check, sigset_t got, sigset_t want);
int reap(int pid, int ticks);
void kill_reap(int pid);
int wait_state(int pid, int tid, char c, int ticks);
int threads_in_state(int pid, char c, int *total);
int wait_all_state(int pid, char c, int *total, int ticks);
sigset_t curmask(void);
void setmask(sigset_t m);
sigset_t pending(void);
int handle(int sig, void (*fn)(int), int flags, sigset_t mask);
sighandler_t handler_of(int sig);
void reset_log(void);
void olog_add(char c);
int expect_order(const char *check, const char *want);
void on_signal(int sig);
int wait_hits(int sig, int n, int ticks);
int helper(int pid, int sig, void (*then)(void));
void then_ack_write(void);
void then_ack_kill(void);
void then_usr2(void);
void sleeper(void *arg);
void spinner(void *arg);
int start_threads(int n, void (*fn)(void *), int *tids);
void stop_join(int n, int *tids);

// delivery.c
extern volatile int nchld;              // SIGCHLD handler runs in the parent
void t_once(void);
void t_mask(void);
void t_tgkill(void);
void t_wants(void);
void t_sigkill(void);
void on_chld(int sig);
void t_groupstop(void);
void t_stopthread(void);
void read_and_exit(int fd);

// interrupt.c
void t_eintr(void);
void t_nested(void);
void t_sigsuspend(void);
void t_pause(void);
void t_nodefer(void);
void t_resethand(void);
void t_kernelonly(void);
void t_defaults(void);
void t_sigchld(void);

// proc.c
void t_fork(void);
void t_exec(void);
void t_forged(void);
void t_threads(void);
void t_threadchild(void);
void t_threadleak(void);
void t_exitgroup(void);
void t_exitread(void);
void t_execthreads(void);

// pgrp.c
void t_pgrp(void);
void t_ttin(void);
void t_asyncregs(void);
