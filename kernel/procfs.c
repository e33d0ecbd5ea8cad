// procfs: /proc, generated from the task table on every read.
//
//   /proc/meminfo                 MemTotal, MemFree
//   /proc/diskstats               the disk's requests (diskstats.c)
//   /proc/interrupts              interrupts per CPU and source (interrupts.c)
//   /proc/self                    the reader's own /proc/<pid>
//   /proc/<pid>/{status,stat,io}  the process (thread group)
//   /proc/<pid>/task/<tid>/{status,stat,io}   one thread
//
// A procfs inode lives in the ordinary inode table with dev PROCDEV; its
// inum says what it is: (id << 4) | kind, id a pid or tid. Directories
// read as struct dirent records like on-disk ones, so ls works. A
// directory's file offset is not a byte count but a cursor: the position
// of the last fixed entry, then (PROC_FIRST_ID + id) of the last task
// listed, so tasks that come and go while a listing is read are neither
// repeated nor skipped (as fs/proc/base.c keeps the tid in f_pos).
#include "task.h"
#include "fs.h"
#include "procfs.h"
#include "buf.h"

enum proc_kind {
  PROC_ROOT, PROC_MEMINFO, PROC_PID_DIR, PROC_PID_STATUS, PROC_PID_STAT,
  PROC_TASK_DIR, PROC_TID_DIR, PROC_TID_STATUS, PROC_TID_STAT,
  PROC_SYS, PROC_SYS_KERNEL, PROC_SYSCTL, PROC_PID_IO, PROC_TID_IO, PROC_DISKSTATS,
  PROC_INTERRUPTS,
  PROC_NR_KINDS
};

#define PROC_INUM(kind, id) (((u32)(id) << 4) | (kind))
#define PROC_KIND(inum) ((inum) & 0xf)
#define PROC_ID(inum) ((inum) >> 4)
#define PROC_FIRST_ID 16          // directory cursor: ids start here
_Static_assert(PROC_NR_KINDS <= 16, "a procfs kind must fit PROC_KIND's 4 bits");

static u32 proc_mount_inum;       // the disk directory /proc covers

// The knobs of /proc/sys/kernel, in listing order; a PROC_SYSCTL inode's
// id is its index. A knob holds a decimal number from 0 to max.
static int io_thread_race_write(int v) { io_thread_race_set(v); return 0; }
static const struct sysctl {
  const char *name;
  int (*get)(void);
  int (*set)(int v);        // 0 or -errno
  int max;
} sysctls[] = {
  { "hung_task_timeout_secs", hung_task_timeout_get, hung_task_timeout_set, 3600 },
  { "io_thread_race_ticks", io_thread_race_get, io_thread_race_write, 60 * HZ },
  { "page_poison", page_poison_get, page_poison_set, 1 },
};

// ---- mounting

// At boot (in an fs operation): make sure the directory /proc covers
// exists on disk, and note which inode it is.
void procfs_init(void)
{
  struct inode *ip;
  if (namei("/proc", &ip) < 0) {
    if (kern_mkdir("/proc") < 0 || namei("/proc", &ip) < 0)
      panic("procfs: cannot make /proc");
  }
  proc_mount_inum = ip->inum;
  iput(ip);
}

// Is ip the disk directory /proc is mounted on?
bool procfs_is_mountpoint(struct inode *ip)
{
  return ip->dev == ROOTDEV && ip->inum == proc_mount_inum;
}

// If ip is the directory /proc is mounted on, trade it for procfs's root.
struct inode *procfs_cross_mount(struct inode *ip)
{
  if (!procfs_is_mountpoint(ip))
    return ip;
  iput(ip);
  return iget(PROCDEV, PROC_INUM(PROC_ROOT, 0));
}

// ---- finding tasks

// The live thread group leader with tgid pid, or NULL. tasklist_lock held.
static struct task *find_process(int pid)
{
  struct task *t = find_task_by_tid(pid);
  return t && thread_group_leader(t) && !(t->flags & TF_KTHREAD) ? t : NULL;
}

