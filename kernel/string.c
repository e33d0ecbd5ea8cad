// Memory and string helpers (no libc in the kernel).
#include "kernel.h"

void *memset(void *dst, int c, size_t n)
{
  u8 *d = dst;
  if (((uintptr_t)d & 7) == 0 && (n & 7) == 0) {
    u64 v = (u8)c * 0x0101010101010101UL;
    for (u64 *w = dst; n; n -= 8)
      *w++ = v;
    return dst;
  }
  while (n--)
    *d++ = c;
  return dst;
}

// Copies forward or backward as needed, so overlapping ranges are safe.
void *memmove(void *dst, const void *src, size_t n)
{
  u8 *d = dst;
  const u8 *s = src;
  if (d == s || n == 0)
    return dst;
  if (d < s || d >= s + n) {
    if ((((uintptr_t)d | (uintptr_t)s | n) & 7) == 0) {
      u64 *dw = dst;
      const u64 *sw = src;
      for (; n; n -= 8)
        *dw++ = *sw++;
      return dst;
    }
    while (n--)
      *d++ = *s++;
  } else {
    d += n;
    s += n;
    while (n--)
      *--d = *--s;
  }
  return dst;
}

void *memcpy(void *dst, const void *src, size_t n) { return memmove(dst, src, n); }

int memcmp(const void *a, const void *b, size_t n)
{
  const u8 *x = a, *y = b;
  for (; n; n--, x++, y++)
    if (*x != *y)
      return *x - *y;
  return 0;
}

size_t strlen(const char *s)
{
  size_t n = 0;
  while (s[n])
    n++;
  return n;
}

size_t strnlen(const char *s, size_t max)
{
  size_t n = 0;
  while (n < max && s[n])
    n++;
  return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
  for (; n && *a && *a == *b; n--, a++, b++)
    ;
  return n ? (u8)*a - (u8)*b : 0;
}

// Like C's strncpy: pads with NULs, may leave dst unterminated.
char *strncpy(char *dst, const char *src, size_t n)
{
  size_t i = 0;
  for (; i < n && src[i]; i++)
    dst[i] = src[i];
  for (; i < n; i++)
    dst[i] = 0;
  return dst;
}

// Copies at most size-1 bytes and always terminates; returns strlen(src).
size_t strlcpy(char *dst, const char *src, size_t size)
{
  size_t len = strlen(src);
  if (size) {
    size_t n = len < size - 1 ? len : size - 1;
    memmove(dst, src, n);
    dst[n] = 0;
  }
  return len;
}
