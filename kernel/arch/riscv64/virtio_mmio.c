// What every virtio-mmio driver does the same way: find its device, agree
// on features (VIRTIO_F_VERSION_1 and nothing else), give the device its
// queues, and make a descriptor chain available.
#include "virtio_mmio.h"

#define STATUS_ACK          1
#define STATUS_DRIVER       2
#define STATUS_DRIVER_OK    4
#define STATUS_FEATURES_OK  8

// Is there a modern virtio device of this kind at base? (QEMU virt has
// eight transports; an empty one reads device id 0.)
bool virtio_mmio_probe(u64 base, u32 device_id)
{
  return *virtio_reg(base, MMIO_MAGIC) == 0x74726976 &&
         *virtio_reg(base, MMIO_VERSION) == 2 &&
         *virtio_reg(base, MMIO_DEVICE_ID) == device_id;
}

// Reset the device and accept only VIRTIO_F_VERSION_1. Returns the
// status so far, for virtio_mmio_driver_ok(); panics if refused.
u32 virtio_mmio_negotiate(u64 base, const char *name)
{
  u32 status = 0;
  *virtio_reg(base, MMIO_STATUS) = status;
  *virtio_reg(base, MMIO_STATUS) = status |= STATUS_ACK;
  *virtio_reg(base, MMIO_STATUS) = status |= STATUS_DRIVER;
  *virtio_reg(base, MMIO_DRV_FEAT_SEL) = 0;
  *virtio_reg(base, MMIO_DRV_FEATURES) = 0;
  *virtio_reg(base, MMIO_DEV_FEAT_SEL) = 1;
  if (!(*virtio_reg(base, MMIO_DEV_FEATURES) & 1))
    panic("%s: device lacks VIRTIO_F_VERSION_1", name);
  *virtio_reg(base, MMIO_DRV_FEAT_SEL) = 1;
  *virtio_reg(base, MMIO_DRV_FEATURES) = 1;
  *virtio_reg(base, MMIO_STATUS) = status |= STATUS_FEATURES_OK;
  if (!(*virtio_reg(base, MMIO_STATUS) & STATUS_FEATURES_OK))
    panic("%s: features not accepted", name);
  return status;
}

// Give queue qi of the device QSIZE descriptors, in three fresh pages.
void virtio_queue_init(u64 base, int qi, struct virtq *q, const char *name)
{
  *virtio_reg(base, MMIO_QUEUE_SEL) = qi;
  if (*virtio_reg(base, MMIO_QUEUE_READY))
    panic("%s: queue %d already live", name, qi);
  if (*virtio_reg(base, MMIO_QUEUE_NUM_MAX) < QSIZE)
    panic("%s: queue %d too short", name, qi);
  q->desc = alloc_page();
  q->avail = alloc_page();
  q->used = alloc_page();
  if (!q->desc || !q->avail || !q->used)
    panic("%s: no memory", name);
  q->used_idx = 0;
  *virtio_reg(base, MMIO_QUEUE_NUM) = QSIZE;
  *virtio_reg(base, MMIO_DESC_LOW) = __pa(q->desc);
  *virtio_reg(base, MMIO_DESC_HIGH) = __pa(q->desc) >> 32;
  *virtio_reg(base, MMIO_DRIVER_LOW) = __pa(q->avail);
  *virtio_reg(base, MMIO_DRIVER_HIGH) = __pa(q->avail) >> 32;
  *virtio_reg(base, MMIO_DEVICE_LOW) = __pa(q->used);
  *virtio_reg(base, MMIO_DEVICE_HIGH) = __pa(q->used) >> 32;
  *virtio_reg(base, MMIO_QUEUE_READY) = 1;
}

// The driver is ready: the device may start.
void virtio_mmio_driver_ok(u64 base, u32 status)
{
  *virtio_reg(base, MMIO_STATUS) = status | STATUS_DRIVER_OK;
}

// Make the chain starting at descriptor head available on queue qi, and
// tell the device. Caller holds the driver's lock for q.
void virtq_push(u64 base, int qi, struct virtq *q, int head)
{
  q->avail->ring[q->avail->idx % QSIZE] = head;
  wmb();
  q->avail->idx++;
  wmb();
  *virtio_reg(base, MMIO_QUEUE_NOTIFY) = qi;
}

// At the start of an interrupt: tell the device it has been seen.
void virtio_mmio_ack_intr(u64 base)
{
  *virtio_reg(base, MMIO_INTR_ACK) = *virtio_reg(base, MMIO_INTR_STATUS) & 3;
  wmb();
}
