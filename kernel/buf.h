// A block of the disk, cached in memory (bio.c).
#ifndef TASKLAB_BUF_H
#define TASKLAB_BUF_H
#include "sleeplock.h"
#include "fs_format.h"

struct buf {
  struct sleeplock lock;   // guards data and valid
  bool valid;              // data holds the block's contents
  u32 dev;
  u32 blockno;
  u32 refcnt;              // bcache lock
  struct buf *prev, *next; // LRU list, bcache lock
  u8 data[BSIZE];
};

void binit(void);
struct buf *bread(u32 dev, u32 blockno);
struct buf *bget_zeroed(u32 dev, u32 blockno);
bool bcached(u32 dev, u32 blockno);
void bwrite(struct buf *b);
void brelse(struct buf *b);
void bpin(struct buf *b);
void bunpin(struct buf *b);

// diskstats.c: every disk request, counted for /proc/diskstats
void disk_rw(u32 blockno, u8 *const data[], int n, bool write);
int diskstats_show(char *buf, int size);
#endif
