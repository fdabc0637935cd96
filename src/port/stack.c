// SPDX-License-Identifier: MIT
/*
 * Task stacks, each with one inaccessible guard page at its low end, so
 * that an overflow faults instead of overwriting the neighbour.
 *
 * Every host mapping counts against the process's limit (vm.max_map_count,
 * 65530 by default), and a stack of its own with a PROT_NONE guard is two:
 * some 32,000 tasks would exhaust it.  So stacks are carved from pooled
 * regions of SLOTS_PER_REGION slots, [meta page][guard][stack][guard]...,
 * one read-write mapping each.  The guards are the host's guard markers
 * (MADV_GUARD_INSTALL, Linux 6.13), which fault like PROT_NONE but live
 * in the page tables and split no mapping: a region stays one mapping,
 * and adjacent regions may merge into one.  Where the host lacks them the
 * guards are mprotect()ed, two mappings a slot as before.  A freed slot
 * goes back to its region with what it touched; a region whose last slot
 * is freed gives its memory back (MADV_DONTNEED, which keeps the markers;
 * not per slot: each is a TLB shootdown on every CPU the process runs on).
 * Regions stay for reuse.
 *
 * PREEMPT_STACK_GUARD=mprotect asks for the mprotect()ed guards even where
 * the host has markers: an emulator such as qemu-user tracks guest page
 * protections itself and never sees a marker, so there an overflow would
 * not fault.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#if __has_include(<sanitizer/asan_interface.h>)
#include <sanitizer/asan_interface.h>
#endif
#endif

#include <preempt/irqflags.h>

#include "switch.h"
#include "sim.h"

#ifndef MAP_STACK
#define MAP_STACK 0
#endif
#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102
#endif

#define SLOTS_PER_REGION 64
#define NR_CLASSES 8 /* stack sizes pooled; others get a mapping each */
#define POOL_MAX_SLOT (8UL << 20) /* bigger: a region would be gigabytes */

/* The first page of a region: which slots are taken. */
struct stack_region {
	struct stack_region *next;
	size_t slot_size; /* guard page and stack */
	int class;
	uint64_t used;
};

static struct {
	int lock;
	int guard_markers; /* 0 unknown, 1 the host has them, -1 not */
	size_t class_size[NR_CLASSES];
	struct stack_region *regions[NR_CLASSES];
	struct stack_region *hint[NR_CLASSES]; /* where a slot was freed */
	unsigned long nr_free[NR_CLASSES];     /* slots, in all regions */
} pool;

static size_t page_size(void)
{
	static size_t size;

	if (!size) {
		long s = sysconf(_SC_PAGESIZE);

		size = s > 0 ? (size_t)s : 4096;
	}
	return size;
}

/*
 * Interrupts off: the holder is neither preempted nor switched out, so a
 * task on the same vCPU never spins on it; its host thread may be
 * descheduled, hence the yield.
 */
static unsigned long pool_lock(void)
{
	unsigned long flags;

	local_irq_save(flags);
	while (__atomic_exchange_n(&pool.lock, 1, __ATOMIC_ACQUIRE))
		pk_host_yield();
	return flags;
}

static void pool_unlock(unsigned long flags)
{
	__atomic_store_n(&pool.lock, 0, __ATOMIC_RELEASE);
	local_irq_restore(flags);
}

static int guard_markers_wanted(void)
{
	const char *env = getenv("PREEMPT_STACK_GUARD");

	return env && !strcmp(env, "mprotect") ? -1 : 0;
}

/* Make the page at @addr fault, without splitting its mapping if we can. */
static int guard_page(void *addr)
{
	int markers = __atomic_load_n(&pool.guard_markers, __ATOMIC_RELAXED);

	if (!markers) {
		markers = guard_markers_wanted();
		__atomic_store_n(&pool.guard_markers, markers,
				 __ATOMIC_RELAXED);
	}

	if (markers >= 0) {
		if (!madvise(addr, page_size(), MADV_GUARD_INSTALL)) {
			__atomic_store_n(&pool.guard_markers, 1,
					 __ATOMIC_RELAXED);
			return 0;
		}
		if (errno != EINVAL || markers > 0)
			return -errno;
		__atomic_store_n(&pool.guard_markers, -1, __ATOMIC_RELAXED);
	}
	return mprotect(addr, page_size(), PROT_NONE) ? -errno : 0;
}

static char *slot_addr(struct stack_region *r, int i)
{
	return (char *)r + page_size() + (size_t)i * r->slot_size;
}

static struct stack_region *region_map(size_t slot_size, int c)
{
	size_t len = page_size() + SLOTS_PER_REGION * slot_size;
	struct stack_region *r;

	r = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (r == MAP_FAILED)
		return NULL;
	r->slot_size = slot_size;
	r->class = c;
	for (int i = 0; i < SLOTS_PER_REGION; i++) {
		if (guard_page(slot_addr(r, i))) {
			munmap(r, len);
			return NULL;
		}
	}
	return r;
}

/* The pool class for @slot_size, claimed if new; -1 when all are taken. */
static int size_class(size_t slot_size)
{
	for (int c = 0; c < NR_CLASSES; c++) {
		if (pool.class_size[c] == slot_size)
			return c;
		if (!pool.class_size[c]) {
			pool.class_size[c] = slot_size;
			return c;
		}
	}
	return -1;
}

