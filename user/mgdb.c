// mgdb: a small debugger that attaches to a running process the way GDB
// 10 does, so that the labs can reproduce GDB's endless attach loop.
//
//   mgdb -p PID [-n PASSES] [--gdb15] [-t] [-r N] [-batch] [-ex CMD]... [FILE]
//
// Attaching (GDB's linux_nat_target::attach and
// linux_proc_attach_tgid_threads()): PTRACE_ATTACH the main thread (PID)
// and wait for its SIGSTOP; then read /proc/PID/task again and again
// until two whole passes in a row find no thread that is not tracked yet.
// Each untracked thread is attached and waited for. A thread whose attach
// FAILS also counts as "found new", and is not recorded, so the next pass
// finds it again: GDB's bug, kept on purpose. A failure is quiet on ESRCH,
// or on EPERM when /proc says the thread is a zombie or gone; otherwise it
// prints
//   warning: Cannot attach to lwp N: Operation not permitted (1)
// (GDB's linux_ptrace_attach_fail_reason_string(), which adds ", process N
// is already traced by process M" when /proc shows a tracer).
//
//   -n PASSES  give up after PASSES passes over /proc/PID/task that did not
//              settle ("mgdb: giving up after N passes"), detach, exit 1.
//              A healthy attach needs 3 passes (one finds the threads, two
//              find nothing new). Without -n mgdb loops forever, like GDB.
//   --gdb15    GDB 15's behaviour (commit c6f7f9c80c3b): the first thread
//              that cannot be attached is an error; detach the threads
//              already held and exit 1.
//   -t         print how many ticks attaching and detaching took.
//   -r N       (for make bench) attach and detach N times, quietly, and
//              print the time one attach+detach cycle takes.
//   -batch     run the -ex commands, then quit (detaching), like gdb -batch.
//   FILE       the program, for symbols; default /NAME, NAME from /proc.
//
// Commands: info threads, thread [N], info registers, x/N[x] ADDR, bt,
// continue, interrupt, detach, kill, quit, help. ADDR is a number, $reg,
// or a symbol. Interactively, continue lets the program run and gives the
// prompt back: type interrupt (or Ctrl-C) to stop every thread again.

#include "user.h"
#include "proc.h"
#include "lwp.h"
#include "kernel/elf.h"

#define MAXFRAMES 64
#define MAXEX     32
#define NREGS     ((int)(sizeof(struct user_regs) / sizeof(ulong)))

static int next_num = 1;        // GDB's number for the next new thread
static struct lwp *cur;         // the selected thread
static int pid;                 // the inferior, 0 when not attached
static int running;             // resumed by continue, not yet interrupted
static int gdb15, max_passes, timing, batch, repeat;
static volatile int sigint_seen;


// ------------------------------------------------------------ /proc

// The thread's state letter from /proc, or 0 if it is gone.
static char
lwp_state(int tid)
{
  char buf[512];
  const char *s;

  if (task_status(pid, tid, buf, sizeof buf) <= 0 || !(s = proc_field(buf, "State:")))
    return 0;
  return *s;
}

// The thread's name from /proc into name (size bytes), "" if gone.
static void
lwp_name(int tid, char *name, int size)
{
  char buf[512];
  const char *s;
  int i = 0;

  if (task_status(pid, tid, buf, sizeof buf) > 0 && (s = proc_field(buf, "Name:")))
    for (; i < size - 1 && s[i] && s[i] != '\n'; i++)
      name[i] = s[i];
  name[i] = 0;
}

// ------------------------------------------------------------ symbols

struct sym {
  ulong addr, size;
  const char *name;
  int text;                     // in an executable section
};

static struct sym *syms;        // sorted by address
static int nsyms;
static ulong text_end;          // where the executable sections end

// Read size bytes at offset off of fd into a new buffer; NULL on failure.
static void *
read_at(int fd, ulong off, ulong size)
{
  char *p = malloc(size ? size : 1);
  long n, done = 0;

  if (!p || lseek(fd, off, SEEK_SET) != (long)off) {
    free(p);
    return NULL;
  }
  while (done < (long)size && (n = read(fd, p + done, size - done)) > 0)
    done += n;
  if (done != (long)size) {
    free(p);
    return NULL;
  }
  return p;
}

