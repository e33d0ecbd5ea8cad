// Prototypes of the system calls, one per line of syscalls.h.
#ifndef TASKLAB_SYSCALL_H
#define TASKLAB_SYSCALL_H
struct pt_regs;
#define SYSCALL(nr, name) long sys_##name(struct pt_regs *regs);
#include "syscalls.h"
#undef SYSCALL
#define ARG(n) arch_syscall_arg(regs, (n))
// An argument user.h declares int (or short): only its low 32 bits are
// defined (riscv64 sign-extends ints in registers, x86_64 leaves the upper
// half undefined), so it is read like Linux's SYSCALL_DEFINE casts it.
#define ARG_INT(n) ((int)arch_syscall_arg(regs, (n)))
#endif
