/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_MM_H
#define PREEMPT_MM_H

/*
 * Pages and the memory they come from.
 *
 * Low memory is one anonymous mapping made when the layer first starts: a
 * low page is always mapped and page_address() is plain arithmetic.  High
 * memory lives in a memfd and is mapped nowhere until kmap() and friends
 * (highmem.h) put a page into a window, so touching it without a mapping
 * really faults, as on a 32-bit kernel.
 *
 * Both sizes are fixed when the layer starts: pk_mm_init() before the
 * first allocation, else $PREEMPT_MEM and $PREEMPT_HIGHMEM (bytes, with an
 * optional K, M or G suffix), else the defaults below.  A bounded pool is
 * what makes GFP_KERNEL wait and GFP_ATOMIC fail, so tests set it small.
 */

#include <stdbool.h>
#include <stddef.h>
#include <preempt/list.h>

#define PAGE_SHIFT 12
#define PAGE_SIZE (1UL << PAGE_SHIFT)
#define PAGE_MASK (~(PAGE_SIZE - 1))
#define MAX_PAGE_ORDER 10 /* the largest block: 4 MiB */

#define PK_MM_DEFAULT_LOWMEM (64UL << 20)
#define PK_MM_DEFAULT_HIGHMEM (16UL << 20)

struct kmem_cache;

/*
 * A page frame.  flags, lru and private read as in the kernel; the rest
 * belongs to the allocators.
 */
struct page {
	unsigned long flags;
	struct list_head lru;  /* free list, or its cache's slab list */
	unsigned long private; /* the block's order while it is free */
	struct page *pk_head;  /* first page of the block it belongs to */
	unsigned int pk_order; /* order of the block, in its head */
	struct kmem_cache *pk_slab_cache;
	void *pk_freelist;     /* slab: first free object */
	unsigned int pk_inuse; /* slab: objects handed out */
	void *virtual;	       /* high page: its kmap() address, or NULL */
	int pk_kmap_count;     /* kmap() references */
};

/* Page flags (bit numbers). */
enum pageflags {
	PG_buddy,    /* free, on a free list */
	PG_slab,     /* a slab's first page */
	PG_head,     /* first page of an allocated block of order > 0 */
	PG_highmem,  /* in the memfd, not permanently mapped */
	PG_reserved, /* never allocated (tail of the pool) */
};

/** PageHighMem() - is @page high memory (mapped only on demand)?  Any. */
static inline bool PageHighMem(const struct page *page)
{
	return page->flags & (1UL << PG_highmem);
}

/** PageSlab() - does @page hold slab objects?  Any context. */
static inline bool PageSlab(const struct page *page)
{
	return page->flags & (1UL << PG_slab);
}

/**
 * page_address() - the address of @page
 *
 * Any context.  For a low page its permanent address; for a high page the
 * address kmap() gave it, or NULL when it is not kmap()ed.
 */
void *page_address(const struct page *page);

/** virt_to_page() - the page of a low-memory address.  Any context. */
struct page *virt_to_page(const void *addr);

/** page_to_pfn() - the page frame number of @page.  Any context. */
unsigned long page_to_pfn(const struct page *page);

/** pfn_to_page() - the page of frame @pfn (NULL if none).  Any context. */
struct page *pfn_to_page(unsigned long pfn);

/** virt_addr_valid() - is @addr in low memory?  Any context. */
bool virt_addr_valid(const void *addr);

/** get_order() - the smallest order whose block holds @size bytes.  Any. */
static inline unsigned int get_order(size_t size)
{
	unsigned int order = 0;

	size = (size - 1) >> PAGE_SHIFT;
	while (size) {
		order++;
		size >>= 1;
	}
	return order;
}

/*
 * struct pk_mm_config - the memory layer's sizes
 * @lowmem:  bytes of low memory (0: $PREEMPT_MEM or 64 MiB)
 * @highmem: bytes of high memory (0: $PREEMPT_HIGHMEM or 16 MiB; -1: none)
 * @reserve: low-memory bytes only GFP_ATOMIC may take (0: 1/64 of low
 *           memory, at least 8 pages)
 */
struct pk_mm_config {
	size_t lowmem;
	long highmem;
	size_t reserve;
};

/**
 * pk_mm_init() - start the memory layer with @cfg (NULL: environment and
 * defaults)
 *
 * Thread or task context, before the first allocation or kmap: the layer
 * otherwise starts by itself with the defaults.  Returns 0, -EBUSY when it
 * already runs, or -errno (-ENOMEM, or -EINVAL for host pages that are not
 * 4 KiB).
 */
int pk_mm_init(const struct pk_mm_config *cfg);

/*
 * struct pk_mm_stats - where the pool stands
 * @lowmem_pages, @highmem_pages: pages in each zone
 * @free_low, @free_high: pages free in each zone now
 * @reserve: low pages kept for GFP_ATOMIC
 * @waiting: allocations (and kmap()s) asleep until memory is freed
 * @waits: sleeps so far ("reclaim")
 * @failures: allocations that failed
 * @faults_populated: user pages populated by the fault handler
 * @faults_fixed: user-copy faults resolved by the exception table
 */
struct pk_mm_stats {
	unsigned long lowmem_pages, highmem_pages;
	unsigned long free_low, free_high;
	unsigned long reserve;
	unsigned long waiting, waits, failures;
	unsigned long faults_populated, faults_fixed;
};

/** pk_mm_stats() - a snapshot of the counters.  Any context. */
struct pk_mm_stats pk_mm_stats(void);

#endif /* PREEMPT_MM_H */
