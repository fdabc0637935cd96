/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MEMPOOL_H
#define _LINUX_MEMPOOL_H

/*
 * Memory pools: a reserve of @min_nr elements kept for when the allocator
 * fails, so a blocking mempool_alloc() always succeeds eventually.  The
 * implementation is the kernel's mm/mempool.c, which a program compiles
 * (make kernel-check does); this header declares it with the kernel's
 * layout.
 */

#include <linux/compiler.h>
#include <linux/gfp_types.h>
#include <linux/spinlock.h>
#if __has_include(<linux/wait.h>)
#include <linux/wait.h>
#else
/* Until the tree has linux/wait.h: the library's wait queues. */
#include <preempt/wait.h>
typedef struct wait_queue_entry wait_queue_entry_t;
#define init_wait(w)                                                           \
	do {                                                                   \
		(w)->task = current;                                           \
		INIT_LIST_HEAD(&(w)->entry);                                   \
	} while (0)
#endif

struct kmem_cache;

typedef void *(mempool_alloc_t)(gfp_t gfp_mask, void *pool_data);
typedef void(mempool_free_t)(void *element, void *pool_data);

typedef struct mempool_s {
	spinlock_t lock;
	int min_nr;
	int curr_nr;
	void **elements;
	void *pool_data;
	mempool_alloc_t *alloc;
	mempool_free_t *free;
	wait_queue_head_t wait;
} mempool_t;

static inline bool mempool_initialized(mempool_t *pool)
{
	return pool->elements != NULL;
}
static inline bool mempool_is_saturated(mempool_t *pool)
{
	return READ_ONCE(pool->curr_nr) >= pool->min_nr;
}

/*
 * Linux 6.10 renamed the out-of-line functions for memory allocation
 * profiling (mempool_alloc() is a macro over mempool_alloc_noprof()).
 * These names map both ways onto the new ones, so a 6.1 mm/mempool.c
 * (whose definitions they rename too) and a 6.12 one link alike.
 */
#define mempool_init(...) mempool_init_noprof(__VA_ARGS__)
#define mempool_create_node(...) mempool_create_node_noprof(__VA_ARGS__)
#define mempool_alloc(...) mempool_alloc_noprof(__VA_ARGS__)

void mempool_exit(mempool_t *pool);
int mempool_init_node(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		      mempool_free_t *free_fn, void *pool_data, gfp_t gfp_mask,
		      int node_id);
int mempool_init(mempool_t *pool, int min_nr, mempool_alloc_t *alloc_fn,
		 mempool_free_t *free_fn, void *pool_data);
mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data);
mempool_t *mempool_create_node(int min_nr, mempool_alloc_t *alloc_fn,
			       mempool_free_t *free_fn, void *pool_data,
			       gfp_t gfp_mask, int nid);
int mempool_resize(mempool_t *pool, int new_min_nr);
void mempool_destroy(mempool_t *pool);
void *mempool_alloc(mempool_t *pool, gfp_t gfp_mask) __malloc;
void *mempool_alloc_preallocated(mempool_t *pool) __malloc;
void mempool_free(void *element, mempool_t *pool);
/* 6.12's kvmalloc()-backed pools (not in 6.1's mm/mempool.c). */
void *mempool_kvmalloc(gfp_t gfp_mask, void *pool_data);
void mempool_kvfree(void *element, void *pool_data);

void *mempool_alloc_slab(gfp_t gfp_mask, void *pool_data);
void mempool_free_slab(void *element, void *pool_data);
static inline int mempool_init_slab_pool(mempool_t *pool, int min_nr,
					 struct kmem_cache *kc)
{
	return mempool_init(pool, min_nr, mempool_alloc_slab, mempool_free_slab,
			    (void *)kc);
}
static inline mempool_t *mempool_create_slab_pool(int min_nr,
						  struct kmem_cache *kc)
{
	return mempool_create(min_nr, mempool_alloc_slab, mempool_free_slab,
			      (void *)kc);
}
void *mempool_kmalloc(gfp_t gfp_mask, void *pool_data);
void mempool_kfree(void *element, void *pool_data);
static inline int mempool_init_kmalloc_pool(mempool_t *pool, int min_nr,
					    size_t size)
{
	return mempool_init(pool, min_nr, mempool_kmalloc, mempool_kfree,
			    (void *)size);
}
static inline mempool_t *mempool_create_kmalloc_pool(int min_nr, size_t size)
{
	return mempool_create(min_nr, mempool_kmalloc, mempool_kfree,
			      (void *)size);
}
void *mempool_alloc_pages(gfp_t gfp_mask, void *pool_data);
void mempool_free_pages(void *element, void *pool_data);
static inline int mempool_init_page_pool(mempool_t *pool, int min_nr, int order)
{
	return mempool_init(pool, min_nr, mempool_alloc_pages,
			    mempool_free_pages, (void *)(long)order);
}
static inline mempool_t *mempool_create_page_pool(int min_nr, int order)
{
	return mempool_create(min_nr, mempool_alloc_pages, mempool_free_pages,
			      (void *)(long)order);
}

#endif /* _LINUX_MEMPOOL_H */
