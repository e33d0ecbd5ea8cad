// The console device (major 1): a terminal in canonical mode. Input is
// edited a line at a time (backspace erases a character, ^U the line, ^D
// ends input); ^C, ^Z and ^\ send SIGINT, SIGTSTP and SIGQUIT to the
// foreground process group, which tcsetpgrp() chooses. A background
// process that reads gets SIGTTIN, as on Linux.
#include "task.h"
#include "fs.h"

#define INPUT_BUF 1024          // a line as long as the shell takes (user/sh.c MAXLINE)
#define CTRL(x) ((x) - '@')

static struct {
  struct spinlock lock;   // guards everything below
  char buf[INPUT_BUF];
  u32 r;                  // next byte a read takes
  u32 w;                  // end of completed lines
  u32 e;                  // end of the line being edited
  int fg_pgrp;            // foreground process group, 0 if none
} cons;

// Serializes everything that reaches the screen, so that one write() (in
// pieces of up to 256 bytes, console_write()'s chunk) arrives unbroken:
// not even the echo of a key typed meanwhile lands in the middle of it
// (on Linux, n_tty's output_lock does this). Taken after cons.lock, never
// before it.
static struct spinlock cons_out_lock;

// Show one typed byte. Caller holds cons.lock.
static void echo(int c)
{
  spin_lock(&cons_out_lock);
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
  spin_unlock(&cons_out_lock);
}


// The signal a control character sends, or 0.
static int intr_signal(int c)
{
  switch (c) {
  case CTRL('C'):  return SIGINT;
  case CTRL('Z'):  return SIGTSTP;
  case CTRL('\\'): return SIGQUIT;
  default:         return 0;
  }
}

// Edit the input line with one byte. Caller holds cons.lock.
static void edit(int c)
{
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
}

// One byte from the UART, in interrupt context.
void console_intr(int c)
{
  int sig = intr_signal(c), pgrp = 0;
  spin_lock(&cons.lock);
  if (sig) {
    echo('^');
    echo(c + '@');
    echo('\n');
    cons.e = cons.w;      // the line being typed is discarded
    pgrp = cons.fg_pgrp;
  } else {
    edit(c);
  }
  spin_unlock(&cons.lock);
  if (sig && pgrp)
    kill_pgrp(pgrp, sig);
}

// A reader outside the foreground group: SIGTTIN to its group, unless it
// ignores or blocks that (then -EIO). Returns 0 if it may read.
static int background_read_check(void)
{
  struct task *t = current;
  int fg = READ_ONCE(cons.fg_pgrp), pgrp = t->signal->pgrp;
  if (!fg || pgrp == fg)
    return 0;
  if ((t->blocked & sigmask(SIGTTIN)) ||
      t->sighand->action[SIGTTIN - 1].handler == SIG_IGN)
    return -EIO;
  kill_pgrp(pgrp, SIGTTIN);
  return -ERESTARTSYS;
}

// Read up to one line. Returns the count, 0 at ^D on an empty line,
// -ERESTARTSYS, -EIO or -EFAULT.
static long console_read(struct file *f, u64 udst, long n)
{
  long got = 0;
  int err = background_read_check();
  if (err < 0)
    return err;
  spin_lock(&cons.lock);
  while (got < n) {
    while (cons.r == cons.w) {
      if (sleep_interruptible(&cons.r, &cons.lock) < 0) {
        spin_unlock(&cons.lock);
        return got ? got : -ERESTARTSYS;
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

void console_set_pgrp(int pgrp) { WRITE_ONCE(cons.fg_pgrp, pgrp); }
int  console_pgrp(void) { return READ_ONCE(cons.fg_pgrp); }

void console_init(void)
{
  spin_lock_init(&cons.lock, "cons");
  spin_lock_init(&cons_out_lock, "cons_out");
  devsw[CONSOLE_MAJOR].read = console_read;
  devsw[CONSOLE_MAJOR].write = console_write;
}
