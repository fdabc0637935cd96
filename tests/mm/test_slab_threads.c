// SPDX-License-Identifier: MIT
/*
 * kmalloc() from host threads (not vCPUs): each thread has its own stacks
 * of free objects, as each vCPU does, so a freed object comes back to its
 * own thread; many threads allocating and freeing each other's objects
 * keep every object whole; a slot shared by two caches gives each its own
 * objects; kmem_cache_destroy() finds no object left behind in a live
 * thread's stacks or in an exited thread's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/gfp.h>
#include <preempt/slab.h>

#include "pk_test.h"

/* ---- a freed object stays with its thread ---- */

static void *freed, *other;
static int step;

static void wait_step(int n)
{
	while (__atomic_load_n(&step, __ATOMIC_ACQUIRE) != n)
		;
}

static void *taker(void *arg)
{
	(void)arg;
	wait_step(1);
	other = kmalloc(64, GFP_KERNEL);
	__atomic_store_n(&step, 2, __ATOMIC_RELEASE);
	wait_step(3);
	kfree(other);
	return NULL;
}

/*
 * A frees an object, B then allocates the same size, A allocates again:
 * A gets its object back from its own stack, and B never saw it (through
 * the shared slab lists B would have taken it).
 */
static void freed_object_stays_with_its_thread(void **state)
{
	pthread_t t;
	void *again;

	(void)state;
	step = 0;
	assert_int_equal(pthread_create(&t, NULL, taker, NULL), 0);
	freed = kmalloc(64, GFP_KERNEL);
	assert_non_null(freed);
	kfree(freed);
	__atomic_store_n(&step, 1, __ATOMIC_RELEASE);
	wait_step(2);
	assert_ptr_not_equal(other, freed);
	again = kmalloc(64, GFP_KERNEL);
	assert_ptr_equal(again, freed);
	kfree(again);
	__atomic_store_n(&step, 3, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
}

/* ---- many threads, objects passed between them ---- */

#define THREADS 8
#define ROUNDS 20000
#define LIVE 32

static void *mailbox[THREADS]; /* thread i's objects for thread i+1 */

struct obj_hdr {
	uint32_t owner, seq, size, check;
};

static void fill(struct obj_hdr *h, uint32_t owner, uint32_t seq, uint32_t size)
{
	h->owner = owner;
	h->seq = seq;
	h->size = size;
	h->check = owner ^ seq ^ size ^ 0x5a5a5a5au;
	memset(h + 1, (int)(owner + 1), size - sizeof(*h));
}

/* Whole: the header agrees with itself and the body with the header. */
static int whole(const struct obj_hdr *h)
{
	const unsigned char *b = (const unsigned char *)(h + 1);

	if (h->check != (h->owner ^ h->seq ^ h->size ^ 0x5a5a5a5au))
		return 0;
	for (uint32_t i = 0; i < h->size - sizeof(*h); i++)
		if (b[i] != (unsigned char)(h->owner + 1))
			return 0;
	return 1;
}

static int broken;

static void release(void *p)
{
	if (!whole(p))
		__atomic_store_n(&broken, 1, __ATOMIC_RELAXED);
	kfree(p);
}

static void *churn(void *arg)
{
	uint32_t me = (uint32_t)(uintptr_t)arg, rnd = me * 2654435761u + 1;
	void *live[LIVE] = {0};

	for (uint32_t r = 0; r < ROUNDS; r++) {
		uint32_t size, slot;
		void *p;

		rnd = rnd * 1103515245u + 12345u;
		size = sizeof(struct obj_hdr) + (rnd >> 8) % 500;
		slot = (rnd >> 20) % LIVE;
		if (live[slot]) {
			/* Every other one goes to the next thread to free. */
			p = (r & 1) ? __atomic_exchange_n(
					      &mailbox[(me + 1) % THREADS],
					      live[slot], __ATOMIC_ACQ_REL)
				    : live[slot];
			if (p)
				release(p);
		}
		live[slot] = kmalloc(size, GFP_KERNEL);
		if (!live[slot]) {
			__atomic_store_n(&broken, 1, __ATOMIC_RELAXED);
			break;
		}
		fill(live[slot], me, r, size);
	}
	for (int i = 0; i < LIVE; i++)
		if (live[i])
			release(live[i]);
	return NULL;
}

static void many_threads_pass_objects_around(void **state)
{
	pthread_t t[THREADS];

	(void)state;
	broken = 0;
	for (int i = 0; i < THREADS; i++)
		assert_int_equal(pthread_create(&t[i], NULL, churn,
						(void *)(uintptr_t)i),
				 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < THREADS; i++)
		if (mailbox[i])
			release(mailbox[i]);
	assert_int_equal(broken, 0);
}

/* ---- slots shared by caches ---- */

#define CACHES 20 /* more than a thread's slots: some share one */

/* Each cache's objects come back from that cache (its size), however
 * the caches' slots collide. */
static void caches_sharing_a_slot_keep_their_objects(void **state)
{
	struct kmem_cache *c[CACHES];
	void *p[CACHES][4];

	(void)state;
	for (int i = 0; i < CACHES; i++) {
		c[i] = kmem_cache_create("test-slot", 32 + 8 * i, 8, 0, NULL);
		assert_non_null(c[i]);
	}
	for (int round = 0; round < 50; round++) {
		for (int i = 0; i < CACHES; i++)
			for (int j = 0; j < 4; j++) {
				p[i][j] = kmem_cache_alloc(c[i], GFP_KERNEL);
				assert_non_null(p[i][j]);
				assert_int_equal(ksize(p[i][j]), 32 + 8 * i);
			}
		for (int i = 0; i < CACHES; i++)
			for (int j = 0; j < 4; j++)
				kmem_cache_free(c[i], p[i][j]);
	}
	for (int i = 0; i < CACHES; i++)
		kmem_cache_destroy(c[i]);
	assert_int_equal(captured.nr, 0);
}

/* ---- destroy: nothing left in threads' stacks ---- */

static struct kmem_cache *shared_cache;
static int holder_step;

/* Allocates and frees (its stack keeps them), then waits to be told. */
static void *holder(void *arg)
{
	void *p[8];

	for (int i = 0; i < 8; i++)
		p[i] = kmem_cache_alloc(shared_cache, GFP_KERNEL);
	for (int i = 0; i < 8; i++)
		kmem_cache_free(shared_cache, p[i]);
	if (arg)
		return NULL; /* exits with them cached */
	__atomic_store_n(&holder_step, 1, __ATOMIC_RELEASE);
	while (__atomic_load_n(&holder_step, __ATOMIC_ACQUIRE) != 2)
		;
	return NULL;
}

/* A live thread's cached objects are drained by the destroy. */
static void destroy_drains_a_live_threads_stack(void **state)
{
	pthread_t t;

	(void)state;
	shared_cache = kmem_cache_create("test-live", 48, 0, 0, NULL);
	holder_step = 0;
	assert_int_equal(pthread_create(&t, NULL, holder, NULL), 0);
	while (__atomic_load_n(&holder_step, __ATOMIC_ACQUIRE) != 1)
		;
	kmem_cache_destroy(shared_cache);
	__atomic_store_n(&holder_step, 2, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	assert_int_equal(captured.nr, 0);
}

/* An exited thread gave its cached objects back on the way out. */
static void exited_thread_gave_its_stack_back(void **state)
{
	pthread_t t;

	(void)state;
	shared_cache = kmem_cache_create("test-exit", 48, 0, 0, NULL);
	assert_int_equal(pthread_create(&t, NULL, holder, (void *)1), 0);
	pthread_join(t, NULL);
	kmem_cache_destroy(shared_cache);
	assert_int_equal(captured.nr, 0);
}

static int capture_teardown(void **state)
{
	(void)state;
	capture_stop();
	return 0;
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, capture_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(freed_object_stays_with_its_thread),
		T(many_threads_pass_objects_around),
		T(caches_sharing_a_slot_keep_their_objects),
		T(destroy_drains_a_live_threads_stack),
		T(exited_thread_gave_its_stack_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
