// The disk's I/O accounting, in the fields of Linux's /proc/diskstats
// (Documentation/admin-guide/iostats.rst): for reads and for writes, the
// requests completed, the requests merged, the sectors (512 bytes) moved
// and the milliseconds the requests took. Every disk request of the file
// system goes through disk_rw() here.
//
// tasklab differs from Linux: a "merge" is a block joined to a request of
// consecutive blocks when it is made (disk_rw() of n blocks: one request,
// n - 1 merges), not two queued requests joined later; and the times are
// counted in jiffies (10 ms), so one request mostly adds 0 and now and
// then 10 ms, which over many requests adds up to the true time on
// average.

#include "kernel.h"
#include "spinlock.h"
#include "buf.h"

// The counters; [0] reads, [1] writes. Guarded by diskstats_lock.
static struct spinlock diskstats_lock = { .name = "diskstats" };
static struct {
  u64 ios, merges, sectors, jiffies;
} acct[2];

// Read or write n consecutive blocks (arch_disk_rw()), and account for
// the request. Sleeps until the disk is done; no locks held on entry but
// those the caller holds to keep the data in place.
void disk_rw(u32 blockno, u8 *const data[], int n, bool write)
{
  u64 t0 = arch_clock_jiffies();
  arch_disk_rw(blockno, data, n, write);
  u64 dt = arch_clock_jiffies() - t0;
  spin_lock(&diskstats_lock);
  acct[write].ios++;
  acct[write].merges += n - 1;
  acct[write].sectors += (u64)n * (BSIZE / 512);
  acct[write].jiffies += dt;
  spin_unlock(&diskstats_lock);
}

// The line of /proc/diskstats for the disk, into buf (size bytes): major,
// minor and name, then reads, reads merged, sectors read, ms reading,
// writes, writes merged, sectors written, ms writing, then the three
// fields tasklab does not count (in flight, ms doing I/O, weighted ms),
// printed as 0. Returns its length.
int diskstats_show(char *buf, int size)
{
  spin_lock(&diskstats_lock);
  typeof(acct) a;
  memcpy(a, acct, sizeof(a));
  spin_unlock(&diskstats_lock);
  return snprintf(buf, size, "%4d %7d %s %lu %lu %lu %lu %lu %lu %lu %lu 0 0 0\n",
                  ARCH_DISK_MAJOR, 0, ARCH_DISK_NAME,
                  a[0].ios, a[0].merges, a[0].sectors, a[0].jiffies * (1000 / HZ),
                  a[1].ios, a[1].merges, a[1].sectors, a[1].jiffies * (1000 / HZ));
}
