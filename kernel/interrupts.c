// Interrupt counts, per CPU and per source, shown as Linux's
// /proc/interrupts: a header of CPU columns, then one line for each
// source with its label (the interrupt line, or LOC for x86's local
// timer), a count for each CPU, and the chip and device the arch names
// (ARCH_IRQ_DESCS in arch_defs.h).
//
// tasklab differs from Linux: three fixed sources (the timer, the
// console's UART, the disk) rather than a table of every line the
// machine has; no interrupt is shared, so a count is one device's.

#include "kernel.h"
#include "task.h"

// counts[cpu][src]: each CPU writes only its own row, in its interrupt
// handler with interrupts off, so no lock: readers load each word whole
// (relaxed) and may see a count a moment old.
static u64 counts[NCPU][NR_IRQ_SOURCES];

static const struct { const char *label, *desc; } descs[NR_IRQ_SOURCES] = ARCH_IRQ_DESCS;

// Count one interrupt from src on this CPU. Interrupts off (the arch's
// trap dispatch).
void kstat_incr_irq(enum irq_source src)
{
  BUG_ON(src >= NR_IRQ_SOURCES || arch_irqs_enabled());
  u64 *c = &counts[smp_processor_id()][src];
  __atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
}

// The CPUs that have come up: those with an idle task.
static int online_cpus(void)
{
  int n = 0;
  while (n < NCPU && cpus[n].idle)
    n++;
  return n;
}

// The text of /proc/interrupts into buf (a page: the lines of NCPU CPUs
// take a tenth of it). Returns its length.
int interrupts_show(char *buf, int size)
{
  int ncpu = online_cpus(), len = 0;
  BUG_ON(size < 80 + NR_IRQ_SOURCES * (80 + 12 * NCPU));
  len += snprintf(buf + len, size - len, "    ");
  for (int cpu = 0; cpu < ncpu; cpu++)
    len += snprintf(buf + len, size - len, "        CPU%d", cpu);   // over the counts
  len += snprintf(buf + len, size - len, "\n");
  for (int src = 0; src < NR_IRQ_SOURCES; src++) {
    len += snprintf(buf + len, size - len, "%s:", descs[src].label);
    for (int cpu = 0; cpu < ncpu; cpu++)
      len += snprintf(buf + len, size - len, " %11lu",
                      __atomic_load_n(&counts[cpu][src], __ATOMIC_RELAXED));
    len += snprintf(buf + len, size - len, "  %s\n", descs[src].desc);
  }
  return len;
}
