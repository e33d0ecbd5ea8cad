// The 16550 UART of QEMU virt: polled output, interrupt-driven input.
#include "kernel.h"
#include "spinlock.h"

#define UART(reg) ((volatile u8 *)__va(VIRT_UART0 + (reg)))
#define RHR 0   // receive holding (read)
#define THR 0   // transmit holding (write)
#define IER 1   // interrupt enable
#define FCR 2   // FIFO control
#define LCR 3   // line control
#define LSR 5   // line status
#define LSR_RX_READY 0x01
#define LSR_TX_IDLE  0x20

// 38.4K baud, 8 data bits, no parity, FIFOs on, receive interrupts on.
void uart_init(void)
{
  *UART(IER) = 0;
  *UART(LCR) = 0x80;
  *UART(0) = 3;
  *UART(1) = 0;
  *UART(LCR) = 3;
  *UART(FCR) = 7;
  *UART(IER) = 1;
}

// Send one byte, waiting for room. Safe from any context.
void arch_console_putc(int c)
{
  while (!(*UART(LSR) & LSR_TX_IDLE))
    ;
  *UART(THR) = c;
}

// Receive interrupt: hand every waiting byte to the console.
void uart_intr(void)
{
  while (*UART(LSR) & LSR_RX_READY)
    console_intr(*UART(RHR));
}
