// riscv64 registers as PTRACE_GETREGS/SETREGS see them: Linux's riscv
// user_regs_struct (pc, then x1..x31).
#ifndef TASKLAB_USER_REGS_H
#define TASKLAB_USER_REGS_H
struct user_regs {
  unsigned long pc, ra, sp, gp, tp, t0, t1, t2, s0, s1;
  unsigned long a0, a1, a2, a3, a4, a5, a6, a7;
  unsigned long s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
  unsigned long t3, t4, t5, t6;
};
#define USER_REGS_PC(r) ((r)->pc)
#define USER_REGS_SP(r) ((r)->sp)
#define USER_REGS_FP(r) ((r)->s0)
// A frame-pointer frame: the caller's fp at fp-16, the return address at fp-8.
#define FRAME_PREV_FP_OFFSET (-16)
#define FRAME_RA_OFFSET      (-8)
// A software breakpoint: ebreak (c.ebreak, 0x9002, is the 2-byte one),
// its length, and how far past it the
// pc is when its SIGTRAP is reported (GDB's decr_pc_after_break).
#define BREAKPOINT_INSN 0x00100073UL
#define BREAKPOINT_LEN  4
#define BREAKPOINT_INSN_C 0x9002UL   // a 2-byte one (0: none)
#define DECR_PC_AFTER_BREAK 0
// Can the CPU single-step (PTRACE_SINGLESTEP)? Else it fails with -EIO.
#define HAVE_SINGLE_STEP 0
#endif