// Keep the named function and object symbols of the symbol table.
static void
take_symbols(struct elf64_shdr *sh, int nsh, struct elf64_sym *es, int nes, char *str, ulong strsize)
{
  syms = malloc(nes * sizeof *syms);
  for (int i = 0; syms && i < nes; i++) {
    int type = es[i].info & 0xf;
    if (es[i].shndx == 0 || es[i].shndx >= nsh || es[i].name >= strsize || type > 2)
      continue;
    const char *name = str + es[i].name;
    if (!name[0] || name[0] == '.' || name[0] == '$' || !(sh[es[i].shndx].flags & SHF_ALLOC))
      continue;
    struct sym s = { es[i].value, es[i].size, name, (sh[es[i].shndx].flags & SHF_EXECINSTR) != 0 };
    int j = nsyms++;
    for (; j > 0 && syms[j - 1].addr > s.addr; j--)
      syms[j] = syms[j - 1];
    syms[j] = s;
  }
}

// Load the symbols of ELF file path. Returns 0 or -1.
static int
load_symbols(const char *path)
{
  struct elf64_hdr eh;
  struct elf64_shdr *sh = NULL, *st = NULL;
  void *tab = NULL;
  char *str = NULL;
  int fd;

  fd = open(path, O_RDONLY);
  if (fd < 0)
    return -1;
  if (read(fd, &eh, sizeof eh) == sizeof eh && memcmp(eh.ident, "\177ELF", 4) == 0 &&
      eh.shentsize == sizeof(struct elf64_shdr) &&
      (sh = read_at(fd, eh.shoff, (ulong)eh.shnum * sizeof *sh))) {
    for (int i = 0; i < eh.shnum; i++) {
      if ((sh[i].flags & SHF_EXECINSTR) && sh[i].addr + sh[i].size > text_end)
        text_end = sh[i].addr + sh[i].size;
      if (sh[i].type == SHT_SYMTAB && sh[i].link < eh.shnum && !st)
        st = &sh[i];
    }
    if (st && (tab = read_at(fd, st->offset, st->size)) &&
        (str = read_at(fd, sh[st->link].offset, sh[st->link].size)))
      take_symbols(sh, eh.shnum, tab, st->size / sizeof(struct elf64_sym), str, sh[st->link].size);
  }
  free(sh);
  free(tab);            // the names stay: syms point into str
  if (nsyms == 0)
    free(str);
  close(fd);
  return nsyms > 0 ? 0 : -1;
}

// The symbol holding addr, a code symbol if text is set (else any), or
// NULL. A symbol without a size (the assembly stubs) ends where the next
// one of its kind begins, or at the end of the code.
static struct sym *
sym_lookup(ulong addr, int text)
{
  struct sym *best = NULL;

  for (int i = 0; i < nsyms && syms[i].addr <= addr; i++)
    if (syms[i].text || !text)
      best = &syms[i];
  if (!best)
    return NULL;
  if (best->size)
    return addr < best->addr + best->size ? best : NULL;
  for (struct sym *n = best + 1; n < syms + nsyms; n++)
    if ((n->text || !text) && n->addr > best->addr)
      return addr < n->addr ? best : NULL;
  return best->text && addr < text_end ? best : NULL;
}

// The code symbol holding addr, or NULL.
static struct sym *
sym_at(ulong addr)
{
  return sym_lookup(addr, 1);
}

// Print " <sym+off>" (GDB's "<sym>" at offset 0) if addr lies in a symbol.
static void
print_sym(ulong addr)
{
  struct sym *s = sym_lookup(addr, 0);

  if (s && addr > s->addr)
    printf(" <%s+%lu>", s->name, addr - s->addr);
  else if (s)
    printf(" <%s>", s->name);
}

// The name of the function holding addr, or "??".
static const char *
func_name(ulong addr)
{
  struct sym *s = sym_at(addr);

  return s ? s->name : "??";
}

// The symbol called name, or NULL.
static struct sym *
sym_named(const char *name)
{
  for (int i = 0; i < nsyms; i++)
    if (strcmp(syms[i].name, name) == 0)
      return &syms[i];
  return NULL;
}

// ------------------------------------------------------------ threads

// Track tid (user/lib/lwp.c), with the next GDB thread number.
static struct lwp *
new_lwp(int tid)
{
  struct lwp *lp = add_lwp(tid);

  if (lp)
    lp->num = next_num++;
  return lp;
}

