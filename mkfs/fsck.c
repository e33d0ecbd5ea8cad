// fsck: check a tasklab file system image on the host.
//
//   fsck [-q] fs.img
//
// Checks, in order: the image's size and superblock; the log (a committed
// transaction still in it is applied to the in-memory copy first, as the
// kernel does at boot); every inode (type, size, block numbers, no block
// in two places, no block past the size); the free bitmap against the
// blocks in use; the directory tree from the root ("." and "..", names,
// entries naming free inodes, directories reached twice); link counts;
// inodes in use that no directory names. Each problem is one line on
// standard output; the run ends with a summary line. Exit status: 0 if
// the image is clean, 1 if it is damaged, 2 if it cannot be read.
//
// A damaged image is input like any other: every number read from it is
// checked before it is used, so no image makes fsck itself crash.

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint16_t u16;
typedef uint32_t u32;

#include "kernel/fs_format.h"
#define stat tasklab_stat     // kernel/stat.h's struct stat is not the host's
#include "kernel/stat.h"
#undef stat

#define MAXREPORT 50          // problems printed; the rest are only counted

static unsigned char *img;    // the image
static u32 nblk;              // blocks in the file
static struct superblock sb;
static u32 datastart;         // first data block
static u32 *owner;            // owner[b]: the inode holding block b, or 0
static u16 *links;            // directory entries naming each inode
static unsigned char *seen;   // directories reached from the root
static long problems;
static const char *path;
static int quiet;

// Report one problem with the image.
static void __attribute__((format(printf, 1, 2)))
bad(const char *fmt, ...)
{
  va_list ap;

  if (++problems > MAXREPORT)
    return;
  printf("fsck: %s: ", path);
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
}

static u32 get16(const unsigned char *p) { return p[0] | p[1] << 8; }
static u32 get32(const unsigned char *p) { return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24; }
static unsigned char *block(u32 b) { return img + (size_t)b * BSIZE; }

// Read the whole image into img. Returns 0, or -1 after saying why.
static int
load(void)
{
  FILE *f = fopen(path, "rb");
  long size;

  if (!f || fseek(f, 0, SEEK_END) < 0 || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) < 0) {
    fprintf(stderr, "fsck: %s: %s\n", path, strerror(errno));
    if (f)
      fclose(f);
    return -1;
  }
  if (size < 2 * BSIZE || size > (long)FSSIZE * 4 * BSIZE) {
    printf("fsck: %s: %ld bytes: not a tasklab image (it holds %d blocks of %d bytes)\n",
           path, size, FSSIZE, BSIZE);
    fclose(f);
    return 1;
  }
  nblk = size / BSIZE;
  img = calloc(nblk, BSIZE);
  if (!img || fread(img, BSIZE, nblk, f) != nblk) {
    fprintf(stderr, "fsck: %s: cannot read it\n", path);
    fclose(f);
    return -1;
  }
  fclose(f);
  return 0;
}

// The superblock and the layout it describes. Returns 0 if the rest can
// be checked.
static int
check_super(void)
{
  const unsigned char *p = block(1);

  sb.magic = get32(p);
  sb.size = get32(p + 4);
  sb.nblocks = get32(p + 8);
  sb.ninodes = get32(p + 12);
  sb.nlog = get32(p + 16);
  sb.logstart = get32(p + 20);
  sb.inodestart = get32(p + 24);
  sb.bmapstart = get32(p + 28);
  if (sb.magic != FSMAGIC) {
    bad("superblock: magic 0x%x, want 0x%x: not a tasklab image", sb.magic, FSMAGIC);
    return -1;
  }
  if (sb.size > nblk) {
    bad("superblock: %u blocks, but the file holds only %u: truncated", sb.size, nblk);
    return -1;
  }
  if ((datastart = fs_layout_datastart(&sb)) == 0) {
    bad("superblock: a field out of range or regions out of order (size %u, %u inodes "
        "from block %u, log %u+%u, bitmap %u)", sb.size, sb.ninodes, sb.inodestart,
        sb.logstart, sb.nlog, sb.bmapstart);
    return -1;
  }
  if (sb.nblocks != sb.size - datastart)
    bad("superblock: %u data blocks, but the layout leaves %u", sb.nblocks, sb.size - datastart);
  return 0;
}

