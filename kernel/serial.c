// The second serial line, /ttyS1 (major 2): a raw byte channel to the
// host, for a debugger's remote protocol (gdbserver). Unlike the console
// it has no line discipline: no echo, no editing, no signals; read()
// returns the bytes that have come, at least one, and write() sends
// bytes as they are. On x86_64 it is the pc's COM2; on riscv64 a virtio
// console (kernel/arch/riscv64/virtio_console.c). QEMU
// joins it to a TCP port on the host (make qemu SERIAL2_PORT=N);
// a machine started without one has no line: read() and write() say
// ENODEV (open() works, so that ls and stat see the file).
#include "task.h"
#include "fs.h"

#define SERIAL_BUF 4096         // bytes received and not yet read

static struct {
  struct spinlock lock;   // guards everything below
  char buf[SERIAL_BUF];
  u32 r;                  // next byte a read takes
  u32 w;                  // where the next received byte goes
  bool throttled;         // a byte was refused: the arch holds it (and the host waits)
} rx;

static bool present;            // the machine has the line (set at boot)
static struct spinlock tx_lock; // one write() leaves unbroken

// A byte came in (the arch's interrupt handler). Returns false, taking
// nothing, if the buffer is full: the arch keeps the byte, takes no more,
// and so the host's sender waits (QEMU stops reading its TCP socket),
// until a read makes room and calls arch_serial2_unthrottle(). Nothing
// is lost, as with Linux's tty throttling. Interrupts off.
bool serial2_rx(int c)
{
  spin_lock(&rx.lock);
  bool room = rx.w - rx.r < SERIAL_BUF;
  if (room) {
    rx.buf[rx.w++ % SERIAL_BUF] = c;
    wakeup(&rx.r);
  } else {
    rx.throttled = true;
  }
  spin_unlock(&rx.lock);
  return room;
}

// Is there room for a byte? If not, the line is throttled as by a
// refused serial2_rx() (for a UART, whose byte cannot be read back).
bool serial2_rx_room(void)
{
  spin_lock(&rx.lock);
  bool room = rx.w - rx.r < SERIAL_BUF;
  if (!room)
    rx.throttled = true;
  spin_unlock(&rx.lock);
  return room;
}

// Read up to n bytes: wait (interruptibly) for the first, then take what
// has come. Returns the count, -EFAULT, or -ERESTARTSYS for a signal.
static long serial2_read(struct file *f, u64 udst, long n)
{
  char chunk[256];
  (void)f;
  if (!present)
    return -ENODEV;
  if (n <= 0)
    return 0;
  spin_lock(&rx.lock);
  while (rx.r == rx.w) {
    if (sleep_interruptible(&rx.r, &rx.lock) < 0) {
      spin_unlock(&rx.lock);
      return -ERESTARTSYS;
    }
  }
  long m = 0;
  while (m < n && m < (long)sizeof(chunk) && rx.r != rx.w)
    chunk[m++] = rx.buf[rx.r++ % SERIAL_BUF];
  bool unthrottle = rx.throttled;   // there is room now
  rx.throttled = false;
  spin_unlock(&rx.lock);
  if (unthrottle)
    arch_serial2_unthrottle();
  // Copied after the lock: a fault here may sleep. The bytes are taken
  // already; a bad buffer loses them, as it would on Linux.
  if (copy_to_user((void *)udst, chunk, m) < 0)
    return -EFAULT;
  return m;
}

// Send n bytes from user memory, as they are.
static long serial2_write(struct file *f, u64 usrc, long n)
{
  char chunk[256];
  long done = 0;
  (void)f;
  if (!present)
    return -ENODEV;
  while (done < n) {
    long m = n - done < (long)sizeof(chunk) ? n - done : (long)sizeof(chunk);
    if (copy_from_user(chunk, (void *)(usrc + done), m) < 0)
      return done ? done : -EFAULT;
    spin_lock(&tx_lock);
    arch_serial2_write(chunk, m);
    spin_unlock(&tx_lock);
    done += m;
  }
  return done;
}

// At boot: find the line and register the device.
void serial2_init(void)
{
  spin_lock_init(&rx.lock, "serial2_rx");
  spin_lock_init(&tx_lock, "serial2_tx");
  present = arch_serial2_init();
  devsw[SERIAL2_MAJOR].read = serial2_read;
  devsw[SERIAL2_MAJOR].write = serial2_write;
  if (present)
    printk("serial: ttyS1 at %s\n", ARCH_SERIAL2_NAME);
}
