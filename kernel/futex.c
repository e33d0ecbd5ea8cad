// Futexes, the two operations thread_join() needs: FUTEX_WAIT sleeps if a
// user word still holds a value; FUTEX_WAKE wakes the sleepers. Waiters
// sleep on the word's physical address, so every mapping of it matches.
#include "task.h"

static struct spinlock futex_lock = { 0, "futex", NULL };

// The sleep channel for user address uaddr, or NULL if it is not mapped.
static void *futex_key(u64 uaddr)
{
  if (uaddr & 3)
    return NULL;
  void *p = user_page(current->mm->pgd, uaddr, false);
  return p ? (void *)__pa(p) : NULL;
}

// Sleep while *uaddr == val. Returns 0 when woken, -EAGAIN if the value
// already differs, -EFAULT, -EINVAL or -ERESTARTSYS.
int futex_wait(u64 uaddr, u32 val)
{
  u32 cur;
  spin_lock(&futex_lock);
  void *key = futex_key(uaddr);
  if (!key || copy_from_user(&cur, (void *)uaddr, sizeof(cur)) < 0) {
    spin_unlock(&futex_lock);
    return -EFAULT;
  }
  int r = cur == val ? sleep_interruptible(key, &futex_lock) : -EAGAIN;
  spin_unlock(&futex_lock);
  return r;
}

// Wake those waiting on uaddr. Returns 0 or -EFAULT.
int futex_wake(u64 uaddr, int n)
{
  (void)n;   // all wake; waiters re-check their word
  spin_lock(&futex_lock);
  void *key = futex_key(uaddr);
  if (key)
    wakeup(key);
  spin_unlock(&futex_lock);
  return key ? 0 : -EFAULT;
}
