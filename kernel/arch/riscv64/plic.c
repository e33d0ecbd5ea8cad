// The platform-level interrupt controller of QEMU virt: routes the UART,
// virtio-blk and virtio console interrupts to every hart's supervisor
// context.
#include "task.h"

#define PLIC(off) ((volatile u32 *)__va(VIRT_PLIC + (off)))
#define PLIC_PRIORITY(irq)   PLIC(4 * (irq))
#define PLIC_SENABLE(h)      PLIC(0x2000 + 0x100 * (h) + 0x80)
#define PLIC_STHRESHOLD(h)   PLIC(0x200000 + 0x2000 * (h) + 0x1000)
#define PLIC_SCLAIM(h)       PLIC(0x200004 + 0x2000 * (h) + 0x1000)

// Once, on the boot hart: give our interrupts a non-zero priority.
void plic_init(void)
{
  *PLIC_PRIORITY(UART0_IRQ) = 1;
  *PLIC_PRIORITY(VIRTIO0_IRQ) = 1;
  *PLIC_PRIORITY(VIRTIO1_IRQ) = 1;
}

// Every hart: enable our interrupts for its S-mode context.
void plic_init_hart(void)
{
  int h = smp_processor_id();
  *PLIC_SENABLE(h) = (1U << UART0_IRQ) | (1U << VIRTIO0_IRQ) | (1U << VIRTIO1_IRQ);
  *PLIC_STHRESHOLD(h) = 0;
}

// Which interrupt is pending (0: none).
int plic_claim(void) { return *PLIC_SCLAIM(smp_processor_id()); }

void plic_complete(int irq) { *PLIC_SCLAIM(smp_processor_id()) = irq; }
