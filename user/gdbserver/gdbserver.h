// gdbserver: GDB's remote serial protocol over /ttyS1, driving ptrace.
// What the files of user/gdbserver/ share.
//
//   packet.c  the protocol's framing: $data#checksum, acks, hex
//   server.c  the requests, one function each (GDB's gdbserver/server.cc)
//   low.c     the inferior: threads, stops, resuming (gdbserver/linux-low.cc)
//   regs.c    registers and the target description (user/lib/ARCH/gdb_regs.h)
//   main.c    the command line, the serial line, Ctrl-C

#include "user.h"
#include "proc.h"
#include "lwp.h"

#define PBUFSIZ  4096           // the largest packet we take and send (PacketSize)
#define MAXBP    64             // software breakpoints inserted at once

// ---- packet.c
extern int remote_fd;           // the serial line (writes)
extern int input_fd;            // bytes from it, through main.c's reader thread
int  getpkt(char *buf);         // length of the packet in buf, or -1 (line gone)
void putpkt(const char *data);  // send, and wait for GDB's ack (resend on a NAK)
void putpkt_bin(const char *data, int n);   // binary data, escaped
int  hexval(int c);             // 0-15, or -1
void bin2hex(const uchar *bin, char *hex, int n);
int  hex2bin(const char *hex, uchar *bin, int n);   // bytes, or -1 on a bad digit
int  unpack_hex(const char **p, ulong *v);           // digits read (0: none)

// ---- regs.c: the g packet's layout, from the thread's user_regs
int  regs_to_hex(const struct user_regs *r, char *hex);    // the g reply's length
int  hex_to_regs(const char *hex, struct user_regs *r);    // 0, or -1 (bad packet)
int  reg_to_hex(const struct user_regs *r, int n, char *hex);   // -1: no such register
int  hex_to_reg(struct user_regs *r, int n, const char *hex);   // 0, or -1
const char *target_xml(void);
ulong regs_pc(const struct user_regs *r);
void regs_set_pc(struct user_regs *r, ulong pc);

// ---- low.c (the thread table, struct lwp, is user/lib/lwp.c's)
extern int inferior_pid;        // 0: none
extern int inferior_attached;   // attached to (qAttached 1), not started by us
extern volatile int inferior_running;   // resumed; main.c's Ctrl-C stops it
extern int gdb15;
int  start_inferior(char **argv);          // pid, or -1
int  attach_inferior(int pid);             // 0, or -errno
void detach_inferior(void);
void kill_inferior(void);
int  lwp_regs(struct lwp *lp, struct user_regs *r);
int  lwp_set_regs(struct lwp *lp, const struct user_regs *r);
int  read_inferior_memory(ulong addr, uchar *buf, int len);    // bytes read
int  write_inferior_memory(ulong addr, const uchar *buf, int len);  // 0 or -1
int  insert_breakpoint(ulong addr, int kind);     // 0 or -1
int  remove_breakpoint(ulong addr, int kind);
void resume_lwp(struct lwp *lp, int step, int sig);
// What wait_for_event() saw: a thread stopped, or the process ended.
struct event {
  int kind;                     // EV_STOP, EV_EXITED, EV_SIGNALLED
  int tid;
  int sig;                      // host signal number (or exit status)
  int swbreak;                  // stopped at one of our breakpoints
};
#define EV_STOP      1
#define EV_EXITED    2
#define EV_SIGNALLED 3
void wait_for_event(struct event *ev);     // also stops every other thread
void interrupt_inferior(void);             // Ctrl-C (from main.c's reader)
int  thread_name(int tid, char *name, int size);

// ---- server.c
void serve(void);               // answer GDB until it detaches or kills
extern int extended_protocol;   // --multi
extern int server_done;
