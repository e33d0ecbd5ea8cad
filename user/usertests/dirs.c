// usertests: directories and names: mkdir, unlink, link, rename, long
// names, readdir, concurrent creation, device nodes, a full inode table.

#include "usertests.h"

// dirs: mkdir, EEXIST, nested dirs, chdir down and back with "..",
// "." and ".." inside paths, "/.." is "/", the errors of mkdir and chdir.
void
t_dirs(void)
{
  struct stat st;
  int fd;

  if (!enter_scratch("/ut_dirs"))
    return;
  expect("mkdir", mkdir("a"), 0);
  expect("eexist", mkdir("a"), -EEXIST);
  expect("mkdir_nested", mkdir("a/b"), 0);
  expect("mkdir_nested2", mkdir("a/b/c"), 0);
  need("create", put_file("a/b/c/f", "deep", 4));
  fd = open("a/b", O_RDONLY);
  if (expect_ok("open_dir", fd)) {
    expect("dir_type", fstat(fd, &st) == 0 ? st.type : -1, T_DIR);
    close(fd);
  }
  expect("chdir_down", chdir("a/b/c"), 0);
  expect_content("relative", "f", "deep");
  expect("chdir_up", chdir("../../.."), 0);
  expect_content("back_up", "a/b/c/f", "deep");
  expect_content("dot_dotdot", "a/./b/../b/c/./f", "deep");
  expect("chdir_root_parent", chdir("/.."), 0);
  expect_content("root_parent_is_root", "ut_dirs/a/b/c/f", "deep");
  expect("chdir_back", chdir("/ut_dirs"), 0);
  expect("chdir_file", chdir("a/b/c/f"), -ENOTDIR);
  expect("chdir_missing", chdir("nope"), -ENOENT);
  expect("mkdir_under_file", mkdir("a/b/c/f/x"), -ENOTDIR);
  expect("mkdir_missing_parent", mkdir("nope/x"), -ENOENT);
  expect("mkdir_file_exists", mkdir("a/b/c/f"), -EEXIST);
  leave_scratch("/ut_dirs");
}

// deaddir: a directory removed while it is a process's cwd takes no new
// entries (ENOENT, as on Linux): one made there would name an inode no
// path reaches, left on the disk with a link count of 1 once the
// directory is freed.
void
t_deaddir(void)
{
  struct stat st;

  if (!enter_scratch("/ut_deaddir"))
    return;
  need("mkdir", mkdir("d"));
  need("chdir", chdir("d"));
  expect("unlink_cwd", unlink("/ut_deaddir/d"), 0);
  expect("create_file", open("f", O_CREAT | O_RDWR), -ENOENT);
  expect("mkdir", mkdir("g"), -ENOENT);
  expect("mknod", mknod("n", 1, 0), -ENOENT);
  expect("link", link("/init", "l"), -ENOENT);
  expect("dot_still_stats", stat(".", &st), 0);
  expect("nlink_0", st.nlink, 0);
  leave_scratch("/ut_deaddir");
}

// unlink: files and empty dirs go; ENOENT, ENOTEMPTY, EINVAL for . and ..
void
t_unlink(void)
{
  if (!enter_scratch("/ut_unlink"))
    return;
  expect("enoent", unlink("missing"), -ENOENT);
  need("create", put_file("f", "x", 1));
  expect("file", unlink("f"), 0);
  expect("file_gone", open("f", O_RDONLY), -ENOENT);
  expect("again", unlink("f"), -ENOENT);
  need("mkdir", mkdir("d"));
  need("create_in_dir", put_file("d/f", "x", 1));
  expect("enotempty", unlink("d"), -ENOTEMPTY);
  expect("dot", unlink("."), -EINVAL);
  expect("dotdot", unlink(".."), -EINVAL);
  expect("dir_dot", unlink("d/."), -EINVAL);
  expect("dir_dotdot", unlink("d/.."), -EINVAL);
  expect("in_dir", unlink("d/f"), 0);
  expect("empty_dir", unlink("d"), 0);
  expect("dir_gone", open("d", O_RDONLY), -ENOENT);
  expect("missing_parent", unlink("nodir/x"), -ENOENT);
  need("create_g", put_file("g", "x", 1));
  expect("enotdir", unlink("g/x"), -ENOTDIR);
  need("mkdir_again", mkdir("d"));
  expect("name_reusable", put_file("d/f", "y", 1), 0);
  leave_scratch("/ut_unlink");
}

