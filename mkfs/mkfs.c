// mkfs: build a tasklab file system image on the host.
//
//   mkfs fs.img FILE...
//
// Lays out [ boot | super | log | inodes | bitmap | data ] as in
// kernel/fs_format.h, makes the root directory, and copies each FILE
// into it under its basename. Every input is checked before anything is
// written; the image is built in memory, written to a temporary file next
// to the target and renamed into place, so a refused or failed run never
// leaves a partial image behind.

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef uint16_t u16;
typedef uint32_t u32;

#include "kernel/fs_format.h"
#define stat tasklab_stat     // kernel/stat.h's struct stat is not the host's
#include "kernel/stat.h"
#undef stat

_Static_assert(sizeof(struct dinode) == 64, "dinode layout");
_Static_assert(sizeof(struct dirent) == 32, "dirent layout");
_Static_assert(BSIZE % sizeof(struct dinode) == 0, "inodes straddle blocks");
_Static_assert(NINODES <= 65536, "dirent.inum is 16 bits");

#define NLOG       (LOGBLOCKS + 1)                  // log header + log blocks
#define NINODEBLK  ((int)((NINODES + IPB - 1) / IPB))
#define NBITMAP    ((int)((FSSIZE + BPB - 1) / BPB))
#define NMETA      (2 + NLOG + NINODEBLK + NBITMAP)  // boot, super, ...
#define NDATA      (FSSIZE - NMETA)
#define MAXFILES   (NINODES - 2)                     // inode 0 unused, root
#define MAXDIRENTS (MAXFILE * BSIZE / sizeof(struct dirent))

static unsigned char *img;        // the whole image, FSSIZE * BSIZE bytes
static struct superblock sb;      // in host byte order
static u32 freeblock;             // next data block to hand out
static u32 freeinode = ROOTINO;   // next inode to hand out
static char *tmppath;             // temporary image, removed on failure

// Report an error, remove the temporary image if any, and exit 1.
static void __attribute__((noreturn, format(printf, 1, 2)))
die(const char *fmt, ...)
{
  va_list ap;

  fprintf(stderr, "mkfs: ");
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, "\n");
  if (tmppath)
    unlink(tmppath);
  exit(1);
}

// On SIGINT/SIGTERM/SIGHUP, remove the temporary image and die by the signal.
static void
onsignal(int sig)
{
  if (tmppath)
    unlink(tmppath);
  signal(sig, SIG_DFL);
  raise(sig);
}

// Store v at p as 16-bit little-endian.
static void
put16(unsigned char *p, u16 v)
{
  p[0] = v;
  p[1] = v >> 8;
}

// Store v at p as 32-bit little-endian.
static void
put32(unsigned char *p, u32 v)
{
  p[0] = v;
  p[1] = v >> 8;
  p[2] = v >> 16;
  p[3] = v >> 24;
}

// Read the 32-bit little-endian value at p.
static u32
get32(const unsigned char *p)
{
  return p[0] | p[1] << 8 | p[2] << 16 | (u32)p[3] << 24;
}

// Return a pointer to block b of the image.
static unsigned char *
blk(u32 b)
{
  if (b >= FSSIZE)
    die("internal error: block %u out of range", b);
  return img + (size_t)b * BSIZE;
}

// Return the next free data block (zeroed, since the image starts zeroed).
static u32
balloc(void)
{
  if (freeblock >= FSSIZE)
    die("the files do not fit in the image's %d data blocks", NDATA);
  return freeblock++;
}

// Return a pointer to inode inum's on-disk record.
static unsigned char *
dinodep(u32 inum)
{
  return blk(IBLOCK(inum, sb)) + (inum % IPB) * sizeof(struct dinode);
}

// Allocate inode inum of the given type with one link and no blocks.
static u32
ialloc(short type)
{
  u32 inum = freeinode++;
  unsigned char *p;

  if (inum >= NINODES)
    die("internal error: out of inodes");
  p = dinodep(inum);
  memset(p, 0, sizeof(struct dinode));
  put16(p + offsetof(struct dinode, type), type);
  put16(p + offsetof(struct dinode, nlink), 1);
  return inum;
}

// Return the slot holding address n (0-based) in the indirect block ind,
// allocating ind's block if *slot is 0. slot points at the referring entry.
static unsigned char *
indirect(unsigned char *slot, u32 n)
{
  if (get32(slot) == 0)
    put32(slot, balloc());
  return blk(get32(slot)) + n * sizeof(u32);
}

