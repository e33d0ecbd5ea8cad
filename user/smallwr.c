// smallwr [N [SIZE]]: the small-write benchmark. N write() calls of SIZE
// bytes each (default 512 of 1024, a block each), every one its own
// system call and so its own file-system operation and log commit, as a
// student's file test does. A file takes 128 writes (smallwr.0,
// smallwr.1, ...: xv6's files hold at most 268 KiB); the files are removed
// at the end. Prints "smallwr: N writes of SIZE bytes" first and
// "smallwr: done" last: make bench times the run from the host, between
// the command typed and that last line, so that the same program measures
// tasklab and xv6-riscv alike (built for xv6 with -DXV6).
//
// On tasklab it also prints what the writes cost the disk, from
// /proc/diskstats and /proc/interrupts (before and after): requests,
// blocks written and disk interrupts per write(), and the disk's
// milliseconds writing.

#ifdef XV6
#include "kernel/types.h"
#include "kernel/stat.h"
#include "kernel/fcntl.h"
#include "user/user.h"
#define O_CREAT O_CREATE
#else
#include "user.h"
#include "proc.h"
#endif

#define PER_FILE 128            // writes to one file
#define MAXSIZE  4096

static char buf[MAXSIZE];

#ifndef XV6
// The write fields of /proc/diskstats (requests, sectors, ms) and the
// disk's interrupts (/proc/interrupts). False if either cannot be read.
static int
disk_writes(long *req, long *sect, long *ms, long *irq)
{
  char name[16];
  int ncpu;
  long f[8];

  if (read_diskstats(name, f, 8) != 8)
    return 0;
  *req = f[4];
  *sect = f[6];
  *ms = f[7];
  return (*irq = read_disk_interrupts(&ncpu)) >= 0;
}
#endif

// The name of file number k.
static void
file_name(char *name, int k)
{
  char *p = name;
  const char *base = "smallwr.";
  char digits[12];
  int n = 0;

  while (*base)
    *p++ = *base++;
  do
    digits[n++] = '0' + k % 10;
  while ((k /= 10) > 0);
  while (n > 0)
    *p++ = digits[--n];
  *p = 0;
}

int
main(int argc, char *argv[])
{
  int n = argc > 1 ? atoi(argv[1]) : 512;
  int size = argc > 2 ? atoi(argv[2]) : 1024;
  int files = (n + PER_FILE - 1) / PER_FILE, fd = -1;
  char name[32];
#ifndef XV6
  long r0 = 0, s0 = 0, m0 = 0, i0 = 0, r1, s1, m1, i1;
  int stats = disk_writes(&r0, &s0, &m0, &i0);
#endif

  if (n < 1 || size < 1 || size > MAXSIZE) {
    fprintf(2, "usage: smallwr [N [SIZE]] (N >= 1, 1 <= SIZE <= %d)\n", MAXSIZE);
    exit(2);
  }
  for (int i = 0; i < size; i++)
    buf[i] = 'a' + i % 26;
  printf("smallwr: %d writes of %d bytes\n", n, size);
  for (int i = 0; i < n; i++) {
    if (i % PER_FILE == 0) {
      if (fd >= 0)
        close(fd);
      file_name(name, i / PER_FILE);
      if ((fd = open(name, O_WRONLY | O_CREAT)) < 0) {
        fprintf(2, "smallwr: cannot create %s\n", name);
        exit(1);
      }
    }
    if (write(fd, buf, size) != size) {
      fprintf(2, "smallwr: write %d failed\n", i);
      exit(1);
    }
  }
  close(fd);
#ifndef XV6
  if (stats && disk_writes(&r1, &s1, &m1, &i1)) {
    printf("smallwr: disk: %d write requests, %d blocks written, %d ms writing, %d interrupts\n",
           (int)(r1 - r0), (int)((s1 - s0) / 2), (int)(m1 - m0), (int)(i1 - i0));
    printf("smallwr: a write: %d.%d requests, %d.%d blocks, %d.%d interrupts\n",
           (int)((r1 - r0) / n), (int)((r1 - r0) * 10 / n % 10),
           (int)((s1 - s0) / 2 / n), (int)((s1 - s0) / 2 * 10 / n % 10),
           (int)((i1 - i0) / n), (int)((i1 - i0) * 10 / n % 10));
  }
#endif
  for (int k = 0; k < files; k++) {
    file_name(name, k);
    unlink(name);
  }
  printf("smallwr: done\n");
  exit(0);
}
