// SPDX-License-Identifier: MIT
/*
 * Object caches and kmalloc().
 *
 * A slab is a block of pages cut into objects; free objects of a slab are
 * linked through their first word, and the slab's struct page keeps the
 * list.  Above the slabs each vCPU has a stack of free objects per cache
 * (the kernel's per-CPU array cache): alloc pops and free pushes with
 * interrupts disabled, and interrupts are disabled by the word alone, so
 * the fast path takes no lock and makes no syscall, in any context.  With
 * interrupts off the task cannot be switched out or moved, so the vCPU
 * number read under local_irq_save() stays right until the restore.
 *
 * Threads that are not vCPUs get the same stacks per thread (host thread
 * numbers are not bounded, so not an array slot): a few direct-mapped
 * slots, allocated at the thread's first kmalloc() from plain task
 * context, listed for kmem_cache_destroy() and flushed by a thread-exit
 * destructor.  Each has its own lock, taken only by its thread (with
 * interrupts off, as a vCPU's) and by a destroy or the exit flush, so it
 * stays in the thread's cache and uncontended: threads scale as vCPUs do
 * instead of meeting at the cache lock.  A thread without one (its first
 * call in an interrupt or with interrupts off, or the caches turned off)
 * uses the slab lists under the cache lock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/irqflags.h>
#include <preempt/sim.h>

#include "../debug/report.h"
#include "mm_internal.h"

#define PK_AC_SIZE 32  /* objects a vCPU caches per cache */
#define PK_AC_BATCH 16 /* moved between the stack and the slabs at once */

struct pk_array_cache {
	unsigned int avail;
	void *entry[PK_AC_SIZE];
};

struct kmem_cache {
	char name[32];
	unsigned int object_size; /* what the user asked for */
	unsigned int size;	  /* with alignment */
	unsigned int offset;	  /* of the free-list link in an object */
	unsigned int order;	  /* of each slab */
	unsigned int objects;	  /* per slab */
	void (*ctor)(void *);
	int lock;		  /* raw spinlock over the lists */
	struct list_head partial; /* slabs with free objects */
	struct list_head full;
	unsigned int nr_partial;
	unsigned long nr_slabs;
	struct pk_array_cache cpu[PK_PERCPU_SLOTS];
};

/* ---- slabs ---- */

/* A constructed object keeps its first word: the link goes after it. */
static void *get_fp(const struct kmem_cache *s, void *obj)
{
	return *(void **)((char *)obj + s->offset);
}

static void set_fp(const struct kmem_cache *s, void *obj, void *next)
{
	*(void **)((char *)obj + s->offset) = next;
}

static void slab_move(struct page *slab, struct list_head *list)
{
	list_del_init(&slab->lru);
	list_add(&slab->lru, list);
}

static void *slab_base(struct page *slab)
{
	return page_address(slab);
}

/* A new slab, its objects on its free list; NULL if no pages now. */
static struct page *new_slab(struct kmem_cache *s, gfp_t gfp)
{
	/* The caller waits, if it may, outside the cache lock. */
	gfp_t nowait = gfp & ~(__GFP_DIRECT_RECLAIM | __GFP_ZERO |
			       __GFP_HIGHMEM | __GFP_NOFAIL);
	struct page *slab = pk_alloc_pages_try(nowait, s->order);
	char *p;

	if (!slab)
		return NULL;
	slab->flags |= 1UL << PG_slab;
	slab->pk_slab_cache = s;
	slab->pk_inuse = 0;
	slab->pk_freelist = NULL;
	p = slab_base(slab);
	for (unsigned int i = s->objects; i-- > 0;) {
		void *obj = p + (size_t)i * s->size;

		if (s->ctor)
			s->ctor(obj);
		set_fp(s, obj, slab->pk_freelist);
		slab->pk_freelist = obj;
	}
	return slab;
}

/* One object from the slab lists; cache lock held. */
static void *slab_take(struct kmem_cache *s)
{
	struct page *slab;
	void *obj;

	if (list_empty(&s->partial))
		return NULL;
	slab = list_first_entry(&s->partial, struct page, lru);
	obj = slab->pk_freelist;
	slab->pk_freelist = get_fp(s, obj);
	if (++slab->pk_inuse == s->objects) {
		slab_move(slab, &s->full);
		s->nr_partial--;
	}
	return obj;
}

/*
 * @obj back on its slab; cache lock held.  Returns an empty slab the
 * caller frees after dropping the lock, or NULL.  One empty slab is kept
 * so that an alloc/free pair at a slab's edge does not churn pages,
 * unless someone waits for memory.
 */
