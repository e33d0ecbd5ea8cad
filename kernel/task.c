// Task lifetime: the task table, fork (copy_process), kernel threads,
// exit and wait. tasklist_lock guards task slots, tids, parent links and
// exit state; rq_lock (sched.c) guards run state.
#include "task.h"
#include "fs.h"
#include "signal_nr.h"

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
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    spin_lock_init(&t->siglock, "siglock");
}

// The live (not reaped) task with this tid, or NULL. Caller holds
// tasklist_lock, or accepts that the answer may be stale.
struct task *find_task_by_tid(int tid)
{
  if (tid <= 0)
    return NULL;
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->used && t->tid == tid && t->exit_state != EXIT_DEAD)
      return t;
  return NULL;
}

void set_task_comm(struct task *t, const char *name)
{
  strlcpy(t->comm, name, sizeof(t->comm));
}

// Claim a free slot with a kernel stack and a fresh tid.
// Returns NULL (with *err set) if there is no slot or no memory.
static struct task *alloc_task(int *err)
{
  struct task *t = NULL;

  spin_lock(&tasklist_lock);
  for (struct task *p = tasks; p < &tasks[NTASK]; p++)
    if (!p->used) {
      t = p;
      t->used = true;
      t->tid = next_tid++;
      break;
    }
  spin_unlock(&tasklist_lock);
  if (!t) {
    *err = -EAGAIN;
    return NULL;
  }
  // The kernel stack must be contiguous: use the static per-slot area.
  t->kstack = task_stacks[t - tasks];
  *(u64 *)t->kstack = STACK_END_MAGIC;
  t->state = TASK_UNINTERRUPTIBLE;   // not runnable until woken as new
  t->exit_state = 0;
  t->exit_code = 0;
  t->pending = 0;
  t->ti.flags = 0;
  t->flags = 0;
  t->utime = t->stime = 0;
  t->mm = NULL;
  t->files = NULL;
  t->fs = NULL;
  t->wchan = NULL;
  t->wake_at = 0;
  return t;
}

// Return a slot to the table. The task must never run again.
static void free_task(struct task *t)
{
  spin_lock(&tasklist_lock);
  t->used = false;
  t->tid = 0;
  t->parent = NULL;
  t->exit_state = 0;
  spin_unlock(&tasklist_lock);
}

// ---- shared parts: address space, files, current directory

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
  mm->users = 1;
  return mm;
}

// Drop a reference; the last one frees every user page and the tables.
void mmput(struct mm_struct *mm)
{
  if (__atomic_sub_fetch(&mm->users, 1, __ATOMIC_ACQ_REL) > 0)
    return;

  pgd_free(mm->pgd);
  free_page(mm);
}

