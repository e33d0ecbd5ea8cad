// procfs entry points for the file system and the task code.
#ifndef TASKLAB_PROCFS_H
#define TASKLAB_PROCFS_H
#define PROCDEV 2            // device number of procfs inodes
struct inode;
struct file;
struct task;
void procfs_init(void);
struct inode *procfs_cross_mount(struct inode *ip);
bool procfs_is_mountpoint(struct inode *ip);
void procfs_fill_inode(struct inode *ip);
int procfs_lookup(struct inode *dp, const char *name, struct inode **ipp);
long procfs_read(struct file *f, u64 udst, long n);
long procfs_write(struct file *f, u64 usrc, long n);
bool procfs_writable(struct inode *ip);
struct task *first_tid(struct task *leader, int after);
struct task *next_tid(struct task *t);
#endif
