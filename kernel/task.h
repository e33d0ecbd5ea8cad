// Tasks: the schedulable threads of tasklab, and what they share.
#ifndef TASKLAB_TASK_H
#define TASKLAB_TASK_H
#include "kernel.h"
#include "spinlock.h"
#include "signal.h"
#include "task_io_accounting.h"
#include "sleeplock.h"

// task->state (guarded by rq_lock). Linux's letters in comments.
enum task_state {
  TASK_RUNNING,          // R: on a CPU or on the run queue
  TASK_INTERRUPTIBLE,    // S: sleeping; a signal ends the sleep
  TASK_UNINTERRUPTIBLE,  // D: sleeping; signals wait
  TASK_STOPPED,          // T: group stop
  TASK_TRACED,           // t: ptrace stop
  TASK_DEAD,             // X: exited, never runs again
};

// task->exit_state (guarded by tasklist_lock).
#define EXIT_ZOMBIE 1      // Z: waiting for the parent to reap it
#define EXIT_DEAD   2      // being reaped

// ti.flags bits, set and cleared atomically; tested on the way to user mode.
#define TIF_SIGPENDING    (1UL << 0)
#define TIF_NEED_RESCHED  (1UL << 1)
#define TIF_NOTIFY_SIGNAL (1UL << 2)   // an I/O thread must look up from a blocking call

// task->flags (Linux's PF_*): written only by the task itself or before it runs.
#define TF_KTHREAD   0x1   // runs only in the kernel
#define TF_EXITING   0x4   // in do_exit()
#define TF_IDLE      0x8   // a CPU's idle task
#define TF_IO_WORKER 0x10  // an io_uring I/O thread (Linux: PF_IO_WORKER)

// Written at the lowest word of every kernel stack; checked at each switch.
#define STACK_END_MAGIC 0x57AC6E9DUL

// An address space; shared by the threads of a process.
struct mm_struct {
  struct sleeplock mmap_lock;  // serializes changes of the layout (sbrk)
                               // and fork's copy of it
  struct spinlock lock;    // guards brk, tlb_gen and the page table's user half
  int users;               // tasks using it (atomic)
  pte_t *pgd;
  u64 start_brk;           // first heap byte
  u64 brk;                 // first byte past the heap
  u64 tlb_gen;             // bumped when pages go; CPUs flush to catch up
};

// The open-file table; shared by the threads of a process.
struct files_struct {
  struct spinlock lock;    // guards fd[]
  int count;               // tasks using it (atomic)
  struct file *fd[NOFILE];
};

// Current directory; shared by the threads of a process.
struct fs_struct {
  int users;               // atomic
  struct spinlock lock;    // guards cwd: CLONE_FS threads share it
  struct inode *cwd;       // holds a reference
};

struct cpu {
  struct task *idle;       // this CPU's idle task
  int noff;                // depth of push_off()
  bool intena;             // interrupts were on before the first push_off()
  struct task *switched_from;  // rq_lock: task this CPU just switched away from
  struct mm_struct *active_mm; // address space loaded here (NULL: the kernel's)
  u64 tlb_gen_seen;        // active_mm->tlb_gen this CPU has flushed for
  u64 last_tick;           // jiffies at its last timer tick (0: not up yet)
  bool tick_reported;      // the watchdog named this CPU for a missing tick
  int id;
};

struct task {
  struct thread_info ti;   // arch: must be first (trap.S reaches it via tp)

  // rq_lock:
  enum task_state state;
  void *wchan;             // sleeping on this channel
  struct task *rq_next;    // run queue link
  bool on_rq;
  bool on_cpu;             // still running on a CPU (maybe just switching out)
  int cpu;                 // CPU it runs or last ran on
  u64 wake_at;             // jiffies deadline of schedule_timeout(), 0 if none
  u64 last_switch_time;    // jiffies when it last went to sleep (the watchdog)
  bool hung_reported;      // the watchdog named it in this sleep

