/* SPDX-License-Identifier: MIT */
#ifndef PK_MM_INTERNAL_H
#define PK_MM_INTERNAL_H

/* Between the memory layer's files: zones, the wait for memory, windows. */

#include <preempt/gfp.h>
#include <preempt/highmem.h>
#include <preempt/mm.h>
#include <preempt/slab.h>
#include <preempt/wait.h>

#include "../sched/sched_internal.h"

/* A zone: a buddy allocator over a run of page frames. */
struct pk_zone {
	const char *name;
	int lock; /* raw spinlock, taken with interrupts disabled */
	struct list_head free_area[MAX_PAGE_ORDER + 1];
	unsigned long nr_free; /* pages */
	unsigned long managed; /* pages */
	unsigned long reserve; /* pages only __GFP_HIGH may take */
	unsigned long start_pfn;
};

enum { PK_ZONE_NORMAL, PK_ZONE_HIGHMEM, PK_NR_ZONES };

struct pk_mm {
	int state; /* 0 down, 1 starting, 2 up, 3 failed */
	char *low_base;
	struct page *mem_map;
	unsigned long nr_pages;
	int highmem_fd; /* the memfd high pages live in, or -1 */
	struct pk_zone zone[PK_NR_ZONES];
};

extern struct pk_mm pk_mm;

/* Start the layer with the defaults if nothing started it yet. */
bool pk_mm_start_slow(void);
static inline bool pk_mm_ready(void)
{
	if (likely(__atomic_load_n(&pk_mm.state, __ATOMIC_ACQUIRE) == 2))
		return true;
	return pk_mm_start_slow();
}

/*
 * Sleeping until something is freed: the page allocator's "reclaim" and
 * kmap()'s wait for a slot.  Tasks and host threads sleep on the wait
 * queue; @seq moves at every free that has a waiter.
 */
struct pk_mm_waitq {
	unsigned int seq;
	unsigned int waiters;
	wait_queue_head_t wq;
};

#define PK_MM_WAITQ_INIT(name)                                                 \
	{                                                                      \
		0, 0, __WAIT_QUEUE_HEAD_INITIALIZER((name).wq)                 \
	}

unsigned int pk_mm_wait_begin(struct pk_mm_waitq *q);
void pk_mm_wait(struct pk_mm_waitq *q, unsigned int seq);
void pk_mm_wait_end(struct pk_mm_waitq *q);
void pk_mm_wake_slow(struct pk_mm_waitq *q);
static inline void pk_mm_wake(struct pk_mm_waitq *q)
{
	if (unlikely(__atomic_load_n(&q->waiters, __ATOMIC_SEQ_CST)))
		pk_mm_wake_slow(q);
}

/* Allocations waiting for pages; frees that see one skip the caches. */
extern struct pk_mm_waitq pk_mm_free_wait;

/* Could the caller sleep right now (not atomic, interrupts on)? */
static inline bool pk_mm_may_sleep_now(void)
{
	return !in_atomic() && !irqs_disabled();
}

/* The "page allocation failure" report, unless __GFP_NOWARN. */
void pk_warn_alloc(gfp_t gfp, unsigned int order);
struct page *pk_alloc_pages_try(gfp_t gfp, unsigned int order);

/* Counters (pk_mm_stats()). */
extern unsigned long pk_mm_nr_waits, pk_mm_nr_failures;
extern unsigned long pk_mm_nr_populated, pk_mm_nr_fixed;

/*
 * The calling vCPU's number, or -1 on a thread that is not a vCPU.  Read
 * with interrupts off, through the thread pointer of that moment: the
 * caller may have been moved since its function began.
 */
static inline int pk_mm_vcpu(void)
{
	struct rq *rq = pk_task_tls(pk_this_rq);

	return rq ? rq->cpu : -1;
}

/* slab.c: the kmalloc() caches, set up at start-up. */
void pk_kmalloc_init(void);
/* slab.c: host threads get their own stacks (1, the default) or use the
 * slab lists under the cache lock (0: the bench's baseline).  Read when a
 * thread first allocates. */
extern int pk_slab_thread_caches;

/* highmem.c: reserve the windows; map a high page's frame at @addr. */
int pk_highmem_setup(void);
int pk_highmem_map_at(void *addr, const struct page *page);
void pk_highmem_unmap_at(void *addr);
/*
 * Fault injection for tests: the next @n slot mappings fail with -ENOMEM,
 * as they do at the host's mapping limit (vm.max_map_count).
 */
void pk_highmem_fail_maps(unsigned int n);

/* kmap() calls asleep for a slot. */
unsigned int pk_kmap_waiters(void);

/* fault.c: the SIGSEGV handler, installed once. */
void pk_fault_handler_install(void);
/* highmem.c: is @addr an unmapped kmap slot?  Reports and patches it. */
bool pk_kmap_fault(unsigned long addr, bool write, unsigned long ip);

#endif /* PK_MM_INTERNAL_H */