// A committed transaction left in the log: check it and apply it to the
// copy in memory, as the kernel's recovery would.
static void
check_log(void)
{
  const unsigned char *h = block(sb.logstart);
  u32 n = get32(h);

  if (n == 0)
    return;
  if (n > sb.nlog - 1 || 4 + 4 * (size_t)n > BSIZE) {
    bad("log: header says %u blocks, the log holds %u", n, sb.nlog - 1);
    return;
  }
  for (u32 i = 0; i < n; i++) {
    u32 b = get32(h + 4 + 4 * i);
    if (b < sb.inodestart || b >= sb.size) {
      bad("log: entry %u names block %u, outside the inodes, bitmap and data", i, b);
      continue;
    }
    memcpy(block(b), block(sb.logstart + 1 + i), BSIZE);
  }
  if (!quiet)
    printf("fsck: %s: the log held a committed transaction of %u blocks: applied\n", path, n);
}

// The on-disk inode inum.
static const unsigned char *
dinode(u32 inum)
{
  return block(IBLOCK(inum, sb)) + (inum % IPB) * sizeof(struct dinode);
}

static int itype(u32 inum) { return (short)get16(dinode(inum)); }
static int inlink(u32 inum) { return (short)get16(dinode(inum) + 6); }
static u32 isize(u32 inum) { return get32(dinode(inum) + 8); }
static u32 iaddr(u32 inum, int i) { return get32(dinode(inum) + 12 + 4 * i); }

// Claim block b for inode inum (what: how it is used). Returns whether b
// is a data block that inum may read.
static int
claim(u32 inum, u32 b, const char *what, u32 index)
{
  if (b < datastart || b >= sb.size) {
    bad("inode %u: %s %u is block %u, outside the data blocks [%u, %u)", inum, what, index, b,
        datastart, sb.size);
    return 0;
  }
  if (owner[b]) {
    bad("block %u is in inode %u and in inode %u (%s %u)", b, owner[b], inum, what, index);
    return 0;
  }
  owner[b] = inum;
  return 1;
}

// The data block holding byte off*BSIZE of inum, or 0 for a hole (or a
// bad block, reported when the inode was checked).
static u32
bmap(u32 inum, u32 bn)
{
  u32 b;

  if (bn < NDIRECT)
    return iaddr(inum, bn);
  bn -= NDIRECT;
  if (bn < NINDIRECT) {
    b = iaddr(inum, NDIRECT);
    return b >= datastart && b < sb.size ? get32(block(b) + 4 * bn) : 0;
  }
  bn -= NINDIRECT;
  if (bn >= NDINDIRECT)
    return 0;
  b = iaddr(inum, NDIRECT + 1);
  if (b < datastart || b >= sb.size)
    return 0;
  b = get32(block(b) + 4 * (bn / NINDIRECT));
  return b >= datastart && b < sb.size ? get32(block(b) + 4 * (bn % NINDIRECT)) : 0;
}

// Claim the blocks of indirect block ind (level 1 or 2) for inum, from
// file block first. Returns the file block past the last one in use + 1
// (0 if none).
static u32
claim_indirect(u32 inum, u32 ind, int level, u32 first)
{
  u32 last = 0, span = level == 1 ? 1 : NINDIRECT;

  for (u32 i = 0; i < NINDIRECT; i++) {
    u32 b = get32(block(ind) + 4 * i), end;
    if (b == 0)
      continue;
    if (!claim(inum, b, level == 1 ? "block" : "indirect block", first + i * span))
      continue;
    end = level == 1 ? first + i + 1 : claim_indirect(inum, b, 1, first + i * span);
    if (end > last)
      last = end;
  }
  return last;
}

