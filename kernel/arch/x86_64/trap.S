# Kernel entry and exit, context switch, first entry of a new task.
# In the kernel, %gs points at this CPU's struct x86_cpu (current task at
# %gs:0); in user mode the kernel's GS base waits in MSR_KERNEL_GS_BASE, so
# every entry from user mode and every exit to it does one swapgs.
# Every entry from user mode builds struct pt_regs at the top of the
# task's kernel stack: the CPU (or entry_syscall) pushes rip cs eflags rsp
# ss starting from the TSS's rsp0 = &regs->fs_base, and the code here
# pushes the rest, downwards in user_regs_struct order.
#include "arch_defs.h"

# Push the general registers below orig_rax in pt_regs order (rdi first).
.macro PUSH_GPRS_FROM_RSI
	pushq %rsi
	pushq %rdx
	pushq %rcx
	pushq %rax
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
.endm

# Pop them all back, rdi included; rsp then points at orig_rax.
.macro POP_GPRS
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rax
	popq %rcx
	popq %rdx
	popq %rsi
	popq %rdi
.endm

.text
# The syscall instruction lands here (MSR_LSTAR): rip in rcx, rflags in
# r11, interrupts off (MSR_SFMASK), still on the user stack and user GS.
.global entry_syscall
entry_syscall:
	swapgs
	movq %rsp, %gs:PCPU_USER_SP
	movq %gs:PCPU_SP0, %rsp      # = &current's regs->fs_base
	pushq $USER_DS               # ss
	pushq %gs:PCPU_USER_SP       # rsp
	pushq %r11                   # eflags
	pushq $USER_CS               # cs
	pushq %rcx                   # rip
	pushq %rax                   # orig_rax: the system call number
	pushq %rdi
	PUSH_GPRS_FROM_RSI
	xorl %ebp, %ebp              # kernel backtraces end here
	movq %rsp, %rdi
	subq $8, %rsp                # pt_regs is an odd number of words
	call x86_syscall
	addq $8, %rsp
	jmp ret_to_user

# The way out to user mode, for every kind of entry. rsp = the task's
# pt_regs. x86_exit_to_user() does the exit work (signals, rescheduling)
# and says whether sysret may be used: only when rcx and r11 hold rip and
# eflags anyway and rip is a user address. Otherwise iretq, which
# restores every register.
.global ret_to_user
ret_to_user:
	cli
	movq %rsp, %rdi
	subq $8, %rsp
	call x86_exit_to_user        # returns with interrupts off
	addq $8, %rsp
	testl %eax, %eax
	jz 1f
	POP_GPRS                     # rcx = rip, r11 = eflags
	movq PT_RSP - PT_ORIG_RAX(%rsp), %rsp
	swapgs
	sysretq
1:	POP_GPRS
	addq $8, %rsp                # orig_rax
	swapgs
	iretq

# Interrupt and exception entry: one 16-byte stub per vector, at
# x86_vector_stubs + 16 * vector (traps.c fills the IDT from that). Each
# pushes a dummy error code where the CPU pushes none, then the vector.
.balign 16
.global x86_vector_stubs
x86_vector_stubs:
.set vec, 0
.rept 256
	.balign 16
	.if !(vec == 8 || (vec >= 10 && vec <= 14) || vec == 17 || vec == 21 || vec == 29 || vec == 30)
	pushq $-1
	.endif
	pushq $vec
	jmp trap_common
	.set vec, vec + 1
.endr

# Stack: vector, error code, rip, cs, eflags, rsp, ss. From user mode this
# is the top of the task's pt_regs; from kernel mode it is a pt_regs-shaped
# frame on the current kernel stack (without the six words above ss).
trap_common:
	testb $3, 24(%rsp)           # cs: from user mode?
	jz 1f
	swapgs
	pushfq                       # clear AC: a user's AC would lift SMAP
	andl $~X86_EFLAGS_AC, (%rsp)
	popfq
1:	xchgq %rdi, (%rsp)           # the vector's slot becomes rdi's
	PUSH_GPRS_FROM_RSI
	cld
	movq %rdi, %rsi              # vector
	movq %rsp, %rdi              # regs
	testb $3, PT_CS(%rsp)
	jz 2f
	xorl %ebp, %ebp              # from user: kernel backtraces end here
2:	subq $8, %rsp
	call x86_trap
	addq $8, %rsp
	testb $3, PT_CS(%rsp)
	jnz ret_to_user
	POP_GPRS
	addq $8, %rsp                # error code
	iretq

# arch_switch_to(prev, next): save the callee-saved registers and the
# resume point in prev, load next's, and make next's task current: %gs:0,
# and the kernel stack its next entry from user mode will use (the
# syscall path's %gs:PCPU_SP0 and the TSS's rsp0).
.global arch_switch_to
arch_switch_to:
	popq %rax                    # our return address: prev resumes there
	movq %rax, CTX_RIP(%rdi)
	movq %rsp, CTX_RSP(%rdi)
	movq %rbx, CTX_RBX(%rdi)
	movq %rbp, CTX_RBP(%rdi)
	movq %r12, CTX_R12(%rdi)
	movq %r13, CTX_R13(%rdi)
	movq %r14, CTX_R14(%rdi)
	movq %r15, CTX_R15(%rdi)
	movq CTX_RSP(%rsi), %rsp
	movq CTX_RBX(%rsi), %rbx
	movq CTX_RBP(%rsi), %rbp
	movq CTX_R12(%rsi), %r12
	movq CTX_R13(%rsi), %r13
	movq CTX_R14(%rsi), %r14
	movq CTX_R15(%rsi), %r15
	leaq -TI_CONTEXT(%rsi), %rax # next's struct task
	movq %rax, %gs:PCPU_CURRENT
	movq TI_SP0(%rax), %rcx
	movq %rcx, %gs:PCPU_SP0
	movq %rcx, %gs:PCPU_TSS_RSP0
	jmp *CTX_RIP(%rsi)

# A new task's first instructions. arch_copy_thread() left a kernel
# function in r12 and its argument in r13. A user task (r12 = 0) leaves
# for user mode with the registers fork copied; a kernel thread runs
# fn(arg), and if fn returns (only kernel_init does, after a successful
# exec) it leaves for user mode too.
.global ret_from_fork
ret_from_fork:
	call schedule_tail
	testq %r12, %r12
	jz 1f
	movq %r13, %rdi
	xorl %ebp, %ebp
	call *%r12
1:	movq %gs:PCPU_CURRENT, %rax
	movq TI_REGS(%rax), %rsp
	jmp ret_to_user
