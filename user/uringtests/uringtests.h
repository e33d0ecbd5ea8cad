// uringtests: what the files of user/uringtests/ share: limits, the
// helpers (util.c) and the tests (the table is in main.c).

#include "user.h"
#include "liburing.h"
#include "proc.h"
#include "testlib.h"

#define SRC       "/ut-src"
#define DST       "/ut-dst"
#define TEST_SECS 30            // a test running longer is killed (default)
#define SETTLE    (3 * HZ)      // how long a leak check waits for frees to land
#define MAXTHR    64            // NTASK
#define NO_CQE    (-1000)       // no completion came in time (not an errno)

extern char d[256];                        // scratch for FAIL details
extern char buf[4096];                     // scratch I/O buffer

struct thr {
  int tid;
  struct procstat ps;           // its name and state
};

// util.c
int expect_ud(const char *name, unsigned long got, unsigned long want);
int expect_no_leak(const char *name, long before);
int list_threads(int pid, struct thr *t, int max);
int count_threads(int pid, const char *name, char state);
int await_threads(int pid, const char *name, char state, int want, int ticks);
void crc_init(void);
int ring_init(struct io_uring *ring, unsigned entries, unsigned flags);
int warm_up_pool(void);
int wait_cqe_ticks(struct io_uring *ring, struct io_uring_cqe **cqe, int ticks);
long one_request(struct io_uring *ring, const char *name, unsigned long *ud);
void t_copy0(void);
void t_copy1(void);
void t_copy32k_1(void);
void t_copy32k(void);
void t_copy1m7(void);
void t_copy4m(void);
void t_copyerr(void);

// requests.c
void t_nop(void);
void t_nopasync(void);
void t_errors(void);
void t_setup(void);
void t_notring(void);
void t_punt(void);
void t_busy(void);
void t_sqpoll(void);
void t_iothreads(void);
void t_pingpong(void);
void t_racewindow(void);

// ioacct.c
void t_ioacct(void);

// teardown.c
void t_exitleak(void);
void t_killleak(void);
void t_forkclose(void);
void t_closecancel(void);
void t_cycles(void);
void t_execpool(void);
void t_cancelcur(void);
int async_nop(void);

// hostile.c
void t_tamper(void);
void t_closespin(void);
void t_sqpollkill(void);
void t_sqpollwake(void);
