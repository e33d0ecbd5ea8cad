// The file system: blocks, inodes, directories and path names, on top of
// the log (log.c) and the buffer cache (bio.c).
//
// Locking: itable.lock guards every in-memory inode's ref and identity;
// an inode's sleep lock guards its contents and the disk inode behind it.
// Operations that write take begin_op()/end_op() around the whole change.
#include "task.h"
#include "buf.h"
#include "fs.h"
#include "procfs.h"

struct superblock sb;

// ---- blocks

// Zero a block on disk (through the log).
static void bzero(u32 dev, u32 bno)
{
  struct buf *b = bget_zeroed(dev, bno);   // no need to read what we clear
  log_write(b);
  brelse(b);
}

// Allocate a zeroed data block; 0 if the disk is full.
static u32 balloc(u32 dev)
{
  for (u32 base = 0; base < sb.size; base += BPB) {
    struct buf *b = bread(dev, BBLOCK(base, sb));
    for (u32 bi = 0; bi < BPB && base + bi < sb.size; bi++) {
      u8 m = 1 << (bi % 8);
      if (b->data[bi / 8] & m)
        continue;
      b->data[bi / 8] |= m;
      log_write(b);
      brelse(b);
      bzero(dev, base + bi);
      return base + bi;
    }
    brelse(b);
  }
  return 0;
}

static void bfree(u32 dev, u32 bno)
{
  struct buf *b = bread(dev, BBLOCK(bno, sb));
  u8 m = 1 << (bno % BPB % 8);
  if (!(b->data[bno % BPB / 8] & m))
    panic("bfree: block %u already free", bno);
  b->data[bno % BPB / 8] &= ~m;
  log_write(b);
  brelse(b);
}

// ---- inodes

static struct {
  struct spinlock lock;
  struct inode inode[NINODE];
} itable;

void inode_cache_init(void)
{
  spin_lock_init(&itable.lock, "itable");
  for (int i = 0; i < NINODE; i++)
    sleep_lock_init(&itable.inode[i].lock, "inode");
}

// Read the superblock and recover the log. Runs in the first task.
void fs_init(int dev)
{
  struct buf *b = bread(dev, 1);
  memmove(&sb, b->data, sizeof(sb));
  brelse(b);
  if (sb.magic != FSMAGIC)
    panic("fs: bad superblock magic %x (not a tasklab image?)", sb.magic);
  // A layout mkfs would not make: say so here, rather than trap later on
  // a block number past the disk (as Linux refuses to mount the root).
  u32 data = fs_layout_datastart(&sb);
  if (data == 0 || sb.nblocks != sb.size - data)
    panic("fs: bad superblock: size %u, %u data blocks, %u inodes from block %u, log %u+%u, "
          "bitmap %u (run fsck on the image)", sb.size, sb.nblocks, sb.ninodes, sb.inodestart,
          sb.logstart, sb.nlog, sb.bmapstart);
  log_init(dev, &sb);
}

// The in-memory inode for (dev, inum), referenced but not locked or read.
// NULL if the table is full.
struct inode *iget(u32 dev, u32 inum)
{
  struct inode *empty = NULL;
  spin_lock(&itable.lock);
  for (struct inode *ip = itable.inode; ip < &itable.inode[NINODE]; ip++) {
    if (ip->ref > 0 && ip->dev == dev && ip->inum == inum) {
      ip->ref++;
      spin_unlock(&itable.lock);
      return ip;
    }
    if (!empty && ip->ref == 0)
      empty = ip;
  }
  if (empty) {
    empty->dev = dev;
    empty->inum = inum;
    empty->ref = 1;
    empty->valid = false;
  }
  spin_unlock(&itable.lock);
  if (!empty)
    printk("iget: inode table full\n");
  return empty;
}

// Allocate a disk inode of the given type; returns it referenced and
// unlocked, in *ipp and 0; -ENOSPC when no disk inode is free, -ENFILE
// when the in-memory table is full.
int ialloc(u32 dev, short type, struct inode **ipp)
{
  for (u32 inum = 1; inum < sb.ninodes; inum++) {
    struct buf *b = bread(dev, IBLOCK(inum, sb));
    struct dinode *dip = (struct dinode *)b->data + inum % IPB;
    if (dip->type == 0) {
      // The in-memory inode first: with the table full, the disk inode
      // must stay free, or it would be lost (allocated, in no directory).
      struct inode *ip = iget(dev, inum);
      if (ip) {
        memset(dip, 0, sizeof(*dip));
        dip->type = type;
        log_write(b);
      }
      brelse(b);
      *ipp = ip;
      return ip ? 0 : -ENFILE;
    }
    brelse(b);
  }
  return -ENOSPC;
}

