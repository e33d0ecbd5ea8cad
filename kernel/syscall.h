// Prototypes of the system calls, one per line of syscalls.h.
#ifndef TASKLAB_SYSCALL_H
#define TASKLAB_SYSCALL_H
struct pt_regs;
#define SYSCALL(nr, name) long sys_##name(struct pt_regs *regs);
#include "syscalls.h"
#undef SYSCALL
#define ARG(n) arch_syscall_arg(regs, (n))
#endif
