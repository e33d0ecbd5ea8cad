// start_kernel(): where every CPU arrives from the arch boot code, and
// kernel_init(): the first task, which mounts the root file system and
// becomes /init.
#include "task.h"
#include "buf.h"
#include "fs.h"
#include "procfs.h"

extern char __bss_start[], __bss_end[];
extern volatile int secondaries_go;

// The first task: needs task context (disk I/O sleeps), so the file
// system is brought up here rather than in start_kernel().
static void kernel_init(void *arg)
{
  static char *const argv[] = { "init", NULL };
  current->signal->pgrp = current->signal->session = current->tid;
  current->signal->flags |= SIGNAL_UNKILLABLE;
  fs_init(ROOTDEV);
  struct inode *root;
  begin_op();
  procfs_init();
  if (namei("/", &root) < 0)
    panic("kernel_init: no root directory");
  end_op();
  struct inode *none = set_fs_pwd(current->fs, root);
  BUG_ON(none != NULL);
  int err = kernel_execve("/init", argv, false);
  if (err < 0)
    panic("kernel_init: cannot run /init (error %d)", err);
  // Returning leaves for user mode, at /init's entry.
}

void start_init_task(void)
{
  init_task = create_kthread(kernel_init, NULL, "init");
  if (!init_task)
    panic("cannot create init");
}

// Boot CPU: bring up the kernel, start init, release the others.
// Other CPUs: wait for that, mostly asleep so that a host with fewer
// cores than vCPUs runs the boot CPU instead; then join the scheduler.
void __noreturn start_kernel(u64 cpu)
{
  if (cpu != 0) {
    while (!READ_ONCE(secondaries_go))
      arch_boot_wait();
    __sync_synchronize();
    sched_init_cpu(cpu);
    arch_cpu_init();
    cpu_idle();
  }
  memset(__bss_start, 0, __bss_end - __bss_start);
  sched_init_cpu(0);
  printk_init();
  arch_early_init();
  printk("\ntasklab kernel booting\n");
  page_alloc_init();
  task_init();
  binit();
  inode_cache_init();
  file_init();
  console_init();
  serial2_init();
  arch_disk_init();
  arch_cpu_init();
  start_init_task();
  arch_start_secondary_cpus();
  cpu_idle();
}
