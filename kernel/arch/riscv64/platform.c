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

// The other harts wait in start_kernel() until this flag is set.
volatile int secondaries_go __attribute__((section(".data"))) = 0;

void arch_start_secondary_cpus(void)
{
  __sync_synchronize();
  secondaries_go = 1;
}

// A hart waiting in start_kernel(): sleep in wfi until a timer ~1 ms
// ahead fires. SIE is clear and stvec unset, so the interrupt only wakes
// the hart and is never taken; arch_cpu_init() re-arms the timer later.
void arch_boot_wait(void)
{
  csr_set(sie, SIE_STIE);
  csr_write(0x14d, csr_read(time) + TIMEBASE_HZ / 1000);   // stimecmp
  asm volatile("wfi");
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
