# __clone_thread(flags, stack, ctid, fn, arg): clone a thread that runs
# fn(arg) on stack and then exits. The kernel gives the child a copy of
# every register but rax (and rcx, r11, which syscall uses), so fn and arg
# ride along in r9 and r8. In the child, the unwind table says the return
# address is undefined: this is the outermost frame, and a debugger's
# backtrace ends here instead of reading the new stack's garbage as
# callers (glibc's clone does the same).
#define SYSCALL(nr, name) .equ __NR_##name, nr;
#include "kernel/syscalls.h"

	.cfi_sections .debug_frame
.global __clone_thread
.type __clone_thread, @function
__clone_thread:
	.cfi_startproc
	movq %rcx, %r9
	movl $__NR_clone, %eax
	syscall
	testq %rax, %rax
	jnz 1f
	.cfi_remember_state
	.cfi_undefined rip            # the child: no caller
	xorl %ebp, %ebp
	andq $-16, %rsp
	movq %r8, %rdi
	call *%r9
	xorl %edi, %edi
	movl $__NR_exit_thread, %eax
	syscall
	.cfi_restore_state
1:	ret
	.cfi_endproc
.size __clone_thread, . - __clone_thread
