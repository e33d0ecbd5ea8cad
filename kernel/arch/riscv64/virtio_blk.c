// virtio-blk over virtio-mmio (version 2, "modern"), one request queue.
// Each request is a chain of descriptors: header, the data of one or
// more consecutive blocks, status.
#include "task.h"
#include "buf.h"

#define REG(off) ((volatile u32 *)__va(VIRT_VIRTIO0 + (off)))
#define MMIO_MAGIC          0x000
#define MMIO_VERSION        0x004
#define MMIO_DEVICE_ID      0x008
#define MMIO_DEV_FEATURES   0x010
#define MMIO_DEV_FEAT_SEL   0x014
#define MMIO_DRV_FEATURES   0x020
#define MMIO_DRV_FEAT_SEL   0x024
#define MMIO_QUEUE_SEL      0x030
#define MMIO_QUEUE_NUM_MAX  0x034
#define MMIO_QUEUE_NUM      0x038
#define MMIO_QUEUE_READY    0x044
#define MMIO_QUEUE_NOTIFY   0x050
#define MMIO_INTR_STATUS    0x060
#define MMIO_INTR_ACK       0x064
#define MMIO_STATUS         0x070
#define MMIO_DESC_LOW       0x080
#define MMIO_DESC_HIGH      0x084
#define MMIO_DRIVER_LOW     0x090
#define MMIO_DRIVER_HIGH    0x094
#define MMIO_DEVICE_LOW     0x0a0
#define MMIO_DEVICE_HIGH    0x0a4

#define STATUS_ACK          1
#define STATUS_DRIVER       2
#define STATUS_DRIVER_OK    4
#define STATUS_FEATURES_OK  8

#define QSIZE 128               // descriptors; a request of n blocks takes n + 2
#define VRING_DESC_F_NEXT  1
#define VRING_DESC_F_WRITE 2
#define VIRTIO_BLK_T_IN  0
#define VIRTIO_BLK_T_OUT 1

struct vring_desc { u64 addr; u32 len; u16 flags; u16 next; };
struct vring_avail { u16 flags; u16 idx; u16 ring[QSIZE]; u16 used_event; };
struct vring_used_elem { u32 id; u32 len; };
struct vring_used { u16 flags; u16 idx; struct vring_used_elem ring[QSIZE]; u16 avail_event; };
struct blk_req_hdr { u32 type; u32 reserved; u64 sector; };

// A request in flight; its task sleeps on it until the interrupt says done.
struct vreq { bool busy; };

static struct {
  struct spinlock lock;          // guards everything below
  struct vring_desc *desc;
  struct vring_avail *avail;
  struct vring_used *used;
  bool free[QSIZE];
  u16 used_idx;                  // next used-ring entry to look at
  struct vreq *owner[QSIZE];     // request whose chain starts here
  u8 status[QSIZE];
  struct blk_req_hdr hdr[QSIZE];
} vq;

static void wmb(void) { __sync_synchronize(); }

// Find the device, negotiate only VIRTIO_F_VERSION_1, set up queue 0.
void arch_disk_init(void)
{
  spin_lock_init(&vq.lock, "virtio_blk");
  if (*REG(MMIO_MAGIC) != 0x74726976 || *REG(MMIO_VERSION) != 2 ||
      *REG(MMIO_DEVICE_ID) != 2)
    panic("virtio_blk: no modern virtio-blk at %lx (force-legacy=false?)", VIRT_VIRTIO0);
  u32 status = 0;
  *REG(MMIO_STATUS) = status;
  *REG(MMIO_STATUS) = status |= STATUS_ACK;
  *REG(MMIO_STATUS) = status |= STATUS_DRIVER;
  *REG(MMIO_DRV_FEAT_SEL) = 0;
  *REG(MMIO_DRV_FEATURES) = 0;
  *REG(MMIO_DEV_FEAT_SEL) = 1;
  if (!(*REG(MMIO_DEV_FEATURES) & 1))
    panic("virtio_blk: device lacks VIRTIO_F_VERSION_1");
  *REG(MMIO_DRV_FEAT_SEL) = 1;
  *REG(MMIO_DRV_FEATURES) = 1;
  *REG(MMIO_STATUS) = status |= STATUS_FEATURES_OK;
  if (!(*REG(MMIO_STATUS) & STATUS_FEATURES_OK))
    panic("virtio_blk: features not accepted");

  *REG(MMIO_QUEUE_SEL) = 0;
  if (*REG(MMIO_QUEUE_READY))
    panic("virtio_blk: queue already live");
  if (*REG(MMIO_QUEUE_NUM_MAX) < QSIZE)
    panic("virtio_blk: queue too short");
  vq.desc = alloc_page();
  vq.avail = alloc_page();
  vq.used = alloc_page();
  if (!vq.desc || !vq.avail || !vq.used)
    panic("virtio_blk: no memory");
  *REG(MMIO_QUEUE_NUM) = QSIZE;
  *REG(MMIO_DESC_LOW) = __pa(vq.desc);
  *REG(MMIO_DESC_HIGH) = __pa(vq.desc) >> 32;
  *REG(MMIO_DRIVER_LOW) = __pa(vq.avail);
  *REG(MMIO_DRIVER_HIGH) = __pa(vq.avail) >> 32;
  *REG(MMIO_DEVICE_LOW) = __pa(vq.used);
  *REG(MMIO_DEVICE_HIGH) = __pa(vq.used) >> 32;
  *REG(MMIO_QUEUE_READY) = 1;
  for (int i = 0; i < QSIZE; i++)
    vq.free[i] = true;
  *REG(MMIO_STATUS) = status |= STATUS_DRIVER_OK;
}