// The thread of leader's group with the smallest tid above `after`, or
// NULL: the order /proc/<pid>/task lists threads in. tasklist_lock held.
struct task *first_tid(struct task *leader, int after)
{
  struct task *best = NULL, *t;
  for_each_thread(leader->signal, t)
    if (t->tid > after && (!best || t->tid < best->tid))
      best = t;
  return best;
}

// The thread listed after t. tasklist_lock held.
struct task *next_tid(struct task *t)
{
  return first_tid(t->group_leader, t->tid);
}

// The process listed after tgid `after` in /proc. tasklist_lock held.
static struct task *next_process(int after)
{
  struct task *best = NULL;
  for (struct task *t = tasks; t < &tasks[NTASK]; t++)
    if (t->attached && t->exit_state != EXIT_DEAD && thread_group_leader(t) &&
        !(t->flags & TF_KTHREAD) && t->tid > after && (!best || t->tid < best->tid))
      best = t;
  return best;
}

// Does the object of a procfs inode exist now? tasklist_lock held.
static bool proc_exists(u32 inum)
{
  int id = PROC_ID(inum);
  switch (PROC_KIND(inum)) {
  case PROC_ROOT:
  case PROC_MEMINFO:
  case PROC_DISKSTATS:
  case PROC_INTERRUPTS:
  case PROC_SYS:
  case PROC_SYS_KERNEL:
    return true;
  case PROC_SYSCTL:
    return id < (int)ARRAY_SIZE(sysctls);
  case PROC_TID_DIR:
  case PROC_TID_STATUS:
  case PROC_TID_STAT:
  case PROC_TID_IO:
    return find_task_by_tid(id) != NULL;
  default:
    return find_process(id) != NULL;
  }
}

// ---- inodes

static bool proc_is_dir(u32 inum)
{
  int k = PROC_KIND(inum);
  return k == PROC_ROOT || k == PROC_PID_DIR || k == PROC_TASK_DIR || k == PROC_TID_DIR ||
         k == PROC_SYS || k == PROC_SYS_KERNEL;
}

// ilock() for a procfs inode: nothing on disk, everything derived.
void procfs_fill_inode(struct inode *ip)
{
  ip->type = proc_is_dir(ip->inum) ? T_DIR : T_FILE;
  ip->major = ip->minor = 0;
  ip->nlink = 1;
  ip->size = 0;
}

struct proc_name { const char *name; int kind; };

static const struct proc_name pid_dir_files[] = {
  { "status", PROC_PID_STATUS }, { "stat", PROC_PID_STAT }, { "io", PROC_PID_IO },
  { "task", PROC_TASK_DIR },
};
static const struct proc_name tid_dir_files[] = {
  { "status", PROC_TID_STATUS }, { "stat", PROC_TID_STAT }, { "io", PROC_TID_IO },
};

static int parse_id(const char *name)
{
  int n = 0, i = 0;
  for (; i < DIRSIZ && name[i]; i++) {
    if (name[i] < '0' || name[i] > '9' || n > 10000000)
      return -1;
    n = n * 10 + name[i] - '0';
  }
  return i ? n : -1;
}

