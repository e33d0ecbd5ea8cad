// vhost.c: a copy engine with one kernel worker per device.
#ifndef TASKLAB_VHOST_H
#define TASKLAB_VHOST_H
#include "types.h"
struct vhost_dev;
long vhost_read(struct vhost_dev *dev, u64 udst, long n);
void vhost_release(struct vhost_dev *dev);
#endif
