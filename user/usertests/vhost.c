// usertests: the vhost copy engine (kernel/vhost.c): vhost_open()'s
// errors, a copy checked byte by byte, a close in the middle of a copy
// that never ends, and the end of a process whose worker is busy. Each
// checks that no page and no descriptor is lost. These hold on the
// baseline, where the worker is a kernel thread, and must go on holding
// whatever lab 07 makes of it.

#include "usertests.h"

#define VH_BYTES (100 * 1024)

// free_pages_settle: freemem() once it is back to want (a worker that has
// just gone may take a few ticks to give its pages back), or after a
// second, whatever it is then.
static long
free_pages_settle(long want)
{
  long f = freemem();
  for (int i = 0; i < 10 && f != want; i++) {
    sleep(10);
    f = freemem();
  }
  return f;
}

// vhostargs: vhost_open() refuses what it cannot copy, and a vhost
// descriptor refuses what it does not do, with Linux's errors.
void
t_vhostargs(void)
{
  int in, out, dev, p[2];
  unsigned long v;

  if (!enter_scratch("/ut_vhargs"))
    return;
  int inuse = fds_in_use();
  long free0 = freemem();
  in = open("in", O_CREAT | O_RDWR);
  out = open("out", O_CREAT | O_WRONLY);
  if (!need("open", in) || !need("open", out) || !need("pipe", pipe(p)))
    return;
  int ro = open("in", O_RDONLY), proc = open("/proc/meminfo", O_RDONLY);
  expect("flags_unknown", vhost_open(in, out, 2), -EINVAL);
  expect("flags_high", vhost_open(in, out, 0x80000000), -EINVAL);
  expect("in_bad_fd", vhost_open(-1, out, 0), -EBADF);
  expect("out_bad_fd", vhost_open(in, 99, 0), -EBADF);
  expect("in_write_only", vhost_open(out, in, 0), -EBADF);
  expect("out_read_only", vhost_open(in, ro, 0), -EBADF);
  expect("in_pipe", vhost_open(p[0], out, 0), -EINVAL);
  expect("out_pipe", vhost_open(in, p[1], 0), -EINVAL);
  expect("in_proc", vhost_open(proc, out, 0), -EINVAL);
  dev = vhost_open(in, out, 0);   // in is empty: the copy is over at once
  if (need("vhost_open", dev)) {
    expect("read_short", read(dev, &v, 4), -EINVAL);
    expect("read_bad_ptr", read(dev, BAD_KERN, 8), -EFAULT);
    expect("read_empty", read(dev, &v, 8), 8);
    expect("copied_empty", v, 0);
    expect("write", write(dev, &v, 8), -EBADF);   // not open for writing
    expect("lseek", lseek(dev, 0, SEEK_SET), -ESPIPE);
    expect("nested", vhost_open(dev, out, 0), -EINVAL);
    close(dev);
  }
  close(in);
  close(out);
  close(ro);
  close(proc);
  close(p[0]);
  close(p[1]);
  expect("fds", fds_in_use(), inuse);
  expect("pages", free_pages_settle(free0), free0);
  unlink("in");
  unlink("out");
  leave_scratch("/ut_vhargs");
}

// vhostcopy: a copy of 100 KiB arrives whole and in order, read() says
// how much, and the descriptors the caller closed at once (the device
// holds its own references) do not matter.
void
t_vhostcopy(void)
{
  int fd, dev;
  unsigned long v = 0;

  if (!enter_scratch("/ut_vhcopy"))
    return;
  long free0 = freemem();
  fd = open("in", O_CREAT | O_WRONLY);
  if (!need("open", fd))
    return;
  expect("write_in", write_pattern(fd, 0, VH_BYTES, 7), VH_BYTES);
  close(fd);
  int in = open("in", O_RDONLY), out = open("out", O_CREAT | O_WRONLY);
  dev = vhost_open(in, out, 0);
  close(in);
  close(out);
  if (need("vhost_open", dev)) {
    expect("read", read(dev, &v, sizeof(v)), 8);
    expect("copied", v, VH_BYTES);
    close(dev);
  }
  fd = open("out", O_RDONLY);
  if (need("open_out", fd)) {
    expect("out_pattern", check_pattern(fd, 0, VH_BYTES + 1, 7, 4096), VH_BYTES);
    close(fd);
  }
  expect("pages", free_pages_settle(free0), free0);
  unlink("in");
  unlink("out");
  leave_scratch("/ut_vhcopy");
}

// vhostclose: closing a device whose copy never ends (VHOST_F_LOOP)
// stops its worker, and a second device on the same files copies again.
void
t_vhostclose(void)
{
  int fd, dev;
  unsigned long v1 = 0, v2 = 0;

  if (!enter_scratch("/ut_vhclose"))
    return;
  long free0 = freemem();
  fd = open("in", O_CREAT | O_WRONLY);
  if (!need("open", fd))
    return;
  write_pattern(fd, 0, 8192, 3);
  close(fd);
  int in = open("in", O_RDONLY), out = open("out", O_CREAT | O_WRONLY);
  for (int round = 0; round < 2; round++) {
    dev = vhost_open(in, out, VHOST_F_LOOP);
    if (!need("vhost_open", dev))
      break;
    // read() does not wait with VHOST_F_LOOP: watch the count grow past
    // two passes (so that out is whole), then once more.
    int moved = 0;
    for (int i = 0; i < 500 && !moved; i++) {
      read(dev, &v1, 8);
      sleep(1);
      read(dev, &v2, 8);
      moved = v2 > v1 && v1 > 2 * 8192;
    }
    expect_true(round ? "loop_again" : "loop_copies", moved, val(v2));
    expect("close", close(dev), 0);
  }
  close(in);
  close(out);
  fd = open("out", O_RDONLY);
  if (need("open_out", fd)) {
    expect("out_pattern", check_pattern(fd, 0, 8192 + 1, 3, 4096), 8192);
    close(fd);
  }
  expect("pages", free_pages_settle(free0), free0);
  unlink("in");
  unlink("out");
  leave_scratch("/ut_vhclose");
}

// vhostexit: a process that ends, by exit() or by SIGKILL, while its
// worker copies in a loop is reaped, and its pages come back.
void
t_vhostexit(void)
{
  int fd, p[2], st;
  char c;

  if (!enter_scratch("/ut_vhexit"))
    return;
  fd = open("in", O_CREAT | O_WRONLY);
  if (!need("open", fd))
    return;
  write_pattern(fd, 0, 8192, 5);
  close(fd);
  long free0 = freemem();
  for (int how = 0; how < 2; how++) {
    if (!need("pipe", pipe(p)))
      break;
    int pid = tfork();
    if (pid == 0) {
      int in = open("in", O_RDONLY), out = open("out", O_CREAT | O_WRONLY);
      int dev = vhost_open(in, out, VHOST_F_LOOP);
      write(p[1], dev >= 0 ? "y" : "n", 1);
      if (how == 0) {
        sleep(5);
        exit(0);
      }
      for (;;)
        pause();
    }
    close(p[1]);
    expect(how ? "started_kill" : "started_exit", read(p[0], &c, 1) == 1 && c == 'y', 1);
    close(p[0]);
    if (how == 1)
      kill(pid, SIGKILL);
    int r = reap_or_kill(pid, &st, 10 * HZ);
    if (how == 0)
      expect_exit("exit_reaped", r == pid ? st : -1, 0);
    else
      expect_signal("kill_reaped", r == pid ? st : -1, SIGKILL);
  }
  expect("pages", free_pages_settle(free0), free0);
  unlink("in");
  unlink("out");
  leave_scratch("/ut_vhexit");
}