// links: link counts via fstat, EEXIST, ENOENT, EPERM for directories,
// rename by link+unlink, an unlinked open file stays readable.
void
t_links(void)
{
  struct stat sa, sb;
  int fd;

  if (!enter_scratch("/ut_links"))
    return;
  need("create", put_file("a", "data", 4));
  expect("nlink1", stat("a", &sa) == 0 ? sa.nlink : -1, 1);
  expect("link", link("a", "b"), 0);
  expect("nlink2", stat("a", &sa) == 0 ? sa.nlink : -1, 2);
  expect("same_inode", stat("b", &sb) == 0 ? (long)sb.ino : -1, sa.ino);
  expect_content("content_via_link", "b", "data");
  expect("eexist", link("a", "b"), -EEXIST);
  expect("enoent", link("missing", "c"), -ENOENT);
  expect("enoent_dir", link("a", "nodir/c"), -ENOENT);
  need("mkdir", mkdir("d"));
  expect("eperm_dir", link("d", "e"), -EPERM);
  expect("eperm_dot", link(".", "e"), -EPERM);
  expect("rename_link", link("b", "d/moved"), 0);
  expect("rename_unlink", unlink("b"), 0);
  expect("old_name_gone", open("b", O_RDONLY), -ENOENT);
  expect_content("renamed", "d/moved", "data");
  expect("nlink_after_rename", stat("a", &sa) == 0 ? sa.nlink : -1, 2);
  expect("unlink_first", unlink("a"), 0);
  expect("nlink_last", stat("d/moved", &sa) == 0 ? sa.nlink : -1, 1);
  fd = open("d/moved", O_RDONLY);
  if (need("open", fd)) {
    expect("unlink_open", unlink("d/moved"), 0);
    memset(buf, 0, 8);
    expect("read_unlinked", read(fd, buf, 8), 4);
    expect_true("unlinked_data", memcmp(buf, "data", 4) == 0, "open file lost its data when unlinked");
    expect("nlink_zero", fstat(fd, &sa) == 0 ? sa.nlink : -1, 0);
    close(fd);
  }
  leave_scratch("/ut_links");
}

// dirsiz: a name of exactly DIRSIZ characters works (and is stored
// without a NUL); DIRSIZ+1 gives ENAMETOOLONG; a prefix does not match.
void
t_dirsiz(void)
{
  char name[DIRSIZ + 2], d[DIRSIZ + 1];
  struct dirent de;
  int fd, found = 0;

  if (!enter_scratch("/ut_dirsiz"))
    return;
  for (int i = 0; i < DIRSIZ; i++)
    name[i] = 'a' + i % 26;
  name[DIRSIZ] = 0;
  expect("create", put_file(name, "full", 4), 0);
  expect_content("open", name, "full");
  fd = open(".", O_RDONLY);
  if (need("open_dir", fd)) {
    while (read(fd, &de, sizeof de) == sizeof de)
      if (de.inum != 0 && memcmp(de.name, name, DIRSIZ) == 0)
        found++;
    close(fd);
  }
  expect("in_dir", found, 1);
  memcpy(d, name, DIRSIZ - 1);
  d[DIRSIZ - 1] = 0;
  expect("prefix_no_match", open(d, O_RDONLY), -ENOENT);
  name[DIRSIZ] = 'z';
  name[DIRSIZ + 1] = 0;
  expect("too_long", open(name, O_RDONLY), -ENAMETOOLONG);
  expect("too_long_creat", open(name, O_CREAT | O_RDWR), -ENAMETOOLONG);
  expect("too_long_mkdir", mkdir(name), -ENAMETOOLONG);
  name[DIRSIZ] = 0;
  expect("unlink", unlink(name), 0);
  expect("mkdir_full", mkdir(name), 0);
  expect("chdir_full", chdir(name), 0);
  expect("chdir_back", chdir(".."), 0);
  leave_scratch("/ut_dirsiz");
}

