// The task table and task creation: copy_process() for fork and threads,
// create_kthread() for kernel threads. tasklist_lock guards slots, tids and
// parent links; a slot joins or leaves a thread group only with the
// group's siglock held as well.
#include "task.h"
#include "fs.h"
#include "ptrace.h"

struct task tasks[NTASK];
struct cpu cpus[NCPU];
struct spinlock tasklist_lock;
struct task *init_task;
static int next_tid = 1;
// Kernel stacks, one per slot: contiguous, which single pages are not.
static char task_stacks[NTASK][KSTACK_SIZE] __aligned(PAGE_SIZE);

void task_init(void)
{
  spin_lock_init(&tasklist_lock, "tasklist");
}

// Is t a live member of some group (not free, not reaped)?
static bool task_alive(struct task *t)
{
  return t->attached && t->exit_state != EXIT_DEAD;
}

// The live (not reaped) task with this tid, or NULL. Caller holds
// tasklist_lock, or accepts that the answer may be stale.
struct task *find_task_by_tid(int tid)
{
  if (tid <= 0)
    return NULL;
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (task_alive(t) && t->tid == tid)
      return t;
  return NULL;
}

// Walk a thread group's unreaped tasks (zombies included), in table
// order. Caller holds tasklist_lock or the group's siglock.
struct task *next_thread(struct signal_struct *sig, struct task *t)
{
  for (t = t ? t + 1 : tasks; t < &tasks[NTASK]; t++)
    if (task_alive(t) && t->signal == sig)
      return t;
  return NULL;
}

struct task *first_thread(struct signal_struct *sig)
{
  return next_thread(sig, NULL);
}

void set_task_comm(struct task *t, const char *name)
{
  strlcpy(t->comm, name, sizeof(t->comm));
}

// A slot can be reused once its task is reaped and off every CPU.
static bool slot_free(struct task *t)
{
  return !t->used || (t->exit_state == EXIT_DEAD && !READ_ONCE(t->on_cpu));
}

// Claim a free slot with a kernel stack and a fresh tid. The task is not
// yet in any group and not runnable. NULL if the table is full.
static struct task *alloc_task(void)
{
  struct task *t = NULL;
  spin_lock(&tasklist_lock);
  for (struct task *p = tasks; p < &tasks[NTASK]; p++)
    if (slot_free(p)) {
      t = p;
      break;
    }
  if (t) {
    memset(t, 0, sizeof(*t));
    t->used = true;
    t->tid = t->tgid = next_tid++;
    t->exit_signal = -1;
    t->state = TASK_UNINTERRUPTIBLE;   // until wake_up_new_task()
    t->group_leader = t;
    t->kstack = task_stacks[t - tasks];
    *(u64 *)t->kstack = STACK_END_MAGIC;
  }
  spin_unlock(&tasklist_lock);
  return t;
}

// Release a slot that never ran (creation failed part way).
void free_task_slot(struct task *t)
{
  spin_lock(&tasklist_lock);
  t->used = false;
  spin_unlock(&tasklist_lock);
}

// ---- what tasks share: address space, files, cwd, handlers, signal state

struct mm_struct *mm_alloc(void)
{
  struct mm_struct *mm = alloc_page();
  if (!mm)
    return NULL;
  mm->pgd = pgd_alloc();
  if (!mm->pgd) {
    free_page(mm);
    return NULL;
  }
  spin_lock_init(&mm->lock, "mm");
  sleep_lock_init(&mm->mmap_lock, "mmap_lock");
  mm->users = 1;
  return mm;
}

// Drop a reference; the last one frees every user page and the tables.
// The caller must not be running on mm's page table.
void mmput(struct mm_struct *mm)
{
  if (__atomic_sub_fetch(&mm->users, 1, __ATOMIC_ACQ_REL) > 0)
    return;
  pgd_free(mm->pgd);
  free_page(mm);
}

#define DUP_MM_BATCH (64 * PAGE_SIZE)   // bytes copied per hold of old->lock

// A private copy of an address space (fork). old's mmap_lock holds the
// break still; old->lock is taken for a batch of pages at a time, so
// that a large heap is copied with interrupts on and scheduling points
// between batches, and a SIGKILL to the parent ends the copy.
static struct mm_struct *dup_mm(struct mm_struct *old)
{
  struct mm_struct *mm = mm_alloc();
  if (!mm)
    return NULL;
  sleep_lock(&old->mmap_lock);
  mm->start_brk = old->start_brk;
  mm->brk = old->brk;
  int err = 0;
  for (u64 a = 0; a < old->brk && err == 0; a += DUP_MM_BATCH) {
    u64 len = old->brk - a < DUP_MM_BATCH ? old->brk - a : DUP_MM_BATCH;
    spin_lock(&old->lock);
    err = copy_user_range(mm->pgd, old->pgd, a, len);
    spin_unlock(&old->lock);
    cond_resched();
    if (err == 0 && fatal_signal_pending(current))
      err = -EINTR;
  }
  sleep_unlock(&old->mmap_lock);
  if (err < 0) {
    mmput(mm);
    return NULL;
  }
  return mm;
}

