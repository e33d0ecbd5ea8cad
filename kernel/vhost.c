// vhost: a copy engine with one worker thread per device, in the spirit
// of Linux's vhost (drivers/vhost/), whose workers move a virtual
// machine's network and disk data in the kernel on behalf of the process
// that owns the device (QEMU). vhost_open(in, out, flags) returns a
// descriptor; behind it a worker named vhost-PID copies the file in to
// the file out, from offset 0, VHOST_CHUNK bytes at a time (over and
// over with VHOST_F_LOOP). read() of the descriptor returns the bytes
// copied; the last close stops the worker and waits for it.
//
// The baseline, on purpose (lab 07 starts from it): the worker is a
// kernel thread, as Linux's vhost workers were until 6.4. It belongs to
// no process: ps and top do not show it, a SIGSTOP of its owner does not
// stop the copy, a debugger attached to the owner cannot see it, and its
// I/O is not counted in the owner's /proc/PID/io. Only the last close
// (which the owner's exit does) ends it.
#include "task.h"
#include "fs.h"
#include "procfs.h"
#include "syscall.h"
#include "vhost.h"
#include "vhost_abi.h"

#define VHOST_CHUNK 1024

struct vhost_dev {
  struct spinlock lock;
  // guarded by lock:
  bool stop;              // the last close asks the worker to go
  bool done;              // the copy is over: the end of in, or err
  bool worker_alive;      // the worker has not yet left vhost_worker()
  long err;               // why the copy ended, if not at the end of in
  u64 copied;             // bytes written to out so far
  struct task *worker;    // valid while worker_alive
  // set before the worker starts, then the worker's alone:
  struct file *in, *out;  // references held until vhost_release()
  u64 off;
  int flags;
  char buf[VHOST_CHUNK];
};

// Copy one chunk at dev->off from in to out, both files on the disk.
// Returns the bytes copied, 0 at the end of in, or -errno. The worker's;
// no locks held.
static long vhost_copy_chunk(struct vhost_dev *dev)
{
  struct inode *in = dev->in->ip, *out = dev->out->ip;
  ilock(in);
  long n = readi(in, false, (u64)dev->buf, dev->off, VHOST_CHUNK);
  iunlock(in);
  if (n <= 0)
    return n;
  add_rchar(current, n);
  begin_op();
  ilock(out);
  long w = writei(out, false, (u64)dev->buf, dev->off, n);
  iunlock(out);
  end_op();
  if (w > 0)
    add_wchar(current, w);
  if (w != n)
    return w < 0 ? w : -EFBIG;
  dev->off += n;
  return n;
}

// Note the outcome r of a vhost_copy_chunk(). Caller holds dev->lock.
static void vhost_account(struct vhost_dev *dev, long r)
{
  if (r > 0) {
    dev->copied += r;
  } else if (r == 0 && (dev->flags & VHOST_F_LOOP) && dev->off > 0) {
    dev->off = 0;   // again from the start (an empty in ends the copy)
  } else {
    dev->err = r;
    dev->done = true;
    wakeup(&dev->done);
  }
}

// The worker is leaving: say so, so that vhost_release() stops waiting
// for it. Caller holds dev->lock; it is dropped. The worker must not
// touch dev afterwards: the release may free it at once.
static void vhost_worker_gone(struct vhost_dev *dev)
{
  dev->worker_alive = false;
  dev->done = true;
  wakeup(&dev->done);
  wakeup(&dev->worker_alive);
  spin_unlock(&dev->lock);
}

// The body of a vhost-PID worker: copy until the copy is over, then wait
// for the last close. The loop never looks at signals: a kernel thread
// gets none.
static void vhost_worker(void *arg)
{
  struct vhost_dev *dev = arg;
  spin_lock(&dev->lock);
  while (!dev->stop) {
    if (dev->done) {
      // vhost_release() sets stop and wakes us under dev->lock.
      schedule_timeout_locked(HZ, &dev->lock);
      continue;
    }
    spin_unlock(&dev->lock);
    long r = vhost_copy_chunk(dev);
    cond_resched();
    spin_lock(&dev->lock);
    vhost_account(dev, r);
  }
  vhost_worker_gone(dev);
  kthread_exit();
}

