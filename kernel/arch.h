// The architecture contract: every hook an architecture provides to the
// core. Core code includes this header and never an arch file directly;
// arch_defs.h (from kernel/arch/$(ARCH)/, on the include path) supplies
// the types and constants named here.
#ifndef TASKLAB_ARCH_H
#define TASKLAB_ARCH_H
#include "types.h"
#include "arch_defs.h"
// arch_defs.h defines:
//   struct pt_regs       user registers saved at kernel entry
//   struct context       callee-saved registers for arch_switch_to()
//   struct thread_info   arch per-task words; first member of struct task
//   PAGE_OFFSET          kernel linear map: va = pa + PAGE_OFFSET
//   PHYS_RAM_BASE        first byte of RAM
//   USER_TOP             first address above user space
//   PT_LEVELS, PGD_KERNEL_FIRST   page-table shape
//   ARCH_DISK_NAME, ARCH_DISK_MAJOR  the disk as Linux would name it (/proc/diskstats)
//   ARCH_IRQ_DESCS       each irq_source's label and chip/device text (/proc/interrupts)
//   pte bits as PTE_* and the inline helpers below
//   FRAME_RA_OFFSET, FRAME_FP_OFFSET   the frame-pointer layout (stack traces)

struct task;

// ---- boot and CPUs
void arch_early_init(void);          // boot CPU: console, interrupt controller
void arch_cpu_init(void);            // every CPU: trap vector, timer, irqs
u64  arch_phys_ram_end(void);        // first byte past RAM
void arch_start_secondary_cpus(void);// let the other CPUs into the kernel
void arch_boot_wait(void);           // other CPUs: sleep ~1 ms before looking again

// ---- interrupts
void arch_irq_enable(void);
void arch_irq_disable(void);
bool arch_irqs_enabled(void);
void arch_wait_for_interrupt(void);  // idle: sleep until an interrupt (wfi/hlt)

// The sources of interrupts the arch counts (kstat_incr_irq()).
enum irq_source { IRQ_SRC_TIMER, IRQ_SRC_UART, IRQ_SRC_DISK, NR_IRQ_SOURCES };

// ---- tasks: context switch, first entry, user registers
void arch_switch_to(struct context *prev, struct context *next);
void arch_copy_thread(struct task *t, void (*fn)(void *), void *arg);
void arch_fork_regs(struct pt_regs *child, const struct pt_regs *parent, u64 sp);
void arch_start_user(struct pt_regs *regs, u64 pc, u64 sp, u64 argc, u64 argv);
long arch_syscall_nr(const struct pt_regs *regs);
long arch_syscall_arg(const struct pt_regs *regs, int n);
void arch_syscall_set_return(struct pt_regs *regs, long val);
long arch_syscall_get_return(const struct pt_regs *regs);  // what set_return stored
u64  arch_user_pc(const struct pt_regs *regs);
struct pt_regs *task_pt_regs(struct task *t);

// ---- signals and system-call restart
struct k_sigaction;
int  arch_setup_sigframe(struct pt_regs *regs, int sig, const struct k_sigaction *ka,
                         sigset_t saved_mask);   // 0 or -EFAULT
int  arch_restore_sigframe(struct pt_regs *regs, sigset_t *mask);  // 0 or -EFAULT
bool arch_in_syscall(const struct pt_regs *regs);   // stopped in a restartable call
void arch_syscall_restart(struct pt_regs *regs);    // re-issue it on return
void arch_syscall_done(struct pt_regs *regs);       // never restart it
void arch_syscall_set_arg(struct pt_regs *regs, int n, long val); // for the restart

// ---- ptrace: the user registers as Linux's user_regs_struct
long arch_ptrace_getregs(struct task *t, u64 *regs);        // returns bytes (<= 512)
void arch_ptrace_setregs(struct task *t, const u64 *regs);  // user state only
// Single-step (PTRACE_SINGLESTEP), with Linux's names. Where the CPU
// cannot step, arch_has_single_step() is false and a debugger steps in
// software, with breakpoints. Caller holds the tracee's siglock.
bool arch_has_single_step(void);
void user_enable_single_step(struct task *t);   // t stopped for its tracer
void user_disable_single_step(struct task *t);  // t stopped or running

// ---- the second serial line (/ttyS1, kernel/serial.c): a raw byte
// channel to the host. Bytes received go to serial2_rx() from the
// arch's interrupt handler. arch_defs.h names the device:
// ARCH_SERIAL2_NAME.
bool arch_serial2_init(void);                 // boot: true if the machine has it
void arch_serial2_write(const char *p, long n); // send, waiting for room
// serial2_rx() refused a byte (the buffer was full): the arch kept it and
// took no more; a read has made room. Deliver what is held, and go on.
void arch_serial2_unthrottle(void);           // no locks held

// ---- page tables
void arch_switch_mm(pte_t *pgd);     // load pgd and flush stale translations
void arch_flush_tlb(void);
pte_t *arch_kernel_pgd(void);        // the kernel's own page table
pte_t arch_mk_pte(u64 pa, int prot); // leaf entry; prot is VM_* bits
pte_t arch_mk_table(u64 pa);         // entry pointing at a lower table
bool arch_pte_present(pte_t pte);
bool arch_pte_leaf(pte_t pte);
u64  arch_pte_pa(pte_t pte);
int  arch_pte_prot(pte_t pte);       // VM_* bits of a leaf

// ---- stack traces (the watchdog, hung_task.c)
// Where t's kernel stack walk starts: the frame pointer and pc it was
// switched out with (t asleep, not on a CPU). arch_defs.h gives the frame
// layout the walk follows: FRAME_RA_OFFSET and FRAME_FP_OFFSET, where the
// return address and the caller's frame pointer sit relative to a frame
// pointer.
void arch_switched_frame(const struct task *t, u64 *fp, u64 *pc);

// ---- time
void arch_timer_next(void);          // arm this CPU's timer for one tick
u64  arch_clock_jiffies(void);       // ticks (1/HZ s) since boot, by a clock that misses none

// ---- devices
void arch_console_putc(int c);       // polled output, usable anywhere
void arch_disk_init(void);
// Read or write n blocks (1..DISK_RUN_MAX), from blockno on, to or from
// data[0..n-1], BSIZE bytes each: one request to the disk; sleeps until done.
#define DISK_RUN_MAX 64
void arch_disk_rw(u32 blockno, u8 *const data[], int n, bool write);
void __noreturn arch_poweroff(int code);        // 0: success, else failure

// VM_* protection bits for arch_mk_pte().
#define VM_READ   0x1
#define VM_WRITE  0x2
#define VM_EXEC   0x4
#define VM_USER   0x8

// Hooks the core provides to the arch code (trap dispatch).
void do_syscall(struct pt_regs *regs);
void do_timer_tick(bool from_user);
void kstat_incr_irq(enum irq_source src);   // interrupts.c, interrupts off
void do_user_fault(struct pt_regs *regs, int sig, u64 addr, const char *what);
void console_intr(int c);
bool serial2_rx(int c);                     // serial.c, interrupts off: false if full
bool serial2_rx_room(void);                 // serial.c, interrupts off
void irqentry_exit_to_user_mode(struct pt_regs *regs);
void schedule_tail(void);
void preempt_check(void);

#define __va(pa) ((void *)((u64)(pa) + PAGE_OFFSET))
#define __pa(va) ((u64)(va) - PAGE_OFFSET)
#endif