// An empty open-file table, or NULL.
static struct files_struct *files_alloc(void)
{
  struct files_struct *f = alloc_page();
  if (f) {
    spin_lock_init(&f->lock, "files");
    f->count = 1;
  }
  return f;
}

// A copy of old's table, sharing its open files (fork).
static struct files_struct *dup_files(struct files_struct *old)
{
  struct files_struct *f = files_alloc();
  if (!f)
    return NULL;
  spin_lock(&old->lock);
  for (int i = 0; i < NOFILE; i++)
    if (old->fd[i])
      f->fd[i] = filedup(old->fd[i]);
  spin_unlock(&old->lock);
  return f;
}

void put_files(struct files_struct *f)
{
  int left = __atomic_sub_fetch(&f->count, 1, __ATOMIC_ACQ_REL);
  BUG_ON(left < 0);
  if (left > 0)
    return;
  for (int i = 0; i < NOFILE; i++)
    if (f->fd[i])
      fileclose(f->fd[i]);
  free_page(f);
}

static struct fs_struct *dup_fs(struct fs_struct *old)
{
  struct fs_struct *fs = alloc_page();
  if (!fs)
    return NULL;
  fs->users = 1;
  spin_lock_init(&fs->lock, "fs_struct");
  fs->cwd = old ? get_fs_pwd(old) : NULL;
  return fs;
}

// A new reference to fs's cwd, or NULL before there is one (Linux's
// get_fs_pwd()): the reference is taken under fs->lock, so a chdir() in
// a thread sharing fs cannot drop the inode in between.
struct inode *get_fs_pwd(struct fs_struct *fs)
{
  spin_lock(&fs->lock);
  struct inode *ip = fs->cwd ? idup(fs->cwd) : NULL;
  spin_unlock(&fs->lock);
  return ip;
}

// Make ip fs's cwd, taking over the caller's reference to it. Returns
// the old cwd, whose reference the caller drops (iput() may sleep, so
// not under fs->lock).
struct inode *set_fs_pwd(struct fs_struct *fs, struct inode *ip)
{
  spin_lock(&fs->lock);
  struct inode *old = fs->cwd;
  fs->cwd = ip;
  spin_unlock(&fs->lock);
  return old;
}

void put_fs(struct fs_struct *fs)
{
  int left = __atomic_sub_fetch(&fs->users, 1, __ATOMIC_ACQ_REL);
  BUG_ON(left < 0);
  if (left > 0)
    return;
  if (fs->cwd) {
    begin_op();
    iput(fs->cwd);
    end_op();
  }
  free_page(fs);
}

// Handlers for a new process: a copy of old's, or all default.
static struct sighand_struct *dup_sighand(struct sighand_struct *old)
{
  struct sighand_struct *sh = alloc_page();
  if (!sh)
    return NULL;
  sh->count = 1;
  spin_lock_init(&sh->siglock, "siglock");
  if (old) {
    spin_lock(&old->siglock);
    memcpy(sh->action, old->action, sizeof(sh->action));
    spin_unlock(&old->siglock);
  }
  return sh;
}

void put_sighand(struct sighand_struct *sh)
{
  int left = __atomic_sub_fetch(&sh->count, 1, __ATOMIC_ACQ_REL);
  BUG_ON(left < 0);
  if (left == 0)
    free_page(sh);
}

// Shared signal state for a new process, in old's process group.
static struct signal_struct *alloc_signal(struct signal_struct *old)
{
  struct signal_struct *sig = alloc_page();
  if (!sig)
    return NULL;
  sig->count = 1;
  if (old) {
    sig->pgrp = old->pgrp;
    sig->session = old->session;
  }
  return sig;
}

void put_signal(struct signal_struct *sig)
{
  int left = __atomic_sub_fetch(&sig->count, 1, __ATOMIC_ACQ_REL);
  BUG_ON(left < 0);
  if (left == 0)
    free_page(sig);
}

static void get_ref(int *count) { __atomic_fetch_add(count, 1, __ATOMIC_RELAXED); }

// Undo a half-built task from copy_process().
static void abort_new_task(struct task *t)
{
  if (t->mm)
    mmput(t->mm);
  if (t->files)
    put_files(t->files);
  if (t->fs)
    put_fs(t->fs);
  if (t->sighand)
    put_sighand(t->sighand);
  if (t->signal)
    put_signal(t->signal);
  free_task_slot(t);
}

// Give t what it shares with, or copies from, the current task.
static int copy_shared(struct task *t, u64 flags)
{
  struct task *p = current;
  if (flags & CLONE_THREAD) {
    get_ref(&p->mm->users);
    get_ref(&p->files->count);
    get_ref(&p->fs->users);
    get_ref(&p->sighand->count);
    get_ref(&p->signal->count);
    t->mm = p->mm;
    t->files = p->files;
    t->fs = p->fs;
    t->sighand = p->sighand;
    t->signal = p->signal;
    return 0;
  }
  t->mm = dup_mm(p->mm);
  t->files = dup_files(p->files);
  t->fs = dup_fs(p->fs);
  t->sighand = dup_sighand(p->sighand);
  t->signal = alloc_signal(p->signal);
  return t->mm && t->files && t->fs && t->sighand && t->signal ? 0 : -ENOMEM;
}

