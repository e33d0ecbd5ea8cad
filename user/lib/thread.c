// Threads: clone() with a malloc'd stack; thread_join() waits on the word
// the kernel zeroes (and futex-wakes) when the thread exits, as glibc's
// pthread_join does with CLONE_CHILD_CLEARTID.
#include "user.h"

#define CLONE_THREAD_FLAGS 0x00010f00   // VM, FS, FILES, SIGHAND, THREAD
#define CLONE_CHILD_CLEARTID 0x00200000
#define MAX_THREADS 64

int __clone_thread(ulong flags, void *stack, int *ctid, void (*fn)(void *), void *arg);

static struct thread {
  int tid;          // 0: free slot; -1: being set up
  int ctid;         // non-zero while the thread lives
  void *stack;
} threads[MAX_THREADS];
static char table_lock;

static void lock(void) { while (__atomic_test_and_set(&table_lock, __ATOMIC_ACQUIRE)) ; }
static void unlock(void) { __atomic_clear(&table_lock, __ATOMIC_RELEASE); }

// A free slot, marked as being set up; NULL if all are taken.
static struct thread *claim_slot(void)
{
  struct thread *t = NULL;
  lock();
  for (int i = 0; i < MAX_THREADS && !t; i++)
    if (threads[i].tid == 0) {
      t = &threads[i];
      t->tid = -1;
    }
  unlock();
  return t;
}

// Start fn(arg) in a new thread of this process; returns its tid or -errno.
int thread_create(void (*fn)(void *), void *arg)
{
  struct thread *t = claim_slot();
  if (!t)
    return -EAGAIN;
  t->stack = malloc(THREAD_STACK_SIZE);
  if (!t->stack) {
    t->tid = 0;
    return -ENOMEM;
  }
  t->ctid = 1;
  char *top = (char *)t->stack + THREAD_STACK_SIZE;
  int tid = __clone_thread(CLONE_THREAD_FLAGS | CLONE_CHILD_CLEARTID, top, &t->ctid, fn, arg);
  if (tid < 0) {
    free(t->stack);
    t->tid = 0;
    return tid;
  }
  t->tid = tid;
  return tid;
}

// Wait for thread tid (made by thread_create) to exit, then free its stack.
int thread_join(int tid)
{
  struct thread *t = NULL;
  lock();
  for (int i = 0; i < MAX_THREADS && !t; i++)
    if (threads[i].tid == tid && tid > 0)
      t = &threads[i];
  unlock();
  if (!t)
    return -ESRCH;
  int v;
  while ((v = __atomic_load_n(&t->ctid, __ATOMIC_ACQUIRE)) != 0)
    futex(&t->ctid, FUTEX_WAIT, v);
  free(t->stack);
  t->stack = NULL;
  __atomic_store_n(&t->tid, 0, __ATOMIC_RELEASE);
  return 0;
}

void thread_exit(void)
{
  exit_thread(0);
}
