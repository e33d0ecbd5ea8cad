// mgdb's commands: info threads, thread, info registers, x, bt, continue,
// interrupt, detach, kill, help (user/mgdb/mgdb.h).

#include "user.h"
#include "lwp.h"
#include "mgdb.h"

#define MAXFRAMES 64
#define NREGS     ((int)(sizeof(struct user_regs) / sizeof(ulong)))

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

int
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
int
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

