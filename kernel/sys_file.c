// System calls on files, directories and pipes.
#include "task.h"
#include "fs.h"
#include "procfs.h"
#include "fcntl.h"
#include "syscall.h"

// The open file at descriptor fd of the current process, with a
// reference the caller drops with fileclose() (Linux's fget()/fput()), or
// NULL. The reference is what keeps the file, and its pipe, inode or
// ring, alive while a system call uses it: another thread of the process
// may close fd meanwhile. Takes files->lock.
struct file *fget(long fd)
{
  struct files_struct *files = current->files;
  struct file *f = NULL;
  if (fd < 0 || fd >= NOFILE)
    return NULL;
  spin_lock(&files->lock);
  if (files->fd[fd])
    f = filedup(files->fd[fd]);
  spin_unlock(&files->lock);
  return f;
}

// Install f at the lowest free descriptor. Returns it or -EMFILE.
int fd_install(struct file *f)
{
  struct files_struct *files = current->files;
  spin_lock(&files->lock);
  for (int fd = 0; fd < NOFILE; fd++)
    if (!files->fd[fd]) {
      files->fd[fd] = f;
      spin_unlock(&files->lock);
      return fd;
    }
  spin_unlock(&files->lock);
  return -EMFILE;
}

// Take back descriptor fd if it still holds f (another thread of the
// process may have closed it, or closed it and opened another file there,
// since it was installed). Returns whether it did: then the caller owns
// the descriptor's reference to f.
static bool fd_uninstall(int fd, struct file *f)
{
  struct files_struct *files = current->files;
  spin_lock(&files->lock);
  bool mine = files->fd[fd] == f;
  if (mine)
    files->fd[fd] = NULL;
  spin_unlock(&files->lock);
  return mine;
}

// Copy a user path into buf (MAXPATH bytes). Returns 0 or -errno.
static int get_path(char *buf, long upath)
{
  long n = strncpy_from_user(buf, (void *)upath, MAXPATH);
  return n < 0 ? n : 0;
}

// read(fd, buf, n): bytes read, 0 at the end, or -errno. A call that
// reaches the file counts in the caller's syscr, and its bytes in rchar,
// as Linux's vfs_read() counts them (/proc/<pid>/io). No lock held.
long sys_read(struct pt_regs *regs)
{
  long n = ARG_INT(2);
  struct file *f = fget(ARG(0));
  if (!f)
    return -EBADF;
  long r = n < 0 ? -EINVAL : fileread(f, ARG(1), n);
  if (n >= 0) {
    if (r > 0)
      add_rchar(current, r);
    inc_syscr(current);
  }
  fileclose(f);
  return r;
}

// write(fd, buf, n): bytes written or -errno; counted in the caller's
// syscw and wchar as sys_read() counts reads. No lock held.
long sys_write(struct pt_regs *regs)
{
  long n = ARG_INT(2);
  struct file *f = fget(ARG(0));
  if (!f)
    return -EBADF;
  long r = n < 0 ? -EINVAL : filewrite(f, ARG(1), n);
  if (n >= 0) {
    if (r > 0)
      add_wchar(current, r);
    inc_syscw(current);
  }
  fileclose(f);
  return r;
}

long sys_close(struct pt_regs *regs)
{
  long fd = ARG_INT(0);
  struct files_struct *files = current->files;
  if (fd < 0 || fd >= NOFILE)
    return -EBADF;
  spin_lock(&files->lock);
  struct file *f = files->fd[fd];
  files->fd[fd] = NULL;
  spin_unlock(&files->lock);
  if (!f)
    return -EBADF;
  fileclose(f);
  return 0;
}

long sys_dup(struct pt_regs *regs)
{
  struct file *f = fget(ARG(0));   // its reference goes to the new fd
  if (!f)
    return -EBADF;
  int fd = fd_install(f);
  if (fd < 0)
    fileclose(f);
  return fd;
}

long sys_fstat(struct pt_regs *regs)
{
  struct file *f = fget(ARG(0));
  if (!f)
    return -EBADF;
  int err = filestat(f, ARG(1));
  fileclose(f);
  return err;
}

long sys_lseek(struct pt_regs *regs)
{
  struct file *f = fget(ARG(0));
  if (!f)
    return -EBADF;
  long off = filelseek(f, ARG(1), ARG(2));
  fileclose(f);
  return off;
}