// Return the disk block holding file block fbn of inode inum, allocating
// it (and any indirect blocks on the way) if it is not there yet.
static u32
bmap(u32 inum, u32 fbn)
{
  unsigned char *addrs = dinodep(inum) + offsetof(struct dinode, addrs);
  unsigned char *slot;

  if (fbn < NDIRECT) {
    slot = addrs + fbn * sizeof(u32);
  } else if ((fbn -= NDIRECT) < NINDIRECT) {
    slot = indirect(addrs + NDIRECT * sizeof(u32), fbn);
  } else if ((fbn -= NINDIRECT) < NDINDIRECT) {
    slot = indirect(addrs + (NDIRECT + 1) * sizeof(u32), fbn / NINDIRECT);
    slot = indirect(slot, fbn % NINDIRECT);
  } else {
    die("internal error: file block beyond MAXFILE");
  }
  if (get32(slot) == 0)
    put32(slot, balloc());
  return get32(slot);
}

// Append n bytes to the end of inode inum.
static void
iappend(u32 inum, const void *data, u32 n)
{
  unsigned char *sizep = dinodep(inum) + offsetof(struct dinode, size);
  const unsigned char *src = data;
  u32 off = get32(sizep), m;

  while (n > 0) {
    m = BSIZE - off % BSIZE;
    if (m > n)
      m = n;
    memcpy(blk(bmap(inum, off / BSIZE)) + off % BSIZE, src, m);
    off += m;
    src += m;
    n -= m;
  }
  put32(sizep, off);
}

// Add the entry name -> inum to directory dir.
static void
dirlink(u32 dir, const char *name, u32 inum)
{
  unsigned char de[sizeof(struct dirent)];

  memset(de, 0, sizeof(de));
  put16(de + offsetof(struct dirent, inum), inum);
  memcpy(de + offsetof(struct dirent, name), name, strlen(name));  // <= DIRSIZ, checked
  iappend(dir, de, sizeof(de));
}

// Return the number of blocks a file of n data blocks uses, indirect included.
static u32
fileblocks(u32 n)
{
  u32 total = n;

  if (n > NDIRECT)
    total += 1;
  if (n > NDIRECT + NINDIRECT)
    total += 1 + (n - NDIRECT - NINDIRECT + NINDIRECT - 1) / NINDIRECT;
  return total;
}

// Return the last component of path (the name the file gets on the image).
static const char *
basename_of(const char *path)
{
  const char *s = strrchr(path, '/');

  return s ? s + 1 : path;
}