static struct page *slab_put(struct kmem_cache *s, void *obj)
{
	struct page *slab = virt_to_page(obj)->pk_head;

	set_fp(s, obj, slab->pk_freelist);
	slab->pk_freelist = obj;
	if (slab->pk_inuse-- == s->objects) {
		slab_move(slab, &s->partial);
		s->nr_partial++;
	}
	if (slab->pk_inuse ||
	    (s->nr_partial == 1 &&
	     !__atomic_load_n(&pk_mm_free_wait.waiters, __ATOMIC_RELAXED)))
		return NULL;
	list_del_init(&slab->lru);
	s->nr_partial--;
	s->nr_slabs--;
	return slab;
}

static void free_slab(struct kmem_cache *s, struct page *slab)
{
	if (slab) {
		slab->pk_slab_cache = NULL;
		__free_pages(slab, s->order);
	}
}

/* ---- the per-vCPU stacks ---- */

/* This vCPU's stack of @s; interrupts must be off.  NULL off a vCPU. */
static struct pk_array_cache *cpu_cache(struct kmem_cache *s)
{
	int cpu = pk_mm_vcpu();

	return cpu >= 0 ? &s->cpu[cpu] : NULL;
}

static void flush_some(struct kmem_cache *s, struct pk_array_cache *ac,
		       unsigned int n);

/* ---- the per-thread stacks of host threads ---- */

#define PK_TC_SLOTS 16

struct pk_thread_cache {
	int lock;	       /* raw: its thread, a destroy, the exit flush */
	struct list_head node; /* on tc_list */
	struct kmem_cache *cache[PK_TC_SLOTS];
	struct pk_array_cache ac[PK_TC_SLOTS];
};

int pk_slab_thread_caches = 1;
static __thread struct pk_thread_cache *thread_tc;
static int tc_list_lock;
static LIST_HEAD(tc_list);
static pthread_key_t tc_key;
static pthread_once_t tc_once = PTHREAD_ONCE_INIT;

/* Every stack of @tc back to its slabs; @tc locked, interrupts off. */
static void tc_flush_slot(struct pk_thread_cache *tc, int i)
{
	if (tc->cache[i])
		flush_some(tc->cache[i], &tc->ac[i], PK_AC_SIZE);
	tc->cache[i] = NULL;
}

/* The thread's exit: its objects back, it off the list. */
static void tc_exit(void *arg)
{
	struct pk_thread_cache *tc = arg;
	unsigned long flags;

	local_irq_save(flags);
	pk_raw_lock(&tc_list_lock);
	list_del_init(&tc->node);
	pk_raw_unlock(&tc_list_lock);
	pk_raw_lock(&tc->lock);
	for (int i = 0; i < PK_TC_SLOTS; i++)
		tc_flush_slot(tc, i);
	pk_raw_unlock(&tc->lock);
	local_irq_restore(flags);
	thread_tc = NULL;
	free(tc);
}

static void tc_key_create(void)
{
	pthread_key_create(&tc_key, tc_exit);
}

/*
 * A host thread's first allocation or free makes its stacks, in plain
 * task context only: calloc and the key are not for interrupt handlers.
 */
static void tc_create(void)
{
	struct pk_thread_cache *tc;
	unsigned long flags;

	if (!__atomic_load_n(&pk_slab_thread_caches, __ATOMIC_RELAXED) ||
	    pk_task_tls(pk_this_rq) || in_interrupt() || irqs_disabled() ||
	    preempt_count())
		return;
	tc = calloc(1, sizeof(*tc));
	if (!tc)
		return;
	pthread_once(&tc_once, tc_key_create);
	if (pthread_setspecific(tc_key, tc)) {
		free(tc);
		return;
	}
	local_irq_save(flags);
	pk_raw_lock(&tc_list_lock);
	list_add(&tc->node, &tc_list);
	pk_raw_unlock(&tc_list_lock);
	local_irq_restore(flags);
	thread_tc = tc;
}

/*
 * The host thread's stack for @s, its thread cache locked into *@tcp, or
 * NULL; interrupts off.  A slot another cache holds is flushed first.
 */
static struct pk_array_cache *thread_cache(struct kmem_cache *s,
					   struct pk_thread_cache **tcp)
{
	struct pk_thread_cache *tc = thread_tc;
	int i = (int)(((uintptr_t)s / sizeof(*s)) % PK_TC_SLOTS);