// A private copy of the current address space (fork).
static struct mm_struct *dup_mm(struct mm_struct *old)
{
  struct mm_struct *mm = mm_alloc();
  if (!mm)
    return NULL;
  mm->start_brk = old->start_brk;
  mm->brk = old->brk;
  spin_lock(&old->lock);
  int err = copy_user_range(mm->pgd, old->pgd, 0, old->brk);
  spin_unlock(&old->lock);
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

static void put_files(struct files_struct *f)
{
  if (__atomic_sub_fetch(&f->count, 1, __ATOMIC_ACQ_REL) > 0)
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
  fs->cwd = old && old->cwd ? idup(old->cwd) : NULL;
  return fs;
}

static void put_fs(struct fs_struct *fs)
{
  if (__atomic_sub_fetch(&fs->users, 1, __ATOMIC_ACQ_REL) > 0)
    return;
  if (fs->cwd) {
    begin_op();
    iput(fs->cwd);
    end_op();
  }
  free_page(fs);
}

// Undo a half-built task from copy_process().
static void abort_new_task(struct task *t)
{
  if (t->mm)
    mmput(t->mm);
  if (t->files)
    put_files(t->files);
  if (t->fs)
    put_fs(t->fs);
  free_task(t);
}

// fork: a new process that is a copy of the caller. Returns the child's
// tid to the parent (the child returns 0 from the system call), or
// -EAGAIN / -ENOMEM.
int copy_process_user(void)
{
  struct task *p = current;
  int err = -ENOMEM;
  struct task *t = alloc_task(&err);
  if (!t)
    return err;
  t->mm = dup_mm(p->mm);
  t->files = dup_files(p->files);
  t->fs = dup_fs(p->fs);
  if (!t->mm || !t->files || !t->fs) {
    abort_new_task(t);
    return -ENOMEM;
  }
  set_task_comm(t, p->comm);
  arch_copy_thread(t, NULL, NULL);
  arch_fork_regs(task_pt_regs(t), task_pt_regs(p));
  spin_lock(&tasklist_lock);
  t->parent = p;
  int tid = t->tid;
  spin_unlock(&tasklist_lock);
  wake_up_new_task(t);
  return tid;
}

// A task that runs fn(arg) in the kernel, child of the caller (or of
// nobody at boot). Returns it, already runnable, or NULL.
struct task *create_kthread(void (*fn)(void *), void *arg, const char *name)
{
  int err;
  struct task *t = alloc_task(&err);
  if (!t)
    return NULL;
  t->flags = TF_KTHREAD;
  t->fs = dup_fs(NULL);
  t->files = files_alloc();
  if (!t->fs || !t->files) {
    abort_new_task(t);
    return NULL;
  }
  set_task_comm(t, name);
  arch_copy_thread(t, fn, arg);
  wake_up_new_task(t);
  return t;
}

// Give t's children to init. Caller holds tasklist_lock.
static void forget_original_parent(struct task *t)
{
  bool zombies = false;
  for (struct task *c = tasks; c < &tasks[NTASK]; c++)
    if (c->used && c->parent == t) {
      c->parent = init_task;
      zombies |= c->exit_state == EXIT_ZOMBIE;
    }
  if (zombies)
    wakeup(init_task);
}

// End the current task with a Linux wait status (exit code << 8, or the
// signal number). Frees what it can; the parent reaps the rest.
void __noreturn do_exit(int code)
{
  struct task *t = current;
  if (t == init_task)
    panic("init exited (status %x)", code);
  t->flags |= TF_EXITING;
  if (t->files) {
    put_files(t->files);
    t->files = NULL;
  }
  if (t->fs) {
    put_fs(t->fs);
    t->fs = NULL;
  }
  // The mm stays until the parent reaps us: we still run on its page table.
  spin_lock(&tasklist_lock);
  forget_original_parent(t);
  t->exit_code = code;
  t->exit_state = EXIT_ZOMBIE;
  if (t->parent)
    wakeup(t->parent);
  // Holding tasklist_lock into rq_lock keeps the parent from reaping us
  // before we are off the CPU (it checks on_cpu).
  spin_lock(&rq_lock);
  spin_unlock(&tasklist_lock);
  t->state = TASK_DEAD;
  schedule_dead();
}

void __noreturn kthread_exit(void)
{
  do_exit(0);
}

// Free a zombie's remains. Caller holds tasklist_lock; the zombie is
// marked EXIT_DEAD, so nobody else will touch it.
static void release_task(struct task *t)
{
  while (READ_ONCE(t->on_cpu))
    ;   // it is in its final switch on another CPU
  if (t->mm) {
    mmput(t->mm);
    t->mm = NULL;
  }
  t->used = false;
  t->tid = 0;
  t->parent = NULL;
  t->exit_state = 0;
}

// Does child c match waitpid's pid argument?
static bool wait_match(struct task *c, int pid)
{
  return pid == -1 || c->tid == pid;
}

// waitpid: reap a zombie child matching pid (-1: any), storing its status
// at ustatus if non-zero. Returns its tid, 0 (WNOHANG, none ready),
// -ECHILD, -EFAULT (child left unreaped) or -EINTR.
int do_wait(int pid, u64 ustatus, int options)
{
  struct task *me = current;
  spin_lock(&tasklist_lock);
  for (;;) {
    bool have = false;
    for (struct task *c = tasks; c < &tasks[NTASK]; c++) {
      if (!c->used || c->parent != me || !wait_match(c, pid))
        continue;
      have = true;
      if (c->exit_state != EXIT_ZOMBIE)
        continue;
      int tid = c->tid, status = c->exit_code;
      if (ustatus && (!user_page(me->mm->pgd, ustatus, true) ||
                      !user_page(me->mm->pgd, ustatus + sizeof(int) - 1, true))) {
        spin_unlock(&tasklist_lock);
        return -EFAULT;
      }
      c->exit_state = EXIT_DEAD;
      release_task(c);
      spin_unlock(&tasklist_lock);
      if (ustatus && copy_to_user((void *)ustatus, &status, sizeof(status)) < 0)
        return -EFAULT;
      return tid;
    }
    if (!have) {
      spin_unlock(&tasklist_lock);
      return -ECHILD;
    }
    if (options & 1) {   // WNOHANG
      spin_unlock(&tasklist_lock);
      return 0;
    }
    if (sleep_interruptible(me, &tasklist_lock) < 0) {
      spin_unlock(&tasklist_lock);
      return -EINTR;
    }
  }
}
