# System call stubs, one per line of kernel/syscalls.h.
# rax holds the number, rdi rsi rdx r10 r8 r9 the arguments (Linux's
# registers: syscall overwrites rcx, so the 4th C argument moves to r10);
# the result comes back in rax.
#define SYSCALL(nr, name) .global name; name: movl $nr, %eax; movq %rcx, %r10; syscall; ret;
#include "kernel/syscalls.h"

# syscall(nr, a0, ..., a5): any system call by its number (user/fuzz.c).
# The sixth argument comes on the stack.
.global syscall
syscall:
	movq %rdi, %rax
	movq %rsi, %rdi
	movq %rdx, %rsi
	movq %rcx, %rdx
	movq %r8, %r10
	movq %r9, %r8
	movq 8(%rsp), %r9
	syscall
	ret