// Forget lp (it exited or was let go).
static void
forget_lwp(struct lwp *lp)
{
  drop_lwp(lp);
  if (cur == lp || cur >= &lwps[nlwp])
    cur = nlwp ? &lwps[0] : NULL;
  else if (cur > lp)
    cur--;
}

static void
on_signal(int sig)
{
  if (sig == SIGINT)
    sigint_seen = 1;
}

// Wait for the next stop of tracee tid. Returns the stop signal, or -1 if
// the thread is gone (its exit reported, or nothing left to wait for).
// Polls with WNOHANG; the sleep between polls ends early when SIGCHLD
// (sent by every tracee stop) arrives, so this costs no latency, and a
// thread that exits without a report cannot hang us.
static int
wait_stop(int tid)
{
  int st, r;

  for (;;) {
    r = waitpid(tid, &st, __WALL | WNOHANG);
    if (r == tid)
      return WIFSTOPPED(st) ? WSTOPSIG(st) : -1;
    if (r < 0 && r != -EINTR)
      return -1;
    if (r == 0)
      sleep(1);
  }
}

// Wait until lp stops with the SIGSTOP that attach or interrupt sent. A
// different signal that stops it first is kept in pending_sig (delivered
// when we resume it) and the thread is let go on to the SIGSTOP.
// Returns 0, or -1 if the thread exited.
static int
wait_for_sigstop(struct lwp *lp)
{
  int sig;

  for (;;) {
    sig = wait_stop(lp->tid);
    if (sig < 0)
      return -1;
    if (sig == SIGSTOP) {
      lp->stopped = 1;
      return 0;
    }
    lp->pending_sig = sig;
    ptrace(PTRACE_CONT, lp->tid, 0, 0);
  }
}

static int
get_regs(struct lwp *lp, struct user_regs *r)
{
  return ptrace(PTRACE_GETREGS, lp->tid, 0, r);
}

static int
peek(struct lwp *lp, ulong addr, ulong *word)
{
  return ptrace(PTRACE_PEEKDATA, lp->tid, (void *)addr, word);
}

// Print the frame line of lp: "0x... in func ()".
static void
print_where(struct lwp *lp)
{
  struct user_regs r;

  if (get_regs(lp, &r) == 0)
    printf("0x%016lx in %s ()\n", USER_REGS_PC(&r), func_name(USER_REGS_PC(&r)));
}

// ------------------------------------------------------------ attaching

// GDB's warning for a thread that cannot be attached, or (--gdb15) its error.
static void
attach_failed(int tid, int err)
{
  char reason[96];

  linux_ptrace_attach_fail_reason_string(pid, tid, reason, sizeof reason);
  fprintf(STDERR, "%sCannot attach to lwp %d: %s (%d)%s\n", gdb15 ? "" : "warning: ",
          tid, strerror(err), -err, reason);
}

// GDB's attach_proc_task_lwp_callback() for a thread not tracked yet:
// attach it and wait for its SIGSTOP. Returns 0 -- even when the attach
// failed, with a warning -- or -1 for a --gdb15 error (or a full table).
static int
attach_lwp(int tid)
{
  struct lwp *lp;
  int r;

  if (nlwp == MAXLWP) {
    fprintf(STDERR, "mgdb: too many threads\n");
    return -1;
  }
  r = ptrace(PTRACE_ATTACH, tid, 0, 0);
  if (r < 0) {
    if (r == -ESRCH || (r == -EPERM && linux_proc_pid_is_gone(pid, tid)))
      return 0;                 // raced with its exit: quiet
    attach_failed(tid, r);
    return gdb15 ? -1 : 0;
  }
  lp = new_lwp(tid);
  printf("[New LWP %d]\n", tid);
  if (wait_for_sigstop(lp) < 0) {
    printf("[LWP %d exited]\n", tid);
    forget_lwp(lp);
  }
  return 0;
}

// GDB's linux_proc_attach_tgid_threads() (user/lib/lwp.c): pass after
// pass until two in a row find nothing new. Returns 0, or -1 (gave up,
// or a --gdb15 error).
static int
attach_all_threads(void)
{
  int r = linux_proc_attach_tgid_threads(pid, attach_lwp, max_passes);

  if (r == -2)
    printf("mgdb: giving up after %d passes\n", max_passes);
  return r < 0 ? -1 : 0;
}