// The inum for name inside procfs directory inum, or 0. tasklist_lock held.
static u32 proc_lookup_inum(u32 dinum, const char *name)
{
  int id = PROC_ID(dinum), n;
  struct task *t, *leader;
  switch (PROC_KIND(dinum)) {
  case PROC_ROOT:
    if (namecmp(name, "diskstats") == 0)
      return PROC_INUM(PROC_DISKSTATS, 0);
    if (namecmp(name, "interrupts") == 0)
      return PROC_INUM(PROC_INTERRUPTS, 0);
    if (namecmp(name, "meminfo") == 0)
      return PROC_INUM(PROC_MEMINFO, 0);
    if (namecmp(name, "sys") == 0)
      return PROC_INUM(PROC_SYS, 0);
    if (namecmp(name, "self") == 0)
      return PROC_INUM(PROC_PID_DIR, current->tgid);
    n = parse_id(name);
    return n > 0 && find_process(n) ? PROC_INUM(PROC_PID_DIR, n) : 0;
  case PROC_PID_DIR:
    for (u32 i = 0; i < ARRAY_SIZE(pid_dir_files); i++)
      if (namecmp(name, pid_dir_files[i].name) == 0)
        return PROC_INUM(pid_dir_files[i].kind, id);
    return 0;
  case PROC_TASK_DIR:
    n = parse_id(name);
    t = n > 0 ? find_task_by_tid(n) : NULL;
    leader = find_process(id);
    return t && leader && same_thread_group(t, leader) ? PROC_INUM(PROC_TID_DIR, n) : 0;
  case PROC_SYS:
    return namecmp(name, "kernel") == 0 ? PROC_INUM(PROC_SYS_KERNEL, 0) : 0;
  case PROC_SYS_KERNEL:
    for (u32 i = 0; i < ARRAY_SIZE(sysctls); i++)
      if (namecmp(name, sysctls[i].name) == 0)
        return PROC_INUM(PROC_SYSCTL, i);
    return 0;
  case PROC_TID_DIR:
    for (u32 i = 0; i < ARRAY_SIZE(tid_dir_files); i++)
      if (namecmp(name, tid_dir_files[i].name) == 0)
        return PROC_INUM(tid_dir_files[i].kind, id);
    return 0;
  }
  return 0;
}

// The parent directory's inum of procfs directory inum (0: the disk's /).
static u32 proc_parent(u32 inum, int tgid)
{
  switch (PROC_KIND(inum)) {
  case PROC_PID_DIR: return PROC_INUM(PROC_ROOT, 0);
  case PROC_SYS: return PROC_INUM(PROC_ROOT, 0);
  case PROC_SYS_KERNEL: return PROC_INUM(PROC_SYS, 0);
  case PROC_TASK_DIR: return PROC_INUM(PROC_PID_DIR, PROC_ID(inum));
  case PROC_TID_DIR: return PROC_INUM(PROC_TASK_DIR, tgid);
  default: return 0;
  }
}

// dirlookup() in a procfs directory (locked): 0 with the entry's inode,
// referenced, in *ipp; -ENOENT; or -ENFILE (the inode table is full).
int procfs_lookup(struct inode *dp, const char *name, struct inode **ipp)
{
  if (namecmp(name, ".") == 0) {
    *ipp = idup(dp);
    return 0;
  }
  spin_lock(&tasklist_lock);
  u32 inum;
  if (namecmp(name, "..") == 0) {
    struct task *t = find_task_by_tid(PROC_ID(dp->inum));
    inum = proc_parent(dp->inum, t ? t->tgid : 0);
    spin_unlock(&tasklist_lock);
    *ipp = inum ? iget(PROCDEV, inum) : iget(ROOTDEV, ROOTINO);
  } else {
    inum = proc_exists(dp->inum) ? proc_lookup_inum(dp->inum, name) : 0;
    spin_unlock(&tasklist_lock);
    if (!inum)
      return -ENOENT;
    *ipp = iget(PROCDEV, inum);
  }
  return *ipp ? 0 : -ENFILE;
}

// ---- file contents

struct pbuf { char *s; int len; };

#define PRINT(b, ...) \
  ((b)->len += snprintf((b)->s + (b)->len, PAGE_SIZE - (b)->len, __VA_ARGS__), \
   (b)->len = (b)->len < PAGE_SIZE ? (b)->len : PAGE_SIZE - 1)

// Linux's state letter and word for task t.
static const char *task_state_name(struct task *t)
{
  if (t->exit_state == EXIT_ZOMBIE)
    return "Z (zombie)";
  switch (READ_ONCE(t->state)) {
  case TASK_RUNNING:         return "R (running)";
  case TASK_INTERRUPTIBLE:   return "S (sleeping)";
  case TASK_UNINTERRUPTIBLE: return "D (disk sleep)";
  case TASK_STOPPED:         return "T (stopped)";
  case TASK_TRACED:          return "t (tracing stop)";
  default:                   return "X (dead)";
  }
}

