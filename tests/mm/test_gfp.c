// SPDX-License-Identifier: MIT
/*
 * The allocators and GFP semantics over a small pool (1 MiB, 32 pages of
 * reserve): GFP_NOWAIT stops at the reserve, GFP_ATOMIC takes it and then
 * fails cleanly, GFP_KERNEL sleeps until memory is freed (on a host thread
 * and on a machine task), GFP_KERNEL in atomic context is reported, and
 * allocation works in hardirq and softirq context, also while interrupts
 * hit the allocator on a vCPU.
 *
 * A waiter is known to be asleep from pk_mm_stats().waiting, never from
 * elapsed time.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/gfp.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/slab.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define POOL_PAGES 256
#define RESERVE_PAGES 32
#define LINE 7

static struct page *held[POOL_PAGES];
static int nr_held;

/* Take pages with @gfp until it fails; returns how many. */
static int grab(gfp_t gfp)
{
	int n = 0;
	struct page *page;

	while (nr_held < POOL_PAGES && (page = alloc_page(gfp))) {
		held[nr_held++] = page;
		n++;
	}
	return n;
}

static void release_all(void)
{
	while (nr_held)
		__free_page(held[--nr_held]);
}

/* ---- kmalloc and caches ---- */

static void kmalloc_family(void **state)
{
	char *p, *q;

	(void)state;
	assert_ptr_equal(kmalloc(0, GFP_KERNEL), ZERO_SIZE_PTR);
	kfree(NULL);
	kfree(ZERO_SIZE_PTR);
	for (size_t size = 1; size <= 3 * PAGE_SIZE; size = size * 3 + 1) {
		p = kmalloc(size, GFP_KERNEL);
		assert_non_null(p);
		assert_true(ksize(p) >= size);
		memset(p, 0xa5, size);
		kfree(p);
	}
	p = kmalloc(96, GFP_KERNEL); /* its own cache, not 128's */
	assert_int_equal(ksize(p), 96);
	kfree(p);
	p = kzalloc(200, GFP_KERNEL);
	for (int i = 0; i < 200; i++)
		assert_int_equal(p[i], 0);
	strcpy(p, "kept");
	q = krealloc(p, 5000, GFP_KERNEL);
	assert_string_equal(q, "kept");
	assert_ptr_equal(krealloc(q, 0, GFP_KERNEL), ZERO_SIZE_PTR);
	assert_null(kcalloc(SIZE_MAX / 2, 4, GFP_KERNEL)); /* overflows */
	p = kcalloc(10, 8, GFP_KERNEL);
	assert_int_equal(p[79], 0);
	kfree(p);
	assert_int_equal(captured.nr, 0);
}

static int ctor_calls;

static void ctor(void *obj)
{
	ctor_calls++;
	*(int *)obj = 7;
}

static void caches_construct_and_complain_about_leaks(void **state)
{
	struct kmem_cache *c = kmem_cache_create("test-obj", 40, 0, 0, ctor);
	int *objs[100];

	(void)state;
	assert_non_null(c);
	for (int i = 0; i < 100; i++) {
		objs[i] = kmem_cache_alloc(c, GFP_KERNEL);
		assert_int_equal(*objs[i], 7);
	}
	assert_true(ctor_calls >= 100);
	for (int i = 1; i < 100; i++)
		kmem_cache_free(c, objs[i]);
	kmem_cache_destroy(c); /* objs[0] is still out */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("kmem_cache_destroy test-obj: Slab cache still "
			       "has objects");
	kmem_cache_free(c, objs[0]);
	kmem_cache_destroy(c);
	assert_int_equal(captured.nr, 1);
}

/* ---- exhaustion ---- */

