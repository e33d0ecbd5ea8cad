// ls [PATH...]: list files, one per line: name, type, inode, size.
// A directory argument lists its entries; no argument lists ".".
// Types: 1 directory, 2 file, 3 device (kernel/stat.h).

#include "user.h"

#include "kernel/fs_format.h"

static char path[512];

// Print one line for the file called name, described by st.
static void
printentry(const char *name, struct stat *st)
{
  printf("%-14s %d %u %lu\n", name, st->type, st->ino, st->size);
}

// Return the last component of path ("a/b/c" -> "c"; "/" stays "/").
static const char *
basename(const char *p)
{
  const char *s = strrchr(p, '/');

  return (s && s[1]) ? s + 1 : p;
}

// List the entries of the directory open as fd, whose path is dir.
// Returns 0, or 1 if some entry could not be examined.
static int
listdir(int fd, const char *dir)
{
  struct dirent de;
  struct stat st;
  char name[DIRSIZ + 1];
  int len = strlen(dir), r, bad = 0;

  if (len + 1 + DIRSIZ + 1 > (int)sizeof path) {
    fprintf(STDERR, "ls: %s: path too long\n", dir);
    return 1;
  }
  strcpy(path, dir);
  if (len == 0 || path[len - 1] != '/')
    path[len++] = '/';
  while (read(fd, &de, sizeof de) == sizeof de) {
    if (de.inum == 0)
      continue;                 // a free slot
    // A full-length name has no NUL.
    memmove(name, de.name, DIRSIZ);
    name[DIRSIZ] = 0;
    strcpy(path + len, name);
    r = stat(path, &st);
    if (r < 0) {
      // procfs entries may vanish between read and stat.
      fprintf(STDERR, "ls: cannot stat %s: %s\n", path, strerror(r));
      bad = 1;
      continue;
    }
    printentry(name, &st);
  }
  return bad;
}

// List one command-line argument; return 0 or 1 on failure.
static int
ls(const char *p)
{
  struct stat st;
  int fd, r, status = 0;

  fd = open(p, O_RDONLY);
  if (fd < 0) {
    fprintf(STDERR, "ls: cannot access %s: %s\n", p, strerror(fd));
    return 1;
  }
  r = fstat(fd, &st);
  if (r < 0) {
    fprintf(STDERR, "ls: cannot stat %s: %s\n", p, strerror(r));
    status = 1;
  } else if (st.type == T_DIR) {
    status = listdir(fd, p);
  } else {
    printentry(basename(p), &st);
  }
  close(fd);
  return status;
}

// List each argument, or "."; exit 1 if any could not be listed.
int
main(int argc, char *argv[])
{
  int i, status = 0;

  if (argc < 2)
    return ls(".");
  for (i = 1; i < argc; i++)
    status |= ls(argv[i]);
  return status;
}