// Write a changed in-memory inode to disk. Caller holds ip->lock, in an op.
void iupdate(struct inode *ip)
{
  BUG_ON(ip->dev != ROOTDEV);   // a /proc inode has no disk to go to
  struct buf *b = bread(ip->dev, IBLOCK(ip->inum, sb));
  struct dinode *dip = (struct dinode *)b->data + ip->inum % IPB;
  dip->type = ip->type;
  dip->major = ip->major;
  dip->minor = ip->minor;
  dip->nlink = ip->nlink;
  dip->size = ip->size;
  memmove(dip->addrs, ip->addrs, sizeof(ip->addrs));
  log_write(b);
  brelse(b);
}

struct inode *idup(struct inode *ip)
{
  spin_lock(&itable.lock);
  BUG_ON(ip->ref < 1);   // a reference is needed to take another
  ip->ref++;
  spin_unlock(&itable.lock);
  return ip;
}

// Lock ip, reading it from disk the first time.
void ilock(struct inode *ip)
{
  if (!ip || ip->ref < 1)
    panic("ilock: bad inode");
  sleep_lock(&ip->lock);
  if (ip->dev == PROCDEV) {
    procfs_fill_inode(ip);   // nothing on disk: derived each time
    ip->valid = true;
    return;
  }
  if (ip->valid)
    return;
  struct buf *b = bread(ip->dev, IBLOCK(ip->inum, sb));
  struct dinode *dip = (struct dinode *)b->data + ip->inum % IPB;
  ip->type = dip->type;
  ip->major = dip->major;
  ip->minor = dip->minor;
  ip->nlink = dip->nlink;
  ip->size = dip->size;
  memmove(ip->addrs, dip->addrs, sizeof(ip->addrs));
  brelse(b);
  ip->valid = true;
  if (ip->type == 0)
    panic("ilock: inode %u has no type", ip->inum);
}

void iunlock(struct inode *ip)
{
  if (!ip || !sleep_lock_held(&ip->lock) || ip->ref < 1)
    panic("iunlock: not locked");
  sleep_unlock(&ip->lock);
}

// Drop a reference. The last reference to an inode with no links frees
// it on disk, so callers must be inside an operation.
void iput(struct inode *ip)
{
  spin_lock(&itable.lock);
  BUG_ON(ip->ref < 1);   // dropped more often than taken
  if (ip->ref == 1 && ip->dev != PROCDEV && ip->valid && ip->nlink == 0) {
    // Nobody else can reach it: no links, and we hold the only reference.
    sleep_lock(&ip->lock);
    spin_unlock(&itable.lock);
    itrunc(ip);
    ip->type = 0;
    iupdate(ip);
    ip->valid = false;
    sleep_unlock(&ip->lock);
    spin_lock(&itable.lock);
  }
  ip->ref--;
  spin_unlock(&itable.lock);
}

void iunlockput(struct inode *ip)
{
  iunlock(ip);
  iput(ip);
}

// What bmap() does with the block it finds.
enum bmap_op {
  BMAP_FIND,    // return it, or 0
  BMAP_ALLOC,   // allocate it (and the indirect blocks above it) if absent
  BMAP_FREE,    // free it and clear its entry (the indirect blocks stay)
};

// Apply op to entry i of indirect block *slot (allocating *slot itself
// for BMAP_ALLOC); returns the entry's block (before a BMAP_FREE), 0 if
// none.
static u32 indirect(struct inode *ip, u32 *slot, u32 i, enum bmap_op op)
{
  if (*slot == 0) {
    if (op != BMAP_ALLOC || (*slot = balloc(ip->dev)) == 0)
      return 0;
  }
  struct buf *b = bread(ip->dev, *slot);
  u32 *a = (u32 *)b->data;
  u32 addr = a[i];
  if (addr == 0 && op == BMAP_ALLOC && (addr = balloc(ip->dev)) != 0) {
    a[i] = addr;
    log_write(b);
  } else if (addr != 0 && op == BMAP_FREE) {
    bfree(ip->dev, addr);
    a[i] = 0;
    log_write(b);
  }
  brelse(b);
  return addr;
}

