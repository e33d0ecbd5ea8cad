// gdbserver: GDB's remote serial protocol over a serial line (/ttyS1,
// which QEMU joins to a TCP port on the host), driving ptrace, so that
// gdb-multiarch on the host debugs a tasklab process.
//
//   gdbserver DEV PROG [ARGS...]   start PROG stopped at its first instruction
//   gdbserver --attach DEV PID     attach to a running process
//   gdbserver --multi DEV          wait for GDB's "target extended-remote",
//                                  then its "attach PID"
//   --gdb15   attach as GDB 15 does: a thread that refuses ptrace is an
//             error (without it, as gdbserver 10: pass after pass, for ever)
//
// On the host: gdb-multiarch -x build/ARCH/gdbserver.gdb PROG (make
// qemu-gdbserver prints the command). See gdbserver.h for the files.

#include "gdbserver.h"

static int serial_fd;

// The reader thread: every byte from the line goes to the main thread
// through a pipe (input_fd); a Ctrl-C (0x03) while the program runs
// stops it, since the main thread is then waiting on the program, not
// reading. When the line fails, the pipe is closed: the main thread sees
// the line gone.
static void
reader(void *arg)
{
  int out = (int)(long)arg, n;
  char buf[256];

  while ((n = read(serial_fd, buf, sizeof buf)) > 0) {
    for (int i = 0; i < n; i++)
      if (buf[i] == 0x03)
        interrupt_inferior();
    if (write(out, buf, n) != n)
      break;
  }
  close(out);
}

static void
usage(void)
{
  fprintf(STDERR, "usage: gdbserver [--gdb15] DEV PROG [ARGS...]\n"
                  "       gdbserver [--gdb15] --attach DEV PID\n"
                  "       gdbserver [--gdb15] --multi DEV\n");
  exit(2);
}

int
main(int argc, char **argv)
{
  int attach = 0, i = 1, p[2], r;

  for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
    if (!strcmp(argv[i], "--attach"))
      attach = 1;
    else if (!strcmp(argv[i], "--multi"))
      extended_protocol = 1;
    else if (!strcmp(argv[i], "--gdb15"))
      gdb15 = 1;
    else
      usage();
  }
  if (i >= argc || (attach && (extended_protocol || i + 2 != argc)) ||
      (extended_protocol && i + 1 != argc) || (!attach && !extended_protocol && i + 2 > argc))
    usage();
  if ((serial_fd = open(argv[i], O_RDWR)) < 0) {
    fprintf(STDERR, "gdbserver: %s: %s\n", argv[i], strerror(serial_fd));
    return 1;
  }
  remote_fd = serial_fd;
  if (attach) {
    int pid = atoi(argv[i + 1]);
    if (pid <= 0 || (r = attach_inferior(pid)) < 0) {
      fprintf(STDERR, "gdbserver: Cannot attach to process %s: %s (%d)\n", argv[i + 1],
              pid <= 0 ? "no such process" : strerror(r), pid <= 0 ? 3 : -r);
      return 1;
    }
  } else if (!extended_protocol && start_inferior(argv + i + 1) < 0) {
    return 1;
  }
  if (pipe(p) < 0 || thread_create(reader, (void *)(long)p[1]) < 0) {
    fprintf(STDERR, "gdbserver: cannot start the reader\n");
    kill_inferior();
    return 1;
  }
  input_fd = p[0];
  printf("Remote debugging using %s\n", argv[i]);
  serve();
  if (inferior_pid) {   // the line is gone: leave the program as we found it
    if (inferior_attached)
      detach_inferior();
    else
      kill_inferior();
  }
  printf("gdbserver: exiting\n");
  return 0;
}
