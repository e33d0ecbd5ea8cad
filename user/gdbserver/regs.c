// gdbserver: registers in the remote protocol's order, and the target
// description (qXfer:features:read:target.xml) that tells GDB that order.
// The order and the names are the architecture's (user/lib/ARCH/gdb_regs.h);
// the code here is the same for every architecture. Values go in target
// byte order (little-endian on both ports); a register ptrace cannot give
// reads as unavailable ("xx..." in a g reply).

#include "gdbserver.h"

struct gdb_reg {
  const char *name;
  int bits;
  const char *type;
  int off;                      // byte offset in struct user_regs, or:
  int feature;                  // index into gdb_features[]
};
#define REG_NONE (-1)           // not available through ptrace
#define REG_ZERO (-2)           // always 0 (riscv's x0)

#include "gdb_regs.h"

#define NREGS ((int)(sizeof gdb_regs / sizeof gdb_regs[0]))
#define NFEATURES ((int)(sizeof gdb_features / sizeof gdb_features[0]))

// Register n of r in hex at hex; returns the digits written.
static int
one_to_hex(const struct user_regs *r, int n, char *hex)
{
  const struct gdb_reg *g = &gdb_regs[n];
  int bytes = g->bits / 8;
  uchar v[16] = { 0 };

  if (g->off == REG_NONE) {
    memset(hex, 'x', 2 * bytes);
    hex[2 * bytes] = 0;
    return 2 * bytes;
  }
  if (g->off >= 0)
    memcpy(v, (const char *)r + g->off, bytes);   // little-endian: low bytes first
  bin2hex(v, hex, bytes);
  return 2 * bytes;
}

// Set register n of r from the hex at hex. Returns the digits used, or -1.
static int
one_from_hex(struct user_regs *r, int n, const char *hex)
{
  const struct gdb_reg *g = &gdb_regs[n];
  int bytes = g->bits / 8;
  uchar v[16];

  if (strlen(hex) < (size_t)(2 * bytes))
    return -1;
  if (g->off >= 0) {
    if (hex2bin(hex, v, bytes) < 0)
      return -1;
    ulong w = 0;
    memcpy(&w, v, bytes < 8 ? bytes : 8);   // wider fields are never ptrace's
    if (bytes == 4)                          // a 32-bit view of a 64-bit slot
      w &= 0xffffffffUL;
    memcpy((char *)r + g->off, &w, sizeof w);
  }
  return 2 * bytes;
}

int
regs_to_hex(const struct user_regs *r, char *hex)
{
  int len = 0;

  for (int n = 0; n < NREGS; n++)
    len += one_to_hex(r, n, hex + len);
  return len;
}

int
hex_to_regs(const char *hex, struct user_regs *r)
{
  for (int n = 0; n < NREGS && *hex; n++) {
    int used = one_from_hex(r, n, hex);
    if (used < 0)
      return -1;
    hex += used;
  }
  return 0;
}

int
reg_to_hex(const struct user_regs *r, int n, char *hex)
{
  if (n < 0 || n >= NREGS)
    return -1;
  return one_to_hex(r, n, hex);
}

int
hex_to_reg(struct user_regs *r, int n, const char *hex)
{
  if (n < 0 || n >= NREGS || one_from_hex(r, n, hex) < 0)
    return -1;
  return 0;
}

ulong regs_pc(const struct user_regs *r) { return USER_REGS_PC(r); }
void regs_set_pc(struct user_regs *r, ulong pc) { USER_REGS_PC(r) = pc; }

// The target description: the architecture, then each feature with its
// registers in protocol order. Built once.
const char *
target_xml(void)
{
  static char xml[6144];
  int len;

  if (xml[0])
    return xml;
  len = snprintf(xml, sizeof xml, "<?xml version=\"1.0\"?>\n<!DOCTYPE target SYSTEM \"gdb-target.dtd\">\n"
                 "<target version=\"1.0\">\n<architecture>%s</architecture>\n", GDB_ARCHITECTURE);
  for (int f = 0; f < NFEATURES; f++) {
    len += snprintf(xml + len, sizeof xml - len, "<feature name=\"%s\">\n", gdb_features[f]);
    for (int n = 0; n < NREGS; n++)
      if (gdb_regs[n].feature == f)
        len += snprintf(xml + len, sizeof xml - len,
                        "<reg name=\"%s\" bitsize=\"%d\" type=\"%s\" regnum=\"%d\"/>\n",
                        gdb_regs[n].name, gdb_regs[n].bits, gdb_regs[n].type, n);
    len += snprintf(xml + len, sizeof xml - len, "</feature>\n");
  }
  snprintf(xml + len, sizeof xml - len, "</target>\n");
  return xml;
}
