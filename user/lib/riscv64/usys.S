# System call stubs, one per line of kernel/syscalls.h.
# a7 holds the number, a0-a5 the arguments; the result comes back in a0.
#define SYSCALL(nr, name) .global name; name: li a7, nr; ecall; ret;
#include "kernel/syscalls.h"

# syscall(nr, a0, ..., a5): any system call by its number (user/fuzz.c).
.global syscall
syscall:
	mv a7, a0
	mv a0, a1
	mv a1, a2
	mv a2, a3
	mv a3, a4
	mv a4, a5
	mv a5, a6
	ecall
	ret
