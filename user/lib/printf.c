// printf, fprintf and snprintf.
//
// Conversions: %d %i %u %x %X %o %c %s %p %%; length l, ll (and z);
// flags '-' and '0'; a width (or *); a precision (or .*) for %s
// (at most that many bytes) and for integers (at least that many digits).
//
// printf and fprintf gather their output in a buffer on the stack and
// write it with one write() at the end, so that lines printed by
// concurrent processes do not interleave byte by byte. Output longer
// than the buffer is written in buffer-sized pieces.

#include <stdarg.h>
#include "user.h"

#define OUTBUF 256

// Where formatted characters go: a file descriptor (through buf) or a
// caller's string.
struct sink {
  int fd;         // -1: a string sink
  char *buf;      // the pending bytes (fd) or the string (snprintf)
  size_t size;    // capacity of buf
  size_t pos;     // bytes in buf
  long count;     // characters produced so far, stored or not
  int err;        // a write failed: the -errno
};

// Write out the buffered bytes of a descriptor sink.
static void
flush(struct sink *s)
{
  size_t off = 0;
  int n;

  while (s->fd >= 0 && off < s->pos && !s->err) {
    n = write(s->fd, s->buf + off, s->pos - off);
    if (n <= 0)
      s->err = n < 0 ? n : -EIO;
    else
      off += n;
  }
  s->pos = 0;
}

// Emit one character.
static void
putch(struct sink *s, char c)
{
  s->count++;
  if (s->fd >= 0) {
    if (s->pos == s->size)
      flush(s);
    s->buf[s->pos++] = c;
  } else if (s->pos + 1 < s->size) {
    // snprintf keeps the last byte for the NUL.
    s->buf[s->pos++] = c;
  }
}

// Emit c n times.
static void
putrep(struct sink *s, char c, int n)
{
  for (; n > 0; n--)
    putch(s, c);
}

// Emit the n bytes at p, padded with spaces to width on the left or,
// if left is set, on the right.
static void
putpadded(struct sink *s, const char *p, int n, int width, int left)
{
  int i;

  if (!left)
    putrep(s, ' ', width - n);
  for (i = 0; i < n; i++)
    putch(s, p[i]);
  if (left)
    putrep(s, ' ', width - n);
}

// The parsed part of a conversion between '%' and the letter.
struct spec {
  int left;       // '-': pad on the right
  int zero;       // '0': pad numbers with zeros
  int width;      // minimum field width, 0 if none
  int prec;       // precision, -1 if none
};

// Emit the unsigned value v in the given base with an optional sign
// or prefix, honouring width, precision and the flags.
static void
putnum(struct sink *s, struct spec *sp, unsigned long v, int base,
       int upper, const char *prefix)
{
  const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  char tmp[24];   // 64 bits in octal is 22 digits
  int n = 0, plen = strlen(prefix), zeros = 0, pad;

  do {
    tmp[n++] = digits[v % base];
    v /= base;
  } while (v != 0);
  if (sp->prec == 0 && tmp[0] == '0' && n == 1)
    n = 0;                      // C: "%.0d" of 0 prints nothing
  if (sp->prec > n)
    zeros = sp->prec - n;
  pad = sp->width - plen - zeros - n;
  // With '0' (and no precision) the padding goes between sign and digits.
  if (sp->zero && !sp->left && sp->prec < 0) {
    zeros += pad > 0 ? pad : 0;
    pad = 0;
  }
  if (!sp->left)
    putrep(s, ' ', pad);
  while (*prefix)
    putch(s, *prefix++);
  putrep(s, '0', zeros);
  while (n > 0)
    putch(s, tmp[--n]);
  if (sp->left)
    putrep(s, ' ', pad);
}

// Parse a decimal number or '*' at *fmt for a width or precision.
static int
getcount(const char **fmt, va_list *ap)
{
  int n = 0;

  if (**fmt == '*') {
    (*fmt)++;
    return va_arg(*ap, int);
  }
  while (**fmt >= '0' && **fmt <= '9')
    n = n * 10 + (*(*fmt)++ - '0');
  return n;
}