	*tcp = tc;
	if (!tc)
		return NULL;
	pk_raw_lock(&tc->lock);
	if (unlikely(tc->cache[i] != s)) {
		tc_flush_slot(tc, i);
		tc->cache[i] = s;
	}
	return &tc->ac[i];
}

/* This context's stack of @s (a vCPU's or a host thread's), or NULL;
 * interrupts off.  Give *@tcp back with cache_put(). */
static struct pk_array_cache *cache_get(struct kmem_cache *s,
					struct pk_thread_cache **tcp)
{
	struct pk_array_cache *ac = cpu_cache(s);

	*tcp = NULL;
	return ac ? ac : thread_cache(s, tcp);
}

static void cache_put(struct pk_thread_cache *tc)
{
	if (tc)
		pk_raw_unlock(&tc->lock);
}

/* @s's objects in every thread's stacks back to the slabs. */
static void drain_threads(struct kmem_cache *s)
{
	struct pk_thread_cache *tc, *next;
	unsigned long flags;

	local_irq_save(flags);
	pk_raw_lock(&tc_list_lock);
	list_for_each_entry_safe(tc, next, &tc_list, node)
	{
		pk_raw_lock(&tc->lock);
		for (int i = 0; i < PK_TC_SLOTS; i++)
			if (tc->cache[i] == s)
				tc_flush_slot(tc, i);
		pk_raw_unlock(&tc->lock);
	}
	pk_raw_unlock(&tc_list_lock);
	local_irq_restore(flags);
}

/*
 * Refill @ac (if any) and return one object, from the slabs or a new
 * slab, without sleeping.  Interrupts off.
 */
static void *refill(struct kmem_cache *s, struct pk_array_cache *ac, gfp_t gfp)
{
	struct page *slab = NULL;
	void *obj;

	for (;;) {
		pk_raw_lock(&s->lock);
		if (slab) {
			list_add(&slab->lru, &s->partial);
			s->nr_partial++;
			s->nr_slabs++;
		}
		obj = slab_take(s);
		while (obj && ac && ac->avail < PK_AC_BATCH) {
			void *more = slab_take(s);

			if (!more)
				break;
			ac->entry[ac->avail++] = more;
		}
		pk_raw_unlock(&s->lock);
		if (obj)
			return obj;
		slab = new_slab(s, gfp);
		if (!slab)
			return NULL;
	}
}

/* Push half of a full stack back to the slabs.  Interrupts off. */
static void flush_some(struct kmem_cache *s, struct pk_array_cache *ac,
		       unsigned int n)
{
	struct page *empty[PK_AC_SIZE];
	unsigned int nr_empty = 0;

	pk_raw_lock(&s->lock);
	while (n-- && ac->avail) {
		struct page *slab = slab_put(s, ac->entry[--ac->avail]);

		if (slab)
			empty[nr_empty++] = slab;
	}
	pk_raw_unlock(&s->lock);
	while (nr_empty)
		free_slab(s, empty[--nr_empty]);
}

/* ---- the API ---- */

static void *alloc_wait(struct kmem_cache *s, gfp_t gfp)
{
	unsigned long flags;
	unsigned int seq;
	void *obj;

	if (!gfpflags_allow_blocking(gfp) || (gfp & __GFP_NORETRY) ||
	    !pk_mm_may_sleep_now()) {
		pk_warn_alloc(gfp, s->order);
		return NULL;
	}
	seq = pk_mm_wait_begin(&pk_mm_free_wait);
	for (;;) {
		local_irq_save(flags);
		obj = refill(s, cpu_cache(s), gfp);
		local_irq_restore(flags);
		if (obj)
			break;
		pk_mm_wait(&pk_mm_free_wait, seq);
		seq = __atomic_load_n(&pk_mm_free_wait.seq, __ATOMIC_SEQ_CST);
	}
	pk_mm_wait_end(&pk_mm_free_wait);
	return obj;
}

void *kmem_cache_alloc(struct kmem_cache *s, gfp_t gfp)
{
	struct pk_thread_cache *tc;
	struct pk_array_cache *ac;
	unsigned long flags;
	void *obj;

	if (gfpflags_allow_blocking(gfp))
		might_sleep();
	if (WARN_ON_ONCE(in_nmi()))
		return NULL;
	if (unlikely(!thread_tc))
		tc_create();
	local_irq_save(flags);
	ac = cache_get(s, &tc);
	if (likely(ac && ac->avail))
		obj = ac->entry[--ac->avail];
	else
		obj = refill(s, ac, gfp);
	cache_put(tc);
	local_irq_restore(flags);
	if (unlikely(!obj))
		obj = alloc_wait(s, gfp);
	if (obj && (gfp & __GFP_ZERO))
		memset(obj, 0, s->object_size);
	return obj;
}

