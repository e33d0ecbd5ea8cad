// The legacy IDE controller of QEMU pc (PIIX3): the primary master disk,
// programmed I/O, one request at a time, completion by interrupt (ISA IRQ
// 14). A request of n consecutive blocks is one READ or WRITE MULTIPLE
// command of n * BSIZE/512 sectors, moved through the data port in DRQ
// blocks of up to ide.mult sectors (SET MULTIPLE MODE), one interrupt
// each: with READ/WRITE SECTORS the disk would interrupt for every sector.
// The interrupt handler moves every DRQ block after the first write and
// every one read, so the caller just sleeps until it is done.
#include "task.h"
#include "buf.h"

void ioapic_enable(int irq, int vec);

#define ATA_DATA    0x1f0
#define ATA_COUNT   0x1f2
#define ATA_LBA0    0x1f3
#define ATA_LBA1    0x1f4
#define ATA_LBA2    0x1f5
#define ATA_DRIVE   0x1f6
#define ATA_STATUS  0x1f7   // read: status (acknowledges the interrupt)
#define ATA_CMD     0x1f7   // write: command
#define ATA_CTRL    0x3f6   // device control: bit 1 masks the interrupt
#define ST_BSY  0x80
#define ST_DRDY 0x40
#define ST_DF   0x20
#define ST_DRQ  0x08
#define ST_ERR  0x01
#define CMD_READ_SECTORS   0x20
#define CMD_WRITE_SECTORS  0x30
#define CMD_READ_MULTIPLE  0xc4
#define CMD_WRITE_MULTIPLE 0xc5
#define CMD_SET_MULTIPLE   0xc6
#define MULT_SECTORS 16     // DRQ block asked for: QEMU's largest (MAX_MULT_SECTORS)
#define SECTOR 512
#define SECTORS_PER_BLOCK (BSIZE / SECTOR)
_Static_assert(DISK_RUN_MAX * SECTORS_PER_BLOCK <= 256, "a run fits one command");

static struct {
  struct spinlock lock;  // guards everything below and the controller
  int mult;              // sectors per DRQ block: MULT_SECTORS, or 1 if refused (set at init)
  bool busy;             // a request is in progress
  bool write;
  u32 blockno;           // its first block
  u8 *const *data;       // its blocks' buffers
  int nsect;             // its sectors, all told
  int done;              // sectors moved through the data port so far
  u8 status;             // status at completion
} ide;

// Wait until the controller is not busy; return its status.
static u8 ide_wait(void)
{
  u8 s;
  while ((s = inb(ATA_STATUS)) & ST_BSY)
    ;
  return s;
}

// Read n 32-bit words from an I/O port into dst.
static void insl(u16 port, void *dst, u32 n)
{
  asm volatile("cld; rep insl" : "+D"(dst), "+c"(n) : "d"(port) : "memory");
}

// Write n 32-bit words from src to an I/O port.
static void outsl(u16 port, const void *src, u32 n)
{
  asm volatile("cld; rep outsl" : "+S"(src), "+c"(n) : "d"(port) : "memory");
}

// Ask the disk for DRQ blocks of MULT_SECTORS sectors; returns the
// sectors per DRQ block it agreed to (1 if it refused: then the single
// sector commands are used). Interrupts are not on yet; reading the
// status clears the one the command raises.
static int set_multiple_mode(void)
{
  outb(ATA_COUNT, MULT_SECTORS);
  outb(ATA_DRIVE, 0xE0);
  outb(ATA_CMD, CMD_SET_MULTIPLE);
  return ide_wait() & (ST_ERR | ST_DF) ? 1 : MULT_SECTORS;
}

// Find the disk and let it interrupt.
void arch_disk_init(void)
{
  spin_lock_init(&ide.lock, "ide");
  outb(ATA_DRIVE, 0xE0);              // master, LBA
  if (inb(ATA_STATUS) == 0xFF)
    panic("ide: no controller (QEMU needs -drive ...,if=ide)");
  if (!(ide_wait() & ST_DRDY))
    panic("ide: no disk on the primary master");
  ide.mult = set_multiple_mode();
  outb(ATA_CTRL, 0);                  // interrupts on
  ioapic_enable(IRQ_IDE, VEC_IDE);
}

// Move the request's next DRQ block (ide.mult sectors, or what is left)
// through the data port. Caller holds ide.lock.
static void move_drq_block(void)
{
  for (int n = 0; n < ide.mult && ide.done < ide.nsect; n++, ide.done++) {
    u8 *p = ide.data[ide.done / SECTORS_PER_BLOCK] + ide.done % SECTORS_PER_BLOCK * SECTOR;
    if (ide.write)
      outsl(ATA_DATA, p, SECTOR / 4);
    else
      insl(ATA_DATA, p, SECTOR / 4);
  }
}

// Issue the command for the request in ide. Caller holds ide.lock.
static void ide_start(void)
{
  static const u8 cmd[2][2] = {
    { CMD_READ_SECTORS, CMD_WRITE_SECTORS }, { CMD_READ_MULTIPLE, CMD_WRITE_MULTIPLE },
  };
  u32 sector = ide.blockno * SECTORS_PER_BLOCK;
  ide_wait();
  outb(ATA_COUNT, ide.nsect & 0xff);  // 0 means 256
  outb(ATA_LBA0, sector & 0xff);
  outb(ATA_LBA1, (sector >> 8) & 0xff);
  outb(ATA_LBA2, (sector >> 16) & 0xff);
  outb(ATA_DRIVE, 0xE0 | ((sector >> 24) & 0x0f));
  outb(ATA_CMD, cmd[ide.mult > 1][ide.write]);
  if (ide.write) {                    // the first DRQ block goes now
    while (!(inb(ATA_STATUS) & (ST_DRQ | ST_ERR)))
      ;
    move_drq_block();
  }
}

// Read or write n blocks, from blockno on, to or from data[0..n-1]; sleeps
// (uninterruptibly) until the disk is done. The caller keeps the data in
// place meanwhile (a locked or pinned buffer).
void arch_disk_rw(u32 blockno, u8 *const data[], int n, bool write)
{
  BUG_ON(n < 1 || n > DISK_RUN_MAX);
  spin_lock(&ide.lock);
  while (ide.busy)
    sleep(&ide, &ide.lock);
  ide.busy = true;
  ide.write = write;
  ide.blockno = blockno;
  ide.data = data;
  ide.nsect = n * SECTORS_PER_BLOCK;
  ide.done = 0;
  ide.status = 0;
  ide_start();
  while (ide.data)
    sleep(&ide.data, &ide.lock);
  if (ide.status & (ST_ERR | ST_DF))
    panic("ide: error on blocks %u..%u (status %x)", blockno, blockno + n - 1, ide.status);
  ide.busy = false;
  wakeup(&ide);
  spin_unlock(&ide.lock);
}

// Disk interrupt: a DRQ block is ready to read, or one was written. Move
// the next DRQ block, or finish the request and wake its owner.
void ide_intr(void)
{
  spin_lock(&ide.lock);
  u8 s = inb(ATA_STATUS);            // also acknowledges the interrupt
  if (!ide.data || (s & ST_BSY)) {
    spin_unlock(&ide.lock);
    return;
  }
  bool done = (s & (ST_ERR | ST_DF)) != 0;
  if (!done && !ide.write) {
    move_drq_block();
    done = ide.done == ide.nsect;
  } else if (!done) {
    if (ide.done < ide.nsect)
      move_drq_block();
    else
      done = true;
  }
  if (done) {
    ide.status = s;
    ide.data = NULL;
    wakeup(&ide.data);
  }
  spin_unlock(&ide.lock);
}
