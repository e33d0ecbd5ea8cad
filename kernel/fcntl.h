// open() flags and lseek() whence values, Linux numbers.
#ifndef TASKLAB_FCNTL_H
#define TASKLAB_FCNTL_H
#define O_RDONLY  0x000
#define O_WRONLY  0x001
#define O_RDWR    0x002
#define O_ACCMODE 0x003
#define O_CREAT   0x040
#define O_TRUNC   0x200
#define O_APPEND  0x400
#define SEEK_SET 0
#define SEEK_CUR 1
#define SEEK_END 2
#endif
