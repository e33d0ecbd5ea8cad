# labs/gdb/tasks.gdb: list the kernel's tasks from gdb, in gdb's own
# command language (no Python).
#
# Load it after connecting to `make qemu-gdb`:
#     (gdb) source labs/gdb/tasks.gdb
#     (gdb) lstasks
# or from the shell:  gdb-multiarch -x .gdbinit -x labs/gdb/tasks.gdb
#
# `lstasks` walks the kernel's task table (struct task tasks[NTASK] in
# kernel/task.c) and prints one line per slot in use:
#     SLOT   TID  TGID S FLAGS    CPU COMM
# S is the state letter that /proc and ps show (R S D T t X, Z for a
# zombie); FLAGS are the TF_* bits (0x10 is TF_IO_WORKER), spelled out
# after the name; CPU is the CPU the task is running on, or "-".
# `ptask N` prints the whole struct task of slot N.
# `curtask` finds the task running on the CPU gdb has selected (gdb
# thread N is CPU N-1) and sets $cur to it, for `print $cur->comm` etc.

define lstasks
  set $i = 0
  set $n = sizeof(tasks) / sizeof(tasks[0])
  set $used = 0
  printf "SLOT   TID  TGID S FLAGS    CPU COMM\n"
  while $i < $n
    set $t = &tasks[$i]
    if $t->used
      set $st = 'X'
      if $t->state == TASK_RUNNING
        set $st = 'R'
      end
      if $t->state == TASK_INTERRUPTIBLE
        set $st = 'S'
      end
      if $t->state == TASK_UNINTERRUPTIBLE
        set $st = 'D'
      end
      if $t->state == TASK_STOPPED
        set $st = 'T'
      end
      if $t->state == TASK_TRACED
        set $st = 't'
      end
      if $t->exit_state == 1
        set $st = 'Z'
      end
      printf "%4d %5d %5d %c %08x ", $i, $t->tid, $t->tgid, $st, $t->flags
      if $t->on_cpu
        printf "%3d ", $t->cpu
      else
        printf "  - "
      end
      printf "%s", $t->comm
      if $t->flags & 0x1
        printf "  [kthread]"
      end
      if $t->flags & 0x10
        printf "  [io_worker]"
      end
      printf "\n"
      set $used = $used + 1
    end
    set $i = $i + 1
  end
  printf "%d of %d task slots in use\n", $used, $n
end
document lstasks
List the kernel's tasks (struct task tasks[NTASK]): slot, tid, tgid,
state letter, TF_* flags, CPU if running, name.
end

define ptask
  if $argc != 1
    printf "usage: ptask SLOT   (the SLOT column of lstasks)\n"
  else
    print tasks[$arg0]
  end
end
document ptask
Print the whole struct task in slot SLOT of the task table.
end

define curtask
  set $cur = 0
  set $i = 0
  while $i < sizeof(tasks) / sizeof(tasks[0])
    if tasks[$i].used && tasks[$i].on_cpu && tasks[$i].cpu == $_thread - 1
      set $cur = &tasks[$i]
      printf "CPU %d runs slot %d: tid %d, tgid %d, %s\n", $_thread - 1, $i, $cur->tid, $cur->tgid, $cur->comm
    end
    set $i = $i + 1
  end
  if $cur == 0
    printf "CPU %d runs no task of the table (its idle task)\n", $_thread - 1
  end
end
document curtask
Find the task running on the CPU gdb has selected (gdb thread N is
CPU N-1) and set $cur to it: then e.g. print/x $cur->ti.flags.
end