// Apply op to block bn of ip: returns the disk block holding it (before
// a BMAP_FREE), 0 if absent (or, for BMAP_ALLOC, the disk is full).
// Caller holds ip->lock, in an operation unless op is BMAP_FIND.
static u32 bmap(struct inode *ip, u32 bn, enum bmap_op op)
{
  if (bn < NDIRECT) {
    u32 addr = ip->addrs[bn];
    if (addr == 0 && op == BMAP_ALLOC)
      addr = ip->addrs[bn] = balloc(ip->dev);
    else if (addr != 0 && op == BMAP_FREE) {
      bfree(ip->dev, addr);
      ip->addrs[bn] = 0;
    }
    return addr;
  }
  bn -= NDIRECT;
  if (bn < NINDIRECT)
    return indirect(ip, &ip->addrs[NDIRECT], bn, op);
  bn -= NINDIRECT;
  if (bn >= NDINDIRECT)
    panic("bmap: block %u out of range", bn);
  u32 mid = indirect(ip, &ip->addrs[NDIRECT + 1], bn / NINDIRECT,
                     op == BMAP_FREE ? BMAP_FIND : op);
  if (mid == 0)
    return 0;
  return indirect(ip, &mid, bn % NINDIRECT, op);
}

// Free every block of an indirect tree of the given depth (1 or 2).
static void free_tree(u32 dev, u32 bno, int depth)
{
  struct buf *b = bread(dev, bno);
  u32 a[NINDIRECT];
  memmove(a, b->data, sizeof(a));
  brelse(b);
  for (u32 i = 0; i < NINDIRECT; i++)
    if (a[i]) {
      if (depth > 1)
        free_tree(dev, a[i], depth - 1);
      else
        bfree(dev, a[i]);
    }
  bfree(dev, bno);
}

// Discard ip's contents. Caller holds ip->lock, in an operation.
void itrunc(struct inode *ip)
{
  BUG_ON(ip->dev != ROOTDEV);
  for (int i = 0; i < NDIRECT; i++)
    if (ip->addrs[i]) {
      bfree(ip->dev, ip->addrs[i]);
      ip->addrs[i] = 0;
    }
  for (int d = 0; d < 2; d++)
    if (ip->addrs[NDIRECT + d]) {
      free_tree(ip->dev, ip->addrs[NDIRECT + d], d + 1);
      ip->addrs[NDIRECT + d] = 0;
    }
  ip->size = 0;
  iupdate(ip);
}

// Fill *st from ip (locked). Every byte, the padding too, is written:
// *st goes to user space.
void stati(struct inode *ip, struct stat *st)
{
  memset(st, 0, sizeof(*st));
  st->dev = ip->dev;
  st->ino = ip->inum;
  st->type = ip->type;
  st->nlink = ip->nlink;
  st->size = ip->size;
}

int either_copyout(bool user, u64 dst, const void *src, u64 n)
{
  if (user)
    return copy_to_user((void *)dst, src, n);
  memmove((void *)dst, src, n);
  return 0;
}

int either_copyin(bool user, void *dst, u64 src, u64 n)
{
  if (user)
    return copy_from_user(dst, (void *)src, n);
  memmove(dst, (void *)src, n);
  return 0;
}

// Read up to n bytes at off into dst (user or kernel address). Returns
// the count read (short at end of file) or -EFAULT. Caller holds ip->lock.
long readi(struct inode *ip, bool user, u64 dst, u64 off, u64 n)
{
  if (off >= ip->size)
    return 0;
  if (n > ip->size - off)
    n = ip->size - off;
  u64 done = 0;
  while (done < n) {
    u32 bno = bmap(ip, off / BSIZE, BMAP_FIND);
    u64 m = BSIZE - off % BSIZE;
    if (m > n - done)
      m = n - done;
    int err;
    if (bno == 0) {   // a hole reads as zeros
      static const u8 zeros[BSIZE];
      err = either_copyout(user, dst, zeros, m);
    } else {
      struct buf *b = bread(ip->dev, bno);
      err = either_copyout(user, dst, b->data + off % BSIZE, m);
      brelse(b);
    }
    if (err < 0)
      return done ? (long)done : -EFAULT;
    done += m;
    off += m;
    dst += m;
  }
  return done;
}