// Make a new inode of type at path, linked into its parent. Returns it
// locked in *ipp, or -errno. With O_CREAT semantics (may_exist) an
// existing file is returned instead. Caller is inside an operation.
static int create(const char *path, short type, short major, short minor,
                  bool may_exist, struct inode **ipp)
{
  char name[DIRSIZ];
  struct inode *dp, *ip;
  int err = nameiparent(path, name, &dp);
  if (err < 0)
    return err;
  ilock(dp);
  if (dp->dev == PROCDEV) {
    // procfs makes no files: O_CREAT can only open one that is there
    // (echo N > /proc/sys/kernel/KNOB, as on Linux).
    err = may_exist ? dirlookup(dp, name, NULL, &ip) : -EACCES;
    iunlockput(dp);
    if (err < 0)
      return err == -ENOENT ? -EACCES : err;
    ilock(ip);
    if (ip->type == T_DIR) {
      iunlockput(ip);
      return -EISDIR;
    }
    *ipp = ip;
    return 0;
  }
  if ((err = dirlookup(dp, name, NULL, &ip)) != -ENOENT) {
    iunlockput(dp);
    if (err < 0)
      return err;
    ilock(ip);
    if (may_exist && ip->type != T_DIR) {
      *ipp = ip;
      return 0;
    }
    err = may_exist ? -EISDIR : -EEXIST;
    iunlockput(ip);
    return err;
  }
  if (namecmp(name, ".") == 0 || namecmp(name, "..") == 0) {
    iunlockput(dp);
    return -EEXIST;
  }
  if (type == T_DIR && dp->nlink >= LINK_MAX) {   // the child's ".." would wrap it
    iunlockput(dp);
    return -EMLINK;
  }
  if ((err = ialloc(dp->dev, type, &ip)) < 0) {
    iunlockput(dp);
    return err;
  }
  ilock(ip);
  ip->major = major;
  ip->minor = minor;
  ip->nlink = 1;
  iupdate(ip);
  if (type == T_DIR) {
    if (dirlink(ip, ".", ip->inum) < 0 || dirlink(ip, "..", dp->inum) < 0)
      goto fail;
  }
  if ((err = dirlink(dp, name, ip->inum)) < 0)
    goto fail;
  if (type == T_DIR) {   // the child's ".." links to the parent
    dp->nlink++;
    iupdate(dp);
  }
  iunlockput(dp);
  *ipp = ip;
  return 0;
fail:
  ip->nlink = 0;
  iupdate(ip);
  iunlockput(ip);
  iunlockput(dp);
  return err < 0 ? err : -ENOSPC;
}

long sys_open(struct pt_regs *regs)
{
  char path[MAXPATH];
  long flags = ARG(1);
  struct inode *ip;
  int err = get_path(path, ARG(0));
  if (err < 0)
    return err;
  int acc = flags & O_ACCMODE;
  if (acc == 3)
    return -EINVAL;
  begin_op();
  if (flags & O_CREAT) {
    err = create(path, T_FILE, 0, 0, true, &ip);
  } else if ((err = namei(path, &ip)) == 0) {
    ilock(ip);
  }
  if (err == 0 && acc != O_RDONLY &&
      (ip->type == T_DIR || (ip->dev == PROCDEV && !procfs_writable(ip)))) {
    err = ip->dev == PROCDEV ? -EACCES : -EISDIR;
    iunlockput(ip);
  }
  if (err < 0) {
    end_op();
    return err;
  }
  struct file *f = filealloc();
  if (!f) {
    iunlockput(ip);
    end_op();
    return -ENFILE;
  }
  if ((flags & O_TRUNC) && ip->type == T_FILE && ip->dev != PROCDEV && acc != O_RDONLY)
    itrunc(ip);
  f->type = ip->type == T_DEVICE ? FD_DEVICE : FD_INODE;
  f->major = ip->major;
  f->ip = ip;
  f->readable = acc != O_WRONLY;
  f->writable = acc != O_RDONLY;
  f->append = (flags & O_APPEND) != 0;
  iunlock(ip);
  end_op();
  int fd = fd_install(f);
  if (fd < 0)
    fileclose(f);
  return fd;
}

// mkdir for the kernel itself (inside an fs operation). Returns 0 or -errno.
int kern_mkdir(const char *path)
{
  struct inode *ip;
  int err = create(path, T_DIR, 0, 0, false, &ip);
  if (err == 0)
    iunlockput(ip);
  return err;
}

long sys_mkdir(struct pt_regs *regs)
{
  char path[MAXPATH];
  struct inode *ip;
  int err = get_path(path, ARG(0));
  if (err < 0)
    return err;
  begin_op();
  if ((err = create(path, T_DIR, 0, 0, false, &ip)) == 0)
    iunlockput(ip);
  end_op();
  return err;
}

long sys_mknod(struct pt_regs *regs)
{
  char path[MAXPATH];
  struct inode *ip;
  long major = ARG_INT(1), minor = ARG_INT(2);
  int err = get_path(path, ARG(0));
  if (err < 0)
    return err;
  if (major < 0 || major >= NDEV || minor < 0)
    return -EINVAL;
  begin_op();
  if ((err = create(path, T_DEVICE, major, minor, false, &ip)) == 0)
    iunlockput(ip);
  end_op();
  return err;
}

