// Sleep locks: long-held locks (inodes, buffers) that sleep while waiting.
#ifndef TASKLAB_SLEEPLOCK_H
#define TASKLAB_SLEEPLOCK_H
#include "spinlock.h"

struct sleeplock {
  struct spinlock lk;   // guards the fields below
  bool locked;
  int holder;           // tid of the holder
  const char *name;
};

void sleep_lock_init(struct sleeplock *l, const char *name);
void sleep_lock(struct sleeplock *l);
void sleep_unlock(struct sleeplock *l);
bool sleep_lock_held(struct sleeplock *l);
bool sleep_trylock(struct sleeplock *l);
#endif
