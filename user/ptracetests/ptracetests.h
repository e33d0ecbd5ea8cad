// ptracetests: what the files of user/ptracetests/ share: limits, the
// targets, the helpers (util.c, mgdb.c) and the tests (the table is in
// main.c).

#include "user/user.h"
#include "user/proc.h"
#include "kernel/elf.h"
#include "user/testlib.h"

#include "kernel/fs_format.h"

#define SELF      "/ptracetests"
#define TEST_SECS 60            // a test running longer is killed (real time: a busy host slows QEMU)
#define MAXT      12            // threads in a target, main included
#define MAGIC0    0x5ca1ab1e0ddba115UL
#define MAGIC1    0x0b5e55edfacade42UL
#define BAD_NULL  0x0UL
#define BAD_KERN  0x80000000UL
#define BAD_HIGH  0xffffffffffff0000UL
#define BAD_HOLE  0x40000000UL  // user range, never mapped in a small program
#define OUTMAX    4096          // bytes of mgdb output kept

extern char detail[256];        // the detail of the next FAIL line

struct target {
  int pid;
  int n;                        // threads, main included
  int tids[MAXT];               // [0] is pid
};

// util.c: what the targets run; the tracer reads them by address and
// looks some up by name in the ELF file.
extern volatile ulong counters[MAXT];
extern volatile ulong magic;

// util.c
char state_of(int pid, int tid);
int tracer_of(int pid, int tid);
int elf_text(const char *path, ulong *lo, ulong *hi);
int elf_symbol(const char *path, const char *name, ulong *value, ulong *size);
extern volatile int own_thread_go;
__attribute__((noinline)) void pt_spinner(void *arg);
__attribute__((noinline)) void exit42(void);
int start_target(struct target *t, int nsleep, int nspin, int churn);
int stop_target(struct target *t);
int reap_within(int pid, int *st, int ticks);
int attach_wait(int tid, int *st);
int attach_target(struct target *t);
int detach_target(struct target *t);
int states_are(struct target *t, char want, int ticks);
int peek_counters(int tid, int n, ulong *v);
int made_progress(struct target *t, ulong *before);

// attach.c
void t_attach1(void);
void t_attach8(void);
void t_peekpoke(void);
void t_peekbad(void);
void t_pokeexit(void);
void t_getregs(void);
void t_setregs(void);
void t_stopstate(void);
void t_attachstopped(void);
void t_execstop(void);

// control.c
int start_holder(int tid, int *result);
void stop_helper(int pid);
void t_perm(void);
void t_sigreport(void);
void t_exitreport(void);
void t_tracerdeath(void);
void t_ptkill(void);
int list_slowly(int pid, int *tids, int max, int nap);
void t_tasklist(void);
void t_snapshot(void);
void t_leak(void);

// mgdb.c
void t_mgdb(void);
void t_mgdbloop(void);
void t_mgdbgdb15(void);

// debug.c
void t_traceme(void);
void t_traceclone(void);
void t_singlestep(void);
void t_breakpoint(void);
void t_exitkill(void);