// Signals ignored and caught by t's handlers, as two masks.
static void handler_masks(struct task *t, sigset_t *ign, sigset_t *cgt)
{
  *ign = *cgt = 0;
  for (int s = 1; s <= NSIG; s++) {
    u64 h = t->sighand->action[s - 1].handler;
    if (h == SIG_IGN)
      *ign |= sigmask(s);
    else if (h != SIG_DFL)
      *cgt |= sigmask(s);
  }
}

static int count_threads(struct task *t)
{
  int n = 0;
  struct task *o;
  for_each_thread(t->signal, o)
    n++;
  return n;
}

// /proc/.../status for t. tasklist_lock held.
static void show_status(struct pbuf *b, struct task *t)
{
  sigset_t ign, cgt;
  spin_lock(&t->sighand->siglock);
  handler_masks(t, &ign, &cgt);
  sigset_t pnd = t->pending, shd = t->signal->shared_pending, blk = t->blocked;
  spin_unlock(&t->sighand->siglock);
  struct task *tracer = t->tracer;
  PRINT(b, "Name:\t%s\nState:\t%s\nTgid:\t%d\nPid:\t%d\nPPid:\t%d\nTracerPid:\t%d\n",
        t->comm, task_state_name(t), t->tgid, t->tid,
        t->group_leader->parent ? t->group_leader->parent->tgid : 0,
        tracer ? tracer->tgid : 0);
  PRINT(b, "Threads:\t%d\n", count_threads(t));
  PRINT(b, "SigPnd:\t%016lx\nShdPnd:\t%016lx\nSigBlk:\t%016lx\nSigIgn:\t%016lx\nSigCgt:\t%016lx\n",
        pnd, shd, blk, ign, cgt);
  PRINT(b, "Flags:\t%08x%s%s%s\n", t->flags,
        t->flags & TF_KTHREAD ? " kthread" : "",
        t->flags & TF_EXITING ? " exiting" : "",
        t->flags & TF_IO_WORKER ? " io_worker" : "");
}

// /proc/.../stat: Linux's field order through num_threads.
static void show_stat(struct pbuf *b, struct task *t, bool whole)
{
  u64 ut = t->utime, st = t->stime;
  if (whole)
    thread_group_cputime(t, &ut, &st);
  const char *state = task_state_name(t);
  int ppid = t->group_leader->parent ? t->group_leader->parent->tgid : 0;
  int fg = console_pgrp();
  // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt
  // majflt cmajflt utime stime cutime cstime priority nice num_threads
  PRINT(b, "%d (%s) %c %d %d %d %d %d %u 0 0 0 0 %lu %lu 0 0 20 0 %d 0 0\n",
        whole ? t->tgid : t->tid, t->comm, state[0], ppid, t->signal->pgrp,
        t->signal->session, 0x500, fg ? fg : -1, t->flags, ut, st, count_threads(t));
}

// The I/O counts of t's whole thread group into *acct: the threads that
// have exited (the signal_struct's sums) plus every live thread, I/O
// threads included whether or not /proc/<pid>/task lists them (Linux's
// do_io_accounting() with whole = 1). Takes the siglock, under which
// exit_notify() moves an exiting thread's counts into the sums as it sets
// its exit_state, so no thread is missed or counted twice. tasklist_lock
// held.
static void thread_group_ioac(struct task *t, struct task_io_accounting *acct)
{
  struct task *o;
  spin_lock(&t->sighand->siglock);
  *acct = t->signal->ioac;
  for_each_thread(t->signal, o)
    if (!o->exit_state)   // exited threads are in the sums already
      task_io_accounting_add(acct, &o->ioac);
  spin_unlock(&t->sighand->siglock);
}

