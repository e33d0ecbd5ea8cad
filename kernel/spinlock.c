// Spinlocks. Interrupts stay off on a CPU while it holds any spinlock,
// so an interrupt handler can never spin on a lock its own CPU holds.
#include "task.h"

void spin_lock_init(struct spinlock *lk, const char *name)
{
  lk->locked = 0;
  lk->name = name;
  lk->cpu = NULL;
}

// Spin until the lock is ours. Panics on a second acquire by one CPU, and
// on a lock word that is neither 0 nor 1: the lock's memory was freed
// (page poisoning makes it 0x6b6b6b6b) or overwritten, and spinning on it
// would wedge the machine without a word.
void spin_lock(struct spinlock *lk)
{
  push_off();
  if (spin_is_locked_here(lk))
    panic("spin_lock: %s already held by this cpu", lk->name);
  u32 v;
  while ((v = __atomic_exchange_n(&lk->locked, 1, __ATOMIC_ACQUIRE)) != 0)
    if (v != 1)
      panic("spin_lock: the lock at %p holds %x: freed or overwritten", lk, v);
  lk->cpu = this_cpu();
}

void spin_unlock(struct spinlock *lk)
{
  if (!spin_is_locked_here(lk))
    panic("spin_unlock: %s not held", lk->name);
  lk->cpu = NULL;
  __atomic_store_n(&lk->locked, 0, __ATOMIC_RELEASE);
  pop_off();
}

// Is this CPU the holder? Call with interrupts off.
bool spin_is_locked_here(struct spinlock *lk)
{
  return lk->locked && lk->cpu == this_cpu();
}

// push_off/pop_off are like irq disable/enable but nest: interrupts come
// back on only at the outermost pop_off, and only if they were on before.
void push_off(void)
{
  bool was_on = arch_irqs_enabled();
  arch_irq_disable();
  struct cpu *c = this_cpu();
  if (c->noff == 0)
    c->intena = was_on;
  c->noff++;
}

void pop_off(void)
{
  struct cpu *c = this_cpu();
  if (arch_irqs_enabled())
    panic("pop_off: interrupts on");
  if (c->noff < 1)
    panic("pop_off: unbalanced");
  if (--c->noff == 0 && c->intena)
    arch_irq_enable();
}
