// The pc's 16550 UARTs: COM1 (I/O port 0x3f8, ISA IRQ 4) is the console;
// COM2 (0x2f8, IRQ 3), when the machine has one, is the second serial
// line (/ttyS1, kernel/serial.c). Polled output, interrupt-driven input,
// through the I/O APIC.
#include "kernel.h"

#define COM1 0x3f8
#define COM2 0x2f8
#define RHR 0   // receive holding (read)
#define THR 0   // transmit holding (write)
#define IER 1   // interrupt enable
#define FCR 2   // FIFO control
#define LCR 3   // line control
#define MCR 4   // modem control
#define LSR 5   // line status
#define SCR 7   // scratch: a byte that reads back only where a UART is
#define LSR_RX_READY 0x01
#define LSR_TX_IDLE  0x20

void ioapic_enable(int irq, int vec);

// 38.4K baud, 8 data bits, no parity, FIFOs on, receive interrupts on.
// OUT2 in MCR is what connects the UART's interrupt line on a PC.
static void uart_setup(u16 base)
{
  outb(base + IER, 0);
  outb(base + LCR, 0x80);
  outb(base + 0, 3);
  outb(base + 1, 0);
  outb(base + LCR, 3);
  outb(base + FCR, 7);
  outb(base + MCR, 0x0B);      // DTR, RTS, OUT2
  outb(base + IER, 1);
}

// Send one byte on the UART at base, waiting for room.
static void uart_putc_at(u16 base, int c)
{
  while (!(inb(base + LSR) & LSR_TX_IDLE))
    ;
  outb(base + THR, c);
}

void uart_init(void)
{
  uart_setup(COM1);
  ioapic_enable(IRQ_COM1, VEC_COM1);
}

// Send one byte, waiting for room. Safe from any context.
void arch_console_putc(int c)
{
  uart_putc_at(COM1, c);
}

// COM1's receive interrupt: hand every waiting byte to the console.
void uart_intr(void)
{
  while (inb(COM1 + LSR) & LSR_RX_READY)
    console_intr(inb(COM1 + RHR));
}

// Is there a COM2? QEMU makes one for a second -serial option; without
// it the ports float and the scratch register does not keep a value.
bool arch_serial2_init(void)
{
  outb(COM2 + SCR, 0x5a);
  if (inb(COM2 + SCR) != 0x5a)
    return false;
  uart_setup(COM2);
  ioapic_enable(IRQ_COM2, VEC_COM2);
  return true;
}

void arch_serial2_write(const char *p, long n)
{
  for (long i = 0; i < n; i++)
    uart_putc_at(COM2, p[i]);
}

// COM2's receive interrupt: every waiting byte to the second line. When
// the line's buffer is full, the receive interrupt goes off and the bytes
// wait in the UART (QEMU then holds the rest, unread, on its socket) until
// a read makes room (arch_serial2_unthrottle()). Interrupts off.
void uart2_intr(void)
{
  while (inb(COM2 + LSR) & LSR_RX_READY) {
    if (!serial2_rx_room()) {
      outb(COM2 + IER, 0);
      // A read may have made room, and unthrottled, before that write.
      if (!serial2_rx_room())
        return;
      outb(COM2 + IER, 1);
    }
    serial2_rx(inb(COM2 + RHR));
  }
}

// Receive interrupts back on: the UART raises one at once for the bytes
// it holds.
void arch_serial2_unthrottle(void)
{
  outb(COM2 + IER, 1);
}
