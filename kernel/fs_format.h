// The on-disk file system format, shared by the kernel and mkfs.
//
// Disk layout, in BSIZE blocks:
//   [ boot | super | log ... | inodes ... | free bitmap ... | data ... ]
// mkfs computes the layout and records it in the superblock.
// Uses only u16/u32, which both the kernel and mkfs define.
#ifndef TASKLAB_FS_FORMAT_H
#define TASKLAB_FS_FORMAT_H

#define BSIZE       1024        // block size in bytes
#define FSMAGIC     0x7a51ab05  // superblock magic ("tasklab fs")
#define ROOTINO     1           // root directory inode number
#define ROOTDEV     1           // device number of the root disk

#define FSSIZE      32768       // blocks in the image (32 MiB)
#define NINODES     1024        // inodes in the image
#define MAXOPBLOCKS 64          // most blocks one fs operation may write
#define LOGBLOCKS   (MAXOPBLOCKS * 3)  // data blocks in the on-disk log

#define NDIRECT     11
#define NINDIRECT   (BSIZE / sizeof(u32))
#define NDINDIRECT  (NINDIRECT * NINDIRECT)
#define MAXFILE     (NDIRECT + NINDIRECT + NDINDIRECT)  // blocks

struct superblock {
  u32 magic;       // FSMAGIC
  u32 size;        // total blocks in the image
  u32 nblocks;     // data blocks
  u32 ninodes;     // inodes
  u32 nlog;        // log blocks, header included
  u32 logstart;    // first log block (the header)
  u32 inodestart;  // first inode block
  u32 bmapstart;   // first free-bitmap block
};

// addrs[]: NDIRECT direct blocks, then one singly indirect block,
// then one doubly indirect block.
struct dinode {
  short type;               // 0 = free, else T_DIR / T_FILE / T_DEVICE
  short major;              // device files only
  short minor;              // device files only
  short nlink;              // directory entries naming this inode
  u32 size;                 // bytes
  u32 addrs[NDIRECT + 2];
};
#define LINK_MAX 32767      // the most nlink holds (link() says EMLINK)

#define IPB           (BSIZE / sizeof(struct dinode))   // inodes per block
#define IBLOCK(i, sb) ((i) / IPB + (sb).inodestart)     // block holding inode i
#define BPB           (BSIZE * 8)                        // bitmap bits per block
#define BBLOCK(b, sb) ((b) / BPB + (sb).bmapstart)      // bitmap block for block b

// The first data block of the layout s describes, or 0 if it is none
// mkfs makes (a field out of range, regions out of order or past the
// end). Shared by the kernel, which refuses to mount such an image, and
// fsck, which reports it.
static inline u32 fs_layout_datastart(const struct superblock *s)
{
  if (s->size < 8 || s->ninodes < 2 || s->ninodes > 65536 || s->nlog < 2 ||
      s->nlog > LOGBLOCKS + 1)
    return 0;
  u32 ninodeblk = (s->ninodes + IPB - 1) / IPB, nbitmap = (s->size + BPB - 1) / BPB;
  if (s->logstart != 2 || s->inodestart != s->logstart + s->nlog ||
      s->bmapstart != s->inodestart + ninodeblk || s->bmapstart + nbitmap >= s->size)
    return 0;
  return s->bmapstart + nbitmap;
}

#define DIRSIZ 30     // longest name; not NUL-terminated when full

// A directory is a file of these records; inum 0 marks a free slot.
struct dirent {
  u16 inum;
  char name[DIRSIZ];
};

#endif
