/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SLAB_H
#define _LINUX_SLAB_H

/*
 * kmalloc() and object caches: the library's (preempt/slab.h: per-vCPU
 * object stacks, GFP context checks), plus the kernel's wrappers and the
 * kv*() allocators that fall back to vmalloc().  One NUMA node: the _node
 * forms ignore the node.
 */

#include <linux/gfp.h>
#include <linux/kasan.h>
#include <linux/overflow.h>
#include <linux/sched/mm.h>
#include <linux/types.h>
#include <preempt/slab.h>

#define SLAB_PANIC 0x00040000U
#define SLAB_ACCOUNT 0x04000000U
#define SLAB_RECLAIM_ACCOUNT 0x00020000U
#define SLAB_MEM_SPREAD 0x00100000U
#define SLAB_NO_MERGE 0x01000000U
#define SLAB_TYPESAFE_BY_RCU 0x00080000U
#define SLAB_POISON 0x00000800U
#define SLAB_RED_ZONE 0x00000400U
#define SLAB_NOLEAKTRACE 0x00800000U
#define SLAB_STORE_USER 0x00010000U
#define SLAB_CONSISTENCY_CHECKS 0x00000100U
#define SLAB_TEMPORARY SLAB_RECLAIM_ACCOUNT
#define ARCH_KMALLOC_MINALIGN 8
#define ARCH_SLAB_MINALIGN 8
#define KMALLOC_MAX_SIZE (4UL << 20)

/*
 * kmem_cache_create() as the library's: of the flags, SLAB_HWCACHE_ALIGN
 * is honored, SLAB_PANIC panics on failure and the rest are accepted.
 */
struct kmem_cache *pk_kernel_cache_create(const char *name, unsigned int size,
					  unsigned int align,
					  slab_flags_t flags,
					  void (*ctor)(void *));
#define kmem_cache_create(name, size, align, flags, ctor)                      \
	pk_kernel_cache_create(name, size, align, flags, ctor)
#define kmem_cache_create_usercopy(name, size, align, flags, uo, us, ctor)     \
	pk_kernel_cache_create(name, size, align, flags, ctor)
#define KMEM_CACHE(__struct, __flags)                                          \
	kmem_cache_create(#__struct, sizeof(struct __struct),                  \
			  __alignof__(struct __struct), (__flags), NULL)
#define kmem_cache_alloc_node(s, gfp, node) kmem_cache_alloc(s, gfp)
/*
 * 6.10's memory allocation profiling: the _noprof functions are the
 * allocators without the accounting hook, which is all there is here.
 */
#define alloc_hooks(call) (call)
#define kmalloc_noprof(size, gfp) kmalloc(size, gfp)
#define kmalloc_node_noprof(size, gfp, node) kmalloc(size, gfp)
#define kzalloc_noprof(size, gfp) kzalloc(size, gfp)
#define kvmalloc_noprof(size, gfp) kvmalloc(size, gfp)
#define kvmalloc_node_noprof(size, gfp, node) kvmalloc(size, gfp)
#define kmem_cache_alloc_noprof(s, gfp) kmem_cache_alloc(s, gfp)
#define kmem_cache_alloc_node_noprof(s, gfp, node) kmem_cache_alloc(s, gfp)
#define kmem_cache_alloc_lru(s, lru, gfp) kmem_cache_alloc(s, gfp)
#define kmalloc_node(size, gfp, node) kmalloc(size, gfp)
#define kzalloc_node(size, gfp, node) kzalloc(size, gfp)
#define kmalloc_array_node(n, size, gfp, node) kmalloc_array(n, size, gfp)
#define kcalloc_node(n, size, gfp, node) kcalloc(n, size, gfp)
#define kmalloc_track_caller(size, gfp) kmalloc(size, gfp)
#define kmalloc_size_roundup(size) (size)

/** krealloc_array() - krealloc() to @n * @size, NULL on overflow. */
static inline void *__must_check krealloc_array(void *p, size_t n, size_t size,
						gfp_t gfp)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return krealloc(p, bytes, gfp);
}

/** kfree_sensitive() - zero the object, then kfree() it. */
void kfree_sensitive(const void *p);

/**
 * kvmalloc() - kmalloc() if it can be had cheaply, else vmalloc()
 *
 * Task context for sizes over a page with a blocking @gfp (vmalloc() may
 * sleep); otherwise as kmalloc().  Free with kvfree().
 */
void *kvmalloc_node(size_t size, gfp_t gfp, int node) __malloc;
#define kvmalloc(size, gfp) kvmalloc_node(size, gfp, -1)
#define kvzalloc(size, gfp) kvmalloc(size, (gfp) | __GFP_ZERO)
#define kvzalloc_node(size, gfp, node)                                         \
	kvmalloc_node(size, (gfp) | __GFP_ZERO, node)
static inline void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (check_mul_overflow(n, size, &bytes))
		return NULL;
	return kvmalloc(bytes, gfp);
}
#define kvcalloc(n, size, gfp) kvmalloc_array(n, size, (gfp) | __GFP_ZERO)
/** kvfree() - free what kvmalloc(), kmalloc() or vmalloc() returned. */
void kvfree(const void *addr);
void kvfree_sensitive(const void *addr, size_t len);
/** kvrealloc() - resize a kvmalloc()ed block to @size. */
void *kvrealloc(const void *p, size_t size, gfp_t gfp);

#endif /* _LINUX_SLAB_H */
