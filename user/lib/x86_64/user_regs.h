// x86_64 registers as PTRACE_GETREGS/SETREGS see them: Linux's x86_64
// user_regs_struct.
#ifndef TASKLAB_USER_REGS_H
#define TASKLAB_USER_REGS_H
struct user_regs {
  unsigned long r15, r14, r13, r12, rbp, rbx, r11, r10, r9, r8;
  unsigned long rax, rcx, rdx, rsi, rdi, orig_rax;
  unsigned long rip, cs, eflags, rsp, ss;
  unsigned long fs_base, gs_base, ds, es, fs, gs;
};
#define USER_REGS_PC(r) ((r)->rip)
#define USER_REGS_SP(r) ((r)->rsp)
#define USER_REGS_FP(r) ((r)->rbp)
// The code segment of a 64-bit user thread (the kernel's USER_CS): what a
// debugger checks to tell a 64-bit process from a 32-bit one.
#define USER_REGS_CS(r) ((r)->cs)
#define USER_CS64 (0x20 | 3)
// A frame-pointer frame: the caller's rbp at rbp+0, the return address at rbp+8.
#define FRAME_PREV_FP_OFFSET 0
#define FRAME_RA_OFFSET      8
// A software breakpoint: int3, its length, and how far past it the
// pc is when its SIGTRAP is reported (GDB's decr_pc_after_break).
#define BREAKPOINT_INSN 0xccUL
#define BREAKPOINT_LEN  1
#define BREAKPOINT_INSN_C 0   // a 2-byte one (0: none)
#define DECR_PC_AFTER_BREAK 1
// Can the CPU single-step (PTRACE_SINGLESTEP)? Else it fails with -EIO.
#define HAVE_SINGLE_STEP 1
#endif