void kmem_cache_free(struct kmem_cache *s, void *obj)
{
	struct pk_thread_cache *tc = NULL;
	struct pk_array_cache *ac = NULL;
	struct page *slab = NULL;
	unsigned long flags;
	bool waiters;

	if (!obj)
		return;
	waiters = __atomic_load_n(&pk_mm_free_wait.waiters, __ATOMIC_RELAXED);
	if (unlikely(!thread_tc))
		tc_create();
	local_irq_save(flags);
	if (likely(!waiters))
		ac = cache_get(s, &tc);
	if (likely(ac)) {
		if (unlikely(ac->avail == PK_AC_SIZE))
			flush_some(s, ac, PK_AC_BATCH);
		ac->entry[ac->avail++] = obj;
		cache_put(tc);
		local_irq_restore(flags);
		return;
	}
	/* Someone sleeps for memory: give it where they will look. */
	pk_raw_lock(&s->lock);
	slab = slab_put(s, obj);
	pk_raw_unlock(&s->lock);
	local_irq_restore(flags);
	free_slab(s, slab);
	pk_mm_wake(&pk_mm_free_wait);
}

int kmem_cache_shrink(struct kmem_cache *s)
{
	struct pk_thread_cache *tc;
	struct pk_array_cache *ac;
	unsigned long flags;

	local_irq_save(flags);
	ac = cache_get(s, &tc);
	if (ac)
		flush_some(s, ac, PK_AC_SIZE);
	cache_put(tc);
	local_irq_restore(flags);
	return 0;
}

static unsigned int slab_order(unsigned int size)
{
	unsigned int order = 0;

	/* At least 8 objects a slab, so a slab's waste stays small. */
	while (order < 3 && (PAGE_SIZE << order) < 8UL * size)
		order++;
	return order;
}

static void cache_init(struct kmem_cache *s, const char *name,
		       unsigned int size, unsigned int align,
		       void (*ctor)(void *))
{
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (size < sizeof(void *))
		size = sizeof(void *);
	snprintf(s->name, sizeof(s->name), "%s", name);
	s->object_size = size;
	s->offset = 0;
	if (ctor) {
		s->offset = (size + sizeof(void *) - 1) & ~(sizeof(void *) - 1);
		size = s->offset + sizeof(void *);
	}
	s->size = (size + align - 1) / align * align;
	s->order = slab_order(s->size);
	s->objects = (unsigned int)((PAGE_SIZE << s->order) / s->size);
	s->ctor = ctor;
	INIT_LIST_HEAD(&s->partial);
	INIT_LIST_HEAD(&s->full);
}

struct kmem_cache *kmem_cache_create(const char *name, unsigned int size,
				     unsigned int align, slab_flags_t flags,
				     void (*ctor)(void *))
{
	struct kmem_cache *s;

	might_sleep();
	if (!size || size > (PAGE_SIZE << 3) / 2)
		return NULL;
	if (flags & SLAB_HWCACHE_ALIGN)
		align = align > 64 ? align : 64;
	/* Bookkeeping, not pool memory: task context only. */
	s = calloc(1, sizeof(*s));
	if (s)
		cache_init(s, name, size, align, ctor);
	return s;
}

/* Every vCPU's stack back to the slabs: only while nobody uses @s. */
static void drain_all(struct kmem_cache *s)
{
	unsigned long flags;

	local_irq_save(flags);
	for (int cpu = 0; cpu < PK_PERCPU_SLOTS; cpu++)
		flush_some(s, &s->cpu[cpu], PK_AC_SIZE);
	local_irq_restore(flags);
	drain_threads(s);
}

static bool objects_in_use(struct kmem_cache *s)
{
	struct page *slab, *n;

	if (!list_empty(&s->full))
		return true;
	list_for_each_entry_safe(slab, n, &s->partial, lru)
	{
		if (slab->pk_inuse)
			return true;
	}
	return false;
}

