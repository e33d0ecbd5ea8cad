// The console device (major 1): line editing on input, like a terminal
// in canonical mode. Backspace erases a character, ^U the line, ^D ends
// input (a read returns what is there, or 0 on an empty line).
#include "task.h"
#include "fs.h"

#define INPUT_BUF 128
#define CTRL(x) ((x) - '@')

static struct {
  struct spinlock lock;   // guards buf and the indexes
  char buf[INPUT_BUF];
  u32 r;                  // next byte a read takes
  u32 w;                  // end of completed lines
  u32 e;                  // end of the line being edited
} cons;

// Serializes writers so that one write() reaches the screen unbroken.
static struct spinlock cons_out_lock;

static void echo(int c)
{
  if (c == '\b') {        // erase: back up, overwrite, back up
    arch_console_putc('\b');
    arch_console_putc(' ');
    arch_console_putc('\b');
  } else if (c == '\n') {
    arch_console_putc('\r');
    arch_console_putc('\n');
  } else {
    arch_console_putc(c);
  }
}

// One byte from the UART, in interrupt context.
void console_intr(int c)
{
  spin_lock(&cons.lock);
  switch (c) {
  case CTRL('U'):
    while (cons.e != cons.w && cons.buf[(cons.e - 1) % INPUT_BUF] != '\n') {
      cons.e--;
      echo('\b');
    }
    break;
  case CTRL('H'):
  case 0x7f:
    if (cons.e != cons.w) {
      cons.e--;
      echo('\b');
    }
    break;
  default:
    if (c == 0 || cons.e - cons.r >= INPUT_BUF)
      break;
    c = c == '\r' ? '\n' : c;
    if (c != CTRL('D'))
      echo(c);
    cons.buf[cons.e++ % INPUT_BUF] = c;
    if (c == '\n' || c == CTRL('D') || cons.e - cons.r == INPUT_BUF) {
      cons.w = cons.e;
      wakeup(&cons.r);
    }
    break;
  }
  spin_unlock(&cons.lock);
}

// Read up to one line. Returns the count, 0 at ^D on an empty line,
// -EINTR or -EFAULT.
static long console_read(struct file *f, u64 udst, long n)
{
  long got = 0;
  spin_lock(&cons.lock);
  while (got < n) {
    while (cons.r == cons.w) {
      if (sleep_interruptible(&cons.r, &cons.lock) < 0) {
        spin_unlock(&cons.lock);
        return got ? got : -EINTR;
      }
    }
    char c = cons.buf[cons.r % INPUT_BUF];
    if (c == CTRL('D')) {
      if (got == 0)
        cons.r++;   // consume it: this read reports end of file
      break;        // else leave it for the next read
    }
    if (copy_to_user((void *)(udst + got), &c, 1) < 0) {
      if (got == 0)
        got = -EFAULT;
      break;
    }
    cons.r++;
    got++;
    if (c == '\n')
      break;
  }
  spin_unlock(&cons.lock);
  return got;
}

// Write n bytes from user memory to the screen.
static long console_write(struct file *f, u64 usrc, long n)
{
  char chunk[256];
  long done = 0;
  while (done < n) {
    long m = n - done < (long)sizeof(chunk) ? n - done : (long)sizeof(chunk);
    if (copy_from_user(chunk, (void *)(usrc + done), m) < 0)
      return done ? done : -EFAULT;
    spin_lock(&cons_out_lock);
    for (long i = 0; i < m; i++) {
      if (chunk[i] == '\n')
        arch_console_putc('\r');
      arch_console_putc(chunk[i]);
    }
    spin_unlock(&cons_out_lock);
    done += m;
  }
  return done;
}

void console_init(void)
{
  spin_lock_init(&cons.lock, "cons");
  spin_lock_init(&cons_out_lock, "cons_out");
  devsw[CONSOLE_MAJOR].read = console_read;
  devsw[CONSOLE_MAJOR].write = console_write;
}
