// Open files: the system-wide table and read/write/seek on any kind.
#include "task.h"
#include "fs.h"
#include "procfs.h"
#include "fcntl.h"
#include "vhost.h"

struct devsw devsw[NDEV];

static struct {
  struct spinlock lock;
  struct file file[NFILE];
} ftable;

void file_init(void)
{
  spin_lock_init(&ftable.lock, "ftable");
}

// A free file with ref 1, or NULL when the table is full.
struct file *filealloc(void)
{
  spin_lock(&ftable.lock);
  for (struct file *f = ftable.file; f < &ftable.file[NFILE]; f++)
    if (f->ref == 0) {
      memset(f, 0, sizeof(*f));
      f->ref = 1;
      spin_unlock(&ftable.lock);
      return f;
    }
  spin_unlock(&ftable.lock);
  return NULL;
}

struct file *filedup(struct file *f)
{
  spin_lock(&ftable.lock);
  if (f->ref < 1)
    panic("filedup: free file");
  f->ref++;
  spin_unlock(&ftable.lock);
  return f;
}

// Drop a reference; the last one closes the pipe end or inode.
void fileclose(struct file *f)
{
  spin_lock(&ftable.lock);
  if (f->ref < 1)
    panic("fileclose: free file");
  if (--f->ref > 0) {
    spin_unlock(&ftable.lock);
    return;
  }
  struct file copy = *f;
  f->type = FD_NONE;
  spin_unlock(&ftable.lock);
  if (copy.type == FD_PIPE) {
    pipeclose(copy.pipe, copy.writable);
  } else if (copy.type == FD_IO_URING) {
    io_uring_release(copy.ring);
  } else if (copy.type == FD_VHOST) {
    vhost_release(copy.vhost);
  } else if (copy.type == FD_INODE || copy.type == FD_DEVICE) {
    if (copy.seq_buf)
      free_page(copy.seq_buf);
    begin_op();
    iput(copy.ip);
    end_op();
  }
}

// Store f's metadata at user address ustat.
int filestat(struct file *f, u64 ustat)
{
  struct stat st;
  memset(&st, 0, sizeof(st));   // a pipe or ring has no metadata
  if (f->type == FD_INODE || f->type == FD_DEVICE) {
    ilock(f->ip);
    stati(f->ip, &st);
    iunlock(f->ip);
  }
  return copy_to_user((void *)ustat, &st, sizeof(st));
}

// Read up to n bytes into user memory. Returns the count or -errno.
long fileread(struct file *f, u64 udst, long n)
{
  if (!f->readable)
    return -EBADF;
  switch (f->type) {
  case FD_PIPE:
    return piperead(f->pipe, udst, n);
  case FD_DEVICE:
    if (f->major < 0 || f->major >= NDEV || !devsw[f->major].read)
      return -ENODEV;
    return devsw[f->major].read(f, udst, n);
  case FD_INODE: {
    ilock(f->ip);
    long r;
    if (f->ip->dev == PROCDEV) {
      r = procfs_read(f, udst, n);   // keeps its own cursor in f->off
    } else if ((r = readi(f->ip, true, udst, f->off, n)) > 0) {
      f->off += r;
    }
    iunlock(f->ip);
    return r;
  }
  case FD_VHOST:
    return vhost_read(f->vhost, udst, n);
  default:
    return -EINVAL;   // an io_uring fd
  }
}

// Write n bytes from user memory at *off (at the end of the file if
// append), in pieces small enough for one log operation each, advancing
// *off. Returns the count written or -errno.
static long inode_write(struct file *f, u64 usrc, long n, u64 *off, bool append)
{
  // inode, indirect and double-indirect blocks, bitmap blocks, slack
  const long max = ((MAXOPBLOCKS - 1 - 3 - 2) / 2) * BSIZE;
  long done = 0;
  while (done < n) {
    long m = n - done < max ? n - done : max;
    begin_op();
    ilock(f->ip);
    if (append)
      *off = f->ip->size;
    long r = writei(f->ip, true, usrc + done, *off, m);
    if (r > 0)
      *off += r;
    iunlock(f->ip);
    end_op();
    if (r < 0)
      return done ? done : r;
    done += r;
    if (r != m)
      break;
  }
  return done;
}

long filewrite(struct file *f, u64 usrc, long n)
{
  if (!f->writable)
    return -EBADF;
  switch (f->type) {
  case FD_PIPE:
    return pipewrite(f->pipe, usrc, n);
  case FD_DEVICE:
    if (f->major < 0 || f->major >= NDEV || !devsw[f->major].write)
      return -ENODEV;
    return devsw[f->major].write(f, usrc, n);
  case FD_INODE:
    if (f->ip->dev == PROCDEV)
      return procfs_write(f, usrc, n);
    return inode_write(f, usrc, n, &f->off, f->append);
  default:
    return -EINVAL;
  }
}

// Move f's offset. Returns the new offset, -ESPIPE or -EINVAL.
long filelseek(struct file *f, long off, int whence)
{
  if (f->type != FD_INODE)
    return -ESPIPE;
  ilock(f->ip);
  long base;
  switch (whence) {
  case SEEK_SET: base = 0; break;
  case SEEK_CUR: base = f->off; break;
  case SEEK_END: base = f->ip->size; break;
  default: base = -1; break;
  }
  long r = -EINVAL;
  // base lies in [0, MAXFILE*BSIZE], so these bounds on off cannot
  // overflow, where base + off could for a huge off.
  if (base >= 0 && off >= -base && off <= (long)MAXFILE * BSIZE - base) {
    f->off = base + off;
    r = f->off;
  }
  iunlock(f->ip);
  return r;
}

// pread/pwrite: like fileread/filewrite but at offset off, leaving the
// file position alone. Only inodes have offsets; other files ignore off.
long file_pread(struct file *f, u64 udst, long n, u64 off)
{
  if (f->type != FD_INODE || f->ip->dev == PROCDEV)
    return fileread(f, udst, n);
  if (!f->readable)
    return -EBADF;
  ilock(f->ip);
  long r = readi(f->ip, true, udst, off, n);
  iunlock(f->ip);
  return r;
}

long file_pwrite(struct file *f, u64 usrc, long n, u64 off)
{
  if (f->type != FD_INODE)
    return filewrite(f, usrc, n);
  if (!f->writable)
    return -EBADF;
  return inode_write(f, usrc, n, &off, false);
}

// file_pread() for a caller that must not wait (IOCB_NOWAIT), on a file
// of the disk: -EAGAIN unless the inode is unlocked and the blocks are
// cached.
long file_pread_nowait(struct file *f, u64 udst, long n, u64 off)
{
  if (f->type != FD_INODE || f->ip->dev == PROCDEV)
    panic("file_pread_nowait: not a file on disk");
  if (!f->readable)
    return -EBADF;
  struct inode *ip = f->ip;
  if (!sleep_trylock(&ip->lock))
    return -EAGAIN;
  long r = -EAGAIN;
  if (ip->valid && readi_cached(ip, off, n))
    r = readi(ip, true, udst, off, n);
  iunlock(ip);
  return r;
}
