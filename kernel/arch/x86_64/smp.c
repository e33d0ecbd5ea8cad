// Starting the other CPUs (application processors) of QEMU pc. They sit
// halted until the boot CPU wakes each one with INIT-SIPI-SIPI into the
// real-mode trampoline of entry.S, copied to low memory; each then takes
// the boot CPU's path to long mode and into start_kernel(cpu), where it
// waits for secondaries_go like a riscv hart.
#include "task.h"

#define TRAMPOLINE 0x8000     // page-aligned, below 1 MiB: SIPI vector 0x08
#define FW_CFG_CTL  0x510
#define FW_CFG_DATA 0x511
#define FW_CFG_NB_CPUS 0x05
#define ICR_INIT    0x4500    // INIT, level assert
#define ICR_STARTUP 0x4600    // start-up IPI, vector in the low byte

extern char trampoline_start[], trampoline_end[];
extern volatile u32 ap_cpu_id, ap_started;
void lapic_send_ipi(u32 apic_id, u32 icr);
void pit_delay_us(u32 us);

// The other CPUs wait in start_kernel() until this flag is set.
volatile int secondaries_go __attribute__((section(".data"))) = 0;

// The number of CPUs (-smp N), from QEMU's firmware configuration device.
// QEMU numbers their APIC ids 0..N-1, which is what we wake below.
static int fw_cfg_nr_cpus(void)
{
  outw(FW_CFG_CTL, FW_CFG_NB_CPUS);
  int lo = inb(FW_CFG_DATA);
  int hi = inb(FW_CFG_DATA);
  int n = lo | (hi << 8);
  return n > 0 ? n : 1;
}

// Wake CPU cpu, already reset by INIT, and wait (up to a second) until
// it runs kernel code. Returns whether it came. One at a time: ap_cpu_id
// names the CPU.
static bool start_cpu(int cpu)
{
  ap_cpu_id = cpu;
  ap_started = 0;
  __sync_synchronize();
  for (int i = 0; i < 2 && !ap_started; i++) {
    lapic_send_ipi(cpu, ICR_STARTUP | (TRAMPOLINE >> 12));
    pit_delay_us(200);
  }
  for (int ms = 0; ms < 1000 && !ap_started; ms++)
    pit_delay_us(1000);
  return ap_started;
}

// Boot CPU, once the kernel is up: start every other CPU, then let them
// all into the scheduler.
void arch_start_secondary_cpus(void)
{
  int n = fw_cfg_nr_cpus();
  if (n > NCPU) {
    printk("smp: %d CPUs, using %d (NCPU)\n", n, NCPU);
    n = NCPU;
  }
  if (n > 1)
    memcpy(__va(TRAMPOLINE), trampoline_start, trampoline_end - trampoline_start);
  // INIT every CPU, then one wait for all of them (10 ms, as Intel asks).
  for (int cpu = 1; cpu < n; cpu++)
    lapic_send_ipi(cpu, ICR_INIT);
  if (n > 1)
    pit_delay_us(10000);
  for (int cpu = 1; cpu < n; cpu++)
    if (!start_cpu(cpu)) {
      printk("smp: cpu %d did not start\n", cpu);
      break;
    }
  __sync_synchronize();
  secondaries_go = 1;
}

// A CPU waiting in start_kernel(): the boot CPU starts the others only
// once the kernel is up, so the wait is short; pause tells the host so.
void arch_boot_wait(void)
{
  asm volatile("pause");
}
