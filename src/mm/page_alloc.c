// SPDX-License-Identifier: MIT
/*
 * The page allocator: one buddy allocator per zone (normal, highmem) over
 * a pool fixed at start-up, so that exhaustion is real and testable.
 *
 * Each zone has one lock, taken with interrupts disabled, so an interrupt
 * handler on the same CPU can never spin on a lock its own CPU holds.  The
 * normal zone keeps a reserve that only __GFP_HIGH (GFP_ATOMIC) may take:
 * interrupt handlers still find memory when sleeping allocations have used
 * up the rest and are waiting for frees.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <preempt/irqflags.h>

#include "../debug/report.h"
#include "mm_internal.h"

struct pk_mm pk_mm = {.highmem_fd = -1};
struct pk_mm_waitq pk_mm_free_wait = PK_MM_WAITQ_INIT(pk_mm_free_wait);
unsigned long pk_mm_nr_waits, pk_mm_nr_failures;
unsigned long pk_mm_nr_populated, pk_mm_nr_fixed;

/* ---- sizes ---- */

/* "64M", "1G", "4096": bytes, or 0 when unset or unreadable. */
static size_t env_size(const char *name)
{
	const char *s = getenv(name);
	char *end;
	unsigned long long v;

	if (!s || !*s)
		return 0;
	v = strtoull(s, &end, 0);
	switch (*end) {
	case 'g':
	case 'G':
		v <<= 10;
		/* fall through */
	case 'm':
	case 'M':
		v <<= 10;
		/* fall through */
	case 'k':
	case 'K':
		v <<= 10;
		break;
	default:
		break;
	}
	return (size_t)v;
}

static unsigned long pages_of(size_t bytes)
{
	return (unsigned long)((bytes + PAGE_SIZE - 1) >> PAGE_SHIFT);
}

/* ---- buddy lists ---- */

static struct pk_zone *page_zone(const struct page *page)
{
	return &pk_mm.zone[PageHighMem(page) ? PK_ZONE_HIGHMEM
					     : PK_ZONE_NORMAL];
}

static void add_free(struct pk_zone *z, struct page *page, unsigned int order)
{
	page->flags |= 1UL << PG_buddy;
	page->private = order;
	list_add(&page->lru, &z->free_area[order]);
}

static struct page *zone_take(struct pk_zone *z, unsigned int order)
{
	for (unsigned int o = order; o <= MAX_PAGE_ORDER; o++) {
		struct page *page;

		if (list_empty(&z->free_area[o]))
			continue;
		page = list_first_entry(&z->free_area[o], struct page, lru);
		list_del_init(&page->lru);
		page->flags &= ~(1UL << PG_buddy);
		/* Split: the upper halves go back, the lowest is ours. */
		while (o > order) {
			o--;
			add_free(z, page + (1UL << o), o);
		}
		z->nr_free -= 1UL << order;
		return page;
	}
	return NULL;
}

static void zone_put(struct pk_zone *z, struct page *page, unsigned int order)
{
	unsigned long idx =
		(unsigned long)(page - pk_mm.mem_map) - z->start_pfn;

	z->nr_free += 1UL << order;
	while (order < MAX_PAGE_ORDER) {
		unsigned long bidx = idx ^ (1UL << order);
		struct page *buddy;

		if (bidx + (1UL << order) > z->managed)
			break;
		buddy = &pk_mm.mem_map[z->start_pfn + bidx];
		if (!(buddy->flags & (1UL << PG_buddy)) ||
		    buddy->private != order)
			break;
		list_del_init(&buddy->lru);
		buddy->flags &= ~(1UL << PG_buddy);
		idx &= ~(1UL << order);
		order++;
	}
	add_free(z, &pk_mm.mem_map[z->start_pfn + idx], order);
}

/* Take one block from @z, leaving @floor pages; NULL if it cannot. */
static struct page *zone_alloc(struct pk_zone *z, unsigned int order,
			       unsigned long floor)
{
	struct page *page = NULL;
	unsigned long flags;

	if (!z->managed)
		return NULL;
	pk_lock_irqsave(&z->lock, flags);
	if (z->nr_free >= (1UL << order) + floor)
		page = zone_take(z, order);
	pk_unlock_irqrestore(&z->lock, flags);
	return page;
}

static struct page *rmqueue(gfp_t gfp, unsigned int order)
{
	struct pk_zone *normal = &pk_mm.zone[PK_ZONE_NORMAL];
	struct page *page = NULL;

	if (gfp & __GFP_HIGHMEM)
		page = zone_alloc(&pk_mm.zone[PK_ZONE_HIGHMEM], order, 0);
	if (!page)
		page = zone_alloc(normal, order,
				  (gfp & __GFP_HIGH) ? 0 : normal->reserve);
	return page;
}

/* ---- start-up ---- */