  // tasklist_lock (and, for used/signal/exit_state, the group's siglock):
  bool used;               // slot is allocated
  bool attached;           // in the task tree and its group (and siglock)
  int tid;
  int tgid;                // the thread group leader's tid
  int exit_state;          // 0, EXIT_ZOMBIE, EXIT_DEAD
  int exit_code;           // Linux wait status
  int exit_signal;         // sent to the parent at exit; -1 for threads
  struct task *parent;
  struct task *group_leader;
  struct task *tracer;     // ptrace: the thread tracing this one, or NULL
  u32 ptrace;              // PT_PTRACED and PT_* options if traced, else 0
  // siglock (ptrace stops):
  bool ptrace_stopped;     // in ptrace_stop(), until the tracer resumes it
  bool ptrace_reported;    // the tracer's waitpid has seen this stop
  int ptrace_sig;          // signal reported at the stop; the tracer may change it
  u64 ptrace_message;      // PTRACE_GETEVENTMSG: what the last event stop reported

  // sighand->siglock:
  struct signal_struct *signal;
  struct sighand_struct *sighand;
  sigset_t pending;        // signals sent to this thread
  sigset_t blocked;
  sigset_t saved_sigmask;  // restored after a sigsuspend handler
  bool restore_sigmask;
  u32 jobctl;              // JOBCTL_*

  // Private to the task (or set before it first runs):
  u32 flags;               // TF_*
  void *kstack;
  struct mm_struct *mm;    // set by the task under tasklist_lock (ptrace reads it there)
  struct files_struct *files;
  struct fs_struct *fs;
  u64 clear_child_tid;     // user address zeroed and futex-woken at exit
  u64 utime, stime;        // ticks charged in user and kernel mode
  u64 softlockup_ticks;    // ticks it ran in the kernel since its last scheduling point
  bool lockup_reported;    // the watchdog named it in this stretch
  char comm[TASK_COMM_LEN];

  // Written only by the task itself (it counts its own reads and writes),
  // so no lock. procfs reads it unlocked (a count may be a call behind);
  // exit_notify() folds it into signal->ioac, under the siglock, once the
  // task can do no more I/O.
  struct task_io_accounting ioac;
};

extern struct task tasks[NTASK];
extern struct cpu cpus[NCPU];
extern struct spinlock tasklist_lock;
extern struct spinlock rq_lock;
extern struct task *init_task;

static inline struct cpu *this_cpu(void) { return &cpus[current->cpu]; }
static inline int smp_processor_id(void) { return current->cpu; }

static inline void set_tsk_thread_flag(struct task *t, u64 f)
{ __atomic_fetch_or(&t->ti.flags, f, __ATOMIC_SEQ_CST); }
static inline void clear_tsk_thread_flag(struct task *t, u64 f)
{ __atomic_fetch_and(&t->ti.flags, ~f, __ATOMIC_SEQ_CST); }
static inline bool test_tsk_thread_flag(struct task *t, u64 f)
{ return (READ_ONCE(t->ti.flags) & f) != 0; }
static inline bool signal_pending(struct task *t)
{ return test_tsk_thread_flag(t, TIF_SIGPENDING | TIF_NOTIFY_SIGNAL); }

// I/O accounting (task_io_accounting.h). t is always current: only the
// task itself writes its counts, so no lock is taken. Callers add bytes
// only for a result > 0, and count the call whatever it returned.
static inline void add_rchar(struct task *t, long n) { t->ioac.rchar += n; }
static inline void add_wchar(struct task *t, long n) { t->ioac.wchar += n; }
static inline void inc_syscr(struct task *t) { t->ioac.syscr++; }
static inline void inc_syscw(struct task *t) { t->ioac.syscw++; }

// A scheduling point of current (a sleep or an attempt at one, a yield,
// user mode): the watchdog's soft-lockup count starts again.
static inline void touch_softlockup_watchdog(void)
{
  current->softlockup_ticks = 0;
  current->lockup_reported = false;
}