// Would bmap(ip, bn, BMAP_FIND) find block bn without reading the disk, its
// indirect blocks being cached (or absent)? Caller holds ip->lock.
static bool bmap_cached(struct inode *ip, u32 bn)
{
  if (bn < NDIRECT)
    return true;
  bn -= NDIRECT;
  if (bn < NINDIRECT)
    return !ip->addrs[NDIRECT] || bcached(ip->dev, ip->addrs[NDIRECT]);
  u32 top = ip->addrs[NDIRECT + 1];
  if (!top)
    return true;
  if (!bcached(ip->dev, top))
    return false;
  u32 mid = indirect(ip, &top, (bn - NINDIRECT) / NINDIRECT, BMAP_FIND);
  return !mid || bcached(ip->dev, mid);
}

// Could readi(ip, off, n) be served from the buffer cache, without
// waiting for the disk? (io_uring's IOCB_NOWAIT test.) Caller holds
// ip->lock. A hint: a block may be recycled before readi gets to it.
bool readi_cached(struct inode *ip, u64 off, u64 n)
{
  if (off >= ip->size || n == 0)
    return true;
  if (n > ip->size - off)
    n = ip->size - off;
  for (u64 bn = off / BSIZE; bn <= (off + n - 1) / BSIZE; bn++) {
    if (!bmap_cached(ip, bn))
      return false;
    u32 bno = bmap(ip, bn, BMAP_FIND);
    if (bno && !bcached(ip->dev, bno))
      return false;
  }
  return true;
}

// Write n bytes from src at off, growing the file. Returns the count
// written, or -EFAULT / -ENOSPC / -EFBIG when nothing could be.
// Caller holds ip->lock, inside an operation sized for n.
long writei(struct inode *ip, bool user, u64 src, u64 off, u64 n)
{
  if (off + n < off)
    return -EINVAL;
  if (off > (u64)MAXFILE * BSIZE)
    return -EFBIG;
  if (off + n > (u64)MAXFILE * BSIZE)
    n = (u64)MAXFILE * BSIZE - off;
  if (n == 0)
    return off >= (u64)MAXFILE * BSIZE ? -EFBIG : 0;
  u64 done = 0;
  long err = 0;
  while (done < n) {
    bool fresh = bmap(ip, off / BSIZE, BMAP_FIND) == 0;
    u32 bno = bmap(ip, off / BSIZE, BMAP_ALLOC);
    if (bno == 0) {
      err = -ENOSPC;
      break;
    }
    u64 m = BSIZE - off % BSIZE;
    if (m > n - done)
      m = n - done;
    struct buf *b = bread(ip->dev, bno);
    if (either_copyin(user, b->data + off % BSIZE, src, m) < 0) {
      brelse(b);
      // A block allocated for bytes that never came would lie past the
      // size (or fill a hole with nothing): give it back, as Linux's
      // write_failed() truncates what a short write allocated.
      if (fresh)
        bmap(ip, off / BSIZE, BMAP_FREE);
      err = -EFAULT;
      break;
    }
    log_write(b);
    brelse(b);
    done += m;
    off += m;
    src += m;
  }
  if (off > ip->size && done)
    ip->size = off;
  // bmap may have changed ip->addrs even when nothing was written.
  iupdate(ip);
  return done ? (long)done : err;
}

// ---- directories

int namecmp(const char *a, const char *b)
{
  return strncmp(a, b, DIRSIZ);
}