// Check every input before anything is built: names, counts, sizes, space.
static void
checkinputs(int nfiles, char **files)
{
  u32 need = fileblocks((((u32)nfiles + 2) * sizeof(struct dirent) + BSIZE - 1) / BSIZE);
  struct stat st;
  int i, j;

  if (nfiles > MAXFILES)
    die("%s: one file too many: %d files given, the image has inodes for %d (NINODES %d)",
        files[MAXFILES], nfiles, MAXFILES, NINODES);
  if ((u32)nfiles + 2 > MAXDIRENTS)
    die("%s: one file too many: the root directory holds at most %lu entries",
        files[MAXDIRENTS - 2], (unsigned long)MAXDIRENTS - 2);
  for (i = 0; i < nfiles; i++) {
    const char *name = basename_of(files[i]);
    if (*name == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
      die("%s: not a usable file name", files[i]);
    if (strlen(name) > DIRSIZ)
      die("%s: name \"%s\" is %zu characters, longer than DIRSIZ (%d)",
          files[i], name, strlen(name), DIRSIZ);
    for (j = 0; j < i; j++)
      if (strcmp(name, basename_of(files[j])) == 0)
        die("%s: duplicate name \"%s\" (also %s)", files[i], name, files[j]);
    if (access(files[i], R_OK) < 0 || stat(files[i], &st) < 0)
      die("%s: cannot read: %s", files[i], strerror(errno));
    if (!S_ISREG(st.st_mode))
      die("%s: not a regular file", files[i]);
    if (st.st_size > (off_t)MAXFILE * BSIZE)
      die("%s: %lld bytes is larger than the largest file, MAXFILE %lu blocks (%lu bytes)",
          files[i], (long long)st.st_size, (unsigned long)MAXFILE,
          (unsigned long)MAXFILE * BSIZE);
    need += fileblocks((st.st_size + BSIZE - 1) / BSIZE);
    if (need > NDATA)
      die("%s: does not fit: the files so far need %u blocks, the image has %d free data blocks",
          files[i], need, NDATA);
  }
}

// Copy the host file path into a new inode; return the inode number.
static u32
copyfile(const char *path)
{
  char buf[BSIZE];
  u32 inum = ialloc(T_FILE);
  long long total = 0;
  ssize_t n;
  int fd;

  if ((fd = open(path, O_RDONLY)) < 0)
    die("%s: cannot read: %s", path, strerror(errno));
  while ((n = read(fd, buf, sizeof(buf))) > 0) {
    total += n;
    if (total > (long long)MAXFILE * BSIZE)
      die("%s: grew beyond MAXFILE (%lu blocks) while being copied",
          path, (unsigned long)MAXFILE);
    iappend(inum, buf, n);
  }
  if (n < 0)
    die("%s: read error: %s", path, strerror(errno));
  close(fd);
  return inum;
}

// Write the superblock, in little-endian, into block 1.
static void
writesuper(void)
{
  unsigned char *p = blk(1);

  put32(p + offsetof(struct superblock, magic), sb.magic);
  put32(p + offsetof(struct superblock, size), sb.size);
  put32(p + offsetof(struct superblock, nblocks), sb.nblocks);
  put32(p + offsetof(struct superblock, ninodes), sb.ninodes);
  put32(p + offsetof(struct superblock, nlog), sb.nlog);
  put32(p + offsetof(struct superblock, logstart), sb.logstart);
  put32(p + offsetof(struct superblock, inodestart), sb.inodestart);
  put32(p + offsetof(struct superblock, bmapstart), sb.bmapstart);
}

// Mark blocks 0 .. freeblock-1 (metadata and every allocated block) in use.
static void
writebitmap(void)
{
  u32 b;

  for (b = 0; b < freeblock; b++)
    blk(BBLOCK(b, sb))[(b % BPB) / 8] |= 1 << (b % 8);
}

// Write the finished image to a temporary file next to target, then rename.
static void
writeimage(const char *target)
{
  size_t len = (size_t)FSSIZE * BSIZE, off = 0;
  ssize_t n;
  int fd;

  if ((tmppath = malloc(strlen(target) + 16)) == 0)
    die("out of memory");
  sprintf(tmppath, "%s.tmp.XXXXXX", target);
  if ((fd = mkstemp(tmppath)) < 0) {
    free(tmppath);
    tmppath = 0;
    die("%s: cannot create a temporary file beside it: %s", target, strerror(errno));
  }
  while (off < len) {
    if ((n = write(fd, img + off, len - off)) <= 0)
      die("%s: write error: %s", tmppath, strerror(errno));
    off += n;
  }
  if (fchmod(fd, 0644) < 0 || close(fd) < 0)
    die("%s: %s", tmppath, strerror(errno));
  if (rename(tmppath, target) < 0)
    die("%s: cannot rename to %s: %s", tmppath, target, strerror(errno));
  tmppath = 0;
}

// mkfs fs.img FILE...: check every input, build the image in memory, write it.
int
main(int argc, char *argv[])
{
  u32 rootino;
  int i;

  if (argc < 2) {
    fprintf(stderr, "usage: mkfs fs.img FILE...\n");
    return 2;
  }
  signal(SIGINT, onsignal);
  signal(SIGTERM, onsignal);
  signal(SIGHUP, onsignal);
  checkinputs(argc - 2, argv + 2);

  if ((img = calloc(FSSIZE, BSIZE)) == 0)
    die("out of memory for a %d-block image", FSSIZE);
  sb.magic = FSMAGIC;
  sb.size = FSSIZE;
  sb.nblocks = NDATA;
  sb.ninodes = NINODES;
  sb.nlog = NLOG;
  sb.logstart = 2;
  sb.inodestart = 2 + NLOG;
  sb.bmapstart = 2 + NLOG + NINODEBLK;
  freeblock = NMETA;

  rootino = ialloc(T_DIR);
  if (rootino != ROOTINO)
    die("internal error: root is inode %u, not ROOTINO", rootino);
  dirlink(rootino, ".", rootino);
  dirlink(rootino, "..", rootino);
  for (i = 2; i < argc; i++)
    dirlink(rootino, basename_of(argv[i]), copyfile(argv[i]));

  writesuper();
  writebitmap();
  writeimage(argv[1]);
  return 0;
}