static void detach_all(void);

#ifdef USER_CS64
// GDB's x86_linux_nat_target::read_description(): tell a 64-bit process
// from a 32-bit one by the code segment of one of its threads. GDB 10
// asks a thread other than the main one (the last it attached: "usually
// the IO thread", as Torvalds put it); GDB 11 and later ask the main
// thread (fbf3c4b97907). An I/O thread with zeroed registers (Linux 5.12)
// has cs 0, so GDB 10 took the process for i386 and warned, as here.
static void
read_description(void)
{
  struct user_regs r;
  struct lwp *lp = gdb15 ? find_lwp(pid) : &lwps[nlwp - 1];

  if (lp && get_regs(lp, &r) == 0 && USER_REGS_CS(&r) != USER_CS64)
    fprintf(STDERR, "warning: Selected architecture i386:x86-64 is not compatible with "
            "reported target architecture i386\n\n"
            "warning: Architecture rejected target-supplied description\n");
}
#else
// Other architectures have no 32/64-bit probe to get wrong.
static void read_description(void) { }
#endif

// Attach to process p: the main thread, then every other one. Returns 0,
// or -1 with nothing held.
static int
attach_process(int p)
{
  struct lwp *lp;
  int r;

  pid = p;
  next_num = 1;
  printf("Attaching to process %d\n", pid);
  r = ptrace(PTRACE_ATTACH, pid, 0, 0);
  if (r < 0) {
    fprintf(STDERR, "ptrace: %s.\n", strerror(r));
    pid = 0;
    return -1;
  }
  lp = new_lwp(pid);
  cur = lp;
  if (wait_for_sigstop(lp) < 0) {
    fprintf(STDERR, "mgdb: process %d exited while attaching\n", pid);
    nlwp = 0;
    pid = 0;
    return -1;
  }
  if (attach_all_threads() < 0) {
    detach_all();
    return -1;
  }
  read_description();
  return 0;
}

// ------------------------------------------------------------ run control

// Stop every running thread (tgkill SIGSTOP) and collect the stops. With
// verbose (interrupt), also catch up with threads started meanwhile (we
// have no PTRACE_O_TRACECLONE) and show where the selected thread is.
static void
stop_all(int verbose)
{
  for (int i = 0; i < nlwp; i++)
    if (!lwps[i].stopped)
      tgkill(pid, lwps[i].tid, SIGSTOP);
  for (int i = 0; i < nlwp; i++) {
    if (lwps[i].stopped)
      continue;
    if (wait_for_sigstop(&lwps[i]) < 0) {
      printf("[LWP %d exited]\n", lwps[i].tid);
      forget_lwp(&lwps[i--]);
    }
  }
  running = 0;
  if (verbose && nlwp)
    attach_all_threads();
  if (verbose && cur) {
    char name[32];
    lwp_name(cur->tid, name, sizeof name);
    printf("\nThread %d \"%s\" stopped.\n", cur->num, name);
    print_where(cur);
  }
}

// Let every thread go on (PTRACE_CONT), each with its pending signal.
static void
resume_all(void)
{
  for (int i = 0; i < nlwp; i++) {
    if (!lwps[i].stopped)
      continue;
    ptrace(PTRACE_CONT, lwps[i].tid, 0, (void *)(long)lwps[i].pending_sig);
    lwps[i].pending_sig = 0;
    lwps[i].stopped = 0;
  }
  running = 1;
}

// Stop everything, then PTRACE_DETACH every thread: the program runs on
// as it did before we came.
static void
detach_all(void)
{
  int p = pid;

  stop_all(0);
  for (int i = 0; i < nlwp; i++)
    ptrace(PTRACE_DETACH, lwps[i].tid, 0, (void *)(long)lwps[i].pending_sig);
  nlwp = 0;
  cur = NULL;
  pid = 0;
  running = 0;
  printf("[Inferior 1 (process %d) detached]\n", p);
}