// Look name up in directory dp (locked). Returns 0 with its inode in *ipp,
// referenced and unlocked, and the entry's offset in *poff; -ENOENT if
// absent; -ENFILE if it is there but the inode table is full (which must
// not read as absent: create() would make a second entry of that name).
int dirlookup(struct inode *dp, const char *name, u32 *poff, struct inode **ipp)
{
  struct dirent de;
  if (dp->dev == PROCDEV)
    return procfs_lookup(dp, name, ipp);
  if (dp->type != T_DIR)
    panic("dirlookup: not a directory");
  for (u32 off = 0; off < dp->size; off += sizeof(de)) {
    if (readi(dp, false, (u64)&de, off, sizeof(de)) != sizeof(de))
      panic("dirlookup: short read");
    if (de.inum && namecmp(name, de.name) == 0) {
      if (poff)
        *poff = off;
      *ipp = iget(dp->dev, de.inum);
      return *ipp ? 0 : -ENFILE;
    }
  }
  return -ENOENT;
}

// Add the entry (name, inum) to dp (locked, in an op). Returns 0,
// -EEXIST, -ENOSPC, or -ENOENT if dp was removed (someone's cwd or open
// directory may outlive its name; an entry made in it would name an inode
// no path reaches, which outlives dp: Linux's IS_DEADDIR refusal).
int dirlink(struct inode *dp, const char *name, u32 inum)
{
  struct dirent de;
  struct inode *ip;
  if (dp->nlink == 0)
    return -ENOENT;
  int err = dirlookup(dp, name, NULL, &ip);
  if (err == 0) {
    iput(ip);
    return -EEXIST;
  }
  if (err != -ENOENT)
    return err;
  u32 off;
  for (off = 0; off < dp->size; off += sizeof(de)) {
    if (readi(dp, false, (u64)&de, off, sizeof(de)) != sizeof(de))
      panic("dirlink: short read");
    if (de.inum == 0)
      break;
  }
  memset(&de, 0, sizeof(de));
  strncpy(de.name, name, DIRSIZ);
  de.inum = inum;
  if (writei(dp, false, (u64)&de, off, sizeof(de)) != sizeof(de))
    return -ENOSPC;
  return 0;
}

// Does directory dp (locked) hold only "." and ".."?
bool dir_is_empty(struct inode *dp)
{
  struct dirent de;
  for (u32 off = 2 * sizeof(de); off < dp->size; off += sizeof(de)) {
    if (readi(dp, false, (u64)&de, off, sizeof(de)) != sizeof(de))
      panic("dir_is_empty: short read");
    if (de.inum)
      return false;
  }
  return true;
}

// ---- path names

// Copy the next element of path into name and return the rest, with
// slashes skipped; NULL when no element is left. -ENAMETOOLONG via *err.
static const char *skipelem(const char *path, char *name, int *err)
{
  while (*path == '/')
    path++;
  if (*path == 0)
    return NULL;
  const char *s = path;
  while (*path != '/' && *path)
    path++;
  size_t len = path - s;
  if (len > DIRSIZ) {
    *err = -ENAMETOOLONG;
    return NULL;
  }
  memmove(name, s, len);
  if (len < DIRSIZ)
    name[len] = 0;
  while (*path == '/')
    path++;
  return path;
}

// Walk path. With parent set, stop one level early and copy the final
// element into name. Returns 0 with *ipp referenced (unlocked), or
// -ENOENT, -ENOTDIR, -ENAMETOOLONG. Caller is inside an operation.
static int namex(const char *path, bool parent, char *name, struct inode **ipp)
{
  struct inode *ip, *next;
  int err = 0;
  if (*path == '/')
    ip = iget(ROOTDEV, ROOTINO);
  else
    ip = get_fs_pwd(current->fs);
  if (!ip)
    return -ENFILE;
  while ((path = skipelem(path, name, &err)) != NULL) {
    ilock(ip);
    if (ip->type != T_DIR) {
      iunlockput(ip);
      return -ENOTDIR;
    }
    if (parent && *path == 0) {
      iunlock(ip);
      *ipp = ip;
      return 0;
    }
    int e = dirlookup(ip, name, NULL, &next);
    iunlockput(ip);
    if (e < 0)
      return e;
    ip = procfs_cross_mount(next);
    if (!ip)
      return -ENFILE;
  }
  if (err || parent) {
    iput(ip);
    return err ? err : -ENOENT;
  }
  *ipp = ip;
  return 0;
}

int namei(const char *path, struct inode **ipp)
{
  char name[DIRSIZ];
  return namex(path, false, name, ipp);
}

int nameiparent(const char *path, char *name, struct inode **ipp)
{
  return namex(path, true, name, ipp);
}
