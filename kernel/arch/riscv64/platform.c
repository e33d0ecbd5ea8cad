// QEMU virt platform glue: early devices, secondary harts, poweroff.
#include "kernel.h"

void uart_init(void);
void plic_init(void);

// Boot hart, before anything else can print: console and PLIC.
void arch_early_init(void)
{
  uart_init();
  plic_init();
}

// The other harts spin in start_kernel() until this flag is set.
volatile int secondaries_go __attribute__((section(".data"))) = 0;

void arch_start_secondary_cpus(void)
{
  __sync_synchronize();
  secondaries_go = 1;
}

// The sifive test device ends QEMU: 0x5555 passes (exit 0), and
// (code << 16) | 0x3333 fails with exit status code (8 bits, never 0).
void __noreturn arch_poweroff(int code)
{
  volatile u32 *test = __va(VIRT_TEST);
  code &= 0xff;
  *test = code == 0 ? 0x5555 : ((u32)code << 16) | 0x3333;
  for (;;)
    asm volatile("wfi");
}
