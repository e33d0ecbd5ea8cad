// struct stat as returned by fstat(). Shared by kernel and user space.
#ifndef TASKLAB_STAT_H
#define TASKLAB_STAT_H
#define T_DIR     1   // directory
#define T_FILE    2   // regular file
#define T_DEVICE  3   // device file (major, minor)

struct stat {
  int dev;                // device holding the inode
  unsigned int ino;       // inode number
  short type;             // T_DIR, T_FILE, T_DEVICE
  short nlink;            // number of links
  unsigned long size;     // size in bytes
};
#endif