static char *region_take(struct stack_region *r, struct stack_region **rp)
{
	int i = __builtin_ctzll(~r->used);

	r->used |= 1ULL << i;
	pool.nr_free[r->class]--;
	*rp = r;
	return slot_addr(r, i);
}

/* A free slot of class @c, or NULL.  Pool locked. */
static char *slot_take(int c, struct stack_region **rp)
{
	struct stack_region *r = pool.hint[c];

	if (!pool.nr_free[c])
		return NULL;
	if (r && r->used != UINT64_MAX)
		return region_take(r, rp);
	for (r = pool.regions[c]; r; r = r->next) {
		if (r->used != UINT64_MAX) {
			pool.hint[c] = r;
			return region_take(r, rp);
		}
	}
	return NULL;
}

static char *pool_alloc(size_t slot_size, struct stack_region **rp)
{
	struct stack_region *r;
	unsigned long flags;
	char *slot = NULL;
	int c;

	if (slot_size > POOL_MAX_SLOT)
		return NULL;
	flags = pool_lock();
	c = size_class(slot_size);
	if (c >= 0)
		slot = slot_take(c, rp);
	pool_unlock(flags);
	if (c < 0 || slot)
		return slot;
	/* Mapped unlocked; racing threads may each add a region. */
	r = region_map(slot_size, c);
	if (!r)
		return NULL;
	flags = pool_lock();
	r->next = pool.regions[c];
	pool.regions[c] = r;
	pool.nr_free[c] += SLOTS_PER_REGION;
	slot = slot_take(c, rp);
	pool_unlock(flags);
	return slot;
}

static void pool_free(struct pk_stack *s)
{
	struct stack_region *r = s->region;
	int i = (int)(((char *)s->map - slot_addr(r, 0)) / r->slot_size);
	unsigned long flags;

	flags = pool_lock();
	r->used &= ~(1ULL << i);
	pool.nr_free[r->class]++;
	/* Locked: a slot taken meanwhile would lose its first frame. */
	if (!r->used)
		madvise(slot_addr(r, 0), SLOTS_PER_REGION * r->slot_size,
			MADV_DONTNEED);
	pool.hint[r->class] = r;
	pool_unlock(flags);
}

#if PK_PORT_ASAN
/*
 * A task that never returned left its frames' redzones poisoned; the next
 * stack at these addresses must not inherit them.  Only where the stack
 * was used, from its lowest resident page up: writing (even reading) the
 * shadow of a whole stack makes 1/8 of its size resident, gigabytes for
 * many tasks.
 */
/* The first of @pages pages at @base that is resident (or may be). */
static size_t lowest_resident(char *base, size_t pages)
{
	size_t page = page_size();
	unsigned char vec[256];

	for (size_t low = 0; low < pages; low += sizeof(vec)) {
		size_t n =
			pages - low < sizeof(vec) ? pages - low : sizeof(vec);

		if (mincore(base + low * page, n * page, vec))
			return low;
		for (size_t i = 0; i < n; i++)
			if (vec[i] & 1)
				return low + i;
	}
	return pages;
}

static void unpoison(struct pk_stack *s)
{
	size_t page = page_size(), pages = s->size / page;
	size_t low = lowest_resident(s->base, pages);

	if (low < pages)
		ASAN_UNPOISON_MEMORY_REGION((char *)s->base + low * page,
					    (pages - low) * page);
}
#endif

/* A mapping of its own, for a size the pool has no class for. */
static void *single_alloc(size_t map_size)
{
	void *map = mmap(NULL, map_size, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);

	if (map == MAP_FAILED)
		return NULL;
	if (guard_page(map)) {
		munmap(map, map_size);
		return NULL;
	}
	return map;
}

int pk_stack_alloc(struct pk_stack *s, size_t size)
{
	size_t page = page_size();
	struct stack_region *region = NULL;
	void *map;

	if (!size || size > SIZE_MAX - 2 * page)
		return -EINVAL;
	size = (size + page - 1) & ~(page - 1);
	map = pool_alloc(size + page, &region);
	if (!map && !region)
		map = single_alloc(size + page);
	if (!map)
		return -ENOMEM;
	s->map = map;
	s->map_size = size + page;
	s->region = region;
	/* Stacks grow down on every architecture we build for. */
	s->base = (char *)map + page;
	s->size = size;
	s->valgrind_id = 0;
#ifdef VALGRIND_STACK_REGISTER
	/* Valgrind tells a switch to another stack from a big frame by
	 * the stacks it knows (end: the highest byte). 0 natively. */
	s->valgrind_id =
		VALGRIND_STACK_REGISTER(s->base, (char *)s->base + s->size - 1);
#endif
	return 0;
}

void pk_stack_free(struct pk_stack *s)
{
	if (!s->map)
		return;
#ifdef VALGRIND_STACK_DEREGISTER
	VALGRIND_STACK_DEREGISTER(s->valgrind_id); /* no-op natively */
#endif
#if PK_PORT_ASAN
	unpoison(s);
#endif
	if (s->region)
		pool_free(s);
	else
		munmap(s->map, s->map_size);
	s->map = NULL;
	s->base = NULL;
}