// While running: report threads that stopped for a signal of their own
// (then stop the rest, as GDB's all-stop mode does) or exited.
static void
poll_events(void)
{
  int st, r;

  for (int i = 0; running && i < nlwp; i++) {
    r = waitpid(lwps[i].tid, &st, __WALL | WNOHANG);
    if (r == lwps[i].tid && WIFSTOPPED(st)) {
      char name[32];
      lwps[i].stopped = 1;
      lwps[i].pending_sig = WSTOPSIG(st) == SIGSTOP ? 0 : WSTOPSIG(st);
      cur = &lwps[i];
      lwp_name(cur->tid, name, sizeof name);
      printf("\nThread %d \"%s\" received signal SIG%s.\n", cur->num, name,
             signame(WSTOPSIG(st)) ? signame(WSTOPSIG(st)) : "?");
      stop_all(0);
      print_where(cur);
    } else if (r == lwps[i].tid || r == -ECHILD) {
      printf("[LWP %d exited]\n", lwps[i].tid);
      forget_lwp(&lwps[i--]);
    }
  }
  if (pid && nlwp == 0) {
    printf("[Inferior 1 (process %d) exited]\n", pid);
    pid = 0;
    running = 0;
  }
}

// ------------------------------------------------------------ commands

// Are we attached? Says so if not.
static int
need_process(void)
{
  if (!pid)
    fprintf(STDERR, "The program is not being run.\n");
  return pid != 0;
}

// Is there a stopped, selected thread to look at? Says why not.
static int
need_stopped(void)
{
  if (!need_process())
    return 0;
  if (!cur || !cur->stopped) {
    fprintf(STDERR, "Cannot execute this command while the selected thread is running.\n");
    return 0;
  }
  return 1;
}

static int
cmd_info_threads(void)
{
  struct user_regs r;
  char name[32], state;

  if (!pid) {
    printf("No threads.\n");
    return 0;
  }
  printf("  Id   %-28s S Frame\n", "Target Id");
  for (int i = 0; i < nlwp; i++) {
    struct lwp *lp = &lwps[i];
    lwp_name(lp->tid, name, sizeof name);
    state = lwp_state(lp->tid);
    printf("%c %-4d LWP %-5d %-18s %c ", lp == cur ? '*' : ' ', lp->num, lp->tid, name,
           state ? state : '?');
    if (lp->stopped && get_regs(lp, &r) == 0)
      printf("0x%016lx in %s ()\n", USER_REGS_PC(&r), func_name(USER_REGS_PC(&r)));
    else
      printf("(running)\n");
  }
  return 0;
}

static int
cmd_thread(const char *arg)
{
  if (!pid) {
    fprintf(STDERR, "No thread selected.\n");
    return -1;
  }
  if (!arg) {
    printf("[Current thread is %d (LWP %d)]\n", cur->num, cur->tid);
    return 0;
  }
  for (int i = 0; i < nlwp; i++)
    if (lwps[i].num == atoi(arg)) {
      cur = &lwps[i];
      printf("[Switching to thread %d (LWP %d)]\n", cur->num, cur->tid);
      if (cur->stopped)
        print_where(cur);
      return 0;
    }
  fprintf(STDERR, "Invalid thread ID: %s\n", arg);
  return -1;
}

#if defined(__riscv)
static const char *const regnames[] = {
  "pc", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "fp", "s1",
  "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
  "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
  "t3", "t4", "t5", "t6",
};
#define NREGNAMES ((int)(sizeof regnames / sizeof regnames[0]))
#elif defined(__x86_64__)
static const char *const regnames[] = {
  "r15", "r14", "r13", "r12", "rbp", "rbx", "r11", "r10", "r9", "r8",
  "rax", "rcx", "rdx", "rsi", "rdi", "orig_rax", "rip", "cs", "eflags", "rsp",
  "ss", "fs_base", "gs_base", "ds", "es", "fs", "gs",
};
#define NREGNAMES ((int)(sizeof regnames / sizeof regnames[0]))
#else
#define NREGNAMES 0
static const char *const regnames[1];
#endif

// The name of register i of struct user_regs.
static const char *
regname(int i)
{
  static char b[8];

  if (i < NREGNAMES)
    return regnames[i];
  snprintf(b, sizeof b, "r%d", i);
  return b;
}

static int
cmd_info_registers(void)
{
  struct user_regs r;
  ulong *v = (ulong *)&r;

  if (!need_stopped() || get_regs(cur, &r) < 0)
    return -1;
  for (int i = 0; i < NREGS; i++) {
    printf("%-8s0x%016lx", regname(i), v[i]);
    print_sym(v[i]);
    printf("\n");
  }
  return 0;
}

