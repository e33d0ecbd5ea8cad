// String and memory functions for user programs.
//
// Simple byte loops, except memset/memcpy/memmove, which move whole
// 8-byte words when the pointers allow it: copy throughput is measured.
//
// GCC may turn a byte-copy loop back into a call to memcpy/memset
// ("loop distribution"), which inside memcpy itself would recurse
// forever; NOLOOPCALL stops that for the functions that need it.

#include "user.h"

#define NOLOOPCALL __attribute__((optimize("no-tree-loop-distribute-patterns")))

typedef unsigned long word;
#define WSIZE sizeof(word)
#define WMASK (WSIZE - 1)

// Return the length of s, not counting the NUL.
size_t
strlen(const char *s)
{
  const char *p = s;

  while (*p)
    p++;
  return p - s;
}

// Copy src, NUL included, to dst; return dst.
NOLOOPCALL char *
strcpy(char *dst, const char *src)
{
  char *d = dst;

  while ((*d++ = *src++) != 0)
    ;
  return dst;
}

// Copy at most n bytes of src to dst, padding with NULs up to n;
// like C's strncpy, dst is not NUL-terminated if src is n long or more.
NOLOOPCALL char *
strncpy(char *dst, const char *src, size_t n)
{
  size_t i = 0;

  for (; i < n && src[i]; i++)
    dst[i] = src[i];
  for (; i < n; i++)
    dst[i] = 0;
  return dst;
}

// Append src to dst; return dst.
char *
strcat(char *dst, const char *src)
{
  strcpy(dst + strlen(dst), src);
  return dst;
}

// Compare as unsigned chars: <0, 0, >0 like C's strcmp.
int
strcmp(const char *a, const char *b)
{
  while (*a && *a == *b) {
    a++;
    b++;
  }
  return (uchar)*a - (uchar)*b;
}

// strcmp over at most n bytes.
int
strncmp(const char *a, const char *b, size_t n)
{
  for (; n > 0; n--, a++, b++) {
    if (*a != *b)
      return (uchar)*a - (uchar)*b;
    if (*a == 0)
      return 0;
  }
  return 0;
}

// Return the first c in s (c may be the NUL), or NULL.
char *
strchr(const char *s, int c)
{
  for (;; s++) {
    if (*s == (char)c)
      return (char *)s;
    if (*s == 0)
      return NULL;
  }
}

// Return the last c in s (c may be the NUL), or NULL.
char *
strrchr(const char *s, int c)
{
  const char *last = NULL;

  for (;; s++) {
    if (*s == (char)c)
      last = s;
    if (*s == 0)
      return (char *)last;
  }
}

// Return the first occurrence of needle in hay, or NULL;
// an empty needle matches at hay.
char *
strstr(const char *hay, const char *needle)
{
  size_t n = strlen(needle);

  if (n == 0)
    return (char *)hay;
  for (; *hay; hay++)
    if (*hay == *needle && strncmp(hay, needle, n) == 0)
      return (char *)hay;
  return NULL;
}

// Fill n bytes at dst with the byte c; return dst.
NOLOOPCALL void *
memset(void *dst, int c, size_t n)
{
  uchar *d = dst;
  word w;

  // Bytes until d is word aligned, then whole words, then the tail.
  for (; n > 0 && ((word)d & WMASK); n--)
    *d++ = c;
  if (n >= WSIZE) {
    w = (uchar)c;
    w |= w << 8;
    w |= w << 16;
    w |= w << 32;
    for (; n >= 4 * WSIZE; n -= 4 * WSIZE, d += 4 * WSIZE) {
      ((word *)d)[0] = w;
      ((word *)d)[1] = w;
      ((word *)d)[2] = w;
      ((word *)d)[3] = w;
    }
    for (; n >= WSIZE; n -= WSIZE, d += WSIZE)
      *(word *)d = w;
  }
  for (; n > 0; n--)
    *d++ = c;
  return dst;
}

// Copy n bytes from the front; safe for overlap only when dst < src.
static NOLOOPCALL void
copyforward(uchar *d, const uchar *s, size_t n)
{
  // Word copies need both pointers to share the same alignment;
  // RISC-V may trap (or crawl) on misaligned word accesses.
  if ((((word)d ^ (word)s) & WMASK) == 0) {
    for (; n > 0 && ((word)d & WMASK); n--)
      *d++ = *s++;
    for (; n >= 4 * WSIZE; n -= 4 * WSIZE, d += 4 * WSIZE, s += 4 * WSIZE) {
      word a = ((const word *)s)[0], b = ((const word *)s)[1];
      word c = ((const word *)s)[2], e = ((const word *)s)[3];
      ((word *)d)[0] = a;
      ((word *)d)[1] = b;
      ((word *)d)[2] = c;
      ((word *)d)[3] = e;
    }
    for (; n >= WSIZE; n -= WSIZE, d += WSIZE, s += WSIZE)
      *(word *)d = *(const word *)s;
  }
  for (; n > 0; n--)
    *d++ = *s++;
}

// Copy n bytes from the back; safe for overlap when dst > src.
static NOLOOPCALL void
copybackward(uchar *d, const uchar *s, size_t n)
{
  d += n;
  s += n;
  if ((((word)d ^ (word)s) & WMASK) == 0) {
    for (; n > 0 && ((word)d & WMASK); n--)
      *--d = *--s;
    for (; n >= WSIZE; n -= WSIZE) {
      d -= WSIZE;
      s -= WSIZE;
      *(word *)d = *(const word *)s;
    }
  }
  for (; n > 0; n--)
    *--d = *--s;
}

// Copy n bytes from src to dst (which must not overlap); return dst.
void *
memcpy(void *dst, const void *src, size_t n)
{
  copyforward(dst, src, n);
  return dst;
}

// Copy n bytes from src to dst, correct even if they overlap; return dst.
void *
memmove(void *dst, const void *src, size_t n)
{
  // A forward copy only reads bytes it has not yet overwritten when
  // dst is below src (or the ranges are disjoint).
  if ((uchar *)dst <= (const uchar *)src || (uchar *)dst >= (const uchar *)src + n)
    copyforward(dst, src, n);
  else
    copybackward(dst, src, n);
  return dst;
}

// Compare n bytes as unsigned chars: <0, 0, >0.
int
memcmp(const void *a, const void *b, size_t n)
{
  const uchar *p = a, *q = b;

  for (; n > 0; n--, p++, q++)
    if (*p != *q)
      return *p - *q;
  return 0;
}
