// vhost_open() flags, shared with user programs.
#ifndef TASKLAB_VHOST_ABI_H
#define TASKLAB_VHOST_ABI_H
#define VHOST_F_LOOP 0x1   // at the end of the input, start again at 0
#endif
