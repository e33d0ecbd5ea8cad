// usertests: what the files of user/usertests/ share: limits, the scratch
// buffers, the helpers (util.c) and the tests (the table is in main.c).

#include "user/user.h"
#include "user/testlib.h"

#include "kernel/fs_format.h"

#define PGSIZE     4096
#define NOFILE     16           // fds per process
#define NTASK      64           // tasks system-wide
#define MAXARG     32           // exec arguments
#define MAXPATH    128          // path bytes, NUL included
#define USTACK     16384        // user stack, just below the initial break
#define TEST_SECS  20           // a test running longer is killed (default)
#define SELF       "/usertests" // this program, for the exec tests
#define PROBE      "ut-probe"   // argv[0] that makes this program a probe
#define PROBE_BAD  250          // probe exit code for an unknown probe command

// Addresses that are never valid user memory.
#define BAD_NULL   ((void *)0)
#define BAD_KERN   ((void *)0x80000000UL)
#define BAD_HIGH   ((void *)0xffffffffffff0000UL)

extern char *initial_brk;               // sbrk(0) when main started: the stack's top
extern char buf[8192];                  // scratch buffers
extern char buf2[8192];

// util.c
int expect_ok(const char *check, long got);
int expect_exit(const char *check, int st, int code);
int expect_signal(const char *check, int st, int sig);
int in_child(void (*fn)(long), long arg);
int reap_or_kill(int pid, int *st, int ticks);
int fds_in_use(void);
char *align_brk(void);
void exit_with(long code);
uchar pat(long off, int seed);
long write_pattern(int fd, long off, long n, int seed);
long check_pattern(int fd, long off, long n, int seed, int piece);
int put_file(const char *path, const void *data, int n);
int read_all(int fd, void *dst, int n);
int get_file(const char *path, void *dst, int n);
void expect_content(const char *check, const char *path, const char *want);
void dename(const struct dirent *de, char *name);
int count_entries(const char *path);
int enter_scratch(const char *dir);
void leave_scratch(const char *dir);

// proc.c
int try_exec(const char *path, char **argv);
void t_fork(void);
void t_forkbig(void);
void t_forklatency(void);
void t_exitstatus(void);
void t_wait(void);
void t_waitnohang(void);
void t_manyprocs(void);
void t_orphans(void);
void t_exec(void);
void t_execerr(void);
void t_execnonelf(void);
void t_exechigh(void);
void t_pipe(void);
void t_pipebig(void);
void t_pingpong(void);
void t_pipeeof(void);
void t_pipeepipe(void);

// fs.c
void t_files(void);
void t_shortwrite(void);
void t_trunc(void);
void t_append(void);
void t_lseek(void);
void t_openerr(void);
void t_bigfile(void);
void t_maxfile(void);
void t_dup(void);
void t_fdleak(void);
void t_diskstats(void);
void t_interrupts(void);
void t_sysctl(void);

// dirs.c
void t_dirs(void);
void t_deaddir(void);
void t_unlink(void);
void t_links(void);
void t_dirsiz(void);
void t_readdir(void);
void t_concreate(void);
void t_mknod(void);
void t_itablefull(void);

// mem.c
void f_read(long unused);
void t_sbrk(void);
void t_sbrkoom(void);
void t_sbrkfault(void);
void t_faults(void);
void t_sigframe(void);
void t_kill(void);
void t_sleep(void);

// syscalls.c
void t_badptr(void);
void t_badfd(void);
void t_nosys(void);
void t_diskfull(void);

// hostile.c
void t_closeinuse(void);
void t_pipefault(void);
void t_linkproc(void);
void t_unlinkproc(void);
void t_bufstorm(void);
void t_linkmax(void);
void t_chdirrace(void);
void t_statpad(void);
void t_cleartid(void);
int probe_cleartid(void);

// vhost.c
void t_vhostargs(void);
void t_vhostcopy(void);
void t_vhostclose(void);
void t_vhostexit(void);
