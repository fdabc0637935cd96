/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_PAGE_COUNTER_H
#define _LINUX_PAGE_COUNTER_H

/*
 * Hierarchical page counters, as memory cgroups use them: a charge counts
 * against a counter and every ancestor, and fails (try_charge) when any
 * of them would pass its max; min and low are protections whose usage is
 * propagated to the parent's children_*_usage.  Lock-free: atomics only,
 * so any context.  The functions come from mm/page_counter.c, which a
 * program brings.
 */

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <asm/page.h>

struct page_counter {
	atomic_long_t usage;
	unsigned long min;
	unsigned long low;
	unsigned long high;
	unsigned long max;
	/* effective min and its usage, for the parent's accounting */
	unsigned long emin;
	atomic_long_t min_usage;
	atomic_long_t children_min_usage;
	/* effective low, likewise */
	unsigned long elow;
	atomic_long_t low_usage;
	atomic_long_t children_low_usage;
	/* the highest usage seen (local: since the last reset, 6.12) */
	unsigned long watermark;
	unsigned long local_watermark;
	/* how often a charge failed */
	unsigned long failcnt;
	/* 6.12: whether min/low are tracked for this counter at all */
	bool protection_support;
	struct page_counter *parent;
};

#define PAGE_COUNTER_MAX (LONG_MAX / PAGE_SIZE)

static inline void pk_page_counter_init(struct page_counter *counter,
					struct page_counter *parent,
					bool protection_support)
{
	atomic_long_set(&counter->usage, 0);
	counter->min = counter->low = counter->emin = counter->elow = 0;
	atomic_long_set(&counter->min_usage, 0);
	atomic_long_set(&counter->children_min_usage, 0);
	atomic_long_set(&counter->low_usage, 0);
	atomic_long_set(&counter->children_low_usage, 0);
	counter->high = counter->max = PAGE_COUNTER_MAX;
	counter->watermark = counter->local_watermark = counter->failcnt = 0;
	counter->protection_support = protection_support;
	counter->parent = parent;
}

/*
 * page_counter_init(counter, parent) as in 6.1 (protection tracked), or
 * (counter, parent, protection_support) as in 6.12.
 */
#define page_counter_init(...) __pk_page_counter_init(__VA_ARGS__, true, )
#define __pk_page_counter_init(c, parent, prot, ...)                           \
	pk_page_counter_init(c, parent, prot)

static inline unsigned long page_counter_read(struct page_counter *counter)
{
	return (unsigned long)atomic_long_read(&counter->usage);
}

void page_counter_cancel(struct page_counter *counter, unsigned long nr_pages);
void page_counter_charge(struct page_counter *counter, unsigned long nr_pages);
/* false, with *@fail the counter that refused, when a max would be passed. */
bool page_counter_try_charge(struct page_counter *counter,
			     unsigned long nr_pages,
			     struct page_counter **fail);
void page_counter_uncharge(struct page_counter *counter,
			   unsigned long nr_pages);
void page_counter_set_min(struct page_counter *counter, unsigned long nr_pages);
void page_counter_set_low(struct page_counter *counter, unsigned long nr_pages);

static inline void page_counter_set_high(struct page_counter *counter,
					 unsigned long nr_pages)
{
	WRITE_ONCE(counter->high, nr_pages);
}

/* -EBUSY when usage is already above @nr_pages. */
int page_counter_set_max(struct page_counter *counter, unsigned long nr_pages);
/* A size in bytes ("64M"), or @max's text for PAGE_COUNTER_MAX, in pages. */
int page_counter_memparse(const char *buf, const char *max,
			  unsigned long *nr_pages);

/* 6.12: the effective min/low of @counter below @root. */
void page_counter_calculate_protection(struct page_counter *root,
				       struct page_counter *counter,
				       bool recursive_protection);

static inline void page_counter_reset_watermark(struct page_counter *counter)
{
	counter->watermark = counter->local_watermark =
		page_counter_read(counter);
}

#endif /* _LINUX_PAGE_COUNTER_H */