// Link t into the task tree and its thread group, and make it runnable.
// Fails with -EINTR if the group is exiting (a fatal signal won the race).
static int attach_task(struct task *t, u64 flags)
{
  struct task *p = current;
  spin_lock(&tasklist_lock);
  spin_lock(&p->sighand->siglock);
  if (signal_group_exit(p->signal) || fatal_signal_pending(p)) {
    spin_unlock(&p->sighand->siglock);
    spin_unlock(&tasklist_lock);
    return -EINTR;
  }
  t->blocked = p->blocked;
  if (flags & CLONE_THREAD) {
    t->group_leader = p->group_leader;
    t->tgid = p->tgid;
    t->parent = p->parent;
    task_join_group_stop(t);
    // Linux's create_io_thread() passes CLONE_UNTRACED: an I/O thread
    // is never traced from birth, whatever the options.
    if ((p->ptrace & PT_TRACE_CLONE) && !(t->flags & TF_IO_WORKER))
      ptrace_init_task(t);
  } else {
    t->parent = p;
    t->exit_signal = SIGCHLD;
  }
  t->attached = true;
  if (!(t->flags & TF_IO_WORKER))
    __atomic_fetch_add(&t->signal->nr_user_threads, 1, __ATOMIC_RELAXED);
  spin_unlock(&p->sighand->siglock);
  spin_unlock(&tasklist_lock);
  return 0;
}

// Make a new task from the current one as args says: a new process
// (flags 0), a user thread (CLONE_THREAD_FLAGS, on user stack args->stack,
// optionally CLONE_CHILD_CLEARTID), or an I/O thread (io_thread: a thread
// of the group that runs args->fn in the kernel). The task is not yet
// runnable: the caller wakes it with wake_up_new_task(). Returns it, or
// NULL with *err = -EINVAL, -EAGAIN, -ENOMEM or -EINTR.
struct task *copy_process(const struct kernel_clone_args *args, int *err)
{
  struct task *p = current;
  u64 flags = args->flags, share = flags & ~CLONE_CHILD_CLEARTID;
  *err = -EINVAL;
  if (share != 0 && share != CLONE_THREAD_FLAGS)
    return NULL;
  if ((flags & CLONE_THREAD) && !args->io_thread && (args->stack == 0 || args->stack >= USER_TOP))
    return NULL;
  struct task *t = alloc_task();
  *err = -EAGAIN;
  if (!t)
    return NULL;
  if (args->io_thread)
    t->flags |= TF_IO_WORKER;
  if ((*err = copy_shared(t, flags)) == 0)
    *err = attach_task(t, flags);
  if (*err < 0) {
    abort_new_task(t);
    return NULL;
  }
  if (flags & CLONE_CHILD_CLEARTID)
    t->clear_child_tid = args->ctid;
  set_task_comm(t, p->comm);
  arch_copy_thread(t, args->fn, args->fn_arg);
  if (!args->io_thread)   // an I/O thread's were zeroed by arch_copy_thread()
    arch_fork_regs(task_pt_regs(t), task_pt_regs(p), args->stack);
  return t;
}

// clone/fork: a new process or user thread, running. Returns its tid.
// A traced caller with PTRACE_O_TRACECLONE stops at PTRACE_EVENT_CLONE
// for a new thread, once the thread can run.
int kernel_clone(const struct kernel_clone_args *args)
{
  int err;
  struct task *t = copy_process(args, &err);
  if (!t)
    return err;
  int tid = t->tid;
  wake_up_new_task(t);
  if (args->flags & CLONE_THREAD)
    ptrace_event(PTRACE_EVENT_CLONE, tid);
  return tid;
}

// A task that runs fn(arg) in the kernel, with its own (empty) files and
// default signal handling. Returns it, already runnable, or NULL.
struct task *create_kthread(void (*fn)(void *), void *arg, const char *name)
{
  struct task *t = alloc_task();
  if (!t)
    return NULL;
  t->flags = TF_KTHREAD;
  t->fs = dup_fs(NULL);
  t->files = files_alloc();
  t->sighand = dup_sighand(NULL);
  t->signal = alloc_signal(NULL);
  if (!t->fs || !t->files || !t->sighand || !t->signal) {
    abort_new_task(t);
    return NULL;
  }
  spin_lock(&tasklist_lock);
  t->attached = true;
  if (!(t->flags & TF_IO_WORKER))
    __atomic_fetch_add(&t->signal->nr_user_threads, 1, __ATOMIC_RELAXED);
  spin_unlock(&tasklist_lock);
  set_task_comm(t, name);
  arch_copy_thread(t, fn, arg);
  wake_up_new_task(t);
  return t;
}
