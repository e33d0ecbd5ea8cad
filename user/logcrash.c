// logcrash: does the file-system log survive a crash in the middle of a
// commit? Run in two boots on the same disk image:
//   logcrash write    creates /crashfile, then writes CHUNK bytes with the
//                     kernel told to power off after the log header is on
//                     disk but before any block reaches its home.
//   logcrash verify   (next boot) checks that recovery replayed the write:
//                     /crashfile holds all CHUNK bytes, and the file
//                     system still works.
#include "user.h"

#define CHUNK 4096   // fits in one log operation
#define PATH "/crashfile"

static int passed, failed;

static void check(int ok, const char *name, const char *detail)
{
  if (ok) {
    printf("PASS %s\n", name);
    passed++;
  } else {
    printf("FAIL %s: %s\n", name, detail);
    failed++;
  }
}

static char pattern(int i) { return 'a' + (i * 7) % 26; }

static int do_write(void)
{
  static char buf[CHUNK];
  int fd = open(PATH, O_CREAT | O_TRUNC | O_WRONLY);
  if (fd < 0) {
    printf("logcrash: open %s: %s\n", PATH, strerror(fd));
    return 1;
  }
  for (int i = 0; i < CHUNK; i++)
    buf[i] = pattern(i);
  int r = fault_inject(1);
  if (r < 0) {
    printf("logcrash: fault_inject: %s\n", strerror(r));
    return 1;
  }
  write(fd, buf, CHUNK);
  // Not reached: the commit of that write powers the machine off.
  printf("logcrash: the kernel did not crash\n");
  return 1;
}

static int do_verify(void)
{
  static char buf[CHUNK + 16];
  struct stat st;
  int fd = open(PATH, O_RDONLY);
  check(fd >= 0, "logcrash.file_exists", "open failed");
  if (fd >= 0) {
    check(fstat(fd, &st) == 0 && st.size == CHUNK, "logcrash.size_replayed",
          "size is not the committed size");
    int n = read(fd, buf, sizeof(buf));
    int same = n == CHUNK;
    for (int i = 0; same && i < CHUNK; i++)
      same = buf[i] == pattern(i);
    check(same, "logcrash.data_replayed", "contents differ from what was written");
    close(fd);
  }
  // The file system is usable after recovery: create, write, remove.
  fd = open("/crashfile2", O_CREAT | O_RDWR);
  check(fd >= 0 && write(fd, "ok", 2) == 2, "logcrash.fs_writable", "cannot create a file");
  if (fd >= 0)
    close(fd);
  check(unlink("/crashfile2") == 0 && unlink(PATH) == 0, "logcrash.fs_unlink", "unlink failed");
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}

int main(int argc, char **argv)
{
  if (argc == 2 && strcmp(argv[1], "write") == 0)
    return do_write();
  if (argc == 2 && strcmp(argv[1], "verify") == 0)
    return do_verify();
  fprintf(STDERR, "usage: logcrash write | logcrash verify\n");
  return 2;
}