// readdir: a directory reads as struct dirent records: "." and ".." with
// the right inode numbers and one record per name; unlinked names vanish.
void
t_readdir(void)
{
  struct stat sdir, sroot, sf;
  struct dirent de;
  char name[DIRSIZ + 1], fname[8], d[96];
  int fd, n, found = 0, extra = 0, dot = -1, dotdot = -1, f0 = -1, f2 = 0;

  if (!enter_scratch("/ut_readdir"))
    return;
  for (int i = 0; i < 5; i++) {
    snprintf(fname, sizeof fname, "f%d", i);
    need("create", put_file(fname, "x", 1));
  }
  need("mkdir", mkdir("sub"));
  if (!need("stat_dot", stat(".", &sdir)) || !need("stat_root", stat("/", &sroot)) ||
      !need("stat_f0", stat("f0", &sf)))
    goto out;
  fd = open(".", O_RDONLY);
  if (!need("open", fd))
    goto out;
  expect("size_multiple", sdir.size % sizeof(struct dirent), 0);
  while ((n = read(fd, &de, sizeof de)) == sizeof de) {
    if (de.inum == 0)
      continue;
    dename(&de, name);
    if (strcmp(name, ".") == 0)
      dot = de.inum;
    else if (strcmp(name, "..") == 0)
      dotdot = de.inum;
    else if (strcmp(name, "sub") == 0)
      found |= 1 << 5;
    else if (name[0] == 'f' && name[1] >= '0' && name[1] <= '4' && name[2] == 0) {
      found |= 1 << (name[1] - '0');
      if (name[1] == '0')
        f0 = de.inum;
    } else
      extra++;
  }
  close(fd);
  expect("record_size", n, 0);
  snprintf(d, sizeof d, "names found: mask 0x%x, want 0x3f", found);
  expect_true("all_names", found == 0x3f, d);
  expect("no_extra", extra, 0);
  expect("dot_inode", dot, sdir.ino);
  expect("dotdot_inode", dotdot, sroot.ino);
  expect("file_inode", f0, sf.ino);
  need("unlink", unlink("f2"));
  fd = open(".", O_RDONLY);
  if (need("reopen", fd)) {
    while (read(fd, &de, sizeof de) == sizeof de)
      if (de.inum != 0 && memcmp(de.name, "f2", 3) == 0)
        f2++;
    close(fd);
  }
  expect("unlinked_gone", f2, 0);
out:
  leave_scratch("/ut_readdir");
}

#define CC_PROCS 4
#define CC_FILES 12

// Child body: create CC_FILES files p<id>_<j>, each holding its own name.
static void
cc_create(long id)
{
  char name[16];
  int fd, len;

  for (int j = 0; j < CC_FILES; j++) {
    snprintf(name, sizeof name, "p%ld_%d", id, j);
    len = strlen(name) + 1;
    fd = open(name, O_CREAT | O_RDWR);
    if (fd < 0)
      exit(10);
    if (write(fd, name, len) != len)
      exit(11);
    close(fd);
  }
  exit(0);
}

// Child body: create and unlink the same five names as its siblings.
static void
cc_race(long id)
{
  char name[8];
  int fd, r;

  for (int i = 0; i < 40; i++) {
    snprintf(name, sizeof name, "s%d", i % 5);
    if ((i + id) % 3) {
      fd = open(name, O_CREAT | O_RDWR);
      if (fd < 0)
        exit(20);
      write(fd, "x", 1);
      close(fd);
    } else {
      r = unlink(name);
      if (r < 0 && r != -ENOENT)
        exit(21);
    }
  }
  exit(0);
}

// Start CC_PROCS children running fn(id); return 1 if all exit 0.
static int
cc_run(void (*fn)(long))
{
  int pids[CC_PROCS], st, ok = 1;

  for (int id = 0; id < CC_PROCS; id++) {
    pids[id] = tfork();
    if (pids[id] == 0)
      fn(id);
  }
  for (int id = 0; id < CC_PROCS; id++)
    if (pids[id] < 0 || reap_or_kill(pids[id], &st, 10 * HZ) != pids[id] || st != 0)
      ok = 0;
  return ok;
}

// concreate: four processes create distinct files in one directory at
// once; all arrive intact. Then they race creating and unlinking the
// same names; the directory stays consistent.
void
t_concreate(void)
{
  char name[16], got[16];
  struct stat st;
  int good = 0, bad = 0, r;

  if (!enter_scratch("/ut_cc"))
    return;
  expect_true("create_children", cc_run(cc_create), "a creating child failed");
  for (int id = 0; id < CC_PROCS; id++)
    for (int j = 0; j < CC_FILES; j++) {
      snprintf(name, sizeof name, "p%d_%d", id, j);
      if (get_file(name, got, sizeof got) == (int)strlen(name) + 1 && strcmp(got, name) == 0)
        good++;
    }
  expect("files", good, CC_PROCS * CC_FILES);
  expect("entries", count_entries("."), CC_PROCS * CC_FILES);
  good = 0;
  for (int id = 0; id < CC_PROCS; id++)
    for (int j = 0; j < CC_FILES; j++) {
      snprintf(name, sizeof name, "p%d_%d", id, j);
      if (unlink(name) == 0)
        good++;
    }
  expect("unlinked", good, CC_PROCS * CC_FILES);
  expect_true("race_children", cc_run(cc_race), "a racing child got an unexpected error");
  for (int i = 0; i < 5; i++) {
    snprintf(name, sizeof name, "s%d", i);
    r = stat(name, &st);
    if (r == 0 && (st.type != T_FILE || st.nlink != 1))
      bad++;
    if (r < 0 && r != -ENOENT)
      bad++;
    unlink(name);
  }
  expect("race_consistent", bad, 0);
  expect("empty", count_entries("."), 0);
  leave_scratch("/ut_cc");
}

// mknod: makes a device node; EEXIST over any existing name; unlinkable.
void
t_mknod(void)
{
  if (!enter_scratch("/ut_mknod"))
    return;
  expect("create", mknod("dev", 1, 7), 0);
  expect("eexist", mknod("dev", 1, 7), -EEXIST);
  need("create_file", put_file("f", "x", 1));
  expect("eexist_file", mknod("f", 1, 7), -EEXIST);
  expect("eexist_dir", mknod(".", 1, 7), -EEXIST);
  expect("entries", count_entries("."), 2);
  expect("unlink", unlink("dev"), 0);
  expect("gone", unlink("dev"), -ENOENT);
  leave_scratch("/ut_mknod");
}

#define IT_PROCS 5              // 5 x 15 open files > NINODE (64)
#define IT_EACH  (NOFILE - 1)   // each keeps one fd for its pipe

// Child body: arg holds its number (low byte) and its pipe's write end.
// It closes every other fd, opens its IT_EACH files, reports the first
// error it met (0 if none) and holds them until the parent kills it.
static void
it_hold(long arg)
{
  int id = arg & 0xff, out = arg >> 8;
  char name[8], r = 0;

  for (int fd = 0; fd < NOFILE; fd++)
    if (fd != out)
      close(fd);
  for (int j = 0; j < IT_EACH && !r; j++) {
    snprintf(name, sizeof name, "f%d", id * IT_EACH + j);
    int fd = open(name, O_RDONLY);
    if (fd < 0)
      r = -fd;
  }
  write(out, &r, 1);
  for (;;)
    pause();
}

// itablefull: with every in-memory inode held by open files, a name that
// exists reads as ENFILE, not ENOENT (create() would otherwise make a
// second entry of that name); O_CREAT of it, of a new name, and mkdir fail
// with ENFILE and allocate no disk inode (fsck sees the image after the
// suite); once the files close, all works and each name is there once.
void
t_itablefull(void)
{
  int total = IT_PROCS * IT_EACH, pids[IT_PROCS], ends[IT_PROCS], full = 0, st, fd;
  char name[8], r, d[96];

  if (!enter_scratch("/ut_itab"))
    return;
  for (int i = 0; i < total; i++) {
    snprintf(name, sizeof name, "f%d", i);
    if (put_file(name, "x", 1) < 0) {
      expect_true("create_files", 0, "could not create the files");
      goto out;
    }
  }
  for (int id = 0; id < IT_PROCS; id++) {
    int p[2];
    pids[id] = ends[id] = -1;
    if (pipe(p) < 0)
      continue;
    pids[id] = tfork();
    if (pids[id] == 0)
      it_hold(id | p[1] << 8);
    close(p[1]);
    ends[id] = p[0];
    if (pids[id] > 0 && read(p[0], &r, 1) == 1 && r && !full)
      full = r;
  }
  snprintf(d, sizeof d, "the children's opens ended with %s, want ENFILE", full ? val(-full) : "no error");
  expect_true("children_fill_table", full == ENFILE, d);
  snprintf(name, sizeof name, "f%d", total - 1);
  expect("existing_is_enfile", open(name, O_RDONLY), -ENFILE);
  expect("creat_existing_is_enfile", open(name, O_CREAT | O_RDWR), -ENFILE);
  expect("creat_new_is_enfile", open("new", O_CREAT | O_RDWR), -ENFILE);
  expect("mkdir_is_enfile", mkdir("dnew"), -ENFILE);
  for (int id = 0; id < IT_PROCS; id++) {
    if (ends[id] >= 0)
      close(ends[id]);
    if (pids[id] > 0) {
      kill(pids[id], SIGKILL);
      reap_or_kill(pids[id], &st, 10 * HZ);
    }
  }
  fd = open(name, O_RDONLY);
  expect_true("open_after", fd >= 0, "the file cannot be opened once the table has room");
  if (fd >= 0)
    close(fd);
  expect("one_entry_each", count_entries("."), total);
  for (int i = 0; i < total; i++) {
    snprintf(name, sizeof name, "f%d", i);
    unlink(name);
  }
out:
  leave_scratch("/ut_itab");
}
