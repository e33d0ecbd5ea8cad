// Interrupt controllers and time of QEMU pc: each CPU's local APIC (timer,
// EOI, IPIs), the I/O APIC that routes the UART and disk interrupts, the
// legacy 8259 PICs (masked), and the 8254 PIT as a stopwatch to measure
// the LAPIC timer once and to wait during CPU start-up.
#include "task.h"

#define LAPIC(reg) ((volatile u32 *)IO_VA(LAPIC_PHYS + (reg)))
#define LAPIC_ID     0x020
#define LAPIC_TPR    0x080
#define LAPIC_EOI    0x0B0
#define LAPIC_SVR    0x0F0
#define LAPIC_ESR    0x280
#define LAPIC_ICRLO  0x300
#define LAPIC_ICRHI  0x310
#define LAPIC_TIMER  0x320
#define LAPIC_LINT0  0x350
#define LAPIC_LINT1  0x360
#define LAPIC_ERROR  0x370
#define LAPIC_TICR   0x380
#define LAPIC_TCCR   0x390
#define LAPIC_TDCR   0x3E0
#define LVT_MASKED   (1U << 16)
#define SVR_ENABLE   0x100
#define ICR_BUSY     (1U << 12)
#define TDCR_DIV16   0x3

#define IOAPIC_REGSEL ((volatile u32 *)IO_VA(IOAPIC_PHYS))
#define IOAPIC_WIN    ((volatile u32 *)IO_VA(IOAPIC_PHYS + 0x10))
#define IOAPIC_VER    0x01
#define IOAPIC_REDIR(pin) (0x10 + 2 * (pin))

#define PIT_HZ 1193182

static u32 lapic_ticks_per_jiffy;   // LAPIC timer counts (divided by 16) per tick
static u64 tsc_per_jiffy;          // TSC cycles per tick
static u64 tsc_at_boot;            // at calibration: jiffy 0 of the clock

// ---- PIT channel 2, gated through port 0x61, output readable in bit 5.

// Count down from count PIT ticks (at most 65535, about 55 ms).
static void pit_start(u32 count)
{
  outb(0x61, (inb(0x61) & ~0x02) | 0x01);   // gate on, speaker off
  outb(0x43, 0xB0);                         // channel 2, lo/hi byte, mode 0
  outb(0x42, count & 0xff);
  outb(0x42, count >> 8);
}

// Has the count started by pit_start() reached zero?
static bool pit_done(void) { return inb(0x61) & 0x20; }

// Busy-wait us microseconds (up to 55 ms). Before the timer runs only.
void pit_delay_us(u32 us)
{
  pit_start((u64)PIT_HZ * us / 1000000 + 1);
  while (!pit_done())
    ;
}

// ---- local APIC

// How fast this CPU's LAPIC timer and TSC count: let them run while the
// PIT measures one tick's time (1/HZ s). Once, on the boot CPU; QEMU
// gives every CPU the same LAPIC clock.
static void lapic_calibrate(void)
{
  *LAPIC(LAPIC_TIMER) = LVT_MASKED;
  *LAPIC(LAPIC_TDCR) = TDCR_DIV16;
  *LAPIC(LAPIC_TICR) = 0xFFFFFFFF;
  pit_start(PIT_HZ / HZ);
  u32 start = *LAPIC(LAPIC_TCCR);
  u64 tsc = rdtsc();
  while (!pit_done())
    ;
  u32 end = *LAPIC(LAPIC_TCCR);
  tsc_per_jiffy = rdtsc() - tsc;
  tsc_at_boot = tsc;
  lapic_ticks_per_jiffy = start - end;
  if (lapic_ticks_per_jiffy < 100 || tsc_per_jiffy < 100)
    panic("lapic: timer calibration failed (%u counts, %lu TSC cycles per tick)",
          lapic_ticks_per_jiffy, tsc_per_jiffy);
}

// This CPU's LAPIC: enabled, every local interrupt source but the timer
// masked (the PIC's ExtINT on LINT0 included), timer ticking at HZ.
void lapic_init_cpu(void)
{
  *LAPIC(LAPIC_SVR) = SVR_ENABLE | VEC_SPURIOUS;
  *LAPIC(LAPIC_TPR) = 0;
  *LAPIC(LAPIC_LINT0) = LVT_MASKED;
  *LAPIC(LAPIC_LINT1) = LVT_MASKED;
  *LAPIC(LAPIC_ERROR) = LVT_MASKED;
  *LAPIC(LAPIC_ESR) = 0;
  *LAPIC(LAPIC_ESR) = 0;
  if (!lapic_ticks_per_jiffy)
    lapic_calibrate();
  *LAPIC(LAPIC_TDCR) = TDCR_DIV16;
  *LAPIC(LAPIC_TIMER) = VEC_TIMER;          // one-shot, unmasked
  *LAPIC(LAPIC_EOI) = 0;
  arch_timer_next();
}

// Arm this CPU's timer for one tick (one-shot, re-armed by each tick).
void arch_timer_next(void)
{
  *LAPIC(LAPIC_TICR) = lapic_ticks_per_jiffy;
}

void lapic_eoi(void) { *LAPIC(LAPIC_EOI) = 0; }

u32 lapic_id(void) { return *LAPIC(LAPIC_ID) >> 24; }

// Send an inter-processor interrupt (ICR low word icr) to the CPU whose
// APIC id is apic_id, and wait until the LAPIC has sent it.
void lapic_send_ipi(u32 apic_id, u32 icr)
{
  *LAPIC(LAPIC_ICRHI) = apic_id << 24;
  *LAPIC(LAPIC_ICRLO) = icr;
  while (*LAPIC(LAPIC_ICRLO) & ICR_BUSY)
    ;
}

// ---- I/O APIC and the legacy PICs

// I/O APIC registers are reached through a select/window pair.
static u32 ioapic_read(u32 reg)
{
  *IOAPIC_REGSEL = reg;
  return *IOAPIC_WIN;
}

// Write an I/O APIC register (see ioapic_read).
static void ioapic_write(u32 reg, u32 val)
{
  *IOAPIC_REGSEL = reg;
  *IOAPIC_WIN = val;
}

// Once, on the boot CPU: mask both 8259s (everything goes through the
// APICs) and every I/O APIC pin until a driver asks for it.
void ioapic_init(void)
{
  outb(0x21, 0xff);
  outb(0xA1, 0xff);
  int pins = ((ioapic_read(IOAPIC_VER) >> 16) & 0xff) + 1;
  for (int i = 0; i < pins; i++) {
    ioapic_write(IOAPIC_REDIR(i), LVT_MASKED);
    ioapic_write(IOAPIC_REDIR(i) + 1, 0);
  }
}

// Deliver ISA interrupt irq (edge, active high: the I/O APIC pin has the
// same number on QEMU pc) as vector vec to the boot CPU.
void ioapic_enable(int irq, int vec)
{
  ioapic_write(IOAPIC_REDIR(irq), vec);
  ioapic_write(IOAPIC_REDIR(irq) + 1, lapic_id() << 24);
}

// Ticks since calibration, by the TSC (QEMU keeps it in step with real
// time, and every CPU's alike).
u64 arch_clock_jiffies(void)
{
  return (rdtsc() - tsc_at_boot) / tsc_per_jiffy;
}
