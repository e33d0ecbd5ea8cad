// ptrace: one thread tracing another, with Linux's request numbers.
#ifndef TASKLAB_PTRACE_H
#define TASKLAB_PTRACE_H
#include "types.h"
#include "ptrace_abi.h"
// task->ptrace: PT_PTRACED, and the options shifted as Linux keeps them.
#define PT_PTRACED        0x1
#define PT_OPT_FLAG_SHIFT 3
#define PT_EVENT_FLAG(ev) (1U << (PT_OPT_FLAG_SHIFT + (ev)))
#define PT_TRACE_CLONE    PT_EVENT_FLAG(PTRACE_EVENT_CLONE)
#define PT_EXITKILL       (PTRACE_O_EXITKILL << PT_OPT_FLAG_SHIFT)

struct task;
int  ptrace_stop(int sig);            // siglock held; returns the signal to act on
void ptrace_event(int event, u64 msg);
void ptrace_init_task(struct task *child);
void exit_ptrace(struct task *tracer);
int  ptrace_attach(struct task *t);
bool ptrace_wait_consider(struct task *t, int *status);
#endif
