// A first-fit memory allocator over sbrk().
//
// Memory is handed out in 16-byte units; every block starts with a
// one-unit header holding its size, so the bytes the caller gets are
// 16-byte aligned. Free blocks sit on a circular list sorted by
// address, which lets free() merge a block with free neighbours.
// The heap never shrinks. Not thread-safe: callers that share an
// address space must serialize.

#include "user.h"

// A block header; exactly one unit.
struct header {
  struct header *next;  // next free block (only while free)
  size_t units;         // block size in units, header included
};

#define UNIT      sizeof(struct header)
#define MINGROW   1024                  // units asked of sbrk at least (16 KiB)
#define MAXALLOC  (1UL << 40)           // refuse sizes whose arithmetic could overflow

_Static_assert(sizeof(struct header) == 16, "header must be one 16-byte unit");

static struct header base;      // zero-size block that anchors the list
static struct header *freep;    // where the next search starts; NULL before first use

// Complain about a pointer free() or realloc() did not hand out, and die
// the way a failed assertion would.
static void
badpointer(const char *fn, void *p)
{
  fprintf(STDERR, "%s: bad pointer %p (double free?)\n", fn, p);
  kill(getpid(), SIGABRT);
  exit(134);
}

// Return the number of units that hold n bytes plus a header.
static size_t
unitsfor(size_t n)
{
  return (n + UNIT - 1) / UNIT + 1;
}

// Return 1 if blocks a and b share any unit.
static int
overlaps(struct header *a, struct header *b)
{
  return a < b + b->units && b < a + a->units;
}

// Return block bp to the free list, merging it with adjacent free blocks.
static void
release(struct header *bp)
{
  struct header *p;

  // Find p with p < bp < p->next; at the wrap-around point of the
  // circle bp may also lie beyond the highest or below the lowest block.
  for (p = freep;; p = p->next) {
    if (p == bp)
      badpointer("free", bp + 1);
    if (bp > p && bp < p->next)
      break;
    if (p >= p->next && (bp > p || bp < p->next))
      break;
  }

  // A block overlapping a free neighbour was freed already (or never
  // allocated); merging it would corrupt the list.
  if (overlaps(bp, p) || overlaps(bp, p->next))
    badpointer("free", bp + 1);

  if (bp + bp->units == p->next) {
    bp->units += p->next->units;
    bp->next = p->next->next;
  } else {
    bp->next = p->next;
  }
  if (p + p->units == bp) {
    p->units += bp->units;
    p->next = bp->next;
  } else {
    p->next = bp;
  }
  freep = p;
}

// Grow the heap by at least nu units; return 0 or -1 if sbrk fails.
static int
morecore(size_t nu)
{
  struct header *hp;
  size_t pad, want = nu < MINGROW ? MINGROW : nu;
  char *p;

  // The break may be unaligned (end of bss, or someone else's sbrk).
  p = sbrk(0);
  if (is_sbrk_error(p))
    return -1;
  pad = -(unsigned long)p & (UNIT - 1);
  p = sbrk(pad + want * UNIT);
  if (is_sbrk_error(p) && want > nu) {
    // Near the memory limit, the rounded-up amount may be too much.
    want = nu;
    p = sbrk(pad + want * UNIT);
  }
  if (is_sbrk_error(p))
    return -1;
  hp = (struct header *)(p + pad);
  hp->units = want;
  release(hp);
  return 0;
}

// One lock for the heap: threads share it.
static char heap_lock;

static void lock_heap(void)
{
  while (__atomic_test_and_set(&heap_lock, __ATOMIC_ACQUIRE))
    ;
}

static void unlock_heap(void)
{
  __atomic_clear(&heap_lock, __ATOMIC_RELEASE);
}

static void *malloc_locked(size_t n);

// Return n bytes of 16-byte aligned memory, or NULL if there is none.
// malloc(0) returns a unique pointer that free() accepts.
void *
malloc(size_t n)
{
  lock_heap();
  void *p = malloc_locked(n);
  unlock_heap();
  return p;
}

static void *
malloc_locked(size_t n)
{
  struct header *p, *prev;
  size_t nu;

  if (n > MAXALLOC)
    return NULL;
  nu = unitsfor(n);
  if (freep == NULL) {
    base.next = freep = &base;
    base.units = 0;
  }
  for (prev = freep, p = prev->next;; prev = p, p = p->next) {
    if (p->units >= nu) {
      if (p->units == nu) {
        prev->next = p->next;
      } else {
        // Hand out the tail so the free block stays where it is.
        p->units -= nu;
        p += p->units;
        p->units = nu;
      }
      freep = prev;
      return p + 1;
    }
    if (p == freep && morecore(nu) < 0)
      return NULL;
  }
}

// Release memory from malloc, calloc or realloc; NULL is ignored.
void
free(void *ap)
{
  if (ap == NULL)
    return;
  if (((unsigned long)ap & (UNIT - 1)) != 0 || freep == NULL)
    badpointer("free", ap);
  lock_heap();
  release((struct header *)ap - 1);
  unlock_heap();
}

// Return zeroed memory for n objects of size bytes, or NULL if there is
// none or n * size overflows.
void *
calloc(size_t n, size_t size)
{
  void *p;

  if (size != 0 && n > MAXALLOC / size)
    return NULL;
  p = malloc(n * size);
  if (p)
    memset(p, 0, n * size);
  return p;
}

// Resize the block at p to n bytes, keeping its contents up to the
// smaller size; return the (possibly moved) block, or NULL with p still
// valid if memory ran out. realloc(NULL, n) is malloc(n);
// realloc(p, 0) frees p and returns NULL.
void *
realloc(void *p, size_t n)
{
  struct header *bp, *tail;
  size_t nu, have;
  void *q;

  if (p == NULL)
    return malloc(n);
  if (n == 0) {
    free(p);
    return NULL;
  }
  if (n > MAXALLOC)
    return NULL;
  if (((unsigned long)p & (UNIT - 1)) != 0)
    badpointer("realloc", p);
  bp = (struct header *)p - 1;
  nu = unitsfor(n);
  if (nu <= bp->units) {
    // Shrinking in place; give back a tail worth keeping.
    if (bp->units - nu >= 4) {
      tail = bp + nu;
      tail->units = bp->units - nu;
      bp->units = nu;
      lock_heap();
      release(tail);
      unlock_heap();
    }
    return p;
  }
  q = malloc(n);
  if (q == NULL)
    return NULL;
  have = (bp->units - 1) * UNIT;
  memcpy(q, p, have);
  free(p);
  return q;
}