// Format fmt with the arguments in ap into s.
static void
format(struct sink *s, const char *fmt, va_list *ap)
{
  struct spec sp;
  int lng;
  long v;
  const char *str;
  char c;

  for (; *fmt; fmt++) {
    if (*fmt != '%') {
      putch(s, *fmt);
      continue;
    }
    fmt++;
    sp.left = sp.zero = 0;
    sp.prec = -1;
    for (;; fmt++) {
      if (*fmt == '-')
        sp.left = 1;
      else if (*fmt == '0')
        sp.zero = 1;
      else
        break;
    }
    sp.width = getcount(&fmt, ap);
    if (sp.width < 0) {         // a negative '*' width means '-'
      sp.left = 1;
      sp.width = -sp.width;
    }
    if (*fmt == '.') {
      fmt++;
      sp.prec = getcount(&fmt, ap);
    }
    lng = 0;
    while (*fmt == 'l' || *fmt == 'z') {
      lng = 1;                  // long, long long and size_t are all 64 bits
      fmt++;
    }

    switch (*fmt) {
    case 'd':
    case 'i':
      v = lng ? va_arg(*ap, long) : va_arg(*ap, int);
      if (v < 0)
        putnum(s, &sp, -(unsigned long)v, 10, 0, "-");
      else
        putnum(s, &sp, v, 10, 0, "");
      break;
    case 'u':
    case 'x':
    case 'X':
    case 'o':
      v = lng ? va_arg(*ap, unsigned long) : va_arg(*ap, unsigned int);
      putnum(s, &sp, v, *fmt == 'u' ? 10 : *fmt == 'o' ? 8 : 16, *fmt == 'X', "");
      break;
    case 'p':
      putnum(s, &sp, (unsigned long)va_arg(*ap, void *), 16, 0, "0x");
      break;
    case 'c':
      c = va_arg(*ap, int);
      putpadded(s, &c, 1, sp.width, sp.left);
      break;
    case 's':
      str = va_arg(*ap, const char *);
      if (str == NULL)
        str = "(null)";
      v = 0;
      while (str[v] && (sp.prec < 0 || v < sp.prec))
        v++;
      putpadded(s, str, v, sp.width, sp.left);
      break;
    case '%':
      putch(s, '%');
      break;
    case 0:
      return;                   // a lone '%' ends the format
    default:
      // Print unknown conversions as written, to make the mistake visible.
      putch(s, '%');
      putch(s, *fmt);
      break;
    }
  }
}

// Format to fd through a stack buffer; return the characters written
// or -errno if a write failed.
static int
vfprintf(int fd, const char *fmt, va_list *ap)
{
  char buf[OUTBUF];
  struct sink s = { fd, buf, sizeof buf, 0, 0, 0 };

  format(&s, fmt, ap);
  flush(&s);
  return s.err ? s.err : s.count;
}

// Print to standard output; return the characters written or -errno.
int
printf(const char *fmt, ...)
{
  va_list ap;
  int r;

  va_start(ap, fmt);
  r = vfprintf(STDOUT, fmt, &ap);
  va_end(ap);
  return r;
}

// Print to file descriptor fd; return the characters written or -errno.
int
fprintf(int fd, const char *fmt, ...)
{
  va_list ap;
  int r;

  va_start(ap, fmt);
  r = vfprintf(fd, fmt, &ap);
  va_end(ap);
  return r;
}

// Format into buf, storing at most size-1 characters and a NUL (if
// size > 0); return the length the whole output would have had.
int
snprintf(char *buf, size_t size, const char *fmt, ...)
{
  va_list ap;
  struct sink s = { -1, buf, size, 0, 0, 0 };

  va_start(ap, fmt);
  format(&s, fmt, &ap);
  va_end(ap);
  if (size > 0)
    buf[s.pos] = 0;
  return s.count;
}