void kmem_cache_destroy(struct kmem_cache *s)
{
	struct page *slab, *n;

	if (!s)
		return;
	might_sleep();
	drain_all(s);
	if (WARN(objects_in_use(s),
		 "kmem_cache_destroy %s: Slab cache still has objects\n",
		 s->name))
		return;
	list_for_each_entry_safe(slab, n, &s->partial, lru)
	{
		list_del_init(&slab->lru);
		free_slab(s, slab);
	}
	free(s);
}

/* ---- kmalloc ---- */

static const unsigned int kmalloc_sizes[] = {
	8, 16, 32, 64, 96, 128, 192, 256, 512, 1024, 2048, 4096, 8192,
};
#define NR_KMALLOC (sizeof(kmalloc_sizes) / sizeof(kmalloc_sizes[0]))

static struct kmem_cache kmalloc_caches[NR_KMALLOC];

/* The cache index of sizes up to 192, by (size - 1) / 8: no search. */
static const unsigned char size_index[24] = {
	0, 1, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 6, 6,
};

/* Called once, by the layer's start-up. */
void pk_kmalloc_init(void)
{
	static const char *const names[NR_KMALLOC] = {
		"kmalloc-8",   "kmalloc-16",  "kmalloc-32",  "kmalloc-64",
		"kmalloc-96",  "kmalloc-128", "kmalloc-192", "kmalloc-256",
		"kmalloc-512", "kmalloc-1k",  "kmalloc-2k",  "kmalloc-4k",
		"kmalloc-8k",
	};

	/* The largest power of two dividing the size, up to a cache line:
	 * 64-byte alignment would make kmalloc-96's objects 128 bytes. */
	for (size_t i = 0; i < NR_KMALLOC; i++) {
		unsigned int size = kmalloc_sizes[i];
		unsigned int align = size & -size;

		cache_init(&kmalloc_caches[i], names[i], size,
			   align > 64 ? 64 : align, NULL);
	}
}

static struct kmem_cache *kmalloc_cache(size_t size)
{
	unsigned int i;

	if (size <= 192)
		return &kmalloc_caches[size_index[(size - 1) / 8]];
	/* 193..256 is index 7, and one more per doubling. */
	i = 63 - (unsigned int)__builtin_clzl(size - 1);
	return &kmalloc_caches[i];
}

void *kmalloc(size_t size, gfp_t gfp)
{
	struct page *page;

	/* An allocation that may sleep is a scheduling point. */
	if (gfpflags_allow_blocking(gfp))
		pk_sim_hook_lib(PK_SIM_COND_RESCHED);
	if (unlikely(!size))
		return ZERO_SIZE_PTR;
	if (unlikely(!pk_mm_ready()))
		return NULL;
	if (likely(size <= KMALLOC_MAX_CACHE_SIZE))
		return kmem_cache_alloc(kmalloc_cache(size),
					gfp & ~__GFP_HIGHMEM);
	page = alloc_pages((gfp & ~__GFP_HIGHMEM) | __GFP_COMP,
			   get_order(size));
	return page ? page_address(page) : NULL;
}

/* The slab page of @p, or the head of its block; NULL (with a report)
 * for a pointer kmalloc() never returned. */
static struct page *kmalloc_page(const void *p)
{
	if (WARN(!virt_addr_valid(p), "kfree: %p is not kmalloc() memory\n", p))
		return NULL;
	return virt_to_page(p)->pk_head;
}

void kfree(const void *p)
{
	struct page *page;

	if (unlikely(ZERO_OR_NULL_PTR(p)))
		return;
	page = kmalloc_page(p);
	if (!page)
		return;
	if (likely(PageSlab(page)))
		kmem_cache_free(page->pk_slab_cache, (void *)p);
	else
		__free_pages(page, page->pk_order);
}

size_t ksize(const void *p)
{
	struct page *page;

	if (ZERO_OR_NULL_PTR(p))
		return 0;
	page = kmalloc_page(p);
	if (!page)
		return 0;
	return PageSlab(page) ? page->pk_slab_cache->size
			      : PAGE_SIZE << page->pk_order;
}

void *krealloc(const void *p, size_t new_size, gfp_t gfp)
{
	size_t old;
	void *q;

	if (!new_size) {
		kfree(p);
		return ZERO_SIZE_PTR;
	}
	old = ksize(p);
	if (new_size <= old) {
		if (gfp & __GFP_ZERO)
			memset((char *)p + new_size, 0, old - new_size);
		return (void *)p;
	}
	q = kmalloc(new_size, gfp);
	if (!q)
		return NULL;
	if (old)
		memcpy(q, p, old);
	kfree(p);
	return q;
}
