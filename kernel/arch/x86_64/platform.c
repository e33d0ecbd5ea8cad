// QEMU pc platform glue: early devices, memory size, poweroff.
#include "kernel.h"

void uart_init(void);
void ioapic_init(void);

extern u32 multiboot_info;     // entry.S: physical address of the multiboot info
static u64 ram_end;

// The multiboot information: mem_upper (flags bit 0) is the KiB of RAM
// above 1 MiB. Read before page_alloc_init(): QEMU puts the information
// just past the kernel image, in memory the page allocator then reuses.
static void read_multiboot_info(void)
{
  u32 *mbi = __va((u64)multiboot_info);
  ram_end = 128UL << 20;       // what the Makefile asks for, if no info
  if (multiboot_info && (mbi[0] & 1))
    ram_end = ((u64)mbi[2] + 1024) << 10;
  if (ram_end > LINEAR_MAP_SIZE)
    ram_end = LINEAR_MAP_SIZE; // only the linear map is usable
}

// Boot CPU, before anything else can print: interrupt routing, console.
void arch_early_init(void)
{
  read_multiboot_info();
  ioapic_init();
  uart_init();
}

u64 arch_phys_ram_end(void) { return ram_end; }

// Success: ACPI sleep state S5 through the PM1a control register of
// QEMU's PIIX4 power management (SLP_EN, SLP_TYP 0), at port 0x604 where
// SeaBIOS puts it; QEMU then exits with status 0, like the sifive test
// device on riscv. Failure: isa-debug-exit (-device isa-debug-exit,
// iobase=0xf4), which ends QEMU with status (value << 1) | 1. Writing
// code >> 1 gives exactly status code for odd codes (panic's 99,
// logcrash's 3); an even code c ends with c | 1.
void __noreturn arch_poweroff(int code)
{
  code &= 0xff;
  if (code == 0)
    outw(0x604, 0x2000);
  else
    outl(0xf4, code >> 1);
  for (;;)
    asm volatile("cli; hlt");
}
