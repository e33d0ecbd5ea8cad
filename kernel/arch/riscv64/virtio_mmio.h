// virtio over MMIO (version 2, "modern"), as QEMU virt provides it: the
// registers, the split virtqueue, and the setup every driver shares
// (virtio_mmio.c). Used by virtio_blk.c and virtio_console.c.
#ifndef TASKLAB_VIRTIO_MMIO_H
#define TASKLAB_VIRTIO_MMIO_H
#include "kernel.h"

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

#define VIRTIO_ID_BLOCK     2
#define VIRTIO_ID_CONSOLE   3

#define QSIZE 128               // descriptors per queue
#define VRING_DESC_F_NEXT  1
#define VRING_DESC_F_WRITE 2

struct vring_desc { u64 addr; u32 len; u16 flags; u16 next; };
struct vring_avail { u16 flags; u16 idx; u16 ring[QSIZE]; u16 used_event; };
struct vring_used_elem { u32 id; u32 len; };
struct vring_used { u16 flags; u16 idx; struct vring_used_elem ring[QSIZE]; u16 avail_event; };

// One split virtqueue; its three parts are a page each.
struct virtq {
  struct vring_desc *desc;
  struct vring_avail *avail;
  struct vring_used *used;
  u16 used_idx;                  // next used-ring entry to look at
};

// Orders our writes to memory the device reads (rings, buffers).
static inline void wmb(void) { __sync_synchronize(); }

// A device's register at offset off, for the transport at physical base.
static inline volatile u32 *virtio_reg(u64 base, u32 off)
{
  return (volatile u32 *)__va(base + off);
}

bool virtio_mmio_probe(u64 base, u32 device_id);
u32  virtio_mmio_negotiate(u64 base, const char *name);
void virtio_queue_init(u64 base, int qi, struct virtq *q, const char *name);
void virtio_mmio_driver_ok(u64 base, u32 status);
void virtq_push(u64 base, int qi, struct virtq *q, int head);
void virtio_mmio_ack_intr(u64 base);
#endif