// sched.c
void sched_init_cpu(int cpu);
void __noreturn cpu_idle(void);
void schedule(void);
void cond_resched(void);
void sleep(void *chan, struct spinlock *lk);
int  sleep_interruptible(void *chan, struct spinlock *lk);
void sleep_in_state(struct spinlock *lk, enum task_state state);
void set_special_state(enum task_state state);
void wakeup(void *chan);
void wake_up_new_task(struct task *t);
bool wake_up_state(struct task *t, int states);
long schedule_timeout(long ticks);
long schedule_timeout_locked(long ticks, struct spinlock *lk);
long schedule_timeout_uninterruptible(long ticks);
long schedule_timeout_uninterruptible_locked(long ticks, struct spinlock *lk);
void __noreturn schedule_dead(void);
void wake_expired_timers(void);
void switch_mm_sync(struct mm_struct *mm);
void tlb_shootdown_wait(struct mm_struct *mm, u64 gen);
void resched_tick(void);

// hung_task.c
void watchdog_tick(bool from_user);
int  hung_task_timeout_get(void);
int  hung_task_timeout_set(int secs);

// time.c
void thread_group_cputime(struct task *t, u64 *utime, u64 *stime);

// task.c
void task_init(void);
struct task *find_task_by_tid(int tid);
struct task *first_thread(struct signal_struct *sig);
struct task *next_thread(struct signal_struct *sig, struct task *t);
#define for_each_thread(sig, t) for (t = first_thread(sig); t; t = next_thread(sig, t))
struct kernel_clone_args {
  u64 flags;               // 0 (fork) or CLONE_THREAD_FLAGS [| CLONE_CHILD_CLEARTID]
  u64 stack;               // user stack of a new thread
  u64 ctid;                // CLONE_CHILD_CLEARTID word
  bool io_thread;          // an I/O thread running fn(fn_arg) in the kernel
  void (*fn)(void *);
  void *fn_arg;
};
struct task *copy_process(const struct kernel_clone_args *args, int *err);
int  kernel_clone(const struct kernel_clone_args *args);
struct task *create_io_thread(void (*fn)(void *), void *arg, const char *fmt, int id);
void io_thread_race_set(int ticks);
int io_thread_race_get(void);
struct task *create_kthread(void (*fn)(void *), void *arg, const char *name);
void set_task_comm(struct task *t, const char *name);
void mmput(struct mm_struct *mm);
struct mm_struct *mm_alloc(void);
void put_files(struct files_struct *f);
void put_fs(struct fs_struct *fs);
struct inode *get_fs_pwd(struct fs_struct *fs);
struct inode *set_fs_pwd(struct fs_struct *fs, struct inode *ip);
void put_signal(struct signal_struct *sig);
void put_sighand(struct sighand_struct *sh);
void free_task_slot(struct task *t);
static inline bool thread_group_leader(struct task *t) { return t->group_leader == t; }
static inline bool same_thread_group(struct task *a, struct task *b) { return a->signal == b->signal; }
#define CLONE_VM       0x00000100
#define CLONE_FS       0x00000200
#define CLONE_FILES    0x00000400
#define CLONE_SIGHAND  0x00000800
#define CLONE_THREAD   0x00010000
#define CLONE_CHILD_CLEARTID 0x00200000
#define CLONE_THREAD_FLAGS (CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD)

// exit.c
void __noreturn do_exit(int code);
void __noreturn do_group_exit(int code);
void __noreturn kthread_exit(void);
int  do_wait(int pid, u64 ustatus, int options);
int  release_traced_zombie(struct task *t);
void wait_for_other_threads(void);
bool thread_group_empty(struct task *leader);
void reparent_after_exec(struct task *t);

// futex.c
int futex_wait(u64 uaddr, u32 val);
int futex_wake(u64 uaddr, int n);


#endif