// Take a free descriptor, or -1. Caller holds vq.lock.
static int alloc_desc(void)
{
  for (int i = 0; i < QSIZE; i++)
    if (vq.free[i]) {
      vq.free[i] = false;
      return i;
    }
  return -1;
}

// Return a chain of descriptors and wake anyone waiting for one.
static void free_chain(int i)
{
  for (;;) {
    u16 flags = vq.desc[i].flags, next = vq.desc[i].next;
    memset(&vq.desc[i], 0, sizeof(vq.desc[i]));
    vq.free[i] = true;
    if (!(flags & VRING_DESC_F_NEXT))
      break;
    i = next;
  }
  wakeup(&vq.free[0]);
}

// Take n free descriptors into d[], sleeping until there are.
// Caller holds vq.lock.
static void alloc_descs(int *d, int n)
{
  for (;;) {
    int k;
    for (k = 0; k < n; k++)
      if ((d[k] = alloc_desc()) < 0)
        break;
    if (k == n)
      return;
    while (k-- > 0)
      vq.free[d[k]] = true;
    sleep(&vq.free[0], &vq.lock);
  }
}

// Read or write n blocks, from blockno on, to or from data[0..n-1]: one
// request, a chain of a header, n data descriptors and a status byte.
// Sleeps (uninterruptibly) until the disk is done. The caller keeps the
// data in place meanwhile (a locked or pinned buffer).
void arch_disk_rw(u32 blockno, u8 *const data[], int n, bool write)
{
  int d[DISK_RUN_MAX + 2];
  struct vreq r = { .busy = true };
  BUG_ON(n < 1 || n > DISK_RUN_MAX);
  spin_lock(&vq.lock);
  alloc_descs(d, n + 2);
  struct blk_req_hdr *h = &vq.hdr[d[0]];
  h->type = write ? VIRTIO_BLK_T_OUT : VIRTIO_BLK_T_IN;
  h->reserved = 0;
  h->sector = (u64)blockno * (BSIZE / 512);
  vq.desc[d[0]] = (struct vring_desc){ __pa(h), sizeof(*h), VRING_DESC_F_NEXT, d[1] };
  for (int i = 0; i < n; i++)
    vq.desc[d[1 + i]] = (struct vring_desc){ __pa(data[i]), BSIZE,
        VRING_DESC_F_NEXT | (write ? 0 : VRING_DESC_F_WRITE), d[2 + i] };
  vq.status[d[0]] = 0xff;
  vq.desc[d[n + 1]] = (struct vring_desc){ __pa(&vq.status[d[0]]), 1, VRING_DESC_F_WRITE, 0 };
  vq.owner[d[0]] = &r;
  vq.avail->ring[vq.avail->idx % QSIZE] = d[0];
  wmb();
  vq.avail->idx++;
  wmb();
  *REG(MMIO_QUEUE_NOTIFY) = 0;
  while (r.busy)
    sleep(&r, &vq.lock);
  if (vq.status[d[0]] != 0)
    panic("virtio_blk: I/O error on blocks %u..%u", blockno, blockno + n - 1);
  vq.owner[d[0]] = NULL;
  free_chain(d[0]);
  spin_unlock(&vq.lock);
}

// Completion interrupt: wake the owner of every finished request.
void virtio_blk_intr(void)
{
  spin_lock(&vq.lock);
  *REG(MMIO_INTR_ACK) = *REG(MMIO_INTR_STATUS) & 3;
  wmb();
  while (vq.used_idx != READ_ONCE(vq.used->idx)) {
    wmb();
    int id = vq.used->ring[vq.used_idx % QSIZE].id;
    struct vreq *r = vq.owner[id];
    if (!r)
      panic("virtio_blk: completion for idle descriptor %d", id);
    r->busy = false;
    wakeup(r);
    vq.used_idx++;
  }
  spin_unlock(&vq.lock);
}