static void gfp_atomic_takes_the_reserve_then_fails_cleanly(void **state)
{
	struct pk_mm_stats before = pk_mm_stats();
	struct kmem_cache *fresh;
	unsigned long failures;
	int n;

	(void)state;
	assert_int_equal(before.reserve, RESERVE_PAGES);
	n = grab(GFP_NOWAIT);
	assert_int_equal(n, (int)(before.free_low - RESERVE_PAGES));
	assert_int_equal(captured.nr, 0); /* GFP_NOWAIT fails quietly */
	assert_null(alloc_page(GFP_KERNEL | __GFP_NORETRY | __GFP_NOWARN));
	n = grab(GFP_ATOMIC);
	assert_int_equal(n, RESERVE_PAGES);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("page allocation failure: order:0, "
			       "mode:0x820(GFP_ATOMIC)");
	assert_null(kmalloc(PAGE_SIZE * 3, GFP_ATOMIC | __GFP_NOWARN));
	assert_int_equal(pk_mm_stats().free_low, 0);
	assert_true(pk_mm_stats().failures > before.failures);
	/* One failed call, one failure counted: not the slab's attempt too
	 * (a new cache has no slab to take an object from). */
	fresh = kmem_cache_create("test-fresh", 512, 0, 0, NULL);
	assert_non_null(fresh);
	failures = pk_mm_stats().failures;
	assert_null(kmem_cache_alloc(fresh, GFP_ATOMIC | __GFP_NOWARN));
	assert_int_equal(pk_mm_stats().failures, failures + 1);
	kmem_cache_destroy(fresh);
	release_all();
	assert_int_equal(pk_mm_stats().free_low, before.free_low);
}

static void gfp_kernel_in_atomic_context_reports(void **state)
{
	struct page *page;
	void *p;

	(void)state;
	preempt_disable();
	p = kmalloc(32, GFP_KERNEL);
	preempt_enable();
	assert_non_null(p);
	kfree(p);
	if (CONFIG_DEBUG_ATOMIC_SLEEP) {
		assert_int_equal(captured.nr, 1);
		assert_int_equal(captured.kind, PK_REPORT_MIGHT_SLEEP);
		assert_report_contains("BUG: sleeping function called from "
				       "invalid context");
	}
	/* The page allocator is a might_sleep() point of its own. */
	pk_debug_ratelimit_reset();
	preempt_disable();
	page = alloc_page(GFP_KERNEL);
	preempt_enable();
	assert_non_null(page);
	__free_page(page);
	if (CONFIG_DEBUG_ATOMIC_SLEEP) {
		assert_int_equal(captured.nr, 2);
		assert_int_equal(captured.kind, PK_REPORT_MIGHT_SLEEP);
		assert_report_contains("BUG: sleeping function called from "
				       "invalid context");
	}
	/* Exhausted and atomic: it cannot sleep, so it fails. */
	grab(GFP_ATOMIC | __GFP_NOWARN);
	pk_debug_ratelimit_reset();
	local_irq_disable();
	assert_null(alloc_page(GFP_KERNEL));
	local_irq_enable();
	assert_report_contains("page allocation failure");
	release_all();
}

static volatile int thread_done;

