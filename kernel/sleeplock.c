// Sleep locks: the waiter sleeps (uninterruptibly) instead of spinning.
#include "task.h"
#include "sleeplock.h"

void sleep_lock_init(struct sleeplock *l, const char *name)
{
  spin_lock_init(&l->lk, "sleeplock");
  l->name = name;
  l->locked = false;
  l->holder = 0;
}

void sleep_lock(struct sleeplock *l)
{
  spin_lock(&l->lk);
  while (l->locked)
    sleep(l, &l->lk);
  l->locked = true;
  l->holder = current->tid;
  spin_unlock(&l->lk);
}

void sleep_unlock(struct sleeplock *l)
{
  spin_lock(&l->lk);
  l->locked = false;
  l->holder = 0;
  wakeup(l);
  spin_unlock(&l->lk);
}

// Does the current task hold it?
bool sleep_lock_held(struct sleeplock *l)
{
  spin_lock(&l->lk);
  bool r = l->locked && l->holder == current->tid;
  spin_unlock(&l->lk);
  return r;
}

// Take l if it is free, without sleeping. Returns whether it was taken.
bool sleep_trylock(struct sleeplock *l)
{
  spin_lock(&l->lk);
  bool got = !l->locked;
  if (got) {
    l->locked = true;
    l->holder = current->tid;
  }
  spin_unlock(&l->lk);
  return got;
}
