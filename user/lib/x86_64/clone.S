# __clone_thread(flags, stack, ctid, fn, arg): clone a thread that runs
# fn(arg) on stack and then exits. The kernel gives the child a copy of
# every register but rax (and rcx, r11, which syscall uses), so fn and arg
# ride along in r9 and r8.
#define SYSCALL(nr, name) .equ __NR_##name, nr;
#include "kernel/syscalls.h"

.global __clone_thread
__clone_thread:
	movq %rcx, %r9
	movl $__NR_clone, %eax
	syscall
	testq %rax, %rax
	jnz 1f
	xorl %ebp, %ebp               # the child: backtraces end here
	andq $-16, %rsp
	movq %r8, %rdi
	call *%r9
	xorl %edi, %edi
	movl $__NR_exit_thread, %eax
	syscall
1:	ret
