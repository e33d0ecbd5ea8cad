# __clone_thread(flags, stack, ctid, fn, arg): clone a thread that runs
# fn(arg) on stack and then exits. The kernel gives the child a copy of
# every register, so fn and arg ride along in t0 and t1.
#define SYSCALL(nr, name) .equ __NR_##name, nr;
#include "kernel/syscalls.h"

.global __clone_thread
__clone_thread:
	mv t0, a3
	mv t1, a4
	li a7, __NR_clone
	ecall
	bnez a0, 1f
	li s0, 0                  # the child: backtraces end here
	li ra, 0
	mv a0, t1
	jalr t0
	li a0, 0
	li a7, __NR_exit_thread
	ecall
1:	ret
