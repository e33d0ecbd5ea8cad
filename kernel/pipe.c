// Pipes: a page-sized ring buffer between a read end and a write end.
#include "task.h"
#include "fs.h"

#define PIPESIZE (PAGE_SIZE - 64)

struct pipe {
  struct spinlock lock;   // guards everything
  u64 nread, nwrite;      // bytes ever read / written
  bool readopen, writeopen;
  u8 data[PIPESIZE];
};
_Static_assert(sizeof(struct pipe) <= PAGE_SIZE, "pipe fits a page");

// Make a pipe and its two open files. Returns 0 or -ENFILE/-ENOMEM.
int pipealloc(struct file **r, struct file **w)
{
  struct pipe *p = alloc_page();
  *r = filealloc();
  *w = *r ? filealloc() : NULL;
  if (!p || !*w) {
    if (p)
      free_page(p);
    if (*r)
      fileclose(*r);
    return p ? -ENFILE : -ENOMEM;
  }
  spin_lock_init(&p->lock, "pipe");
  p->readopen = p->writeopen = true;
  (*r)->type = (*w)->type = FD_PIPE;
  (*r)->readable = true;
  (*w)->writable = true;
  (*r)->pipe = (*w)->pipe = p;
  return 0;
}

// Close one end; the second close frees the pipe.
void pipeclose(struct pipe *p, bool writable)
{
  spin_lock(&p->lock);
  if (writable) {
    p->writeopen = false;
    wakeup(&p->nread);
  } else {
    p->readopen = false;
    wakeup(&p->nwrite);
  }
  bool last = !p->readopen && !p->writeopen;
  spin_unlock(&p->lock);
  if (last)
    free_page(p);
}

// Write all n bytes, sleeping while full. Returns n, or the count written
// before the reader left (-EPIPE and SIGPIPE if none), a signal came (-ERESTARTSYS if
// none), or a bad address (-EFAULT if none).
long pipewrite(struct pipe *p, u64 usrc, long n)
{
  long i = 0, err = 0;
  spin_lock(&p->lock);
  while (i < n) {
    if (!p->readopen) {
      if (i == 0)
        send_signal(current, SIGPIPE, false);
      err = -EPIPE;
      break;
    }
    if (p->nwrite == p->nread + PIPESIZE) {
      wakeup(&p->nread);
      if ((err = sleep_interruptible(&p->nwrite, &p->lock)) < 0)
        break;
      continue;
    }
    // Copy as much as fits contiguously; copy_from_user does not sleep.
    u64 at = p->nwrite % PIPESIZE;
    long room = PIPESIZE - (p->nwrite - p->nread);
    long m = n - i;
    if (m > room) m = room;
    if (m > (long)(PIPESIZE - at)) m = PIPESIZE - at;
    if (copy_from_user(&p->data[at], (void *)(usrc + i), m) < 0) {
      err = -EFAULT;
      break;
    }
    p->nwrite += m;
    i += m;
  }
  wakeup(&p->nread);
  spin_unlock(&p->lock);
  return i ? i : err;
}

// Read up to n bytes, sleeping while empty and a writer remains.
// Returns the count, 0 at end of file, -ERESTARTSYS or -EFAULT.
long piperead(struct pipe *p, u64 udst, long n)
{
  spin_lock(&p->lock);
  while (p->nread == p->nwrite && p->writeopen) {
    if (sleep_interruptible(&p->nread, &p->lock) < 0) {
      spin_unlock(&p->lock);
      return -ERESTARTSYS;
    }
  }
  long i = 0;
  while (i < n && p->nread != p->nwrite) {
    u64 at = p->nread % PIPESIZE;
    long m = n - i;
    if (m > (long)(p->nwrite - p->nread)) m = p->nwrite - p->nread;
    if (m > (long)(PIPESIZE - at)) m = PIPESIZE - at;
    if (copy_to_user((void *)(udst + i), &p->data[at], m) < 0) {
      if (i == 0)
        i = -EFAULT;
      break;
    }
    p->nread += m;
    i += m;
  }
  wakeup(&p->nwrite);
  spin_unlock(&p->lock);
  return i;
}

// Would a read block now (no data, a writer still there)? For io_uring's
// non-blocking first try.
bool pipe_read_would_block(struct pipe *p)
{
  spin_lock(&p->lock);
  bool r = p->nread == p->nwrite && p->writeopen;
  spin_unlock(&p->lock);
  return r;
}

// Would writing n bytes block now?
bool pipe_write_would_block(struct pipe *p, long n)
{
  spin_lock(&p->lock);
  bool r = p->readopen && (long)(PIPESIZE - (p->nwrite - p->nread)) < n;
  spin_unlock(&p->lock);
  return r;
}
