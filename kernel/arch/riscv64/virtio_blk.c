// virtio-blk over virtio-mmio (version 2, "modern"), one request queue.
// Each request is a chain of descriptors: header, the data of one or
// more consecutive blocks, status.
#include "task.h"
#include "buf.h"
#include "virtio_mmio.h"

#define VIRTIO_BLK_T_IN  0
#define VIRTIO_BLK_T_OUT 1

struct blk_req_hdr { u32 type; u32 reserved; u64 sector; };

// A request in flight; its task sleeps on it until the interrupt says done.
struct vreq { bool busy; };

static struct {
  struct spinlock lock;          // guards everything below
  struct virtq q;
  bool free[QSIZE];
  struct vreq *owner[QSIZE];     // request whose chain starts here
  u8 status[QSIZE];
  struct blk_req_hdr hdr[QSIZE];
} vq;

// Find the device, negotiate only VIRTIO_F_VERSION_1, set up queue 0.
void arch_disk_init(void)
{
  spin_lock_init(&vq.lock, "virtio_blk");
  if (!virtio_mmio_probe(VIRT_VIRTIO0, VIRTIO_ID_BLOCK))
    panic("virtio_blk: no modern virtio-blk at %lx (force-legacy=false?)", VIRT_VIRTIO0);
  u32 status = virtio_mmio_negotiate(VIRT_VIRTIO0, "virtio_blk");
  virtio_queue_init(VIRT_VIRTIO0, 0, &vq.q, "virtio_blk");
  for (int i = 0; i < QSIZE; i++)
    vq.free[i] = true;
  virtio_mmio_driver_ok(VIRT_VIRTIO0, status);
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
    u16 flags = vq.q.desc[i].flags, next = vq.q.desc[i].next;
    memset(&vq.q.desc[i], 0, sizeof(vq.q.desc[i]));
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
  vq.q.desc[d[0]] = (struct vring_desc){ __pa(h), sizeof(*h), VRING_DESC_F_NEXT, d[1] };
  for (int i = 0; i < n; i++)
    vq.q.desc[d[1 + i]] = (struct vring_desc){ __pa(data[i]), BSIZE,
        VRING_DESC_F_NEXT | (write ? 0 : VRING_DESC_F_WRITE), d[2 + i] };
  vq.status[d[0]] = 0xff;
  vq.q.desc[d[n + 1]] = (struct vring_desc){ __pa(&vq.status[d[0]]), 1, VRING_DESC_F_WRITE, 0 };
  vq.owner[d[0]] = &r;
  virtq_push(VIRT_VIRTIO0, 0, &vq.q, d[0]);
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
  virtio_mmio_ack_intr(VIRT_VIRTIO0);
  while (vq.q.used_idx != READ_ONCE(vq.q.used->idx)) {
    wmb();
    int id = vq.q.used->ring[vq.q.used_idx % QSIZE].id;
    struct vreq *r = vq.owner[id];
    if (!r)
      panic("virtio_blk: completion for idle descriptor %d", id);
    r->busy = false;
    wakeup(r);
    vq.q.used_idx++;
  }
  spin_unlock(&vq.lock);
}
