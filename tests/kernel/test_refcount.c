// SPDX-License-Identifier: MIT
/* refcount_t's saturation and warnings, and kref. */

#include <linux/kref.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "pk_kernel_test.h"

static void test_refcount_counts(void **state)
{
	refcount_t r = REFCOUNT_INIT(1);

	(void)state;
	capture_reset();
	refcount_inc(&r);
	refcount_add(3, &r);
	assert_int_equal(refcount_read(&r), 5);
	assert_false(refcount_sub_and_test(3, &r));
	assert_true(refcount_inc_not_zero(&r));
	assert_false(refcount_dec_and_test(&r));
	assert_false(refcount_dec_and_test(&r));
	assert_int_equal(refcount_read(&r), 1);
	assert_false(refcount_dec_not_one(&r)); /* it is 1 */
	refcount_set(&r, 3);
	assert_true(refcount_dec_not_one(&r));
	assert_int_equal(refcount_read(&r), 2);
	refcount_set(&r, 1);
	assert_true(refcount_dec_if_one(&r));
	assert_int_equal(refcount_read(&r), 0);
	assert_false(refcount_inc_not_zero(&r));
	assert_int_equal(captured.nr, 0);
	capture_stop();
}

static void test_refcount_saturates(void **state)
{
	refcount_t uaf = REFCOUNT_INIT(0);
	refcount_t under = REFCOUNT_INIT(1);
	refcount_t over = REFCOUNT_INIT(INT_MAX);

	(void)state;
	pk_debug_ratelimit_reset(); /* re-arm WARN_ONCE */
	capture_reset();
	refcount_inc(&uaf); /* from 0: use after free */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("refcount_t: addition on 0; use-after-free.");
	assert_int_equal((int)refcount_read(&uaf), REFCOUNT_SATURATED);
	/* Saturated is far from 0: a decrement never frees it. */
	assert_false(refcount_dec_and_test(&uaf));
	capture_stop();

	pk_debug_ratelimit_reset();
	capture_reset();
	assert_true(refcount_dec_and_test(&under));
	assert_false(refcount_dec_and_test(&under)); /* below zero */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("refcount_t: underflow; use-after-free.");
	assert_int_equal((int)refcount_read(&under), REFCOUNT_SATURATED);
	capture_stop();

	pk_debug_ratelimit_reset();
	capture_reset();
	refcount_inc(&over); /* past INT_MAX */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("refcount_t: saturated; leaking memory.");
	assert_int_equal((int)refcount_read(&over), REFCOUNT_SATURATED);
	capture_stop();
}

static int released;

static void release(struct kref *k)
{
	(void)k;
	released++;
}

static void test_kref(void **state)
{
	struct kref k;
	DEFINE_SPINLOCK(lock);
	DEFINE_MUTEX(mtx);

	(void)state;
	released = 0;
	kref_init(&k);
	kref_get(&k);
	assert_int_equal(kref_read(&k), 2);
	assert_int_equal(kref_put(&k, release), 0);
	assert_int_equal(released, 0);
	assert_int_equal(kref_put(&k, release), 1);
	assert_int_equal(released, 1);
	assert_false(kref_get_unless_zero(&k));
	kref_init(&k);
	assert_int_equal(kref_put_lock(&k, release, &lock), 1);
	assert_true(spin_is_locked(&lock)); /* held for the release */
	spin_unlock(&lock);
	kref_init(&k);
	kref_get(&k);
	assert_int_equal(kref_put_mutex(&k, release, &mtx), 0);
	assert_false(mutex_is_locked(&mtx));
}

/* Above 1: a lock-free decrement; the last one returns 1 holding the lock. */
static void test_atomic_dec_and_lock(void **state)
{
	atomic_t a = ATOMIC_INIT(2);
	DEFINE_SPINLOCK(lock);
	unsigned long flags;

	(void)state;
	assert_int_equal(atomic_dec_and_lock(&a, &lock), 0);
	assert_false(spin_is_locked(&lock));
	assert_int_equal(atomic_read(&a), 1);
	assert_int_equal(atomic_dec_and_lock(&a, &lock), 1);
	assert_true(spin_is_locked(&lock));
	spin_unlock(&lock);
	atomic_set(&a, 1);
	assert_int_equal(atomic_dec_and_lock_irqsave(&a, &lock, flags), 1);
	assert_true(irqs_disabled());
	spin_unlock_irqrestore(&lock, flags);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_refcount_counts),
		cmocka_unit_test(test_refcount_saturates),
		cmocka_unit_test(test_kref),
		cmocka_unit_test(test_atomic_dec_and_lock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