long sys_chdir(struct pt_regs *regs)
{
  char path[MAXPATH];
  struct inode *ip;
  int err = get_path(path, ARG(0));
  if (err < 0)
    return err;
  begin_op();
  if ((err = namei(path, &ip)) < 0) {
    end_op();
    return err;
  }
  ilock(ip);
  if (ip->type != T_DIR) {
    iunlockput(ip);
    end_op();
    return -ENOTDIR;
  }
  iunlock(ip);
  struct inode *old = set_fs_pwd(current->fs, ip);
  if (old)
    iput(old);
  end_op();
  return 0;
}

long sys_link(struct pt_regs *regs)
{
  char old[MAXPATH], new[MAXPATH], name[DIRSIZ];
  struct inode *ip, *dp;
  int err;
  if ((err = get_path(old, ARG(0))) < 0 || (err = get_path(new, ARG(1))) < 0)
    return err;
  begin_op();
  if ((err = namei(old, &ip)) < 0)
    goto out;
  ilock(ip);
  // Refused before nlink changes: a directory; a /proc file, whose inode
  // is no disk inode (iupdate() would write it over a real one); an inode
  // whose nlink would wrap.
  if (ip->type == T_DIR || ip->dev != ROOTDEV || ip->nlink >= LINK_MAX) {
    err = ip->type == T_DIR ? -EPERM : ip->dev != ROOTDEV ? -EXDEV : -EMLINK;
    iunlockput(ip);
    goto out;
  }
  ip->nlink++;
  iupdate(ip);
  iunlock(ip);
  if ((err = nameiparent(new, name, &dp)) == 0) {
    ilock(dp);
    if (dp->dev != ip->dev)
      err = -EXDEV;
    else
      err = dirlink(dp, name, ip->inum);
    iunlockput(dp);
  }
  if (err < 0) {
    ilock(ip);
    ip->nlink--;
    iupdate(ip);
    iunlock(ip);
  }
  iput(ip);
out:
  end_op();
  return err;
}

long sys_unlink(struct pt_regs *regs)
{
  char path[MAXPATH], name[DIRSIZ];
  struct inode *dp, *ip;
  u32 off;
  int err = get_path(path, ARG(0));
  if (err < 0)
    return err;
  begin_op();
  if ((err = nameiparent(path, name, &dp)) < 0) {
    end_op();
    return err;
  }
  ilock(dp);
  if (dp->dev == PROCDEV) {
    err = -EACCES;
    goto out_dp;
  }
  if (namecmp(name, ".") == 0 || namecmp(name, "..") == 0) {
    err = -EINVAL;
    goto out_dp;
  }
  if ((err = dirlookup(dp, name, &off, &ip)) < 0)
    goto out_dp;
  if (procfs_is_mountpoint(ip)) {   // dirlookup() does not cross into /proc
    iput(ip);
    err = -EBUSY;
    goto out_dp;
  }
  ilock(ip);
  if (ip->nlink < 1)
    panic("unlink: inode %u has no links", ip->inum);
  if (ip->type == T_DIR && !dir_is_empty(ip)) {
    iunlockput(ip);
    err = -ENOTEMPTY;
    goto out_dp;
  }
  struct dirent de;
  memset(&de, 0, sizeof(de));
  if (writei(dp, false, (u64)&de, off, sizeof(de)) != sizeof(de))
    panic("unlink: directory write failed");
  if (ip->type == T_DIR) {   // its ".." no longer links to dp
    dp->nlink--;
    iupdate(dp);
  }
  ip->nlink--;
  iupdate(ip);
  iunlockput(ip);
out_dp:
  iunlockput(dp);
  end_op();
  return err;
}

long sys_pipe(struct pt_regs *regs)
{
  struct file *r, *w;
  u64 ufds = ARG(0);
  int err = pipealloc(&r, &w);
  if (err < 0)
    return err;
  struct file *f[2] = { r, w };
  int fds[2] = { -1, -1 };
  // Fail early, before any fd exists, if ufds cannot take the answer.
  if (copy_to_user((void *)ufds, fds, sizeof(fds)) < 0)
    err = -EFAULT;
  for (int i = 0; i < 2 && err == 0; i++)
    if ((fds[i] = fd_install(f[i])) < 0)
      err = -EMFILE;
  if (err == 0 && copy_to_user((void *)ufds, fds, sizeof(fds)) < 0)
    err = -EFAULT;   // another thread unmapped it meanwhile
  if (err == 0)
    return 0;
  for (int i = 0; i < 2; i++)
    if (fds[i] < 0 || fd_uninstall(fds[i], f[i]))
      fileclose(f[i]);
  return err;
}

long sys_exec(struct pt_regs *regs)
{
  char path[MAXPATH];
  int err = get_path(path, ARG(0));
  if (err < 0)
    return err;
  return kernel_execve(path, (char *const *)ARG(1), true);
}

// Test hook for the log: crash in the middle of the next commit.
long sys_fault_inject(struct pt_regs *regs)
{
  if (ARG_INT(0) != 1)
    return -EINVAL;
  log_crash_armed = 1;
  return 0;
}
