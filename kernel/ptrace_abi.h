// ptrace request numbers, options and events (Linux's), shared by the
// kernel and user space.
#ifndef TASKLAB_PTRACE_ABI_H
#define TASKLAB_PTRACE_ABI_H
#define PTRACE_TRACEME     0
#define PTRACE_PEEKDATA    2    // stores the word at *data
#define PTRACE_POKEDATA    5
#define PTRACE_CONT        7
#define PTRACE_KILL        8
#define PTRACE_SINGLESTEP  9    // -EIO where the CPU cannot (riscv64)
#define PTRACE_GETREGS     12
#define PTRACE_SETREGS     13
#define PTRACE_ATTACH      16
#define PTRACE_DETACH      17
#define PTRACE_SETOPTIONS  0x4200
#define PTRACE_GETEVENTMSG 0x4201   // stores the event's message at *data

// PTRACE_SETOPTIONS bits tasklab implements (others are refused: EINVAL).
#define PTRACE_O_TRACECLONE 0x8        // trace new threads; stop at PTRACE_EVENT_CLONE
#define PTRACE_O_EXITKILL   0x100000   // SIGKILL the tracees if the tracer exits

// An event stop's wait status: (SIGTRAP | PTRACE_EVENT_x << 8) << 8 | 0x7f.
#define PTRACE_EVENT_CLONE 3           // message: the new thread's tid
#endif