// /proc/.../io: Linux's first four lines, for t alone or (whole) for its
// thread group. tasklist_lock held.
static void show_io(struct pbuf *b, struct task *t, bool whole)
{
  struct task_io_accounting acct = t->ioac;
  if (whole)
    thread_group_ioac(t, &acct);
  PRINT(b, "rchar: %lu\nwchar: %lu\nsyscr: %lu\nsyscw: %lu\n",
        acct.rchar, acct.wchar, acct.syscr, acct.syscw);
}

// Generate the text of file inum into b. -ESRCH if its task is gone.
// tasklist_lock held.
static int proc_show(u32 inum, struct pbuf *b)
{
  int id = PROC_ID(inum);
  struct task *t;
  switch (PROC_KIND(inum)) {
  case PROC_SYSCTL:
    PRINT(b, "%d\n", sysctls[id].get());
    return 0;
  case PROC_DISKSTATS:
    b->len = diskstats_show(b->s, PAGE_SIZE);   // one short line: it fits
    return 0;
  case PROC_INTERRUPTS:
    b->len = interrupts_show(b->s, PAGE_SIZE);
    return 0;
  case PROC_MEMINFO:
    PRINT(b, "MemTotal:\t%lu kB\nMemFree:\t%lu kB\n",
          (arch_phys_ram_end() - PHYS_RAM_BASE) / 1024, nr_free_pages() * (PAGE_SIZE / 1024));
    return 0;
  case PROC_PID_STATUS:
  case PROC_PID_STAT:
  case PROC_PID_IO:
    if (!(t = find_process(id)))
      return -ESRCH;
    if (PROC_KIND(inum) == PROC_PID_STATUS)
      show_status(b, t);
    else if (PROC_KIND(inum) == PROC_PID_IO)
      show_io(b, t, true);
    else
      show_stat(b, t, true);
    return 0;
  case PROC_TID_STATUS:
  case PROC_TID_STAT:
  case PROC_TID_IO:
    if (!(t = find_task_by_tid(id)))
      return -ESRCH;
    if (PROC_KIND(inum) == PROC_TID_STATUS)
      show_status(b, t);
    else if (PROC_KIND(inum) == PROC_TID_IO)
      show_io(b, t, false);
    else
      show_stat(b, t, false);
    return 0;
  }
  return -EISDIR;
}

// ---- directory listings

// Fill one dirent for name/inum.
static void mkdirent(struct dirent *de, const char *name, u32 inum)
{
  memset(de, 0, sizeof(*de));
  de->inum = (inum & 0xffff) ? (inum & 0xffff) : 1;   // display only; never 0
  strncpy(de->name, name, DIRSIZ);
}

// The fixed entries of directory inum, in order (NULL-terminated).
static const char *const *fixed_entries(u32 inum)
{
  static const char *const root[] = { ".", "..", "diskstats", "interrupts", "meminfo", "self", "sys", NULL };
  static const char *const sys[] = { ".", "..", "kernel", NULL };
  static const char *const sys_kernel[] = { ".", "..", "hung_task_timeout_secs",
                                            "io_thread_race_ticks", "page_poison", NULL };
  _Static_assert(ARRAY_SIZE(sys_kernel) == ARRAY_SIZE(sysctls) + 3, "list every knob");
  static const char *const pid_dir[] = { ".", "..", "status", "stat", "io", "task", NULL };
  static const char *const tid_dir[] = { ".", "..", "status", "stat", "io", NULL };
  static const char *const dots[] = { ".", "..", NULL };
  switch (PROC_KIND(inum)) {
  case PROC_ROOT: return root;
  case PROC_PID_DIR: return pid_dir;
  case PROC_TID_DIR: return tid_dir;
  case PROC_SYS: return sys;
  case PROC_SYS_KERNEL: return sys_kernel;
  default: return dots;
  }
}

