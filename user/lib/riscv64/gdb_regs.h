// riscv64 registers as GDB's remote protocol numbers them (feature
// org.gnu.gdb.riscv.cpu): x0..x31 by their ABI names, then pc, then the
// floating-point ones (org.gnu.gdb.riscv.fpu). Each
// comes from struct user_regs (user_regs.h); x0 always reads 0.
// Included by user/gdbserver/regs.c only, which defines struct gdb_reg.
#define GDB_ARCHITECTURE "riscv:rv64"
#define RU(f) __builtin_offsetof(struct user_regs, f)

static const char *const gdb_features[] = { "org.gnu.gdb.riscv.cpu", "org.gnu.gdb.riscv.fpu" };

static const struct gdb_reg gdb_regs[] = {
  { "zero", 64, "int", REG_ZERO, 0 },
  { "ra", 64, "code_ptr", RU(ra), 0 }, { "sp", 64, "data_ptr", RU(sp), 0 },
  { "gp", 64, "data_ptr", RU(gp), 0 }, { "tp", 64, "data_ptr", RU(tp), 0 },
  { "t0", 64, "int", RU(t0), 0 }, { "t1", 64, "int", RU(t1), 0 }, { "t2", 64, "int", RU(t2), 0 },
  { "fp", 64, "data_ptr", RU(s0), 0 }, { "s1", 64, "int", RU(s1), 0 },
  { "a0", 64, "int", RU(a0), 0 }, { "a1", 64, "int", RU(a1), 0 }, { "a2", 64, "int", RU(a2), 0 },
  { "a3", 64, "int", RU(a3), 0 }, { "a4", 64, "int", RU(a4), 0 }, { "a5", 64, "int", RU(a5), 0 },
  { "a6", 64, "int", RU(a6), 0 }, { "a7", 64, "int", RU(a7), 0 },
  { "s2", 64, "int", RU(s2), 0 }, { "s3", 64, "int", RU(s3), 0 }, { "s4", 64, "int", RU(s4), 0 },
  { "s5", 64, "int", RU(s5), 0 }, { "s6", 64, "int", RU(s6), 0 }, { "s7", 64, "int", RU(s7), 0 },
  { "s8", 64, "int", RU(s8), 0 }, { "s9", 64, "int", RU(s9), 0 }, { "s10", 64, "int", RU(s10), 0 },
  { "s11", 64, "int", RU(s11), 0 },
  { "t3", 64, "int", RU(t3), 0 }, { "t4", 64, "int", RU(t4), 0 }, { "t5", 64, "int", RU(t5), 0 },
  { "t6", 64, "int", RU(t6), 0 },
  { "pc", 64, "code_ptr", RU(pc), 0 },
  // The floating-point registers (lp64d programs need them described),
  // which ptrace does not give here: unavailable.
  { "ft0", 64, "ieee_double", REG_NONE, 1 }, { "ft1", 64, "ieee_double", REG_NONE, 1 },
  { "ft2", 64, "ieee_double", REG_NONE, 1 }, { "ft3", 64, "ieee_double", REG_NONE, 1 },
  { "ft4", 64, "ieee_double", REG_NONE, 1 }, { "ft5", 64, "ieee_double", REG_NONE, 1 },
  { "ft6", 64, "ieee_double", REG_NONE, 1 }, { "ft7", 64, "ieee_double", REG_NONE, 1 },
  { "fs0", 64, "ieee_double", REG_NONE, 1 }, { "fs1", 64, "ieee_double", REG_NONE, 1 },
  { "fa0", 64, "ieee_double", REG_NONE, 1 }, { "fa1", 64, "ieee_double", REG_NONE, 1 },
  { "fa2", 64, "ieee_double", REG_NONE, 1 }, { "fa3", 64, "ieee_double", REG_NONE, 1 },
  { "fa4", 64, "ieee_double", REG_NONE, 1 }, { "fa5", 64, "ieee_double", REG_NONE, 1 },
  { "fa6", 64, "ieee_double", REG_NONE, 1 }, { "fa7", 64, "ieee_double", REG_NONE, 1 },
  { "fs2", 64, "ieee_double", REG_NONE, 1 }, { "fs3", 64, "ieee_double", REG_NONE, 1 },
  { "fs4", 64, "ieee_double", REG_NONE, 1 }, { "fs5", 64, "ieee_double", REG_NONE, 1 },
  { "fs6", 64, "ieee_double", REG_NONE, 1 }, { "fs7", 64, "ieee_double", REG_NONE, 1 },
  { "fs8", 64, "ieee_double", REG_NONE, 1 }, { "fs9", 64, "ieee_double", REG_NONE, 1 },
  { "fs10", 64, "ieee_double", REG_NONE, 1 }, { "fs11", 64, "ieee_double", REG_NONE, 1 },
  { "ft8", 64, "ieee_double", REG_NONE, 1 }, { "ft9", 64, "ieee_double", REG_NONE, 1 },
  { "ft10", 64, "ieee_double", REG_NONE, 1 }, { "ft11", 64, "ieee_double", REG_NONE, 1 },
  { "fflags", 32, "int", REG_NONE, 1 }, { "frm", 32, "int", REG_NONE, 1 },
  { "fcsr", 32, "int", REG_NONE, 1 },
};
