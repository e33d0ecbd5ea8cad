// The second serial line on QEMU virt: a virtio console (virtio-serial
// without its multiport feature: one port, on queues 0, receive, and 1,
// transmit) at the second virtio-mmio transport. Received bytes go to
// serial2_rx() (kernel/serial.c) from the interrupt (and wait in their
// buffer while the line is full); writes are copied
// into a buffer and waited for, polling, since the caller holds a lock.
#include "task.h"
#include "virtio_mmio.h"

#define RXQ 0
#define TXQ 1
#define NRX 16                  // receive buffers posted at once
#define RXBUF 64
#define TXBUF 256               // serial.c writes in chunks of at most this

static struct {
  struct spinlock lock;          // guards everything below
  struct virtq rx, tx;
  char rxbuf[NRX][RXBUF];
  char txbuf[TXBUF];
  u32 rx_off;                    // bytes of the oldest used receive buffer delivered
} vc;

// Give receive buffer i (descriptor i) to the device. vc.lock held.
static void post_rx(int i)
{
  vc.rx.desc[i] = (struct vring_desc){ __pa(vc.rxbuf[i]), RXBUF, VRING_DESC_F_WRITE, 0 };
  virtq_push(VIRT_VIRTIO1, RXQ, &vc.rx, i);
}

// Is there a console at the second transport? If so set it up, post the
// receive buffers and return true.
bool arch_serial2_init(void)
{
  spin_lock_init(&vc.lock, "virtio_console");
  if (!virtio_mmio_probe(VIRT_VIRTIO1, VIRTIO_ID_CONSOLE))
    return false;
  u32 status = virtio_mmio_negotiate(VIRT_VIRTIO1, "virtio_console");
  virtio_queue_init(VIRT_VIRTIO1, RXQ, &vc.rx, "virtio_console");
  virtio_queue_init(VIRT_VIRTIO1, TXQ, &vc.tx, "virtio_console");
  virtio_mmio_driver_ok(VIRT_VIRTIO1, status);
  spin_lock(&vc.lock);
  for (int i = 0; i < NRX; i++)
    post_rx(i);
  spin_unlock(&vc.lock);
  return true;
}

// Send n bytes (n <= TXBUF): one descriptor, then wait until the device
// has taken it.
void arch_serial2_write(const char *p, long n)
{
  BUG_ON(n < 0 || n > TXBUF);
  spin_lock(&vc.lock);
  memmove(vc.txbuf, p, n);
  vc.tx.desc[0] = (struct vring_desc){ __pa(vc.txbuf), (u32)n, 0, 0 };
  virtq_push(VIRT_VIRTIO1, TXQ, &vc.tx, 0);
  while (READ_ONCE(vc.tx.used->idx) == vc.tx.used_idx)
    ;
  vc.tx.used_idx++;
  spin_unlock(&vc.lock);
}

// Hand the filled receive buffers' bytes to the line, from where the last
// call stopped, giving each buffer back to the device once all of it is
// taken. At a byte the line refuses (its buffer is full) stop: that
// receive buffer stays ours, the device runs out of buffers, and QEMU
// holds the rest, unread, on its socket. vc.lock held.
static void deliver_rx(void)
{
  while (vc.rx.used_idx != READ_ONCE(vc.rx.used->idx)) {
    wmb();
    struct vring_used_elem *e = &vc.rx.used->ring[vc.rx.used_idx % QSIZE];
    BUG_ON(e->id >= NRX || e->len > RXBUF);
    for (; vc.rx_off < e->len; vc.rx_off++)
      if (!serial2_rx(vc.rxbuf[e->id][vc.rx_off]))
        return;
    vc.rx_off = 0;
    vc.rx.used_idx++;
    post_rx(e->id);
  }
}

// The console's interrupt.
void virtio_console_intr(void)
{
  spin_lock(&vc.lock);
  virtio_mmio_ack_intr(VIRT_VIRTIO1);
  deliver_rx();
  spin_unlock(&vc.lock);
}

// A read made room: deliver what the refused buffer still holds.
void arch_serial2_unthrottle(void)
{
  spin_lock(&vc.lock);
  deliver_rx();
  spin_unlock(&vc.lock);
}