// The entry at cursor *pos in directory inum: fills de, advances *pos.
// Returns 1, or 0 at the end. tasklist_lock held.
static int proc_next_dirent(u32 inum, u64 *pos, struct dirent *de)
{
  const char *const *fixed = fixed_entries(inum);
  u64 nfixed = 0;
  while (fixed[nfixed])
    nfixed++;
  if (*pos < nfixed) {
    mkdirent(de, fixed[*pos], inum + *pos);
    (*pos)++;
    return 1;
  }
  int after = *pos < PROC_FIRST_ID ? 0 : *pos - PROC_FIRST_ID;
  struct task *t = NULL;
  if (PROC_KIND(inum) == PROC_ROOT) {
    t = next_process(after);
  } else if (PROC_KIND(inum) == PROC_TASK_DIR) {
    struct task *leader = find_process(PROC_ID(inum));
    t = leader ? first_tid(leader, after) : NULL;
  }
  if (!t)
    return 0;
  char name[12];
  snprintf(name, sizeof(name), "%d", t->tid);
  mkdirent(de, name, t->tid);
  *pos = PROC_FIRST_ID + t->tid;
  return 1;
}

// read() on an open procfs file or directory (f->ip locked). Returns
// bytes read, 0 at the end, -ESRCH if the task is gone, -EFAULT.
long procfs_read(struct file *f, u64 udst, long n)
{
  u32 inum = f->ip->inum;
  long done = 0;
  if (proc_is_dir(inum)) {
    struct dirent de;
    while (n - done >= (long)sizeof(de)) {
      spin_lock(&tasklist_lock);
      u64 pos = f->off;
      int more = proc_exists(inum) && proc_next_dirent(inum, &pos, &de);
      spin_unlock(&tasklist_lock);
      if (!more)
        break;
      if (copy_to_user((void *)(udst + done), &de, sizeof(de)) < 0)
        return done ? done : -EFAULT;
      f->off = pos;
      done += sizeof(de);
    }
    return done;
  }
  // Like seq_file: a read from offset 0 takes a snapshot, kept with the
  // open file, and later reads go on in it, so that a reader taking a
  // file in pieces never gets the pieces of two different states.
  if (f->off == 0 || !f->seq_buf) {
    struct pbuf b = { f->seq_buf ? f->seq_buf : alloc_page(), 0 };
    if (!b.s)
      return -ENOMEM;
    f->seq_buf = b.s;
    spin_lock(&tasklist_lock);
    int err = proc_show(inum, &b);
    spin_unlock(&tasklist_lock);
    f->seq_len = err < 0 ? 0 : b.len;
    if (err < 0)
      return err;
  }
  if (f->off < (u64)f->seq_len) {
    done = f->seq_len - f->off < (u64)n ? f->seq_len - f->off : (u64)n;
    if (copy_to_user((void *)udst, f->seq_buf + f->off, done) < 0)
      return -EFAULT;
    f->off += done;
  }
  return done;
}

// May procfs inode ip be opened for writing? Only the knobs in /proc/sys.
bool procfs_writable(struct inode *ip)
{
  return PROC_KIND(ip->inum) == PROC_SYSCTL;
}

// write() to a /proc/sys knob: a decimal number from 0 to the knob's max,
// maybe with a newline. Returns n, -EINVAL, -EFAULT or the knob's error.
long procfs_write(struct file *f, u64 usrc, long n)
{
  char buf[16];
  if (!procfs_writable(f->ip) || n <= 0 || n >= (long)sizeof(buf))
    return -EINVAL;
  if (copy_from_user(buf, (void *)usrc, n) < 0)
    return -EFAULT;
  const struct sysctl *k = &sysctls[PROC_ID(f->ip->inum)];
  int v = 0, i = 0;
  for (; i < n && buf[i] >= '0' && buf[i] <= '9' && v <= k->max; i++)
    v = v * 10 + buf[i] - '0';   // stops past max, long before int overflows
  if (i == 0 || (i < n && buf[i] != '\n') || v > k->max)
    return -EINVAL;
  int err = k->set(v);
  return err < 0 ? err : n;
}
