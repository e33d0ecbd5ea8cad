// ptrace: one thread tracing another, with Linux's request numbers.
#ifndef TASKLAB_PTRACE_H
#define TASKLAB_PTRACE_H
#include "ptrace_abi.h"
#define PT_PTRACED      0x1

struct task;
int  ptrace_stop(int sig);            // siglock held; returns the signal to act on
void exit_ptrace(struct task *tracer);
int  ptrace_attach(struct task *t);
bool ptrace_wait_consider(struct task *t, int *status);
int  release_traced_zombie(struct task *t);
#endif
