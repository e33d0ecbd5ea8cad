// usertests: memory, signal frames, signals and time.

#include "usertests.h"

// ------------------------------------------------------------ tests: memory

// Return 1 if the n bytes at p are all zero.
static int
all_zero(const char *p, long n)
{
  for (long i = 0; i < n; i++)
    if (p[i])
      return 0;
  return 1;
}

static char *sbrk_area;         // what sbrk_fork_child checks
// Child body: check that the 3 pages at sbrk_area hold 0xab.
static void
sbrk_fork_child(long unused)
{
  for (int i = 0; i < 3 * PGSIZE; i++)
    if ((uchar)sbrk_area[i] != 0xab)
      exit(1);
  exit(0);
}

// sbrk: growing returns the old break and gives zeroed memory, also after
// shrinking and growing again (whole or part of a page); fork copies the
// heap; odd sizes; a larger area is usable page by page.
void
t_sbrk(void)
{
  char *a = align_brk(), *p, *q;
  long big = 8L << 20;
  int bad = 0;

  p = sbrk(3 * PGSIZE);
  expect("grow_returns_old", (long)p, (long)a);
  expect("break_moved", (long)sbrk(0), (long)(a + 3 * PGSIZE));
  if (is_sbrk_error(p))
    return;
  expect_true("zeroed", all_zero(p, 3 * PGSIZE), "new sbrk memory is not zero");
  memset(p, 0xab, 3 * PGSIZE);
  sbrk_area = p;
  expect_exit("fork_copies_heap", in_child(sbrk_fork_child, 0), 0);
  expect("shrink_returns_old", (long)sbrk(-3 * PGSIZE), (long)(a + 3 * PGSIZE));
  expect("break_back", (long)sbrk(0), (long)a);
  p = sbrk(3 * PGSIZE);
  expect("regrow", (long)p, (long)a);
  if (is_sbrk_error(p))
    return;
  expect_true("zeroed_after_regrow", all_zero(p, 3 * PGSIZE), "memory from sbrk after a shrink is not zero");
  memset(p, 0xcd, 3 * PGSIZE);
  sbrk(-(PGSIZE + 100));
  sbrk(PGSIZE + 100);
  expect_true("zeroed_partial_page", all_zero(p + 2 * PGSIZE - 100, PGSIZE + 100),
              "bytes given back by sbrk(-n) and regrown are not zero");
  sbrk(-3 * PGSIZE);

  q = sbrk(0);
  expect("odd_grow", (long)sbrk(1), (long)q);
  expect("odd_break", (long)sbrk(0), (long)(q + 1));
  q[0] = 7;
  expect("odd_shrink", (long)sbrk(-1), (long)(q + 1));

  p = sbrk(big);
  if (!expect_true("large", !is_sbrk_error(p), "sbrk of 8 MiB failed"))
    return;
  for (long i = 0; i < big; i += PGSIZE)
    p[i] = (char)(i / PGSIZE + 1);
  for (long i = 0; i < big && !bad; i += PGSIZE)
    if (p[i] != (char)(i / PGSIZE + 1) || p[i + 1] != 0)
      bad = 1;
  expect("large_usable", bad, 0);
  expect("large_shrink", (long)sbrk(-big), (long)(p + big));
}

// sbrkoom: asking for more than free memory gives ENOMEM, the break stays,
// and the process (and the kernel) go on working.
void
t_sbrkoom(void)
{
  char *a = sbrk(0), *r;
  char d[96];

  r = sbrk(1L << 40);
  snprintf(d, sizeof d, "sbrk(1 TiB) returned %p, want -ENOMEM", r);
  expect_true("huge", (long)r == -ENOMEM, d);
  expect("break_kept", (long)sbrk(0), (long)a);
  r = sbrk((freemem() + 64) * PGSIZE);
  snprintf(d, sizeof d, "sbrk(free memory + 64 pages) returned %p, want -ENOMEM", r);
  expect_true("beyond_free", (long)r == -ENOMEM, d);
  expect("break_kept2", (long)sbrk(0), (long)a);
  r = sbrk(PGSIZE);
  if (expect_true("usable", !is_sbrk_error(r), "sbrk(4096) failed after ENOMEM")) {
    r[0] = 1;
    r[PGSIZE - 1] = 2;
    sbrk(-PGSIZE);
  }
  expect_exit("fork_after", in_child(exit_with, 0), 0);
}

static volatile long fault_at;  // the address the fault children use

// Fault child bodies: each should be killed before reaching exit(0).
// f_write: store an int at fault_at.
__attribute__((noinline)) static void
f_write(long unused)
{
  *(volatile int *)fault_at = 1;
  exit(0);
}

// f_read: load an int from fault_at.
__attribute__((noinline)) void
f_read(long unused)
{
  (void)*(volatile int *)fault_at;
  exit(0);
}

// f_call: jump to fault_at.
__attribute__((noinline)) static void
f_call(long unused)
{
  ((void (*)(void))fault_at)();
  exit(0);
}