// One inode in use: its type, its blocks, its size against its blocks.
static void
check_inode(u32 inum)
{
  int type = itype(inum);
  u32 size = isize(inum), end = 0, b;

  if (type != T_DIR && type != T_FILE && type != T_DEVICE) {
    bad("inode %u: type %d is no type", inum, type);
    return;
  }
  if (size > (u32)MAXFILE * BSIZE) {
    bad("inode %u: size %u is past the largest file (%u)", inum, size, (u32)MAXFILE * BSIZE);
    return;
  }
  for (int i = 0; i < NDIRECT; i++)
    if ((b = iaddr(inum, i)) != 0 && claim(inum, b, "block", i))
      end = i + 1;
  if ((b = iaddr(inum, NDIRECT)) != 0 && claim(inum, b, "indirect block", NDIRECT)) {
    u32 e = claim_indirect(inum, b, 1, NDIRECT);
    if (e > end)
      end = e;
  }
  if ((b = iaddr(inum, NDIRECT + 1)) != 0 && claim(inum, b, "doubly indirect block", 0)) {
    u32 e = claim_indirect(inum, b, 2, NDIRECT + NINDIRECT);
    if (e > end)
      end = e;
  }
  if ((uint64_t)end * BSIZE > (uint64_t)size + BSIZE - 1)
    bad("inode %u: size %u, but it has block %u (past the end)", inum, size, end - 1);
  if (type == T_DEVICE && (size != 0 || end != 0))
    bad("inode %u: a device file with %u bytes", inum, size);
}

// Is bit b of the free bitmap set?
static int
bit(u32 b)
{
  return block(BBLOCK(b, sb))[(b % BPB) / 8] >> (b % 8) & 1;
}

// The bitmap says used exactly for the metadata and the blocks inodes own.
static void
check_bitmap(void)
{
  u32 leaked = 0, first = 0;

  for (u32 b = 0; b < sb.size; b++) {
    int used = b < datastart || owner[b] != 0;
    if (used && !bit(b))
      bad("block %u is %s but free in the bitmap", b, b < datastart ? "metadata" : "in use");
    else if (!used && bit(b) && leaked++ == 0)
      first = b;
  }
  if (leaked)
    bad("%u blocks are marked used but no inode holds them (the first: %u)", leaked, first);
}