// An address expression: a number, $reg or a symbol (& allowed). Returns
// 0 with *addr set, or -1.
static int
eval_addr(const char *e, ulong *addr)
{
  struct user_regs r;
  struct sym *s;

  if (*e == '&')
    e++;
  if (*e == '$') {
    if (get_regs(cur, &r) < 0)
      return -1;
    for (int i = 0; i < NREGS; i++)
      if (strcmp(e + 1, regname(i)) == 0 || (strcmp(e + 1, "s0") == 0 && strcmp(regname(i), "fp") == 0)) {
        *addr = ((ulong *)&r)[i];
        return 0;
      }
    return -1;
  }
  if (e[0] == '0' && (e[1] == 'x' || e[1] == 'X')) {
    ulong v = 0;
    int n = 0;
    for (e += 2; *e; e++, n++) {
      int d = *e >= '0' && *e <= '9' ? *e - '0' : *e >= 'a' && *e <= 'f' ? *e - 'a' + 10 :
              *e >= 'A' && *e <= 'F' ? *e - 'A' + 10 : -1;
      if (d < 0)
        return -1;
      v = v * 16 + d;
    }
    *addr = v;
    return n ? 0 : -1;
  }
  if (*e >= '0' && *e <= '9') {
    *addr = atol(e);
    return 0;
  }
  if ((s = sym_named(e)) == NULL)
    return -1;
  *addr = s->addr;
  return 0;
}

// x/N[x][g] ADDR: N words (8 bytes, what PEEKDATA reads) in hex.
static int
cmd_examine(const char *spec, const char *expr)
{
  ulong addr, word;
  long count = 1;

  if (!need_stopped())
    return -1;
  if (*spec == '/') {
    spec++;
    if (*spec >= '0' && *spec <= '9')
      count = atol(spec);
    while (*spec >= '0' && *spec <= '9')
      spec++;
    for (; *spec; spec++)
      if (*spec != 'x' && *spec != 'g') {
        fprintf(STDERR, "mgdb: only x/Nx (hex, 8-byte words) is supported\n");
        return -1;
      }
  }
  if (!expr || eval_addr(expr, &addr) < 0) {
    fprintf(STDERR, "No symbol \"%s\" in current context.\n", expr ? expr : "");
    return -1;
  }
  for (long i = 0; i < count; i++, addr += 8) {
    if (peek(cur, addr, &word) < 0) {
      if (i % 2)
        printf("\n");
      fprintf(STDERR, "Cannot access memory at address 0x%lx\n", addr);
      return -1;
    }
    if (i % 2 == 0) {
      printf("0x%lx", addr);
      print_sym(addr);
      printf(":");
    }
    printf("\t0x%016lx%s", word, i % 2 || i == count - 1 ? "\n" : "");
  }
  return 0;
}

// Print frame n at pc.
static void
print_frame(int n, ulong pc)
{
  printf("#%-2d 0x%016lx in %s ()\n", n, pc, func_name(pc));
}

// bt: walk the frame-pointer chain. At fp, the caller's fp is at
// fp+FRAME_PREV_FP_OFFSET and the return address at fp+FRAME_RA_OFFSET.
// Frame 0 may not have saved ra yet: on riscv a leaf function with a frame
// saves only the old fp, at fp-8 (a stack address, not code), and the
// assembly system-call stubs make no frame at all (ra points into a
// function other than pc's). Either way frame 1 is register ra.
static int
cmd_backtrace(void)
{
  struct user_regs r;
  ulong pc, fp, ra, prev;
  int n = 0;

  if (!need_stopped() || get_regs(cur, &r) < 0)
    return -1;
  pc = USER_REGS_PC(&r);
  fp = USER_REGS_FP(&r);
  print_frame(n++, pc);
#if defined(__riscv)
  if (fp && peek(cur, fp - 8, &prev) == 0) {
    if ((prev == 0 || (prev >= fp && prev - fp < 0x100000)) && !sym_at(prev)) {
      print_frame(n++, r.ra);           // leaf: only the old fp saved
      fp = prev;
    } else if (prev != r.ra && sym_at(r.ra) && sym_at(r.ra) != sym_at(pc)) {
      print_frame(n++, r.ra);           // frameless stub
    }
  }
#endif
  while (fp && n < MAXFRAMES) {
    if (peek(cur, fp + FRAME_RA_OFFSET, &ra) < 0 || peek(cur, fp + FRAME_PREV_FP_OFFSET, &prev) < 0) {
      printf("Backtrace stopped: Cannot access memory at address 0x%lx\n", fp + FRAME_PREV_FP_OFFSET);
      return 0;
    }
    if (ra == 0)
      break;
    print_frame(n++, ra);
    if (prev != 0 && prev <= fp) {
      printf("Backtrace stopped: previous frame inner to this frame (corrupt stack?)\n");
      return 0;
    }
    fp = prev;
  }
  return 0;
}

