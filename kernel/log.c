// The write-ahead log. A file-system operation runs between begin_op() and
// end_op(); the blocks it changes are recorded with log_write() and stay
// pinned in the cache. When no operation is running, commit() copies them
// into the on-disk log, writes the log header (the commit point), copies
// them to their homes, and clears the header. After a crash, recovery at
// boot replays a committed log, so an operation is all there or not at all.
//
// A commit writes from the pinned buffers straight to the disk, a run of
// consecutive blocks a request: the log is one run, and the homes are
// sorted into runs (a file written in sequence fills consecutive blocks).
// So a commit of n blocks costs a handful of disk requests, not 2n + 2:
// what a small write() costs is mostly requests, each a round trip to the
// disk. (xv6 copies each block through the cache, one request a block.)
#include "task.h"
#include "buf.h"
#include "fs.h"

// The header block: how many blocks are logged, and where they belong.
struct logheader {
  u32 n;
  u32 block[LOGBLOCKS];
};
_Static_assert(sizeof(struct logheader) <= BSIZE, "log header fits a block");

static struct {
  struct spinlock lock;    // guards outstanding, committing, lh, bufs
  u32 start;               // header block; log data follows it
  u32 dev;
  int outstanding;         // operations between begin_op and end_op
  bool committing;
  struct logheader lh;
  struct buf *bufs[LOGBLOCKS];  // the pinned buffer of each lh.block[]
} log;

// Test hook (fault_inject system call): power off in the middle of the
// next commit, after the header is on disk but before the installs.
int log_crash_armed;

// At boot: copy each block of a committed log to its home, through the
// cache (nothing is pinned yet).
static void replay_log(void)
{
  for (u32 i = 0; i < log.lh.n; i++) {
    struct buf *from = bread(log.dev, log.start + 1 + i);
    struct buf *to = bread(log.dev, log.lh.block[i]);
    memmove(to->data, from->data, BSIZE);
    bwrite(to);
    brelse(from);
    brelse(to);
  }
}

// Read the on-disk header; a block it names must lie past the log,
// inside the disk (fs_init() checked the superblock's layout).
static void read_head(struct superblock *s)
{
  struct buf *b = bread(log.dev, log.start);
  memmove(&log.lh, b->data, sizeof(log.lh));
  brelse(b);
  if (log.lh.n > LOGBLOCKS)
    panic("log: corrupt header (%u blocks)", log.lh.n);
  for (u32 i = 0; i < log.lh.n; i++)
    if (log.lh.block[i] < s->inodestart || log.lh.block[i] >= s->size)
      panic("log: corrupt header: entry %u names block %u, outside %u..%u (run fsck on the image)",
            i, log.lh.block[i], s->inodestart, s->size - 1);
}

// Write the in-memory header to disk: this is the commit point.
static void write_head(void)
{
  struct buf *b = bread(log.dev, log.start);
  memmove(b->data, &log.lh, sizeof(log.lh));
  bwrite(b);
  brelse(b);
}

// At boot, in task context: replay a committed log, if any.
void log_init(int dev, struct superblock *s)
{
  spin_lock_init(&log.lock, "log");
  log.start = s->logstart;
  log.dev = dev;
  if (s->nlog < LOGBLOCKS + 1)
    panic("log: on-disk log has %u blocks, need %d", s->nlog, LOGBLOCKS + 1);
  read_head(s);
  if (log.lh.n)
    printk("log: recovering %u blocks\n", log.lh.n);
  replay_log();
  log.lh.n = 0;
  write_head();
}

// Start an operation, waiting while a commit runs or the log could not
// hold one more operation's worst case.
void begin_op(void)
{
  spin_lock(&log.lock);
  for (;;) {
    if (log.committing ||
        log.lh.n + (log.outstanding + 1) * MAXOPBLOCKS > LOGBLOCKS) {
      sleep(&log, &log.lock);
      continue;
    }
    log.outstanding++;
    spin_unlock(&log.lock);
    return;
  }
}

// Write the contents of the n buffers bufs[] to the n consecutive blocks
// from blockno on, DISK_RUN_MAX blocks a request. Only while committing:
// the buffers are pinned, and no operation can change them.
static void write_run(u32 blockno, struct buf **bufs, u32 n)
{
  u8 *data[DISK_RUN_MAX];
  for (u32 i = 0; i < n; i += DISK_RUN_MAX) {
    u32 k = n - i < DISK_RUN_MAX ? n - i : DISK_RUN_MAX;
    for (u32 j = 0; j < k; j++)
      data[j] = bufs[i + j]->data;
    disk_rw(blockno + i, data, k, true);
  }
}

// Write the logged blocks to their homes, a run of consecutive home
// blocks a request, then let the cache drop them.
static void install_trans(void)
{
  struct buf *s[LOGBLOCKS];
  u32 n = log.lh.n, i, j;
  for (i = 0; i < n; i++) {             // insertion sort by block number
    struct buf *b = log.bufs[i];
    for (j = i; j > 0 && s[j - 1]->blockno > b->blockno; j--)
      s[j] = s[j - 1];
    s[j] = b;
  }
  for (i = 0; i < n; i = j) {
    for (j = i + 1; j < n && s[j]->blockno == s[j - 1]->blockno + 1; j++)
      ;
    write_run(s[i]->blockno, s + i, j - i);
  }
  for (i = 0; i < n; i++)
    bunpin(log.bufs[i]);
}

static void commit(void)
{
  if (log.lh.n == 0)
    return;
  write_run(log.start + 1, log.bufs, log.lh.n);   // the log: one run
  write_head();
  if (log_crash_armed) {
    printk("log: crashing mid-commit (fault_inject), %u blocks logged\n", log.lh.n);
    arch_poweroff(3);
  }
  install_trans();
  log.lh.n = 0;
  write_head();
}

// End an operation; the last one out commits everything logged.
void end_op(void)
{
  bool do_commit = false;
  spin_lock(&log.lock);
  if (log.committing)
    panic("end_op: commit in progress");
  if (--log.outstanding == 0) {
    do_commit = true;
    log.committing = true;
  } else {
    wakeup(&log);   // begin_op may be waiting for room
  }
  spin_unlock(&log.lock);
  if (!do_commit)
    return;
  commit();
  spin_lock(&log.lock);
  log.committing = false;
  wakeup(&log);
  spin_unlock(&log.lock);
}

// Record that b (locked, changed) belongs to the current operation; it is
// written at commit. Replaces bwrite() inside operations.
void log_write(struct buf *b)
{
  BUG_ON(b->dev != log.dev);   // the log matches blocks by number alone
  spin_lock(&log.lock);
  if (log.outstanding < 1)
    panic("log_write: outside an operation");
  u32 i;
  for (i = 0; i < log.lh.n; i++)
    if (log.lh.block[i] == b->blockno)
      break;
  if (i == log.lh.n) {
    if (log.lh.n >= LOGBLOCKS)
      panic("log_write: transaction too big");
    log.bufs[log.lh.n] = b;
    log.lh.block[log.lh.n++] = b->blockno;
    bpin(b);
  }
  spin_unlock(&log.lock);
}
