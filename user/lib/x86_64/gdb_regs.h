// x86_64 registers as GDB's remote protocol numbers them: the features
// org.gnu.gdb.i386.core (general, segment and x87 registers),
// org.gnu.gdb.i386.sse and org.gnu.gdb.i386.linux (orig_rax). Each comes
// from struct user_regs (user_regs.h); ptrace gives no x87 or SSE state
// here, so those read as unavailable. Included by user/gdbserver/regs.c
// only, which defines struct gdb_reg.
#define GDB_ARCHITECTURE "i386:x86-64"
#define RU(f) __builtin_offsetof(struct user_regs, f)

static const char *const gdb_features[] = {
  "org.gnu.gdb.i386.core", "org.gnu.gdb.i386.sse", "org.gnu.gdb.i386.linux",
};

static const struct gdb_reg gdb_regs[] = {
  { "rax", 64, "int64", RU(rax), 0 }, { "rbx", 64, "int64", RU(rbx), 0 },
  { "rcx", 64, "int64", RU(rcx), 0 }, { "rdx", 64, "int64", RU(rdx), 0 },
  { "rsi", 64, "int64", RU(rsi), 0 }, { "rdi", 64, "int64", RU(rdi), 0 },
  { "rbp", 64, "data_ptr", RU(rbp), 0 }, { "rsp", 64, "data_ptr", RU(rsp), 0 },
  { "r8", 64, "int64", RU(r8), 0 }, { "r9", 64, "int64", RU(r9), 0 },
  { "r10", 64, "int64", RU(r10), 0 }, { "r11", 64, "int64", RU(r11), 0 },
  { "r12", 64, "int64", RU(r12), 0 }, { "r13", 64, "int64", RU(r13), 0 },
  { "r14", 64, "int64", RU(r14), 0 }, { "r15", 64, "int64", RU(r15), 0 },
  { "rip", 64, "code_ptr", RU(rip), 0 }, { "eflags", 32, "int32", RU(eflags), 0 },
  { "cs", 32, "int32", RU(cs), 0 }, { "ss", 32, "int32", RU(ss), 0 },
  { "ds", 32, "int32", RU(ds), 0 }, { "es", 32, "int32", RU(es), 0 },
  { "fs", 32, "int32", RU(fs), 0 }, { "gs", 32, "int32", RU(gs), 0 },
  { "st0", 80, "i387_ext", REG_NONE, 0 }, { "st1", 80, "i387_ext", REG_NONE, 0 },
  { "st2", 80, "i387_ext", REG_NONE, 0 }, { "st3", 80, "i387_ext", REG_NONE, 0 },
  { "st4", 80, "i387_ext", REG_NONE, 0 }, { "st5", 80, "i387_ext", REG_NONE, 0 },
  { "st6", 80, "i387_ext", REG_NONE, 0 }, { "st7", 80, "i387_ext", REG_NONE, 0 },
  { "fctrl", 32, "int", REG_NONE, 0 }, { "fstat", 32, "int", REG_NONE, 0 },
  { "ftag", 32, "int", REG_NONE, 0 }, { "fiseg", 32, "int", REG_NONE, 0 },
  { "fioff", 32, "int", REG_NONE, 0 }, { "foseg", 32, "int", REG_NONE, 0 },
  { "fooff", 32, "int", REG_NONE, 0 }, { "fop", 32, "int", REG_NONE, 0 },
  { "xmm0", 128, "uint128", REG_NONE, 1 }, { "xmm1", 128, "uint128", REG_NONE, 1 },
  { "xmm2", 128, "uint128", REG_NONE, 1 }, { "xmm3", 128, "uint128", REG_NONE, 1 },
  { "xmm4", 128, "uint128", REG_NONE, 1 }, { "xmm5", 128, "uint128", REG_NONE, 1 },
  { "xmm6", 128, "uint128", REG_NONE, 1 }, { "xmm7", 128, "uint128", REG_NONE, 1 },
  { "xmm8", 128, "uint128", REG_NONE, 1 }, { "xmm9", 128, "uint128", REG_NONE, 1 },
  { "xmm10", 128, "uint128", REG_NONE, 1 }, { "xmm11", 128, "uint128", REG_NONE, 1 },
  { "xmm12", 128, "uint128", REG_NONE, 1 }, { "xmm13", 128, "uint128", REG_NONE, 1 },
  { "xmm14", 128, "uint128", REG_NONE, 1 }, { "xmm15", 128, "uint128", REG_NONE, 1 },
  { "mxcsr", 32, "int", REG_NONE, 1 },
  { "orig_rax", 64, "int", RU(orig_rax), 2 },
};
