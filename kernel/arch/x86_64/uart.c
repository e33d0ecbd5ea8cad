// The 16550 UART at COM1 (I/O port 0x3f8): polled output, interrupt-driven
// input (ISA IRQ 4, through the I/O APIC).
#include "kernel.h"

#define COM1 0x3f8
#define RHR 0   // receive holding (read)
#define THR 0   // transmit holding (write)
#define IER 1   // interrupt enable
#define FCR 2   // FIFO control
#define LCR 3   // line control
#define MCR 4   // modem control
#define LSR 5   // line status
#define LSR_RX_READY 0x01
#define LSR_TX_IDLE  0x20

void ioapic_enable(int irq, int vec);

// 38.4K baud, 8 data bits, no parity, FIFOs on, receive interrupts on.
// OUT2 in MCR is what connects the UART's interrupt line on a PC.
void uart_init(void)
{
  outb(COM1 + IER, 0);
  outb(COM1 + LCR, 0x80);
  outb(COM1 + 0, 3);
  outb(COM1 + 1, 0);
  outb(COM1 + LCR, 3);
  outb(COM1 + FCR, 7);
  outb(COM1 + MCR, 0x0B);      // DTR, RTS, OUT2
  outb(COM1 + IER, 1);
  ioapic_enable(IRQ_COM1, VEC_COM1);
}

// Send one byte, waiting for room. Safe from any context.
void arch_console_putc(int c)
{
  while (!(inb(COM1 + LSR) & LSR_TX_IDLE))
    ;
  outb(COM1 + THR, c);
}

// Receive interrupt: hand every waiting byte to the console.
void uart_intr(void)
{
  while (inb(COM1 + LSR) & LSR_RX_READY)
    console_intr(inb(COM1 + RHR));
}
