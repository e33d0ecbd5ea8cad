// The buffer cache: NBUF blocks kept in memory, most recently used first.
// A buffer's sleep lock gives one task at a time its contents; bcache.lock
// guards the list, the identities (dev, blockno) and the reference counts.
#include "task.h"
#include "buf.h"

// Waiting in bget() for a free buffer ends only if the buffers are not
// all pinned by the log, which can pin LOGBLOCKS until a commit that
// needs the waiters' operations to end first. So the cache holds that
// many and room for the buffers the tasks in system calls hold at once
// (a few each): a smaller cache could deadlock. (With NBUF 96 usertests
// bufstorm does: the log pins all of them.)
_Static_assert(NBUF >= LOGBLOCKS + MAXOPBLOCKS, "the log could pin every buffer");

static struct {
  struct spinlock lock;
  struct buf bufs[NBUF];
  struct buf head;          // head.next: most recently used
  int waiters;              // tasks in bget() waiting for a free buffer
} bcache;

void binit(void)
{
  spin_lock_init(&bcache.lock, "bcache");
  bcache.head.next = bcache.head.prev = &bcache.head;
  for (struct buf *b = bcache.bufs; b < &bcache.bufs[NBUF]; b++) {
    sleep_lock_init(&b->lock, "buffer");
    b->next = bcache.head.next;
    b->prev = &bcache.head;
    bcache.head.next->prev = b;
    bcache.head.next = b;
  }
}

// The buffer for (dev, blockno), locked: the cached one, or the least
// recently used free one, recycled. If every buffer is in use (held by
// tasks waiting for the disk, pinned by the log) it waits for one to be
// released: many readers at once are no reason to panic. May sleep.
static struct buf *bget(u32 dev, u32 blockno)
{
  struct buf *b;
  spin_lock(&bcache.lock);
again:
  for (b = bcache.head.next; b != &bcache.head; b = b->next)
    if (b->dev == dev && b->blockno == blockno)
      goto found;
  for (b = bcache.head.prev; b != &bcache.head; b = b->prev)
    if (b->refcnt == 0) {
      b->dev = dev;
      b->blockno = blockno;
      b->valid = false;
      goto found;
    }
  bcache.waiters++;
  sleep(&bcache, &bcache.lock);
  bcache.waiters--;
  goto again;   // the block may have come into the cache meanwhile
found:
  b->refcnt++;
  spin_unlock(&bcache.lock);
  sleep_lock(&b->lock);
  return b;
}

// A locked buffer holding the block's contents.
struct buf *bread(u32 dev, u32 blockno)
{
  struct buf *b = bget(dev, blockno);
  if (!b->valid) {
    u8 *data[1] = { b->data };
    disk_rw(b->blockno, data, 1, false);
    b->valid = true;
  }
  return b;
}

// A locked buffer for a block whose old contents do not matter, zeroed and
// valid, without reading the disk (balloc() clears every block it hands
// out; a read first would be one disk request per block for nothing).
struct buf *bget_zeroed(u32 dev, u32 blockno)
{
  struct buf *b = bget(dev, blockno);
  memset(b->data, 0, BSIZE);
  b->valid = true;
  return b;
}

// Write b to disk now. Caller holds b's lock.
void bwrite(struct buf *b)
{
  if (!sleep_lock_held(&b->lock))
    panic("bwrite: buffer not locked");
  u8 *data[1] = { b->data };
  disk_rw(b->blockno, data, 1, true);
}

// Unlock b and make it the most recently used.
void brelse(struct buf *b)
{
  if (!sleep_lock_held(&b->lock))
    panic("brelse: buffer not locked");
  sleep_unlock(&b->lock);
  spin_lock(&bcache.lock);
  BUG_ON(b->refcnt == 0);
  if (--b->refcnt == 0) {
    b->next->prev = b->prev;
    b->prev->next = b->next;
    b->next = bcache.head.next;
    b->prev = &bcache.head;
    bcache.head.next->prev = b;
    bcache.head.next = b;
    if (bcache.waiters)
      wakeup(&bcache);
  }
  spin_unlock(&bcache.lock);
}

// Keep b cached while the log holds it (a reference without the lock).
void bpin(struct buf *b)
{
  spin_lock(&bcache.lock);
  b->refcnt++;
  spin_unlock(&bcache.lock);
}

void bunpin(struct buf *b)
{
  spin_lock(&bcache.lock);
  BUG_ON(b->refcnt == 0);   // unpinned more often than pinned
  if (--b->refcnt == 0 && bcache.waiters)
    wakeup(&bcache);
  spin_unlock(&bcache.lock);
}

// Is the block's content in the cache? A hint, taken without the buffer's
// lock: the block may be recycled right after. Never sleeps.
bool bcached(u32 dev, u32 blockno)
{
  bool r = false;
  spin_lock(&bcache.lock);
  for (struct buf *b = bcache.head.next; b != &bcache.head && !r; b = b->next)
    r = b->dev == dev && b->blockno == blockno && b->valid;
  spin_unlock(&bcache.lock);
  return r;
}