static void zone_init(struct pk_zone *z, const char *name, unsigned long start,
		      unsigned long pages, bool high)
{
	unsigned long idx = 0;

	z->name = name;
	z->start_pfn = start;
	z->managed = pages;
	for (int o = 0; o <= MAX_PAGE_ORDER; o++)
		INIT_LIST_HEAD(&z->free_area[o]);
	for (unsigned long i = 0; i < pages; i++) {
		struct page *page = &pk_mm.mem_map[start + i];

		INIT_LIST_HEAD(&page->lru);
		page->pk_head = page;
		if (high)
			page->flags |= 1UL << PG_highmem;
	}
	/* The largest aligned blocks that fit, then smaller ones. */
	while (idx < pages) {
		unsigned int o = MAX_PAGE_ORDER;

		while ((idx & ((1UL << o) - 1)) || idx + (1UL << o) > pages)
			o--;
		add_free(z, &pk_mm.mem_map[start + idx], o);
		idx += 1UL << o;
	}
	z->nr_free = pages;
}

static int map_pool(unsigned long nr_low, unsigned long nr_high)
{
	size_t map_bytes = (nr_low + nr_high) * sizeof(struct page);
	void *map, *low;

	map = mmap(NULL, map_bytes, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	low = mmap(NULL, nr_low * PAGE_SIZE, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (map == MAP_FAILED || low == MAP_FAILED) {
		if (map != MAP_FAILED)
			munmap(map, map_bytes);
		if (low != MAP_FAILED)
			munmap(low, nr_low * PAGE_SIZE);
		return -ENOMEM;
	}
	pk_mm.mem_map = map;
	pk_mm.low_base = low;
	pk_mm.nr_pages = nr_low + nr_high;
	if (!nr_high)
		return 0;
	pk_mm.highmem_fd = memfd_create("pk-highmem", MFD_CLOEXEC);
	if (pk_mm.highmem_fd < 0 ||
	    ftruncate(pk_mm.highmem_fd, (off_t)(nr_high * PAGE_SIZE)) != 0)
		return -errno;
	return 0;
}

static int mm_setup(const struct pk_mm_config *cfg)
{
	struct pk_mm_config c = cfg ? *cfg : (struct pk_mm_config){0};
	unsigned long nr_low, nr_high, reserve;
	int err;

	if (sysconf(_SC_PAGESIZE) != (long)PAGE_SIZE)
		return -EINVAL;
	if (!c.lowmem)
		c.lowmem = env_size("PREEMPT_MEM") ?: PK_MM_DEFAULT_LOWMEM;
	if (!c.highmem) {
		size_t env = env_size("PREEMPT_HIGHMEM");

		c.highmem = env ? (long)env : (long)PK_MM_DEFAULT_HIGHMEM;
	}
	nr_low = pages_of(c.lowmem) < 16 ? 16 : pages_of(c.lowmem);
	nr_high = c.highmem > 0 ? pages_of((size_t)c.highmem) : 0;
	reserve = c.reserve ? pages_of(c.reserve) : nr_low / 64;
	if (reserve < 8)
		reserve = 8;
	if (reserve > nr_low / 2)
		reserve = nr_low / 2;
	err = map_pool(nr_low, nr_high);
	if (err)
		return err;
	zone_init(&pk_mm.zone[PK_ZONE_NORMAL], "Normal", 0, nr_low, false);
	zone_init(&pk_mm.zone[PK_ZONE_HIGHMEM], "HighMem", nr_low, nr_high,
		  true);
	pk_mm.zone[PK_ZONE_NORMAL].reserve = reserve;
	pk_kmalloc_init();
	return pk_highmem_setup();
}

int pk_mm_init(const struct pk_mm_config *cfg)
{
	unsigned long flags;
	int err;

	/*
	 * An interrupt on this thread must not find the layer half up: it
	 * would spin on state 1 over the code it interrupted.  So interrupts
	 * go off before the claim, not after it.
	 */
	local_irq_save(flags);
	if (!__atomic_compare_exchange_n(&pk_mm.state, &(int){0}, 1, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
		local_irq_restore(flags);
		return -EBUSY;
	}
	err = mm_setup(cfg);
	__atomic_store_n(&pk_mm.state, err ? 3 : 2, __ATOMIC_RELEASE);
	local_irq_restore(flags);
	return err;
}

bool pk_mm_start_slow(void)
{
	int state;

	pk_mm_init(NULL);
	/* Another thread may be starting it: it takes microseconds. */
	while ((state = __atomic_load_n(&pk_mm.state, __ATOMIC_ACQUIRE)) == 1)
		pk_cpu_relax();
	return state == 2;
}

/* ---- waiting for memory ---- */

unsigned int pk_mm_wait_begin(struct pk_mm_waitq *q)
{
	/* Registered before the retry: a free after it sees the waiter. */
	__atomic_add_fetch(&q->waiters, 1, __ATOMIC_SEQ_CST);
	return __atomic_load_n(&q->seq, __ATOMIC_SEQ_CST);
}

void pk_mm_wait(struct pk_mm_waitq *q, unsigned int seq)
{
	__atomic_add_fetch(&pk_mm_nr_waits, 1, __ATOMIC_RELAXED);
	/* Tasks and host threads alike: a host thread's task parks. */
	wait_event(q->wq, __atomic_load_n(&q->seq, __ATOMIC_ACQUIRE) != seq);
}

void pk_mm_wait_end(struct pk_mm_waitq *q)
{
	__atomic_sub_fetch(&q->waiters, 1, __ATOMIC_SEQ_CST);
}

void pk_mm_wake_slow(struct pk_mm_waitq *q)
{
	__atomic_add_fetch(&q->seq, 1, __ATOMIC_SEQ_CST);
	wake_up(&q->wq);
}

/* ---- allocation ---- */

static const char *gfp_name(gfp_t gfp, char *buf, size_t size)
{
	static const struct {
		gfp_t mask;
		const char *name;
	} names[] = {
		{GFP_HIGHUSER, "GFP_HIGHUSER"}, {GFP_KERNEL, "GFP_KERNEL"},
		{GFP_NOFS, "GFP_NOFS"},		{GFP_NOIO, "GFP_NOIO"},
		{GFP_ATOMIC, "GFP_ATOMIC"},	{GFP_NOWAIT, "GFP_NOWAIT"},
	};
	gfp_t extra = __GFP_ZERO | __GFP_NOFAIL | __GFP_NORETRY | __GFP_COMP;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if ((gfp & ~extra) == names[i].mask) {
			snprintf(buf, size, "%s%s%s", names[i].name,
				 gfp & __GFP_ZERO ? "|__GFP_ZERO" : "",
				 gfp & __GFP_NOFAIL ? "|__GFP_NOFAIL" : "");
			return buf;
		}
	snprintf(buf, size, "%#x", gfp);
	return buf;
}

void pk_warn_alloc(gfp_t gfp, unsigned int order)
{
	struct pk_rbuf buf = {0};
	char comm[16], name[64];

	__atomic_add_fetch(&pk_mm_nr_failures, 1, __ATOMIC_RELAXED);
	if ((gfp & __GFP_NOWARN) || !pk_ratelimit_ok(PK_REPORT_WARN))
		return;
	pk_rbuf_printf(&buf,
		       "%s: page allocation failure: order:%u, mode:%#x(%s)\n",
		       pk_current_comm(comm), order, gfp,
		       gfp_name(gfp, name, sizeof(name)));
	pk_rbuf_printf(&buf, "CPU: %d PID: %d Comm: %s %s (model: %s)\n",
		       pk_current_cpu(), pk_current_pid(), comm, pk_taint_str(),
		       preempt_model_str(preempt_model()));
	pk_rbuf_printf(&buf, "preempt_count: %x\n", preempt_count());
	pk_rbuf_backtrace(&buf);
	pk_rbuf_printf(&buf, "Normal free:%lukB reserve:%lukB\n",
		       pk_mm.zone[PK_ZONE_NORMAL].nr_free * 4,
		       pk_mm.zone[PK_ZONE_NORMAL].reserve * 4);
	pk_report_emit(PK_REPORT_WARN, NULL, 0, &buf);
}

/* May this allocation sleep until memory is freed? */
static bool may_reclaim(gfp_t gfp, unsigned int order)
{
	const struct pk_zone *z = &pk_mm.zone[PK_ZONE_NORMAL];

	if (!gfpflags_allow_blocking(gfp) || (gfp & __GFP_NORETRY))
		return false;
	if (order > PAGE_ALLOC_COSTLY_ORDER && !(gfp & __GFP_NOFAIL))
		return false;
	/* Never enough, however much is freed. */
	if ((1UL << order) + z->reserve > z->managed)
		return false;
	/* might_sleep() has reported; sleeping would corrupt the count. */
	return pk_mm_may_sleep_now();
}

static struct page *alloc_slowpath(gfp_t gfp, unsigned int order)
{
	struct page *page = NULL;
	unsigned int seq;

	WARN_ON_ONCE((gfp & __GFP_NOFAIL) && !gfpflags_allow_blocking(gfp));
	if (!may_reclaim(gfp, order)) {
		pk_warn_alloc(gfp, order);
		return NULL;
	}
	seq = pk_mm_wait_begin(&pk_mm_free_wait);
	while (!(page = rmqueue(gfp, order))) {
		pk_mm_wait(&pk_mm_free_wait, seq);
		seq = __atomic_load_n(&pk_mm_free_wait.seq, __ATOMIC_SEQ_CST);
	}
	pk_mm_wait_end(&pk_mm_free_wait);
	return page;
}

static void prep_new_page(struct page *page, unsigned int order, gfp_t gfp)
{
	page->pk_order = order;
	page->pk_head = page;
	if (order)
		page->flags |= 1UL << PG_head;
	for (unsigned long i = 1; i < (1UL << order); i++)
		page[i].pk_head = page;
	if (!(gfp & __GFP_ZERO))
		return;
	if (PageHighMem(page))
		for (unsigned long i = 0; i < (1UL << order); i++)
			clear_highpage(page + i);
	else
		memset(page_address(page), 0, PAGE_SIZE << order);
}

struct page *alloc_pages(gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	if (WARN_ON_ONCE(in_nmi()) || !pk_mm_ready())
		return NULL;
	if (order > MAX_PAGE_ORDER) {
		pk_warn_alloc(gfp, order);
		return NULL;
	}
	page = rmqueue(gfp, order);
	if (unlikely(!page))
		page = alloc_slowpath(gfp, order);
	if (page)
		prep_new_page(page, order, gfp);
	return page;
}

/*
 * For the slab's own no-wait attempt under its lock: free pages or NULL,
 * no report and no failure counted; the caller's outcome is what counts.
 */
struct page *pk_alloc_pages_try(gfp_t gfp, unsigned int order)
{
	struct page *page;

	if (!pk_mm_ready() || order > MAX_PAGE_ORDER)
		return NULL;
	page = rmqueue(gfp, order);
	if (page)
		prep_new_page(page, order, gfp);
	return page;
}

void __free_pages(struct page *page, unsigned int order)
{
	struct pk_zone *z;
	unsigned long flags;

	if (!page)
		return;
	if (WARN(page->flags & (1UL << PG_buddy),
		 "__free_pages: page %lu is already free\n", page_to_pfn(page)))
		return;
	z = page_zone(page);
	page->flags &= ~((1UL << PG_head) | (1UL << PG_slab));
	pk_lock_irqsave(&z->lock, flags);
	zone_put(z, page, order);
	pk_unlock_irqrestore(&z->lock, flags);
	pk_mm_wake(&pk_mm_free_wait);
}

unsigned long __get_free_pages(gfp_t gfp, unsigned int order)
{
	struct page *page = alloc_pages(gfp & ~__GFP_HIGHMEM, order);

	return page ? (unsigned long)page_address(page) : 0;
}

void free_pages(unsigned long addr, unsigned int order)
{
	if (addr)
		__free_pages(virt_to_page((void *)addr), order);
}

/* ---- addresses ---- */

void *page_address(const struct page *page)
{
	if (PageHighMem(page))
		return __atomic_load_n(&page->virtual, __ATOMIC_ACQUIRE);
	return pk_mm.low_base + (page - pk_mm.mem_map) * PAGE_SIZE;
}

bool virt_addr_valid(const void *addr)
{
	const char *p = addr;
	unsigned long nr_low = pk_mm.zone[PK_ZONE_NORMAL].managed;

	return pk_mm.low_base && p >= pk_mm.low_base &&
	       p < pk_mm.low_base + nr_low * PAGE_SIZE;
}

struct page *virt_to_page(const void *addr)
{
	return &pk_mm.mem_map[((const char *)addr - pk_mm.low_base) >>
			      PAGE_SHIFT];
}

unsigned long page_to_pfn(const struct page *page)
{
	return (unsigned long)(page - pk_mm.mem_map);
}

struct page *pfn_to_page(unsigned long pfn)
{
	return pfn < pk_mm.nr_pages ? &pk_mm.mem_map[pfn] : NULL;
}

struct pk_mm_stats pk_mm_stats(void)
{
	const struct pk_zone *lo = &pk_mm.zone[PK_ZONE_NORMAL];
	const struct pk_zone *hi = &pk_mm.zone[PK_ZONE_HIGHMEM];

	return (struct pk_mm_stats){
		.lowmem_pages = lo->managed,
		.highmem_pages = hi->managed,
		.free_low = __atomic_load_n(&lo->nr_free, __ATOMIC_RELAXED),
		.free_high = __atomic_load_n(&hi->nr_free, __ATOMIC_RELAXED),
		.reserve = lo->reserve,
		.waiting = __atomic_load_n(&pk_mm_free_wait.waiters,
					   __ATOMIC_RELAXED) +
			   pk_kmap_waiters(),
		.waits = __atomic_load_n(&pk_mm_nr_waits, __ATOMIC_RELAXED),
		.failures =
			__atomic_load_n(&pk_mm_nr_failures, __ATOMIC_RELAXED),
		.faults_populated =
			__atomic_load_n(&pk_mm_nr_populated, __ATOMIC_RELAXED),
		.faults_fixed =
			__atomic_load_n(&pk_mm_nr_fixed, __ATOMIC_RELAXED),
	};
}