static int
cmd_continue(void)
{
  if (!need_process())
    return -1;
  if (running) {
    fprintf(STDERR, "The program is already running.\n");
    return -1;
  }
  printf("Continuing.\n");
  resume_all();
  return 0;
}

static int
cmd_interrupt(void)
{
  if (!need_process())
    return -1;
  if (!running) {
    fprintf(STDERR, "The program is not running.\n");
    return -1;
  }
  stop_all(1);
  return 0;
}

static int
cmd_detach(void)
{
  int t0 = uptime();

  if (!need_process())
    return -1;
  printf("Detaching from process %d\n", pid);
  detach_all();
  if (timing)
    printf("mgdb: detach took %d ticks\n", uptime() - t0);
  return 0;
}

// kill: PTRACE_KILL every thread and wait until they are gone.
static int
cmd_kill(void)
{
  int p = pid;

  if (!need_process())
    return -1;
  for (int i = 0; i < nlwp; i++)
    ptrace(PTRACE_KILL, lwps[i].tid, 0, 0);
  for (int i = 0; i < nlwp; i++)
    while (wait_stop(lwps[i].tid) >= 0)
      ptrace(PTRACE_CONT, lwps[i].tid, 0, 0);
  nlwp = 0;
  cur = NULL;
  pid = 0;
  running = 0;
  printf("[Inferior 1 (process %d) killed]\n", p);
  return 0;
}

static void
cmd_help(void)
{
  printf("info threads | thread [N] | info registers | x/N[x] ADDR | bt\n"
         "continue | interrupt | detach | kill | quit\n");
}

// Run one command line. Returns 0, -1 on error, 1 for quit.
static int
run_command(char *line)
{
  char *w[4] = { 0 };
  int n = 0;

  for (char *p = line; *p && n < 4;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
      *p++ = 0;
    if (!*p)
      break;
    w[n++] = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r')
      p++;
  }
  if (n == 0)
    return 0;
  if ((strcmp(w[0], "info") == 0 || strcmp(w[0], "i") == 0) && w[1]) {
    if (strncmp(w[1], "threads", strlen(w[1])) == 0)
      return cmd_info_threads();
    if (strncmp(w[1], "registers", strlen(w[1])) == 0)
      return cmd_info_registers();
  }
  if (strcmp(w[0], "thread") == 0)
    return cmd_thread(w[1]);
  if (w[0][0] == 'x' && (w[0][1] == 0 || w[0][1] == '/'))
    return cmd_examine(w[0] + 1, w[1]);
  if (strcmp(w[0], "bt") == 0 || strcmp(w[0], "backtrace") == 0 || strcmp(w[0], "where") == 0)
    return cmd_backtrace();
  if (strcmp(w[0], "continue") == 0 || strcmp(w[0], "c") == 0)
    return cmd_continue();
  if (strcmp(w[0], "interrupt") == 0)
    return cmd_interrupt();
  if (strcmp(w[0], "detach") == 0)
    return cmd_detach();
  if (strcmp(w[0], "kill") == 0)
    return cmd_kill();
  if (strcmp(w[0], "quit") == 0 || strcmp(w[0], "q") == 0)
    return 1;
  if (strcmp(w[0], "help") == 0) {
    cmd_help();
    return 0;
  }
  fprintf(STDERR, "Undefined command: \"%s\".  Try \"help\".\n", w[0]);
  return -1;
}

