/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SLAB_H
#define PREEMPT_SLAB_H

/*
 * Object caches and kmalloc(), over the page allocator (gfp.h).
 *
 * Each cache keeps a small stack of free objects per vCPU, guarded by
 * local_irq_save() alone: the word's interrupt-disable depth, no syscall,
 * no host lock.  So allocating and freeing is safe in task, softirq and
 * hardirq context (not NMI) and costs a few instructions when the stack is
 * not empty.  Threads that are not vCPUs share the caches' slab lists
 * under a spinlock instead.
 */

#include <stddef.h>
#include <preempt/gfp.h>

typedef unsigned int slab_flags_t;

#define SLAB_HWCACHE_ALIGN 0x00002000U /* align objects to 64 bytes */

/* kmalloc(0) returns this: not NULL, but faults when dereferenced. */
#define ZERO_SIZE_PTR ((void *)16)
#define ZERO_OR_NULL_PTR(x) ((unsigned long)(x) <= (unsigned long)ZERO_SIZE_PTR)

/* Larger kmalloc()s take whole pages. */
#define KMALLOC_MAX_CACHE_SIZE 8192UL

/**
 * kmem_cache_create() - a cache of @size-byte objects
 * @name: for reports
 * @size: object size
 * @align: minimum alignment (0: 8)
 * @flags: SLAB_HWCACHE_ALIGN or 0
 * @ctor: called on each object when its slab is made (or NULL)
 *
 * Task or thread context (may sleep).  Returns NULL on failure.
 */
struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *));

/**
 * kmem_cache_destroy() - free @s and its slabs
 *
 * Task or thread context, with no object of @s still in use (reported
 * otherwise, and the cache is then leaked) and nobody else using @s.
 */
void kmem_cache_destroy(struct kmem_cache *s);

/** kmem_cache_alloc() - an object of @s.  Any context @gfp allows. */
void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp);
/** kmem_cache_zalloc() - a zeroed object of @s. */
#define kmem_cache_zalloc(s, gfp) kmem_cache_alloc(s, (gfp) | __GFP_ZERO)

/** kmem_cache_free() - give back @obj to @s.  Any context but NMI. */
void kmem_cache_free(struct kmem_cache *s, void *obj);

/**
 * kmem_cache_shrink() - give this CPU's cached objects of @s back to their
 * slabs, and the slabs they empty (but one) to the page allocator
 *
 * Any context but NMI.  Returns 0.
 */
int kmem_cache_shrink(struct kmem_cache *s);

/**
 * kmalloc() - @size bytes of low memory
 *
 * Any context @gfp allows (gfp.h).  Returns NULL on failure and
 * ZERO_SIZE_PTR for @size 0.
 */
void *kmalloc(size_t size, gfp_t gfp);

/** kzalloc() - kmalloc(), zeroed. */
static inline void *kzalloc(size_t size, gfp_t gfp)
{
	return kmalloc(size, gfp | __GFP_ZERO);
}

/** kmalloc_array() - @n * @size bytes, NULL if the product overflows. */
static inline void *kmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	size_t bytes;

	if (__builtin_mul_overflow(n, size, &bytes))
		return NULL;
	return kmalloc(bytes, gfp);
}

/** kcalloc() - kmalloc_array(), zeroed. */
static inline void *kcalloc(size_t n, size_t size, gfp_t gfp)
{
	return kmalloc_array(n, size, gfp | __GFP_ZERO);
}

/**
 * krealloc() - resize @p to @new_size, keeping its contents
 *
 * Any context @gfp allows.  On failure returns NULL and leaves @p as it
 * was; @new_size 0 frees @p and returns ZERO_SIZE_PTR.
 */
void *krealloc(const void *p, size_t new_size, gfp_t gfp);

/**
 * kfree() - give back what kmalloc() returned (NULL and ZERO_SIZE_PTR
 * are ignored)
 *
 * Any context but NMI; never sleeps.
 */
void kfree(const void *p);

/** ksize() - how many bytes @p really has room for.  Any context. */
size_t ksize(const void *p);

#endif /* PREEMPT_SLAB_H */
