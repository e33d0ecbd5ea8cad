// Core kernel services: printing, panics, strings, memory.
#ifndef TASKLAB_KERNEL_H
#define TASKLAB_KERNEL_H
#include "types.h"
#include "param.h"
#include "errno.h"
#include "arch.h"

// printk.c
int  printk(const char *fmt, ...);
int  snprintf(char *buf, size_t size, const char *fmt, ...);
void __noreturn panic(const char *fmt, ...);
void printk_init(void);
#define BUG_ON(c) do { if (unlikely(c)) panic("BUG_ON(%s) at %s:%d", #c, __FILE__, __LINE__); } while (0)

// string.c
void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int   memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int   strncmp(const char *a, const char *b, size_t n);
char *strncpy(char *dst, const char *src, size_t n);
size_t strlcpy(char *dst, const char *src, size_t size);

// page_alloc.c: one 4 KiB page at a time, from the linear map
void  page_alloc_init(void);
void *alloc_page(void);           // zeroed; NULL when out of memory
void  free_page(void *va);
long  nr_free_pages(void);
int   page_poison_get(void);     // /proc/sys/kernel/page_poison
int   page_poison_set(int on);   // 0 or 1; returns 0
bool  page_is_free(const void *va);  // on the free list now (invariant checks)

// vm.c: page tables and user memory. The heap stays below USER_MMAP_BASE;
// mappings the kernel makes for a process (io_uring rings) go above it.
#define USER_MMAP_BASE 0x2000000000UL
pte_t *pgd_alloc(void);
void  pgd_free(pte_t *pgd);
int   map_user_page(pte_t *pgd, u64 va, void *page, int prot);
struct mm_struct;
void  unmap_user_pages_sync(struct mm_struct *mm, u64 va, u64 len, bool free);
int   copy_user_range(pte_t *dst, pte_t *src, u64 va, u64 len);
pte_t *lookup_pte(pte_t *pgd, u64 va);
void *user_page(pte_t *pgd, u64 va, bool write);
int   copy_to_user(void *udst, const void *src, size_t n);
int   copy_from_user(void *dst, const void *usrc, size_t n);
long  strncpy_from_user(char *dst, const void *usrc, size_t max);
int   get_user_u64(u64 *val, u64 uaddr);
int   put_user_u64(u64 uaddr, u64 val);
struct mm_struct;
int   access_process_vm(struct mm_struct *mm, u64 uaddr, void *buf, size_t n, bool write, bool force);

// time.c
extern volatile u64 jiffies;

// interrupts.c: the counts of /proc/interrupts
int interrupts_show(char *buf, int size);
#endif
