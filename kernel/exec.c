// exec: replace the current process's memory with a program from an ELF
// file. The new image is built aside and swapped in only when complete,
// so a failed exec leaves the caller untouched.
//
// User memory layout, from address 0:
//   [ page 0 unmapped | program segments | guard page | stack | heap -> ]
// all below USER_MMAP_BASE, where the kernel's own mappings (io_uring's
// rings) begin: a program's headers cannot place anything there.
#include "task.h"
#include "fs.h"
#include "procfs.h"
#include "elf.h"

#ifdef ARCH_riscv64
#define ELF_MACHINE 243
#else
#define ELF_MACHINE 62
#endif

// Segments end low enough for the guard page and the stack to fit below
// USER_MMAP_BASE.
#define SEGMENTS_TOP (USER_MMAP_BASE - PAGE_SIZE - USTACK_SIZE)

// Map and fill one PT_LOAD segment into pgd. Returns 0 or -errno.
static int load_segment(pte_t *pgd, struct inode *ip, struct elf64_phdr *ph)
{
  int prot = VM_READ;
  if (ph->flags & PF_W) prot |= VM_WRITE;
  if (ph->flags & PF_X) prot |= VM_EXEC;
  if (ph->memsz < ph->filesz || ph->vaddr + ph->memsz < ph->vaddr ||
      ph->vaddr < PAGE_SIZE || ph->vaddr + ph->memsz > SEGMENTS_TOP)
    return -ENOEXEC;
  for (u64 a = PAGE_ALIGN_DOWN(ph->vaddr); a < ph->vaddr + ph->memsz; a += PAGE_SIZE) {
    pte_t *e = lookup_pte(pgd, a);
    void *page = e ? __va(arch_pte_pa(*e)) : alloc_page();
    if (!page)
      return -ENOMEM;
    int err = e ? 0 : map_user_page(pgd, a, page, prot);
    if (err < 0) {
      free_page(page);
      return err;
    }
    if (e)   // two segments share this page: union of permissions
      *e = arch_mk_pte(arch_pte_pa(*e), arch_pte_prot(*e) | prot);
    // The part of this page that comes from the file.
    u64 lo = a > ph->vaddr ? a : ph->vaddr;
    u64 hi = a + PAGE_SIZE < ph->vaddr + ph->filesz ? a + PAGE_SIZE : ph->vaddr + ph->filesz;
    if (lo < hi &&
        readi(ip, false, (u64)page + (lo - a), ph->offset + (lo - ph->vaddr), hi - lo) != (long)(hi - lo))
      return -ENOEXEC;
  }
  return 0;
}

// Read the ELF file at ip (locked) into mm. Sets *entry and *end (first
// byte past the highest segment). Returns 0 or -errno.
static int load_elf(struct mm_struct *mm, struct inode *ip, u64 *entry, u64 *end)
{
  struct elf64_hdr eh;
  if (readi(ip, false, (u64)&eh, 0, sizeof(eh)) != sizeof(eh) ||
      memcmp(eh.ident, ELF_MAGIC, 4) != 0 || eh.ident[4] != ELFCLASS64 ||
      eh.ident[5] != ELFDATA2LSB || eh.machine != ELF_MACHINE ||
      eh.phentsize != sizeof(struct elf64_phdr))
    return -ENOEXEC;
  *end = 0;
  for (int i = 0; i < eh.phnum; i++) {
    struct elf64_phdr ph;
    if (readi(ip, false, (u64)&ph, eh.phoff + i * sizeof(ph), sizeof(ph)) != sizeof(ph))
      return -ENOEXEC;
    if (ph.type != PT_LOAD || ph.memsz == 0)
      continue;
    int err = load_segment(mm->pgd, ip, &ph);
    if (err < 0)
      return err;
    if (ph.vaddr + ph.memsz > *end)
      *end = ph.vaddr + ph.memsz;
  }
  if (*end == 0)
    return -ENOEXEC;
  *entry = eh.entry;
  return 0;
}

