// ptrace request numbers (Linux's), shared by the kernel and user space.
#ifndef TASKLAB_PTRACE_ABI_H
#define TASKLAB_PTRACE_ABI_H
#define PTRACE_PEEKDATA 2    // stores the word at *data
#define PTRACE_POKEDATA 5
#define PTRACE_CONT     7
#define PTRACE_KILL     8
#define PTRACE_GETREGS  12
#define PTRACE_SETREGS  13
#define PTRACE_ATTACH   16
#define PTRACE_DETACH   17
#endif
