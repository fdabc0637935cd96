// SPDX-License-Identifier: MIT
/*
 * mm/mempool.c: the reserve serves when the allocator fails, atomic
 * callers get NULL when it is empty, and a blocking caller waits for an
 * element to come back.
 */

#include <linux/mempool.h>
#include <linux/slab.h>

#include "check.h"

static bool failing;
static atomic_t allocated;

static void *flaky_alloc(gfp_t gfp, void *pool_data)
{
	if (READ_ONCE(failing))
		return NULL;
	atomic_inc(&allocated);
	return kmalloc((size_t)pool_data, gfp);
}

static void flaky_free(void *element, void *pool_data)
{
	atomic_dec(&allocated);
	kfree(element);
}

static mempool_t *pool;
static void *held[4];

static int use_reserve(void *arg)
{
	void *e;

	(void)arg;
	WRITE_ONCE(failing, true);
	for (int i = 0; i < 3; i++) /* the 3 reserved elements */
		if (!(held[i] = mempool_alloc(pool, GFP_ATOMIC)))
			return 1;
	if (mempool_alloc(pool, GFP_ATOMIC)) /* empty: atomic gets NULL */
		return 2;
	e = mempool_alloc(pool, GFP_NOWAIT);
	if (e)
		return 3;
	return 0;
}

static atomic_t blocked_done;

static int blocking(void *arg)
{
	(void)arg;
	held[3] = mempool_alloc(pool, GFP_KERNEL); /* waits: never NULL */
	atomic_set(&blocked_done, 1);
	return held[3] ? 0 : 1;
}

static int free_one(void *arg)
{
	(void)arg;
	mempool_free(held[0], pool);
	return 0;
}

static void test_mempool(void **state)
{
	struct task_struct *t;

	(void)state;
	check_boot(2);
	pool = mempool_create(3, flaky_alloc, flaky_free, (void *)64);
	assert_non_null(pool);
	assert_int_equal(atomic_read(&allocated), 3); /* preallocated */
	assert_int_equal(check_run(use_reserve, NULL), 0);
	t = kthread_run(blocking, NULL, "blocking");
	usleep(20000); /* wide: it must still be waiting */
	assert_int_equal(atomic_read(&blocked_done), 0);
	check_run(free_one, NULL);
	assert_int_equal(kthread_stop(t), 0);
	assert_int_equal(atomic_read(&blocked_done), 1);
	assert_ptr_equal(held[3], held[0]); /* the element given back */
	WRITE_ONCE(failing, false);
	for (int i = 1; i < 4; i++)
		mempool_free(held[i], pool);
	mempool_destroy(pool);
	assert_int_equal(atomic_read(&allocated), 0);
	machine_shutdown();
}

static void test_kmalloc_pool(void **state)
{
	mempool_t *p = mempool_create_kmalloc_pool(2, 128);
	void *a, *b;

	(void)state;
	assert_non_null(p);
	a = mempool_alloc(p, GFP_KERNEL);
	b = mempool_alloc(p, GFP_KERNEL);
	assert_non_null(a);
	assert_non_null(b);
	memset(a, 1, 128);
	mempool_free(a, p);
	mempool_free(b, p);
	assert_int_equal(mempool_resize(p, 4), 0);
	assert_int_equal(p->min_nr, 4);
	mempool_destroy(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mempool),
		cmocka_unit_test(test_kmalloc_pool),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
