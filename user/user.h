// The tasklab user API: system calls and the user library.
// System calls return a negative errno on failure (see errno.h).
#ifndef TASKLAB_USER_H
#define TASKLAB_USER_H

#include "kernel/errno.h"
#include "kernel/fcntl.h"
#include "kernel/stat.h"

typedef unsigned char  uchar;
typedef unsigned short ushort;
typedef unsigned int   uint;
typedef unsigned long  ulong;
typedef unsigned long  size_t;
// The kernel's names, for the kernel headers programs share (fs_format.h,
// elf.h).
typedef unsigned char  u8;
typedef unsigned short u16;
typedef unsigned int   u32;
typedef unsigned long  u64;
typedef long           ssize_t;

#define NULL ((void *)0)
#define HZ 100                  // timer ticks per second (sleep, uptime)

// Signal numbers, sa_flags, sigprocmask() and waitpid() values (Linux's).
#include "kernel/signal_abi.h"

// File descriptors every program starts with.
#define STDIN  0
#define STDOUT 1
#define STDERR 2

// System calls (user/lib/usys.S, generated from kernel/syscalls.h).
int fork(void);
void exit(int status) __attribute__((noreturn));
int waitpid(int pid, int *status, int options);
int pipe(int fds[2]);
int read(int fd, void *buf, int n);
int write(int fd, const void *buf, int n);
int close(int fd);
int kill(int pid, int sig);
int exec(const char *path, char **argv);
int open(const char *path, int flags);
int mknod(const char *path, short major, short minor);
int unlink(const char *path);
int fstat(int fd, struct stat *st);
int link(const char *oldpath, const char *newpath);
int mkdir(const char *path);
int chdir(const char *path);
int dup(int fd);
int getpid(void);
int getppid(void);
char *sbrk(long n);             // returns (char *)-errno on failure
int sleep(int ticks);           // ticks of 1/HZ s; -EINTR if interrupted
int uptime(void);               // ticks since boot
long lseek(int fd, long off, int whence);
int poweroff(int code);         // 0: success; QEMU exits with code
long freemem(void);             // free physical pages, for leak checks
int fault_inject(int what);     // 1: power off mid-commit of the next fs operation (tests)
long syscall(long nr, long a0, long a1, long a2, long a3, long a4, long a5);  // any call, by number


// ---- signals (kernel/signal.h has the kernel's side)
typedef unsigned long sigset_t;   // bit (sig - 1) stands for sig
typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

struct sigaction {
  void (*sa_handler)(int);
  sigset_t sa_mask;
  int sa_flags;
};

int sigaction(int sig, const struct sigaction *act, struct sigaction *old);  // user/lib/signal.c
sighandler_t signal(int sig, sighandler_t handler);
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigpending(sigset_t *set);
int sigsuspend(const sigset_t *mask);
int pause(void);
int tgkill(int tgid, int tid, int sig);
int raise(int sig);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);
const char *signame(int sig);      // "KILL" for 9, NULL if unknown
int signum(const char *name);      // 9 for "KILL" or "SIGKILL", -1 if unknown

// ---- threads (user/lib/thread.c)
int gettid(void);
int thread_create(void (*fn)(void *), void *arg);  // returns the new tid or -errno
int thread_join(int tid);                          // 0, or -ESRCH if not ours
void thread_exit(void) __attribute__((noreturn));  // ends this thread only
#define THREAD_STACK_SIZE 16384

// ---- process groups and the terminal
int setpgid(int pid, int pgid);
int getpgrp(void);
int tcsetpgrp(int fd, int pgrp);
int tcgetpgrp(int fd);

// ---- vhost: a copy engine whose worker, vhost-PID, copies in the kernel
#include "kernel/vhost_abi.h"
int vhost_open(int in_fd, int out_fd, int flags);   // a descriptor; read() it for the bytes copied (a u64)


// ---- ptrace (Linux request numbers); struct user_regs per architecture
#include "user_regs.h"
#include "kernel/ptrace_abi.h"
long ptrace(int request, int pid, void *addr, void *data);

// Raw system calls behind the library calls above.
struct kernel_sigaction { ulong handler, flags, restorer; sigset_t mask; };
int rt_sigaction(int sig, const struct kernel_sigaction *act, struct kernel_sigaction *old);
void rt_sigreturn(void);
int clone(ulong flags, void *stack, int *ctid);
void exit_thread(int status) __attribute__((noreturn));
int futex(int *uaddr, int op, int val);
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1

// user/lib/ulib.c
int wait(int *status);          // waitpid(-1, status, 0)
int stat(const char *path, struct stat *st);
char *gets(char *buf, int max);
int atoi(const char *s);
long atol(const char *s);
int is_sbrk_error(char *p);     // true if sbrk() returned an error
int spawn(const char *who, char **argv);  // fork + exec (in / if no slash): pid or -errno
void print_secs(int ticks);                // ticks as "5.20 s"

// user/lib/string.c
size_t strlen(const char *s);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);

// user/lib/printf.c: %d %i %u %x %o %c %s %p %%, l and ll, width, 0 and - flags
int printf(const char *fmt, ...);
int fprintf(int fd, const char *fmt, ...);
int snprintf(char *buf, size_t size, const char *fmt, ...);

// user/lib/strerror.c: "Operation not permitted" for EPERM, etc.
const char *strerror(int err);  // err positive or negative
const char *errname(int err);   // "EPERM"

// user/lib/malloc.c
void *malloc(size_t n);
void *calloc(size_t n, size_t size);
void *realloc(void *p, size_t n);
void free(void *p);

#endif