static void *kernel_alloc_thread(void *arg)
{
	struct page **out = arg;

	*out = alloc_page(GFP_KERNEL);
	__atomic_store_n(&thread_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void gfp_kernel_waits_for_a_free_on_a_thread(void **state)
{
	struct page *got = NULL;
	pthread_t t;

	(void)state;
	grab(GFP_ATOMIC | __GFP_NOWARN);
	thread_done = 0;
	assert_int_equal(pthread_create(&t, NULL, kernel_alloc_thread, &got),
			 0);
	while (pk_mm_stats().waiting == 0)
		usleep(1000);
	/* GFP_KERNEL leaves the reserve alone: freeing that much is not
	 * enough, whenever the waiter looks. */
	for (int i = 0; i < RESERVE_PAGES; i++)
		__free_page(held[--nr_held]);
	assert_false(__atomic_load_n(&thread_done, __ATOMIC_ACQUIRE));
	__free_page(held[--nr_held]); /* one more: "reclaim" succeeds */
	pthread_join(t, NULL);
	assert_non_null(got);
	__free_page(got);
	release_all();
	assert_int_equal(captured.nr, 0);
}

static int task_phase;

static int waiting_task(void *arg)
{
	struct kmem_cache *c = arg;
	struct page *page = alloc_page(GFP_KERNEL);
	void *obj;
	int ok;

	__atomic_store_n(&task_phase, 1, __ATOMIC_RELEASE);
	obj = kmem_cache_alloc(c, GFP_KERNEL);
	ok = page && obj;
	__free_page(page);
	kmem_cache_free(c, obj);
	return ok;
}

/* Until @k sleeps waiting for memory. */
static void wait_until_asleep(struct task_struct *k)
{
	while (pk_mm_stats().waiting == 0 ||
	       __atomic_load_n(&k->__state, __ATOMIC_ACQUIRE) !=
		       TASK_UNINTERRUPTIBLE)
		usleep(1000);
}

static void gfp_kernel_sleeps_on_a_task_until_memory_is_freed(void **state)
{
	struct kmem_cache *c = kmem_cache_create("test-64", 64, 0, 0, NULL);
	struct task_struct *k;

	(void)state;
	task_phase = 0;
	grab(GFP_ATOMIC | __GFP_NOWARN);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(waiting_task, c, "gfp-waiter");
	assert_non_null(k);
	wait_until_asleep(k);
	for (int i = 0; i < RESERVE_PAGES; i++)
		__free_page(held[--nr_held]);
	assert_int_equal(__atomic_load_n(&task_phase, __ATOMIC_ACQUIRE), 0);
	__free_page(held[--nr_held]); /* the page */
	while (!__atomic_load_n(&task_phase, __ATOMIC_ACQUIRE))
		usleep(1000);
	wait_until_asleep(k); /* now for a slab of the new cache */
	__free_page(held[--nr_held]);
	assert_int_equal(kthread_stop(k), 1);
	machine_shutdown();
	release_all();
	kmem_cache_destroy(c);
	assert_int_equal(captured.nr, 0);
}

/* ---- interrupt context ---- */

struct irq_result {
	int calls, failures, hardirq, softirq_calls, softirq_failures;
};
static struct irq_result irq_res;

/* Allocate a spread of sizes and a page, check, free.  Any context. */
static int alloc_round(void)
{
	static const size_t sizes[] = {8, 24, 64, 100, 512, 2000, 8000};
	void *p[7];
	struct page *page = alloc_page(GFP_ATOMIC);
	int bad = !page;

	for (int i = 0; i < 7; i++) {
		p[i] = kmalloc(sizes[i], GFP_ATOMIC);
		if (p[i])
			memset(p[i], i, sizes[i]);
		bad += !p[i];
	}
	for (int i = 0; i < 7; i++)
		if (p[i] && ((unsigned char *)p[i])[sizes[i] - 1] != i)
			bad++;
	for (int i = 7; i-- > 0;)
		kfree(p[i]);
	__free_page(page);
	return bad;
}

static void block_action(void)
{
	irq_res.softirq_calls++;
	irq_res.softirq_failures += alloc_round();
}

static irqreturn_t alloc_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	irq_res.calls++;
	irq_res.hardirq += !!in_hardirq();
	irq_res.failures += alloc_round();
	raise_softirq(BLOCK_SOFTIRQ);
	return IRQ_HANDLED;
}

static void allocation_works_in_hardirq_and_softirq(void **state)
{
	int cpu = pk_irq_cpu_register();

	(void)state;
	memset(&irq_res, 0, sizeof(irq_res));
	open_softirq(BLOCK_SOFTIRQ, block_action);
	assert_int_equal(request_irq(LINE, alloc_handler, 0, "alloc", NULL), 0);
	for (int i = 0; i < 100; i++)
		assert_int_equal(irq_raise(LINE, cpu), 0);
	free_irq(LINE, NULL);
	assert_int_equal(irq_res.calls, 100);
	assert_int_equal(irq_res.hardirq, 100);
	assert_int_equal(irq_res.failures, 0);
	assert_int_equal(irq_res.softirq_calls, 100);
	assert_int_equal(irq_res.softirq_failures, 0);
	assert_int_equal(captured.nr, 0);
}

/* A task allocating on vCPU 0 while a host thread raises at it. */
static volatile int raiser_stop;

static void *raiser(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&raiser_stop, __ATOMIC_ACQUIRE)) {
		irq_raise(LINE, pk_vcpu_irq_cpu(0));
		usleep(50);
	}
	return NULL;
}

