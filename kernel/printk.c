// Kernel printing: printk() to the console, snprintf(), panic().
#include "kernel.h"
#include "spinlock.h"
#include <stdarg.h>

static struct spinlock printk_lock;
static volatile bool panicked;

void printk_init(void) { spin_lock_init(&printk_lock, "printk"); }

struct sink { char *buf; size_t size, len; };

static void put(struct sink *s, char c)
{
  if (s->buf) {
    if (s->len + 1 < s->size)
      s->buf[s->len] = c;
  } else {
    if (c == '\n')
      arch_console_putc('\r');
    arch_console_putc(c);
  }
  s->len++;
}

static void put_num(struct sink *s, u64 v, int base, bool neg, int width, char pad)
{
  char tmp[24];
  int n = 0;
  do {
    tmp[n++] = "0123456789abcdef"[v % base];
    v /= base;
  } while (v);
  if (neg)
    tmp[n++] = '-';
  while (width-- > n)
    put(s, pad);
  while (n)
    put(s, tmp[--n]);
}

// The formats the kernel uses: %d %u %x %lx %ld %lu %p %s %c %%, with width and 0.
static void vformat(struct sink *s, const char *fmt, va_list ap)
{
  for (; *fmt; fmt++) {
    if (*fmt != '%') {
      put(s, *fmt);
      continue;
    }
    char pad = ' ';
    int width = 0, lng = 0;
    if (*++fmt == '0')
      pad = '0', fmt++;
    while (*fmt >= '0' && *fmt <= '9')
      width = width * 10 + (*fmt++ - '0');
    while (*fmt == 'l')
      lng = 1, fmt++;
    switch (*fmt) {
    case 'd': {
      long v = lng ? va_arg(ap, long) : va_arg(ap, int);
      put_num(s, v < 0 ? -(u64)v : (u64)v, 10, v < 0, width, pad);
      break;
    }
    case 'u': put_num(s, lng ? va_arg(ap, u64) : va_arg(ap, u32), 10, false, width, pad); break;
    case 'x': put_num(s, lng ? va_arg(ap, u64) : va_arg(ap, u32), 16, false, width, pad); break;
    case 'p': put(s, '0'); put(s, 'x'); put_num(s, (u64)va_arg(ap, void *), 16, false, 16, '0'); break;
    case 'c': put(s, va_arg(ap, int)); break;
    case 's': {
      const char *str = va_arg(ap, const char *);
      for (str = str ? str : "(null)"; *str; str++)
        put(s, *str);
      break;
    }
    case '%': put(s, '%'); break;
    default: put(s, '%'); put(s, *fmt); break;
    case 0: return;
    }
  }
}

int printk(const char *fmt, ...)
{
  struct sink s = { 0 };
  va_list ap;
  bool locking = !panicked;
  if (locking)
    spin_lock(&printk_lock);
  va_start(ap, fmt);
  vformat(&s, fmt, ap);
  va_end(ap);
  if (locking)
    spin_unlock(&printk_lock);
  return s.len;
}

// Returns the length the full output would have had, like C's snprintf.
int snprintf(char *buf, size_t size, const char *fmt, ...)
{
  struct sink s = { buf, size, 0 };
  va_list ap;
  va_start(ap, fmt);
  vformat(&s, fmt, ap);
  va_end(ap);
  if (size)
    buf[s.len < size ? s.len : size - 1] = 0;
  return s.len;
}

// Print the message and stop this CPU; the others stop at their next print.
void __noreturn panic(const char *fmt, ...)
{
  struct sink s = { 0 };
  va_list ap;
  arch_irq_disable();
  panicked = true;
  printk("\nkernel panic: ");
  va_start(ap, fmt);
  vformat(&s, fmt, ap);
  va_end(ap);
  printk("\n");
  arch_poweroff(99);
}
