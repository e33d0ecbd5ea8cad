# System call stubs, one per line of kernel/syscalls.h.
# a7 holds the number, a0-a5 the arguments; the result comes back in a0.
#define SYSCALL(nr, name) .global name; name: li a7, nr; ecall; ret;
#include "kernel/syscalls.h"