static int alloc_loop(void *arg)
{
	int bad = 0;

	(void)arg;
	/* Ends on a count of interrupts, not on time. */
	while (__atomic_load_n(&irq_res.calls, __ATOMIC_ACQUIRE) < 300)
		bad += alloc_round();
	return bad;
}

static void interrupts_hitting_the_allocator_on_a_vcpu(void **state)
{
	struct task_struct *k;
	pthread_t t;

	(void)state;
	memset(&irq_res, 0, sizeof(irq_res));
	raiser_stop = 0;
	open_softirq(BLOCK_SOFTIRQ, block_action);
	assert_int_equal(request_irq(LINE, alloc_handler, 0, "alloc", NULL), 0);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_create(alloc_loop, NULL, "alloc-loop");
	kthread_bind(k, 0);
	wake_up_process(k);
	pthread_create(&t, NULL, raiser, NULL);
	assert_int_equal(kthread_stop(k), 0);
	__atomic_store_n(&raiser_stop, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	machine_shutdown();
	free_irq(LINE, NULL);
	assert_int_equal(irq_res.failures, 0);
	assert_int_equal(irq_res.softirq_failures, 0);
	assert_int_equal(irq_res.hardirq, irq_res.calls);
	assert_int_equal(captured.nr, 0);
}

/* ---- objects freed on another CPU than they came from ---- */

#define BATCH 32
#define ROUNDS 2000

struct batch {
	int owner;
	unsigned char *obj[BATCH];
};

static struct batch *exchange_slot;

static int swapper(void *arg)
{
	int id = (int)(long)arg, bad = 0;

	for (int r = 0; r < ROUNDS; r++) {
		struct batch *b = kmalloc(sizeof(*b), GFP_KERNEL);

		if (!b)
			return -1;
		b->owner = id;
		for (int i = 0; i < BATCH; i++) {
			b->obj[i] = kmalloc(16 + 8 * i, GFP_KERNEL);
			if (!b->obj[i])
				return -1;
			memset(b->obj[i], id, 16 + 8 * i);
		}
		/* Hand ours over, take whoever's was there (another CPU's). */
		b = __atomic_exchange_n(&exchange_slot, b, __ATOMIC_ACQ_REL);
		if (!b)
			continue;
		for (int i = 0; i < BATCH; i++) {
			bad += b->obj[i][15 + 8 * i] != b->owner;
			kfree(b->obj[i]);
		}
		kfree(b);
		if (!(r % 64))
			cond_resched();
	}
	return bad;
}

static void objects_move_between_cpus(void **state)
{
	struct task_struct *k[4];
	struct pk_mm_stats before = pk_mm_stats();
	struct batch *left;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	for (long i = 0; i < 4; i++) {
		k[i] = kthread_create(swapper, (void *)(i + 1), "swap/%ld", i);
		kthread_bind(k[i], (int)(i % 2));
		wake_up_process(k[i]);
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(kthread_stop(k[i]), 0);
	machine_shutdown();
	left = exchange_slot;
	exchange_slot = NULL;
	for (int i = 0; left && i < BATCH; i++)
		kfree(left->obj[i]);
	kfree(left);
	assert_int_equal(pk_mm_stats().failures, before.failures);
	assert_int_equal(captured.nr, 0);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct pk_mm_config cfg = {.lowmem = POOL_PAGES * PAGE_SIZE,
					 .highmem = -1,
					 .reserve = RESERVE_PAGES * PAGE_SIZE};
	const struct CMUnitTest tests[] = {
		T(kmalloc_family),
		T(caches_construct_and_complain_about_leaks),
		T(gfp_atomic_takes_the_reserve_then_fails_cleanly),
		T(gfp_kernel_in_atomic_context_reports),
		T(gfp_kernel_waits_for_a_free_on_a_thread),
		T(gfp_kernel_sleeps_on_a_task_until_memory_is_freed),
		T(allocation_works_in_hardirq_and_softirq),
		T(interrupts_hitting_the_allocator_on_a_vcpu),
		T(objects_move_between_cpus),
	};

	if (pk_mm_init(&cfg) != 0)
		return 1;
	return cmocka_run_group_tests(tests, NULL, NULL);
}