// Directory dir, reached from parent: its entries, then its
// subdirectories. depth bounds the recursion on a looping image.
static void
check_dir(u32 dir, u32 parent, int depth)
{
  u32 size = isize(dir), n;
  unsigned char de[sizeof(struct dirent)];
  int dot = 0, dotdot = 0;

  if (seen[dir]) {
    bad("directory %u is reached twice (a second parent: %u)", dir, parent);
    return;
  }
  seen[dir] = 1;
  if (size % sizeof(struct dirent)) {
    bad("directory %u: size %u is not a multiple of %zu", dir, size, sizeof(struct dirent));
    return;
  }
  n = size / sizeof(struct dirent);
  for (u32 i = 0; i < n; i++) {
    u32 off = i * sizeof(struct dirent), b = bmap(dir, off / BSIZE);
    char name[DIRSIZ + 1];
    if (b < datastart || b >= sb.size) {
      bad("directory %u: entry %u is in a hole", dir, i);
      continue;
    }
    memcpy(de, block(b) + off % BSIZE, sizeof de);
    u32 inum = get16(de);
    if (inum == 0)
      continue;
    memcpy(name, de + 2, DIRSIZ);
    name[DIRSIZ] = 0;
    if (inum >= sb.ninodes) {
      bad("directory %u: \"%s\" names inode %u, past the last (%u)", dir, name, inum, sb.ninodes - 1);
      continue;
    }
    if (name[0] == 0) {
      bad("directory %u: entry %u (inode %u) has no name", dir, i, inum);
      continue;
    }
    if (strcmp(name, ".") == 0) {
      dot++;
      if (inum != dir)
        bad("directory %u: \".\" names inode %u", dir, inum);
      continue;
    }
    if (strcmp(name, "..") == 0) {
      dotdot++;
      if (inum != parent)
        bad("directory %u: \"..\" names inode %u, want %u", dir, inum, parent);
      if (dir != ROOTINO)
        links[inum]++;
      continue;
    }
    if (itype(inum) == 0) {
      bad("directory %u: \"%s\" names inode %u, which is free", dir, name, inum);
      continue;
    }
    links[inum]++;
  }
  if (dot != 1 || dotdot != 1)
    bad("directory %u: %d \".\" and %d \"..\" entries, want one of each", dir, dot, dotdot);
  if (depth > 256) {
    bad("directory %u: deeper than 256 levels", dir);
    return;
  }
  for (u32 i = 0; i < n; i++) {
    u32 off = i * sizeof(struct dirent), b = bmap(dir, off / BSIZE), inum;
    if (b < datastart || b >= sb.size)
      continue;
    memcpy(de, block(b) + off % BSIZE, sizeof de);
    inum = get16(de);
    if (inum == 0 || inum >= sb.ninodes || (de[2] == '.' && (de[3] == 0 || (de[3] == '.' && de[4] == 0))))
      continue;
    if (itype(inum) == T_DIR)
      check_dir(inum, dir, depth + 1);
  }
}

// Every inode in use is named as often as its nlink says; none is lost.
static void
check_links(void)
{
  for (u32 inum = 1; inum < sb.ninodes; inum++) {
    int type = itype(inum), want;
    if (type == 0)
      continue;
    want = links[inum] + (inum == ROOTINO);
    if (inum != ROOTINO && links[inum] == 0)
      bad("inode %u (type %d, %d links) is in no directory", inum, type, inlink(inum));
    else if (inlink(inum) != want)
      bad("inode %u: nlink %d, but %d directory entries name it", inum, inlink(inum), want);
  }
}

int
main(int argc, char **argv)
{
  u32 used = 0, inodes = 0;
  int r;

  if (argc == 3 && strcmp(argv[1], "-q") == 0) {
    quiet = 1;
    argv++;
    argc--;
  }
  if (argc != 2) {
    fprintf(stderr, "usage: fsck [-q] fs.img\n");
    return 2;
  }
  path = argv[1];
  if ((r = load()) != 0)
    return r < 0 ? 2 : 1;
  if (check_super() == 0) {
    check_log();
    owner = calloc(sb.size, sizeof *owner);
    links = calloc(sb.ninodes, sizeof *links);
    seen = calloc(sb.ninodes, 1);
    if (!owner || !links || !seen) {
      fprintf(stderr, "fsck: out of memory\n");
      return 2;
    }
    for (u32 inum = 1; inum < sb.ninodes; inum++)
      if (itype(inum) != 0) {
        inodes++;
        check_inode(inum);
      }
    check_bitmap();
    if (itype(ROOTINO) != T_DIR)
      bad("inode %u, the root, is not a directory (type %d)", ROOTINO, itype(ROOTINO));
    else
      check_dir(ROOTINO, ROOTINO, 0);
    check_links();
    for (u32 b = datastart; b < sb.size; b++)
      used += owner[b] != 0;
  }
  if (problems > MAXREPORT)
    printf("fsck: %s: ... and %ld more\n", path, problems - MAXREPORT);
  if (problems)
    printf("fsck: %s: DAMAGED: %ld problem%s\n", path, problems, problems == 1 ? "" : "s");
  else if (!quiet)
    printf("fsck: %s: clean: %u inodes in use, %u of %u data blocks\n", path, inodes, used,
           sb.nblocks);
  return problems ? 1 : 0;
}
