// SPDX-License-Identifier: MIT
/*
 * mm/page_counter.c: a root with two children, four tasks on two CPUs
 * charging and uncharging pages with page_counter_try_charge().  No
 * successful charge takes a counter past its max (the watermarks), a
 * refusal names the counter that refused and counts in its failcnt, the
 * root's usage is the children's sum; page_counter_set_max() refuses
 * below the usage; min protection propagates to the parent;
 * page_counter_memparse() (on lib/cmdline.c's memparse()).
 */

#include <linux/page_counter.h>

#include "check.h"

#define ROUNDS 20000

static struct page_counter root, child[2];
static atomic_t refused_by[3], charged, started, finished;

/* All four at once, so the children compete for the root. */
static void gate(atomic_t *v)
{
	atomic_inc(v);
	while (atomic_read(v) < 4)
		cond_resched();
}

static int charger(void *arg)
{
	struct page_counter *c = &child[(uintptr_t)arg & 1], *fail;
	int held = 0;

	gate(&started);
	for (int i = 0; i < ROUNDS; i++) {
		if ((i & 3) != 3) {
			if (page_counter_try_charge(c, 2, &fail)) {
				held += 2;
				atomic_add(2, &charged);
			} else {
				atomic_inc(&refused_by[fail == &root
							       ? 2
							       : fail - child]);
			}
		} else if (held) {
			page_counter_uncharge(c, 2);
			held -= 2;
		}
		if (!(i % 256))
			cond_resched();
	}
	/* Hold the pages until all are done: the root fills up. */
	gate(&finished);
	page_counter_uncharge(c, (unsigned long)held);
	return 0;
}

static void hierarchy(void **state)
{
	struct task_struct *t[4];
	struct page_counter *fail;

	(void)state;
	page_counter_init(&root, NULL);
	page_counter_init(&child[0], &root);
	page_counter_init(&child[1], &root);
	assert_int_equal(page_counter_set_max(&root, 300), 0);
	assert_int_equal(page_counter_set_max(&child[0], 200), 0);
	assert_int_equal(page_counter_set_max(&child[1], 200), 0);
	check_boot(2);
	for (uintptr_t i = 0; i < 4; i++)
		t[i] = kthread_run(charger, (void *)i, "charger");
	for (int i = 0; i < 4; i++)
		kthread_stop(t[i]);
	machine_shutdown();
	/* Never past a max on success; refusals at both levels, counted. */
	assert_true(root.watermark <= 300 && root.watermark > 200);
	assert_true(child[0].watermark <= 200 && child[1].watermark <= 200);
	assert_true(atomic_read(&charged) > 0);
	/* failcnt is a plain increment (data_race()): concurrent refusals
	 * of one counter may count once. */
	for (int i = 0; i < 3; i++) {
		struct page_counter *c = i < 2 ? &child[i] : &root;

		assert_true(c->failcnt <=
			    (unsigned long)atomic_read(&refused_by[i]));
		assert_true(!atomic_read(&refused_by[i]) || c->failcnt > 0);
	}
	assert_true(atomic_read(&refused_by[2]) > 0);
	/* Everything uncharged: every level back at 0. */
	assert_int_equal(page_counter_read(&root), 0);
	assert_int_equal(page_counter_read(&child[0]), 0);
	assert_int_equal(page_counter_read(&child[1]), 0);

	/* Sums, set_max() below usage, min protection. */
	assert_true(page_counter_try_charge(&child[0], 150, &fail));
	page_counter_charge(&child[1], 100);
	assert_int_equal(page_counter_read(&root), 250);
	assert_false(page_counter_try_charge(&child[1], 100, &fail));
	assert_ptr_equal(fail, &root);
	assert_int_equal(page_counter_set_max(&child[0], 100), -EBUSY);
	assert_int_equal(child[0].max, 200);
	page_counter_set_min(&child[0], 120);
	assert_int_equal(atomic_long_read(&root.children_min_usage), 120);
	page_counter_uncharge(&child[0], 100); /* 50 used, below min */
	assert_int_equal(atomic_long_read(&root.children_min_usage), 50);
	page_counter_uncharge(&child[0], 50);
	page_counter_uncharge(&child[1], 100);
	assert_int_equal(page_counter_read(&root), 0);
}

static void memparse_pages(void **state)
{
	unsigned long pages;

	(void)state;
	assert_int_equal(page_counter_memparse("4M", "max", &pages), 0);
	assert_int_equal(pages, 1024);
	assert_int_equal(page_counter_memparse("max", "max", &pages), 0);
	assert_int_equal(pages, PAGE_COUNTER_MAX);
	assert_int_equal(page_counter_memparse("4M junk", "max", &pages),
			 -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hierarchy),
		cmocka_unit_test(memparse_pages),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
