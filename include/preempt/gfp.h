/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_GFP_H
#define PREEMPT_GFP_H

/*
 * Get-free-pages flags and the page allocator.
 *
 * The flags say what the allocator may do to find memory, which is what
 * the caller's context allows:
 *  - GFP_KERNEL: sleep until memory is freed ("reclaim").  Task context,
 *    not atomic; in atomic context it gets might_sleep()'s report and then
 *    fails rather than sleep.
 *  - GFP_NOWAIT: never sleep, stay out of the reserve; fails quietly.
 *  - GFP_ATOMIC: never sleep, may take the reserve (__GFP_HIGH); for
 *    interrupt handlers and code under spinlocks.  Fails with a report
 *    ("page allocation failure") once the reserve is gone.
 *  - __GFP_NOFAIL: sleep for as long as it takes (needs a sleeping mask).
 *  - __GFP_ZERO: zeroed memory.  __GFP_HIGHMEM: a high page will do.
 */

#include <stdbool.h>
#include <preempt/mm.h>

typedef unsigned int gfp_t;

#define __GFP_HIGHMEM 0x02U
#define __GFP_HIGH 0x20U /* may use the reserve */
#define __GFP_IO 0x40U
#define __GFP_FS 0x80U
#define __GFP_ZERO 0x100U
#define __GFP_DIRECT_RECLAIM 0x400U /* may sleep until memory is freed */
#define __GFP_KSWAPD_RECLAIM 0x800U
#define __GFP_NOWARN 0x2000U
#define __GFP_RETRY_MAYFAIL 0x4000U
#define __GFP_NOFAIL 0x8000U
#define __GFP_NORETRY 0x10000U
#define __GFP_COMP 0x40000U
#define __GFP_RECLAIM (__GFP_DIRECT_RECLAIM | __GFP_KSWAPD_RECLAIM)

#define GFP_ATOMIC (__GFP_HIGH | __GFP_KSWAPD_RECLAIM)
#define GFP_KERNEL (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_NOWAIT (__GFP_KSWAPD_RECLAIM | __GFP_NOWARN)
#define GFP_NOIO (__GFP_RECLAIM)
#define GFP_NOFS (__GFP_RECLAIM | __GFP_IO)
#define GFP_USER (__GFP_RECLAIM | __GFP_IO | __GFP_FS)
#define GFP_HIGHUSER (GFP_USER | __GFP_HIGHMEM)

/* Orders above this do not wait for memory unless __GFP_NOFAIL. */
#define PAGE_ALLOC_COSTLY_ORDER 3

/** gfpflags_allow_blocking() - may an allocation with @gfp sleep? */
static inline bool gfpflags_allow_blocking(gfp_t gfp)
{
	return gfp & __GFP_DIRECT_RECLAIM;
}

/**
 * alloc_pages() - a block of 2^@order pages
 *
 * Any context but NMI, as @gfp allows (see above).  Returns the first
 * page, or NULL.  A high page is returned only for __GFP_HIGHMEM.
 */
struct page *alloc_pages(gfp_t gfp, unsigned int order);

/** alloc_page() - one page; see alloc_pages(). */
#define alloc_page(gfp) alloc_pages(gfp, 0)

/**
 * __free_pages() - give back a block from alloc_pages()
 *
 * Any context but NMI; never sleeps.  Wakes allocations waiting for
 * memory.
 */
void __free_pages(struct page *page, unsigned int order);

/** __free_page() - give back one page.  Any context but NMI. */
#define __free_page(page) __free_pages(page, 0)

/**
 * __get_free_pages() - low-memory pages by address (0 on failure)
 *
 * As alloc_pages(); __GFP_HIGHMEM is ignored.
 */
unsigned long __get_free_pages(gfp_t gfp, unsigned int order);
#define __get_free_page(gfp) __get_free_pages(gfp, 0)
/** get_zeroed_page() - one zeroed low page by address. */
#define get_zeroed_page(gfp) __get_free_pages((gfp) | __GFP_ZERO, 0)

/** free_pages() - give back pages by address.  Any context but NMI. */
void free_pages(unsigned long addr, unsigned int order);
#define free_page(addr) free_pages(addr, 0)

#endif /* PREEMPT_GFP_H */