// f_illegal: execute an illegal instruction.
__attribute__((noinline)) static void
f_illegal(long unused)
{
#if defined(__riscv)
  asm volatile(".word 0");
#elif defined(__x86_64__)
  asm volatile("ud2");
#endif
  exit(0);
}

#if defined(__riscv)
// f_privileged: read a supervisor CSR from user mode.
__attribute__((noinline)) static void
f_privileged(long unused)
{
  long x;

  asm volatile("csrr %0, sstatus" : "=r"(x));
  exit(0);
}
#elif defined(__x86_64__)
// f_fpu: an x87 instruction (mode 0) or an SSE one (mode 1): tasklab keeps
// no FPU state for tasks, so both trap (SIGILL) instead of leaking state.
__attribute__((noinline)) static void
f_fpu(long mode)
{
  if (mode)
    asm volatile(".byte 0x0f, 0x57, 0xc0");   // xorps %xmm0, %xmm0
  else
    asm volatile("fninit");
  exit(0);
}

// f_privileged: halt the CPU from user mode (a #GP: SIGSEGV, as on Linux).
__attribute__((noinline)) static void
f_privileged(long unused)
{
  asm volatile("hlt");
  exit(0);
}
#endif

// Recurse n deep with a 512-byte frame each (not a tail call).
__attribute__((noinline)) static long
recurse(long n)
{
  volatile char frame[512];

  frame[0] = (char)n;
  if (n == 0)
    return frame[0];
  return recurse(n - 1) + frame[0];
}

// Fault child body: overflow the 16 KiB stack many times over.
static void
f_recurse(long unused)
{
  recurse(1000);
  exit(0);
}

// Run fault child fn with fault_at = addr; check it dies of signal sig.
static void
expect_fault(const char *check, void (*fn)(long), ulong addr, int sig)
{
  fault_at = (long)addr;
  expect_signal(check, in_child(fn, 0), sig);
}

// sbrkfault: memory given back with sbrk(-n), or beyond the break, faults.
void
t_sbrkfault(void)
{
  char *a = align_brk(), *p;

  p = sbrk(2 * PGSIZE);
  if (is_sbrk_error(p))
    return;
  p[0] = 1;
  p[PGSIZE + 5] = 1;
  sbrk(-2 * PGSIZE);
  expect_fault("read_after_shrink", f_read, (ulong)p, SIGSEGV);
  expect_fault("write_after_shrink", f_write, (ulong)(p + PGSIZE + 4), SIGSEGV);
  expect_fault("beyond_break", f_read, (ulong)(a + 16 * PGSIZE), SIGSEGV);
  p = sbrk(PGSIZE);
  expect_true("regrow_zero", !is_sbrk_error(p) && all_zero(p, PGSIZE), "regrown page is not zero");
}

// faults: NULL, kernel and non-canonical addresses, writes to text and
// rodata, the page below the stack, a stack overflow kill with SIGSEGV;
// an illegal or privileged instruction with SIGILL.
void
t_faults(void)
{
  static const char ro[] = "read-only";

  expect_fault("null_write", f_write, 0, SIGSEGV);
  expect_fault("null_read", f_read, 0, SIGSEGV);
  expect_fault("null_call", f_call, 0, SIGSEGV);
  expect_fault("page0_read", f_read, 0x800, SIGSEGV);
  expect_fault("kernel_read", f_read, 0x80000000UL, SIGSEGV);
  expect_fault("kernel_write", f_write, 0x80000000UL, SIGSEGV);
  expect_fault("high_read", f_read, 0xffffffffffff0000UL, SIGSEGV);
  expect_fault("text_write", f_write, (ulong)&f_write, SIGSEGV);
  expect_fault("rodata_write", f_write, (ulong)ro, SIGSEGV);
  fault_at = (long)(initial_brk - USTACK);
  expect_exit("stack_bottom_mapped", in_child(f_read, 0), 0);
  expect_fault("below_stack", f_read, (ulong)(initial_brk - USTACK - 8), SIGSEGV);
  expect_signal("stack_overflow", in_child(f_recurse, 0), SIGSEGV);
  expect_fault("illegal_instruction", f_illegal, 0, SIGILL);
#if defined(__riscv)
  expect_fault("privileged_instruction", f_privileged, 0, SIGILL);
#elif defined(__x86_64__)
  expect_fault("privileged_instruction", f_privileged, 0, SIGSEGV);
  expect_signal("x87_instruction", in_child(f_fpu, 0), SIGILL);
  expect_signal("sse_instruction", in_child(f_fpu, 1), SIGILL);
#endif
}

// ------------------------------------------------------------ tests: signal frames

// Where the interrupted pc sits in the kernel's signal frame (the frame
// starts with the user registers, in the arch's user_regs_struct order),
// and an address in the kernel half.
#if defined(__x86_64__)
#define FRAME_PC     16         // r15 ... orig_rax, then rip
#define FRAME_CS     17
#define FRAME_EFLAGS 18
#define FRAME_SS     20
#define KERNEL_PC    0xffffffff80100000UL
#else
#define FRAME_PC     0          // pc, then x1..x31
#define KERNEL_PC    0xffffffc080000000UL
#endif

