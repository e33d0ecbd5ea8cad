# Trap entry and exit, context switch, first entry of a new task.
# While a task runs in user mode, stvec = handle_user_trap and sscratch
# holds the task pointer; in the kernel, stvec = handle_kernel_trap and tp
# holds the task pointer ("current").
#include "arch_defs.h"

#define R(n) ((n) * 8)
#define PT_STATUS  R(32)
#define PT_BADADDR R(33)
#define PT_CAUSE   R(34)
#define PT_SIZE    R(36)          /* keeps sp 16-byte aligned */

.text
.balign 4
.global handle_user_trap
handle_user_trap:
	csrrw tp, sscratch, tp        # tp = current task, sscratch = user tp
	sd sp, TI_USER_SP(tp)
	ld sp, TI_REGS(tp)            # pt_regs sits at the top of the kernel stack
	sd ra, R(1)(sp)
	sd gp, R(3)(sp)
	sd t0, R(5)(sp)
	sd t1, R(6)(sp)
	sd t2, R(7)(sp)
	sd s0, R(8)(sp)
	sd s1, R(9)(sp)
	sd a0, R(10)(sp)
	sd a1, R(11)(sp)
	sd a2, R(12)(sp)
	sd a3, R(13)(sp)
	sd a4, R(14)(sp)
	sd a5, R(15)(sp)
	sd a6, R(16)(sp)
	sd a7, R(17)(sp)
	sd s2, R(18)(sp)
	sd s3, R(19)(sp)
	sd s4, R(20)(sp)
	sd s5, R(21)(sp)
	sd s6, R(22)(sp)
	sd s7, R(23)(sp)
	sd s8, R(24)(sp)
	sd s9, R(25)(sp)
	sd s10, R(26)(sp)
	sd s11, R(27)(sp)
	sd t3, R(28)(sp)
	sd t4, R(29)(sp)
	sd t5, R(30)(sp)
	sd t6, R(31)(sp)
	ld t0, TI_USER_SP(tp)
	sd t0, R(2)(sp)
	csrr t0, sscratch
	sd t0, R(4)(sp)
	csrr t0, sepc
	sd t0, R(0)(sp)
	csrr t0, sstatus
	sd t0, PT_STATUS(sp)
	csrr t0, stval
	sd t0, PT_BADADDR(sp)
	csrr t0, scause
	sd t0, PT_CAUSE(sp)
	la t0, handle_kernel_trap
	csrw stvec, t0
	li s0, 0                      # kernel backtraces end here
	mv a0, sp
	call riscv_user_trap

# Leave for user mode through the exit work (signals, rescheduling).
.global ret_to_user
ret_to_user:
	csrci sstatus, 2             # SIE off
	ld a0, TI_REGS(tp)
	call irqentry_exit_to_user_mode   # returns with interrupts off
	ld sp, TI_REGS(tp)
	la t0, handle_user_trap
	csrw stvec, t0
	csrw sscratch, tp
	ld t0, R(0)(sp)
	csrw sepc, t0
	ld t0, PT_STATUS(sp)
	csrw sstatus, t0
	ld ra, R(1)(sp)
	ld gp, R(3)(sp)
	ld tp, R(4)(sp)
	ld t0, R(5)(sp)
	ld t1, R(6)(sp)
	ld t2, R(7)(sp)
	ld s0, R(8)(sp)
	ld s1, R(9)(sp)
	ld a0, R(10)(sp)
	ld a1, R(11)(sp)
	ld a2, R(12)(sp)
	ld a3, R(13)(sp)
	ld a4, R(14)(sp)
	ld a5, R(15)(sp)
	ld a6, R(16)(sp)
	ld a7, R(17)(sp)
	ld s2, R(18)(sp)
	ld s3, R(19)(sp)
	ld s4, R(20)(sp)
	ld s5, R(21)(sp)
	ld s6, R(22)(sp)
	ld s7, R(23)(sp)
	ld s8, R(24)(sp)
	ld s9, R(25)(sp)
	ld s10, R(26)(sp)
	ld s11, R(27)(sp)
	ld t3, R(28)(sp)
	ld t4, R(29)(sp)
	ld t5, R(30)(sp)
	ld t6, R(31)(sp)
	ld sp, R(2)(sp)
	sret