// Copy the argument strings onto the new stack (below top) and then the
// argv array. Reads them from user memory if user_argv. Returns the new
// sp with *argvp and *argcp set, or -errno.
static long push_args(struct mm_struct *mm, u64 top, u64 bottom,
                      char *const argv[], bool user_argv, u64 *argvp, u64 *argcp)
{
  u64 ptrs[MAXARG + 1];
  char buf[MAXPATH];
  u64 sp = top;
  int argc;
  for (argc = 0; ; argc++) {
    u64 uarg;
    if (user_argv) {
      if (get_user_u64(&uarg, (u64)&argv[argc]) < 0)
        return -EFAULT;
    } else {
      uarg = (u64)argv[argc];
    }
    if (uarg == 0)
      break;
    if (argc >= MAXARG)
      return -E2BIG;
    long len = user_argv ? strncpy_from_user(buf, (void *)uarg, sizeof(buf))
                         : (long)strlcpy(buf, (char *)uarg, sizeof(buf));
    if (len < 0)
      return len == -ENAMETOOLONG ? -E2BIG : len;
    if (len >= (long)sizeof(buf))
      return -E2BIG;
    sp = (sp - (len + 1)) & ~15UL;
    if (sp < bottom || access_process_vm(mm, sp, buf, len + 1, true, false) < 0)
      return -E2BIG;
    ptrs[argc] = sp;
  }
  ptrs[argc] = 0;
  sp = (sp - (argc + 1) * sizeof(u64)) & ~15UL;
  if (sp < bottom || access_process_vm(mm, sp, ptrs, (argc + 1) * sizeof(u64), true, false) < 0)
    return -E2BIG;
  *argvp = sp;
  *argcp = argc;
  return sp;
}

// Last path element, for the task's name.
static const char *basename(const char *path)
{
  const char *s = path;
  for (const char *p = path; *p; p++)
    if (*p == '/')
      s = p + 1;
  return s;
}

// Replace the current process image with the program at path. argv is a
// user pointer when user_argv, else a kernel array. On success the task
// leaves the system call at the new program's entry (returns 0, which is
// overwritten by argc); on failure returns -errno and nothing changed.
int kernel_execve(const char *path, char *const argv[], bool user_argv)
{
  struct inode *ip;
  u64 entry, end, argvp, argc;
  struct mm_struct *mm = mm_alloc();
  if (!mm)
    return -ENOMEM;
  begin_op();
  int err = namei(path, &ip);
  if (err < 0) {
    end_op();
    goto fail;
  }
  ilock(ip);
  err = ip->type == T_FILE && ip->dev == ROOTDEV ? load_elf(mm, ip, &entry, &end) : -EACCES;
  iunlockput(ip);
  end_op();
  if (err < 0)
    goto fail;

  // Guard page, then the stack, then the heap.
  u64 stack_bottom = PAGE_ALIGN(end) + PAGE_SIZE;
  u64 stack_top = stack_bottom + USTACK_SIZE;
  BUG_ON(stack_top > USER_MMAP_BASE);   // load_segment() kept end low
  for (u64 a = stack_bottom; a < stack_top; a += PAGE_SIZE) {
    void *page = alloc_page();
    if (!page || map_user_page(mm->pgd, a, page, VM_READ | VM_WRITE) < 0) {
      if (page)
        free_page(page);
      err = -ENOMEM;
      goto fail;
    }
  }
  mm->start_brk = mm->brk = stack_top;
  long sp = push_args(mm, stack_top, stack_bottom, argv, user_argv, &argvp, &argc);
  if (sp < 0) {
    err = sp;
    goto fail;
  }

  // Point of no return: the I/O threads and the other threads go, then
  // the old image.
  io_uring_task_cancel();
  if ((err = de_thread()) < 0)
    goto fail;
  // A sibling that punted a request after that cancel, before it died,
  // made a new pool: with no thread left to race us, end that one too,
  // or the new image would find a dead pool and every punt cancelled.
  io_uring_task_cancel();
  struct task *t = current;
  spin_lock(&tasklist_lock);   // t->mm changes under it (see do_exit())
  struct mm_struct *old = t->mm;
  WRITE_ONCE(t->mm, mm);
  spin_unlock(&tasklist_lock);
  switch_mm_sync(mm);
  if (old)
    mmput(old);
  set_task_comm(t, basename(path));
  t->clear_child_tid = 0;    // an address in the old image (Linux clears it too)
  t->flags &= ~TF_KTHREAD;   // kernel_init becomes a user process
  flush_signal_handlers(t);
  // A traced task stops with SIGTRAP after a successful exec, before the
  // new program runs (Linux's ptrace without PTRACE_O_TRACEEXEC): a
  // debugger that starts a program waits for this stop. A thread that
  // took the leader's tid in de_thread() keeps its tracer, who sees the
  // stop under that tid.
  if (t->ptrace)
    send_signal(t, SIGTRAP, false);
  arch_start_user(task_pt_regs(t), entry, sp, argc, argvp);
  return argc;

fail:
  mmput(mm);
  return err;
}