// Start dev's worker, named after the current process. Returns 0 or
// -EAGAIN. Caller holds no locks.
static int vhost_worker_create(struct vhost_dev *dev)
{
  char name[16];
  snprintf(name, sizeof(name), "vhost-%d", current->tgid);
  struct task *t = create_kthread(vhost_worker, dev, name);
  spin_lock(&dev->lock);
  dev->worker = t;
  dev->worker_alive = t != NULL;
  spin_unlock(&dev->lock);
  return t ? 0 : -EAGAIN;
}

// read() of a vhost descriptor: the bytes copied so far, as a u64 at
// udst. Without VHOST_F_LOOP it first waits for the copy to be over
// (interruptibly). Returns 8, -EINVAL if n < 8, -EINTR, -EFAULT, or the
// error that ended the copy.
long vhost_read(struct vhost_dev *dev, u64 udst, long n)
{
  if (n < (long)sizeof(u64))
    return -EINVAL;
  spin_lock(&dev->lock);
  while (!dev->done && !(dev->flags & VHOST_F_LOOP))
    if (sleep_interruptible(&dev->done, &dev->lock)) {
      spin_unlock(&dev->lock);
      return -EINTR;
    }
  u64 copied = dev->copied;
  long err = dev->err;
  spin_unlock(&dev->lock);
  if (err < 0)
    return err;
  if (copy_to_user((void *)udst, &copied, sizeof(copied)) < 0)
    return -EFAULT;
  return sizeof(copied);
}

// The last close of a vhost descriptor: stop the worker, wait
// (uninterruptibly) until it has left, and free the device. No locks
// held; may sleep.
void vhost_release(struct vhost_dev *dev)
{
  spin_lock(&dev->lock);
  dev->stop = true;
  while (dev->worker_alive) {
    wake_up_state(dev->worker, 1 << TASK_INTERRUPTIBLE);
    sleep(&dev->worker_alive, &dev->lock);
  }
  spin_unlock(&dev->lock);
  fileclose(dev->in);
  fileclose(dev->out);
  free_page(dev);
}

// May the engine copy through f (as its output if write)? 0, -EBADF (no
// file, or not open for that), or -EINVAL: it copies between files of the
// disk, not pipes, devices or /proc.
static int vhost_file_check(struct file *f, bool write)
{
  if (!f)
    return -EBADF;
  if (f->type != FD_INODE || f->ip->dev == PROCDEV)
    return -EINVAL;
  if (write ? !f->writable : !f->readable)
    return -EBADF;
  return 0;
}

// vhost_open(in_fd, out_fd, flags): a new device copying in_fd to out_fd.
// Returns its descriptor, or -EINVAL (unknown flags, a file that is not
// on the disk), -EBADF, -ENOMEM, -ENFILE, -EAGAIN or -EMFILE.
long sys_vhost_open(struct pt_regs *regs)
{
  int flags = ARG_INT(2);
  if (flags & ~VHOST_F_LOOP)
    return -EINVAL;
  struct file *in = fget(ARG_INT(0)), *out = fget(ARG_INT(1));
  long err = vhost_file_check(in, false);
  if (!err)
    err = vhost_file_check(out, true);
  struct vhost_dev *dev = err ? NULL : alloc_page();
  if (!err && !dev)
    err = -ENOMEM;
  _Static_assert(sizeof(struct vhost_dev) <= PAGE_SIZE, "a device fits a page");
  struct file *f = err ? NULL : filealloc();
  if (!err && !f)
    err = -ENFILE;
  if (err) {
    if (dev)
      free_page(dev);
    if (in)
      fileclose(in);
    if (out)
      fileclose(out);
    return err;
  }
  spin_lock_init(&dev->lock, "vhost_dev");
  dev->in = in;
  dev->out = out;
  dev->flags = flags;
  f->type = FD_VHOST;
  f->readable = true;
  f->vhost = dev;
  // From here on, fileclose(f) undoes everything (vhost_release()).
  if ((err = vhost_worker_create(dev)) == 0 && (err = fd_install(f)) >= 0)
    return err;
  fileclose(f);
  return err;
}
