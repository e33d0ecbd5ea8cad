// Fixed-size integer types used throughout the kernel.
#ifndef TASKLAB_TYPES_H
#define TASKLAB_TYPES_H
typedef unsigned char      u8;
typedef unsigned short     u16;
typedef unsigned int       u32;
typedef unsigned long      u64;
typedef signed char        s8;
typedef short              s16;
typedef int                s32;
typedef long               s64;
typedef unsigned long      uintptr_t;
typedef unsigned long      size_t;
typedef long               ssize_t;
typedef u64                pte_t;
typedef u64                sigset_t;
typedef _Bool              bool;
#define true  1
#define false 0
#define NULL  ((void *)0)
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define offsetof(t, m) __builtin_offsetof(t, m)
#define container_of(p, t, m) ((t *)((char *)(p) - offsetof(t, m)))
#define READ_ONCE(x)  (*(volatile typeof(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile typeof(x) *)&(x) = (v))
#define __noreturn __attribute__((noreturn))
#define __aligned(n) __attribute__((aligned(n)))
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif
