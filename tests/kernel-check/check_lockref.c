// SPDX-License-Identifier: MIT
/*
 * lib/lockref.c: each call's answer and count on one task (the last
 * reference kept by lockref_put_not_zero() and handed back locked by
 * lockref_put_or_lock(), a dead count refusing gets); then four tasks on
 * two CPUs getting and putting at once: no change lost.  Without the
 * lock-free path lockref_put_return() is -1.  make test runs it against
 * the kernel side's own src/kernel/lockref.c (kernel/test_lockref_kernel).
 */

#include <linux/lockref.h>

#include "check.h"

#define ROUNDS 20000

static struct lockref shared;

static int one_task(void *arg)
{
	struct lockref lr;
	int bad = 0;

	(void)arg;
	spin_lock_init(&lr.lock);
	lr.count = 1;
	lockref_get(&lr);
	bad += lr.count != 2;
	bad += lockref_put_not_zero(&lr) != 1 || lr.count != 1;
	bad += lockref_put_not_zero(&lr) != 0 || lr.count != 1;
	bad += lockref_get_not_zero(&lr) != 1 || lr.count != 2;
	bad += lockref_put_or_lock(&lr) != 1 || lr.count != 1;
	bad += lockref_put_return(&lr) != -1 || lr.count != 1;
	/* The last one: the lock comes back held, the count untouched. */
	bad += lockref_put_or_lock(&lr) != 0 || lr.count != 1;
	bad += !spin_is_locked(&lr.lock);
	lr.count--;
	lockref_mark_dead(&lr);
	spin_unlock(&lr.lock);
	bad += !__lockref_is_dead(&lr);
	bad += lockref_get_not_zero(&lr) != 0 || lockref_get_not_dead(&lr) != 0;
	bad += !__lockref_is_dead(&lr);
	lr.count = 0;
	bad += lockref_get_not_zero(&lr) != 0;
	bad += lockref_get_not_dead(&lr) != 1 || lr.count != 1;
	return bad ? -1 : 0;
}

static int hammer(void *arg)
{
	int bad = 0;

	for (int i = 0; i < ROUNDS; i++) {
		if ((unsigned long)arg & 1) {
			lockref_get(&shared);
			bad += lockref_put_or_lock(&shared) != 1;
		} else {
			bad += lockref_get_not_zero(&shared) != 1;
			bad += lockref_put_not_zero(&shared) != 1;
		}
		if (i % 512 == 0)
			cond_resched();
	}
	return bad ? -1 : 0;
}

static void lockref_calls(void **state)
{
	(void)state;
	check_boot(1);
	assert_int_equal(check_run(one_task, NULL), 0);
	machine_shutdown();
}

static void lockref_concurrent(void **state)
{
	struct task_struct *t[4];

	(void)state;
	check_boot(2);
	spin_lock_init(&shared.lock);
	shared.count = 1;
	for (unsigned long i = 0; i < 4; i++) {
		t[i] = kthread_create(hammer, (void *)i, "lockref/%lu", i);
		assert_false(IS_ERR_OR_NULL(t[i]));
		kthread_bind(t[i], (unsigned int)(i % 2));
		wake_up_process(t[i]);
	}
	for (int i = 0; i < 4; i++)
		assert_int_equal(kthread_stop(t[i]), 0);
	assert_int_equal(shared.count, 1);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lockref_calls),
		cmocka_unit_test(lockref_concurrent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
