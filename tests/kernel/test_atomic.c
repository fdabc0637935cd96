// SPDX-License-Identifier: MIT
/*
 * Atomics: the values each operation returns, the conditional ones, the
 * generic xchg/cmpxchg family, and increments by many CPUs at once.
 */

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/sched.h>

#include "pk_kernel_test.h"

static void test_atomic_values(void **state)
{
	atomic_t v = ATOMIC_INIT(5);
	int old = 5;

	(void)state;
	assert_int_equal(atomic_read(&v), 5);
	atomic_inc(&v);
	atomic_add(4, &v);
	assert_int_equal(atomic_read(&v), 10);
	assert_int_equal(atomic_fetch_add(2, &v), 10);
	assert_int_equal(atomic_add_return(2, &v), 14);
	assert_int_equal(atomic_sub_return_relaxed(4, &v), 10);
	assert_int_equal(atomic_fetch_inc_acquire(&v), 10);
	assert_int_equal(atomic_dec_return_release(&v), 10);
	assert_int_equal(atomic_fetch_or(0x100, &v), 10);
	assert_int_equal(atomic_fetch_andnot(0x100, &v), 0x10a);
	assert_int_equal(atomic_fetch_xor(1, &v), 10);
	assert_int_equal(atomic_read(&v), 11);
	assert_int_equal(atomic_xchg(&v, 3), 11);
	assert_int_equal(atomic_cmpxchg(&v, 4, 9),
			 3); /* fails: returns current */
	assert_int_equal(atomic_read(&v), 3);
	assert_false(atomic_try_cmpxchg(&v, &old, 7)); /* old is 5, value 3 */
	assert_int_equal(old, 3); /* updated to the value */
	assert_true(atomic_try_cmpxchg(&v, &old, 7));
	assert_int_equal(atomic_read(&v), 7);
	atomic_set(&v, 1);
	assert_true(atomic_dec_and_test(&v));
	assert_false(atomic_inc_not_zero(&v));
	assert_int_equal(atomic_read(&v), 0);
	assert_true(atomic_add_unless(&v, 1, 5));
	assert_false(atomic_add_unless(&v, 1, 1));
	assert_int_equal(atomic_fetch_add_unless(&v, 1, 1), 1);
	assert_int_equal(atomic_dec_if_positive(&v), 0);
	assert_int_equal(atomic_dec_if_positive(&v),
			 -1); /* would go negative */
	assert_int_equal(atomic_read(&v), 0);
	assert_true(atomic_add_negative(-1, &v));
	assert_false(atomic_inc_unless_negative(&v));
	assert_true(atomic_dec_unless_positive(&v));
	assert_true(atomic_inc_and_test(&(atomic_t)ATOMIC_INIT(-1)));
	assert_true(atomic_sub_and_test(3, &(atomic_t)ATOMIC_INIT(3)));
}

static void test_atomic64_and_long(void **state)
{
	atomic64_t v = ATOMIC64_INIT(1LL << 40);
	atomic_long_t l = ATOMIC_LONG_INIT(-1);
	unsigned long word = 1;
	u64 w64 = 7;

	(void)state;
	assert_true(atomic64_add_return(1, &v) == (1LL << 40) + 1);
	assert_true(atomic64_fetch_sub(1LL << 40, &v) == (1LL << 40) + 1);
	assert_int_equal(atomic64_read(&v), 1);
	assert_true(atomic64_cmpxchg(&v, 1, 1LL << 50) == 1);
	assert_true(atomic64_read(&v) == 1LL << 50);
	assert_true(atomic_long_inc_and_test(&l));
	assert_int_equal(atomic_long_read(&l), 0);
	/* The generic forms on plain variables. */
	assert_int_equal(xchg(&word, 9UL), 1);
	assert_int_equal(cmpxchg(&word, 9UL, 10UL), 9);
	assert_int_equal(word, 10);
	assert_int_equal(cmpxchg_relaxed(&word, 9UL, 11UL), 10);
	assert_int_equal(word, 10);
	{
		unsigned long expect = 10;

		assert_true(try_cmpxchg(&word, &expect, 12UL));
		assert_false(try_cmpxchg_acquire(&word, &expect, 13UL));
		assert_int_equal(expect, 12);
	}
	assert_int_equal(cmpxchg64(&w64, 7ULL, 8ULL), 7);
	assert_int_equal(w64, 8);
	assert_int_equal(smp_load_acquire(&w64), 8);
	smp_store_release(&w64, 9ULL);
	assert_int_equal(READ_ONCE(w64), 9);
	WRITE_ONCE(w64, 10);
	assert_int_equal(w64, 10);
}

/* Many tasks on every CPU increment one counter: no update is lost. */
#define INCS 20000
static atomic_t shared = ATOMIC_INIT(0);
static atomic64_t shared64 = ATOMIC64_INIT(0);

static int incrementer(void *arg)
{
	(void)arg;
	for (int i = 0; i < INCS; i++) {
		atomic_inc(&shared);
		atomic64_add_return_relaxed(2, &shared64);
		if (!(i % 1000))
			cond_resched();
	}
	return 0;
}

static void concurrent(enum preempt_model model)
{
	struct task_struct *t[4];

	atomic_set(&shared, 0);
	atomic64_set(&shared64, 0);
	pk_boot(2, model);
	for (int i = 0; i < 4; i++)
		t[i] = kthread_run(incrementer, NULL, "inc");
	for (int i = 0; i < 4; i++)
		kthread_stop(t[i]);
	machine_shutdown();
	assert_int_equal(atomic_read(&shared), 4 * INCS);
	assert_int_equal(atomic64_read(&shared64), 8 * INCS);
}

static void test_concurrent_every_model(void **state)
{
	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(all_models); m++)
		concurrent(all_models[m]);
	preempt_model_set(PREEMPT_MODEL_FULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_atomic_values),
		cmocka_unit_test(test_atomic64_and_long),
		cmocka_unit_test(test_concurrent_every_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