// Read one line from the console into buf. Returns its length, -1 at end
// of input, or -EINTR if Ctrl-C came first.
static int
read_line(char *buf, int size)
{
  int n = 0, r;
  char c;

  for (;;) {
    r = read(STDIN, &c, 1);
    if (r == -EINTR)
      return -EINTR;
    if (r <= 0)
      return n ? n : -1;
    if (c == '\n')
      break;
    if (n < size - 1)
      buf[n++] = c;
  }
  buf[n] = 0;
  return n;
}

// The interactive loop. Ctrl-C while the program runs interrupts it.
static void
interact(void)
{
  char line[256];
  int r;

  for (;;) {
    poll_events();
    printf("(mgdb) ");
    r = read_line(line, sizeof line);
    if (r == -EINTR) {           // Ctrl-C
      sigint_seen = 0;
      if (running)
        stop_all(1);
      else
        printf("Quit\n");
      continue;
    }
    if (r < 0) {
      printf("quit\n");
      return;
    }
    poll_events();
    if (run_command(line) == 1)
      return;
  }
}

// -r N: attach to and detach from process p N times, with stdout closed
// meanwhile (warnings still show), and print the time one cycle takes.
// For make bench: uptime() counts 10 ms ticks, so one cycle is too short
// to time alone. Returns the exit status.
static int
bench_cycles(int p, int n)
{
  int saved = dup(STDOUT), t0, ticks, threads = 0, i;

  close(STDOUT);
  t0 = uptime();
  for (i = 0; i < n && attach_process(p) == 0; i++) {
    threads = nlwp;
    detach_all();
  }
  ticks = uptime() - t0;
  dup(saved);
  close(saved);
  if (i < n) {
    fprintf(STDERR, "mgdb: attach %d of %d failed\n", i + 1, n);
    return 1;
  }
  printf("mgdb: %d attach+detach cycles of %d threads took %d ticks: %d us each\n",
         n, threads, ticks, ticks * (1000000 / HZ) / n);
  return 0;
}

static void
usage(void)
{
  fprintf(STDERR, "usage: mgdb -p PID [-n PASSES] [--gdb15] [-t] [-r N] [-batch] [-ex CMD]... [FILE]\n");
  exit(2);
}

int
main(int argc, char **argv)
{
  char *ex[MAXEX], path[40], name[32];
  const char *file = NULL;
  int nex = 0, target = 0, t0, r = 0;
  struct sigaction sa = { on_signal, 0, 0 };

  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "-p") == 0 && i + 1 < argc)
      target = atoi(argv[++i]);
    else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      max_passes = atoi(argv[++i]);
    else if (strcmp(argv[i], "--gdb15") == 0)
      gdb15 = 1;
    else if (strcmp(argv[i], "-t") == 0)
      timing = 1;
    else if (strcmp(argv[i], "-r") == 0 && i + 1 < argc && atoi(argv[i + 1]) > 0)
      repeat = atoi(argv[++i]);
    else if (strcmp(argv[i], "-batch") == 0 || strcmp(argv[i], "--batch") == 0)
      batch = 1;
    else if (strcmp(argv[i], "-ex") == 0 && i + 1 < argc && nex < MAXEX)
      ex[nex++] = argv[++i];
    else if (strcmp(argv[i], "-q") == 0)
      continue;
    else if (argv[i][0] != '-' && !file)
      file = argv[i];
    else
      usage();
  }
  if (target <= 0)
    usage();
  sigaction(SIGCHLD, &sa, NULL);        // cuts wait_stop()'s sleeps short
  sigaction(SIGINT, &sa, NULL);         // Ctrl-C: interrupt
  if (!file) {
    pid = target;
    lwp_name(target, name, sizeof name);
    pid = 0;
    snprintf(path, sizeof path, "/%s", name);
    file = name[0] ? path : NULL;
  }
  if (file && load_symbols(file) == 0)
    printf("Reading symbols from %s...\n", file);
  if (repeat)
    return bench_cycles(target, repeat);
  t0 = uptime();
  if (attach_process(target) < 0)
    exit(1);
  if (timing)
    printf("mgdb: attach took %d ticks (%d threads)\n", uptime() - t0, nlwp);
  print_where(cur);
  for (int i = 0; i < nex && r != 1; i++) {
    poll_events();
    r = run_command(ex[i]);
  }
  if (!batch && r != 1)
    interact();
  if (pid)
    cmd_detach();
  return batch && r < 0 ? 1 : 0;
}