static volatile long sf_mode;

// SIGUSR1 handler for f_sigframe: forge the frame rt_sigreturn will read.
static void
sf_handler(int sig, long unused, ulong *frame)
{
  if (sf_mode == 1)
    frame[FRAME_PC] = KERNEL_PC;
#if defined(__x86_64__)
  if (sf_mode == 2) {
    frame[FRAME_CS] = 0x08;                  // the kernel's code segment
    frame[FRAME_SS] = 0x10;
    frame[FRAME_EFLAGS] |= 0x3000 | 0x4000;  // IOPL 3, NT
  }
#endif
}

// Child body: take SIGUSR1 with sf_handler in mode `mode`, then report
// (exit 0) that user mode resumed with user privileges only.
static void
f_sigframe(long mode)
{
  struct sigaction sa = { (void (*)(int))sf_handler, 0, 0 };

  sf_mode = mode;
  sigaction(SIGUSR1, &sa, 0);
  raise(SIGUSR1);
#if defined(__x86_64__)
  ulong fl, cs, ss;
  asm volatile("pushfq; popq %0; movq %%cs, %1; movq %%ss, %2" : "=r"(fl), "=r"(cs), "=r"(ss));
  if ((fl & 0x7000) || (cs & 3) != 3 || (ss & 3) != 3)
    exit(1);
#endif
  exit(0);
}

// sigframe: rt_sigreturn takes only user state from the frame on the
// user stack: a kernel pc kills the process (SIGSEGV, not the kernel);
// on x86_64 forged CS, SS, IOPL and NT are ignored.
void
t_sigframe(void)
{
  expect_exit("plain", in_child(f_sigframe, 0), 0);
  expect_signal("kernel_pc", in_child(f_sigframe, 1), SIGSEGV);
#if defined(__x86_64__)
  expect_exit("privileged_state", in_child(f_sigframe, 2), 0);
#endif
}

// ------------------------------------------------------------ tests: signals, time

static volatile long spin_count;

// Child body: spin in user mode forever.
static void
k_spin(long unused)
{
  for (;;)
    spin_count++;
}

// Start fn(arg) in a child, wait a little, send sig, and check the child
// dies of it within 3 s. check names the case.
static void
kill_case(const char *check, void (*fn)(long), long arg, int sig)
{
  char c2[48];
  int pid, st = -1, r;

  pid = tfork();
  if (pid == 0) {
    fn(arg);
    exit(0);
  }
  if (!need(check, pid))
    return;
  sleep(3);
  snprintf(c2, sizeof c2, "%s_kill", check);
  expect(c2, kill(pid, sig), 0);
  r = reap_or_kill(pid, &st, 3 * HZ);
  snprintf(c2, sizeof c2, "%s_died", check);
  if (expect(c2, r, pid))
    expect_signal(check, st, sig);
}

// Child body: sleep for ticks.
static void
k_sleep(long ticks)
{
  sleep(ticks);
}

// Child body: block reading pipe end rd.
static void
k_read(long rd)
{
  char c;

  read(rd, &c, 1);
}

// kill: a sleeping, a blocked and a running child each die of the signal
// sent, promptly; ESRCH, EINVAL, and signal 0 only checks.
void
t_kill(void)
{
  int p[2], pid, st;

  kill_case("sleeping", k_sleep, 1000, SIGTERM);
  if (need("pipe", pipe(p))) {
    kill_case("blocked_read", k_read, p[0], SIGKILL);
    close(p[0]);
    close(p[1]);
  }
  kill_case("running", k_spin, 0, SIGUSR1);
  kill_case("signal_64", k_spin, 0, 64);

  expect("esrch", kill(99999, SIGTERM), -ESRCH);
  expect("esrch_sig0", kill(99999, 0), -ESRCH);
  expect("self_sig0", kill(getpid(), 0), 0);
  pid = tfork();
  if (pid == 0) {
    sleep(1000);
    exit(0);
  }
  expect("einval_neg", kill(pid, -1), -EINVAL);
  expect("einval_65", kill(pid, 65), -EINVAL);
  expect("sig0_alive", kill(pid, 0), 0);
  expect("still_running", waitpid(pid, &st, WNOHANG), 0);
  kill(pid, SIGKILL);
  reap_or_kill(pid, &st, 3 * HZ);
}

// sleep: EINVAL for negative ticks; sleep(0) returns; sleep(n) takes at
// least n ticks by uptime, and not much more.
void
t_sleep(void)
{
  int t0, t1;
  char d[64];

  expect("negative", sleep(-1), -EINVAL);
  expect("zero", sleep(0), 0);
  t0 = uptime();
  expect("five", sleep(5), 0);
  t1 = uptime();
  snprintf(d, sizeof d, "sleep(5) took %d ticks", t1 - t0);
  expect_true("duration", t1 - t0 >= 5 && t1 - t0 < 5 + 2 * HZ, d);
  expect_true("uptime", t0 > 0 && t1 >= t0, "uptime is not positive and increasing");
}
