// x86_64 signal frames and system-call restart.
//
// A handler runs on the user stack below a frame holding the interrupted
// registers and mask, entered as if called: the restorer (which calls
// rt_sigreturn) is its return address, and handler(sig, 0, frame) gets
// its arguments in rdi, rsi, rdx. The frame is user memory, so
// rt_sigreturn takes only what user mode could set itself: the general
// registers, rip, rsp and the arithmetic flags. CS and SS are forced to
// the user segments and the privileged RFLAGS bits (IF, IOPL, NT, VM...)
// keep their kernel-chosen values, so a forged frame gains nothing.
#include "task.h"

#define SIGFRAME_MAGIC 0x5349474652414d45UL   // "SIGFRAME"
#define RED_ZONE 128      // the x86_64 ABI lets leaf code use this below rsp

// RFLAGS bits a user program may change (as Linux's FIX_EFLAGS).
#define USER_EFLAGS (X86_EFLAGS_CF | X86_EFLAGS_PF | X86_EFLAGS_AF | X86_EFLAGS_ZF | \
                     X86_EFLAGS_SF | X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_OF | \
                     X86_EFLAGS_AC | X86_EFLAGS_RF)

struct rt_sigframe {
  struct pt_regs regs;  // as in user_regs_struct
  sigset_t mask;        // blocked mask to restore
  u64 magic;
  u64 pad;              // keeps the frame a multiple of 16 bytes
};

// Push the frame and the restorer's address below the red zone and point
// regs at the handler. Returns 0, or -EFAULT if the stack is not writable,
// there is no restorer, or the handler is not a user address.
int arch_setup_sigframe(struct pt_regs *regs, int sig, const struct k_sigaction *ka,
                        sigset_t saved_mask)
{
  struct rt_sigframe f;
  memset(&f, 0, sizeof(f));
  f.regs = *regs;
  f.mask = saved_mask;
  f.magic = SIGFRAME_MAGIC;
  u64 sp = (regs->rsp - RED_ZONE - sizeof(f)) & ~15UL;
  u64 ret = ka->restorer;
  if (!(ka->flags & SA_RESTORER) || ka->handler >= USER_TOP ||
      copy_to_user((void *)sp, &f, sizeof(f)) < 0 ||
      copy_to_user((void *)(sp - 8), &ret, sizeof(ret)) < 0)
    return -EFAULT;
  regs->rsp = sp - 8;   // as just after a call: rsp + 8 is 16-byte aligned
  regs->rip = ka->handler;
  regs->rdi = sig;
  regs->rsi = 0;
  regs->rdx = sp;
  regs->rax = 0;
  regs->rbp = 0;        // backtraces end at the handler
  regs->eflags &= ~(X86_EFLAGS_TF | X86_EFLAGS_DF | X86_EFLAGS_RF);
  return 0;
}

// rt_sigreturn, called with rsp at the frame (the handler's ret popped
// the restorer's address). Returns 0, or -EFAULT if the frame cannot be
// read or would return to a non-user address.
int arch_restore_sigframe(struct pt_regs *regs, sigset_t *mask)
{
  struct rt_sigframe f;
  if (copy_from_user(&f, (void *)regs->rsp, sizeof(f)) < 0 || f.regs.rip >= USER_TOP)
    return -EFAULT;
  regs->r15 = f.regs.r15; regs->r14 = f.regs.r14;
  regs->r13 = f.regs.r13; regs->r12 = f.regs.r12;
  regs->rbp = f.regs.rbp; regs->rbx = f.regs.rbx;
  regs->r11 = f.regs.r11; regs->r10 = f.regs.r10;
  regs->r9 = f.regs.r9;   regs->r8 = f.regs.r8;
  regs->rax = f.regs.rax; regs->rcx = f.regs.rcx;
  regs->rdx = f.regs.rdx; regs->rsi = f.regs.rsi;
  regs->rdi = f.regs.rdi;
  regs->rip = f.regs.rip;
  regs->rsp = f.regs.rsp;
  regs->eflags = (regs->eflags & ~USER_EFLAGS) | (f.regs.eflags & USER_EFLAGS);
  regs->cs = USER_CS;
  regs->ss = USER_DS;
  *mask = f.mask;
  arch_syscall_done(regs);                // rt_sigreturn never restarts
  return 0;
}

// In a system call: orig_rax holds its number (-1 otherwise).
bool arch_in_syscall(const struct pt_regs *regs) { return (long)regs->orig_rax >= 0; }

// Back up over the 2-byte syscall instruction, with the number again in rax.
void arch_syscall_restart(struct pt_regs *regs)
{
  regs->rax = regs->orig_rax;
  regs->rip -= 2;
}

void arch_syscall_done(struct pt_regs *regs) { regs->orig_rax = -1; }
