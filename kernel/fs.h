// The file system in memory: inodes, open files, the log, pipes, devices.
#ifndef TASKLAB_FS_H
#define TASKLAB_FS_H
#include "kernel.h"
#include "sleeplock.h"
#include "fs_format.h"
#include "stat.h"

// An inode in memory. itable.lock guards ref; lock guards the rest.
struct inode {
  u32 dev;
  u32 inum;
  int ref;
  struct sleeplock lock;
  bool valid;              // fields below read from disk
  short type;
  short major, minor;
  short nlink;
  u32 size;
  u32 addrs[NDIRECT + 2];
};

enum file_type { FD_NONE, FD_PIPE, FD_INODE, FD_DEVICE, FD_IO_URING, FD_VHOST };

// An open file. ftable.lock guards ref; off is guarded by the inode lock.
struct file {
  enum file_type type;
  int ref;
  bool readable, writable, append;
  struct pipe *pipe;       // FD_PIPE
  struct io_ring_ctx *ring; // FD_IO_URING
  struct vhost_dev *vhost;  // FD_VHOST
  struct inode *ip;        // FD_INODE, FD_DEVICE
  u64 off;                 // FD_INODE
  char *seq_buf;           // FD_INODE in /proc: the snapshot being read
  int seq_len;             //   (both under ip->lock)
  short major;             // FD_DEVICE
};

// A character device driver, by major number.
struct devsw {
  long (*read)(struct file *f, u64 udst, long n);
  long (*write)(struct file *f, u64 usrc, long n);
};
extern struct devsw devsw[NDEV];
#define CONSOLE_MAJOR 1
#define SERIAL2_MAJOR 2          // /ttyS1, kernel/serial.c

extern struct superblock sb;

// fs.c
void fs_init(int dev);
void inode_cache_init(void);
int ialloc(u32 dev, short type, struct inode **ipp);
struct inode *iget(u32 dev, u32 inum);
struct inode *idup(struct inode *ip);
void ilock(struct inode *ip);
void iunlock(struct inode *ip);
void iput(struct inode *ip);
void iunlockput(struct inode *ip);
void iupdate(struct inode *ip);
void itrunc(struct inode *ip);
long readi(struct inode *ip, bool user, u64 dst, u64 off, u64 n);
bool readi_cached(struct inode *ip, u64 off, u64 n);
long writei(struct inode *ip, bool user, u64 src, u64 off, u64 n);
void stati(struct inode *ip, struct stat *st);
int dirlookup(struct inode *dp, const char *name, u32 *poff, struct inode **ipp);
int dirlink(struct inode *dp, const char *name, u32 inum);
bool dir_is_empty(struct inode *dp);
int namei(const char *path, struct inode **ipp);
int nameiparent(const char *path, char *name, struct inode **ipp);
int namecmp(const char *a, const char *b);

// log.c
void log_init(int dev, struct superblock *sb);
void begin_op(void);
void end_op(void);
struct buf;
void log_write(struct buf *b);
extern int log_crash_armed;

// file.c
void file_init(void);
struct file *filealloc(void);
struct file *filedup(struct file *f);
void fileclose(struct file *f);
int filestat(struct file *f, u64 ustat);
long fileread(struct file *f, u64 udst, long n);
long filewrite(struct file *f, u64 usrc, long n);
long filelseek(struct file *f, long off, int whence);
long file_pread(struct file *f, u64 udst, long n, u64 off);
long file_pread_nowait(struct file *f, u64 udst, long n, u64 off);
long file_pwrite(struct file *f, u64 usrc, long n, u64 off);

// sys_file.c
struct file *fget(long fd);
int fd_install(struct file *f);

// io_uring.c
struct io_ring_ctx;
void io_uring_release(struct io_ring_ctx *ctx);

// io_thread.c
void io_uring_task_exit(struct task *t);
void io_uring_task_cancel(void);

// pipe.c
int pipealloc(struct file **r, struct file **w);
void pipeclose(struct pipe *p, bool writable);
long piperead(struct pipe *p, u64 udst, long n);
long pipewrite(struct pipe *p, u64 usrc, long n);
bool pipe_read_would_block(struct pipe *p);
bool pipe_write_would_block(struct pipe *p, long n);

// exec.c
int kernel_execve(const char *path, char *const argv[], bool user_argv);
int kern_mkdir(const char *path);

// console.c
void console_init(void);
void console_set_pgrp(int pgrp);
int  console_pgrp(void);

// serial.c: the second serial line, /ttyS1
void serial2_init(void);

// Copy to a user or kernel destination (readi/writei's user flag).
int either_copyout(bool user, u64 dst, const void *src, u64 n);
int either_copyin(bool user, void *dst, u64 src, u64 n);
#endif
