// System calls about tasks and time.
#include "task.h"
#include "syscall.h"


long sys_fork(struct pt_regs *regs)
{
  struct kernel_clone_args args = { 0 };
  return kernel_clone(&args);
}

// exit() ends the whole process, as Linux's exit_group.
long sys_exit(struct pt_regs *regs) { do_group_exit((ARG(0) & 0xff) << 8); }

long sys_waitpid(struct pt_regs *regs)
{
  int pid = ARG(0), options = ARG(2);
  if (options & ~(WNOHANG | WUNTRACED | WCONTINUED | __WALL))
    return -EINVAL;
  return do_wait(pid, ARG(1), options);
}

// The process id: the thread group leader's tid (gettid() is the thread's).
long sys_getpid(struct pt_regs *regs) { return current->tgid; }

long sys_getppid(struct pt_regs *regs)
{
  spin_lock(&tasklist_lock);
  struct task *p = current->group_leader->parent;
  int tid = p ? p->tgid : 0;
  spin_unlock(&tasklist_lock);
  return tid;
}


// sbrk(n): move the break by n bytes; returns the old break or -ENOMEM.
// mmap_lock keeps two threads from moving it at once; pages go through
// unmap_user_pages_sync(), since other threads may still see them.
long sys_sbrk(struct pt_regs *regs)
{
  long n = ARG(0);
  struct mm_struct *mm = current->mm;
  sleep_lock(&mm->mmap_lock);
  u64 old = mm->brk, new = old + n;
  long ret = old;
  if ((n > 0 && (new < old || new > USER_MMAP_BASE)) || (n < 0 && (new > old || new < mm->start_brk))) {
    ret = -ENOMEM;
  } else if (n > 0) {
    for (u64 a = PAGE_ALIGN(old); a < new; a += PAGE_SIZE) {
      // Growing by most of memory is long work: a scheduling point now
      // and then, and a SIGKILL ends it (so that the task can die now,
      // not once memory runs out).
      if ((a / PAGE_SIZE) % 64 == 0) {
        cond_resched();
        if (fatal_signal_pending(current)) {
          unmap_user_pages_sync(mm, PAGE_ALIGN(old), a - PAGE_ALIGN(old), true);
          ret = -EINTR;
          break;
        }
      }
      void *page = alloc_page();
      spin_lock(&mm->lock);
      int err = page ? map_user_page(mm->pgd, a, page, VM_READ | VM_WRITE) : -ENOMEM;
      spin_unlock(&mm->lock);
      if (err < 0) {
        if (page)
          free_page(page);
        unmap_user_pages_sync(mm, PAGE_ALIGN(old), a - PAGE_ALIGN(old), true);
        ret = -ENOMEM;
        break;
      }
    }
  } else if (n < 0) {
    // Bytes past the new break in its last page must read as zero if
    // the break grows again.
    spin_lock(&mm->lock);
    char *tail = (new & (PAGE_SIZE - 1)) ? user_page(mm->pgd, new, true) : NULL;
    if (tail)
      memset(tail, 0, PAGE_SIZE - (new & (PAGE_SIZE - 1)));
    spin_unlock(&mm->lock);
    unmap_user_pages_sync(mm, PAGE_ALIGN(new), PAGE_ALIGN(old) - PAGE_ALIGN(new), true);
  }
  if (ret >= 0)
    mm->brk = new;
  sleep_unlock(&mm->mmap_lock);
  return ret;
}

// sleep(ticks). A signal with a handler ends it with -EINTR; otherwise
// (a stop and continue, say) it resumes for the time that was left.
long sys_sleep(struct pt_regs *regs)
{
  long n = ARG_INT(0);
  if (n < 0)
    return -EINVAL;
  u64 deadline = jiffies + n;
  while ((long)(deadline - jiffies) > 0) {
    if (signal_pending(current)) {
      arch_syscall_set_arg(regs, 0, deadline - jiffies);
      return -ERESTARTNOHAND;
    }
    schedule_timeout(deadline - jiffies);
  }
  return 0;
}

long sys_uptime(struct pt_regs *regs) { return jiffies; }

long sys_poweroff(struct pt_regs *regs)
{
  printk("poweroff: code %d\n", (int)ARG(0));
  arch_poweroff(ARG(0));
}

long sys_freemem(struct pt_regs *regs) { return nr_free_pages(); }