# Traps taken in supervisor mode: save the registers a C call may clobber,
# plus sepc and sstatus (a timer tick may switch tasks before we return).
.balign 4
.global handle_kernel_trap
handle_kernel_trap:
	addi sp, sp, -R(20)
	sd ra, R(0)(sp)
	sd t0, R(1)(sp)
	sd t1, R(2)(sp)
	sd t2, R(3)(sp)
	sd a0, R(4)(sp)
	sd a1, R(5)(sp)
	sd a2, R(6)(sp)
	sd a3, R(7)(sp)
	sd a4, R(8)(sp)
	sd a5, R(9)(sp)
	sd a6, R(10)(sp)
	sd a7, R(11)(sp)
	sd t3, R(12)(sp)
	sd t4, R(13)(sp)
	sd t5, R(14)(sp)
	sd t6, R(15)(sp)
	csrr t0, sepc
	sd t0, R(16)(sp)
	csrr t0, sstatus
	sd t0, R(17)(sp)
	sd s0, R(18)(sp)
	addi s0, sp, R(20)
	call riscv_kernel_trap
	ld t0, R(16)(sp)
	csrw sepc, t0
	ld t0, R(17)(sp)
	csrw sstatus, t0
	ld ra, R(0)(sp)
	ld t0, R(1)(sp)
	ld t1, R(2)(sp)
	ld t2, R(3)(sp)
	ld a0, R(4)(sp)
	ld a1, R(5)(sp)
	ld a2, R(6)(sp)
	ld a3, R(7)(sp)
	ld a4, R(8)(sp)
	ld a5, R(9)(sp)
	ld a6, R(10)(sp)
	ld a7, R(11)(sp)
	ld t3, R(12)(sp)
	ld t4, R(13)(sp)
	ld t5, R(14)(sp)
	ld t6, R(15)(sp)
	ld s0, R(18)(sp)
	addi sp, sp, R(20)
	sret

# arch_switch_to(prev, next): save callee-saved registers into prev,
# load them from next, and make next current (tp).
.global arch_switch_to
arch_switch_to:
	sd ra, 0(a0)
	sd sp, 8(a0)
	sd s0, 16(a0)
	sd s1, 24(a0)
	sd s2, 32(a0)
	sd s3, 40(a0)
	sd s4, 48(a0)
	sd s5, 56(a0)
	sd s6, 64(a0)
	sd s7, 72(a0)
	sd s8, 80(a0)
	sd s9, 88(a0)
	sd s10, 96(a0)
	sd s11, 104(a0)
	ld ra, 0(a1)
	ld sp, 8(a1)
	ld s0, 16(a1)
	ld s1, 24(a1)
	ld s2, 32(a1)
	ld s3, 40(a1)
	ld s4, 48(a1)
	ld s5, 56(a1)
	ld s6, 64(a1)
	ld s7, 72(a1)
	ld s8, 80(a1)
	ld s9, 88(a1)
	ld s10, 96(a1)
	ld s11, 104(a1)
	addi tp, a1, -TI_CONTEXT
	ret

# A new task's first instructions. arch_copy_thread() left a kernel
# function in s1 and its argument in s2. A user task (s1 = 0) leaves for
# user mode with the registers fork copied; a kernel thread runs fn(arg),
# and if fn returns (only kernel_init does, after a successful exec) it
# leaves for user mode too.
.global ret_from_fork
ret_from_fork:
	call schedule_tail
	beqz s1, ret_to_user
	mv t0, s1
	mv a0, s2
	li s0, 0
	jalr t0
	j ret_to_user
