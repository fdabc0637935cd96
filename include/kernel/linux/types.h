/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_TYPES_H
#define _LINUX_TYPES_H

/* The kernel's fixed-size and special-purpose integer types. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/compiler.h>

typedef int8_t s8;
typedef uint8_t u8;
typedef int16_t s16;
typedef uint16_t u16;
typedef int32_t s32;
typedef uint32_t u32;
typedef long long s64; /* the kernel's: %lld prints it, on every architecture */
typedef unsigned long long u64;
typedef int8_t __s8;
typedef uint8_t __u8;
typedef int16_t __s16;
typedef uint16_t __u16;
typedef int32_t __s32;
typedef uint32_t __u32;
typedef long long __s64;
typedef unsigned long long __u64;
typedef u16 __le16, __be16;
typedef u32 __le32, __be32;
typedef u64 __le64, __be64;
typedef u16 __sum16;
typedef u32 __wsum;

typedef unsigned long ulong;
typedef unsigned int uint;
typedef unsigned short ushort;
typedef unsigned char u_char;
typedef long __kernel_long_t;
typedef unsigned long __kernel_ulong_t;
typedef u64 phys_addr_t;
typedef u64 dma_addr_t;
typedef phys_addr_t resource_size_t;
typedef unsigned long irq_hw_number_t;
typedef unsigned int __poll_t;
typedef unsigned int fmode_t;
typedef u32 compat_uptr_t;

typedef unsigned int gfp_t;
typedef unsigned int slab_flags_t;

typedef struct {
	int counter;
} atomic_t;
typedef struct {
	s64 counter;
} atomic64_t;
typedef atomic64_t atomic_long_t;

#define ATOMIC_INIT(i)                                                         \
	{                                                                      \
		(i)                                                            \
	}
#define ATOMIC64_INIT(i) ATOMIC_INIT(i)
#define ATOMIC_LONG_INIT(i) ATOMIC_INIT(i)

/* struct list_head, hlist_head and hlist_node. */
#ifndef PREEMPT_LIST_H
#include <preempt/list.h>
#endif

/* An RCU callback (the RCU headers give it meaning). */
struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
} __attribute__((__aligned__(sizeof(void *))));
#define rcu_head callback_head
typedef void (*rcu_callback_t)(struct rcu_head *head);

#define DECLARE_BITMAP(name, bits) unsigned long name[BITS_TO_LONGS(bits)]
#ifndef BITS_PER_LONG
#define BITS_PER_LONG 64
#endif
#define BITS_PER_LONG_LONG 64
#define BITS_TO_LONGS(nr) (((nr) + BITS_PER_LONG - 1) / BITS_PER_LONG)

/* The callbacks of sort(), sort_r() and bsearch() (linux/sort.h). */
typedef void (*swap_func_t)(void *a, void *b, int size);
typedef void (*swap_r_func_t)(void *a, void *b, int size, const void *priv);
typedef int (*cmp_r_func_t)(const void *a, const void *b, const void *priv);
typedef int (*cmp_func_t)(const void *a, const void *b);

#endif /* _LINUX_TYPES_H */
