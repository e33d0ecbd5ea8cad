// Spinlocks: mutual exclusion between CPUs, with interrupts off while held.
#ifndef TASKLAB_SPINLOCK_H
#define TASKLAB_SPINLOCK_H
#include "types.h"

struct cpu;

struct spinlock {
  u32 locked;
  const char *name;   // for panics
  struct cpu *cpu;    // holder, for holding() checks
};

void spin_lock_init(struct spinlock *lk, const char *name);
void spin_lock(struct spinlock *lk);
void spin_unlock(struct spinlock *lk);
bool spin_is_locked_here(struct spinlock *lk);
void push_off(void);
void pop_off(void);
#endif
