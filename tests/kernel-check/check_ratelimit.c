// SPDX-License-Identifier: MIT
/*
 * lib/ratelimit.c: at most burst per interval, the rest counted missed and
 * reported when the interval turns, also with callers on both CPUs.
 */

#include <linux/ratelimit.h>

#include "check.h"

/* 5 per 100 s: one interval however slow the host. */
static DEFINE_RATELIMIT_STATE(rs, 100 * HZ, 5);
/* 1 per 20 ms: an interval that turns. */
static DEFINE_RATELIMIT_STATE(fast, HZ / 50, 1);
static atomic_t passed;

static int caller(void *arg)
{
	(void)arg;
	for (int i = 0; i < 50; i++)
		if (__ratelimit(&rs))
			atomic_inc(&passed);
	return 0;
}

static int turning(void *arg)
{
	(void)arg;
	/*
	 * ___ratelimit() takes a begin of 0 for "not started": jiffies
	 * start at INITIAL_JIFFIES, as the kernel's, so the first call
	 * after boot starts the interval.
	 */
	if ((long)(jiffies - INITIAL_JIFFIES) < 0 ||
	    (long)(jiffies - INITIAL_JIFFIES) > 10 * HZ)
		return -9;
	if (!__ratelimit(&fast))
		return -1;
	while (__ratelimit(&fast)) /* refused before the interval ends */
		;
	if (!fast.missed)
		return -2;
	msleep(100); /* well past the interval */
	if (!__ratelimit(&fast))
		return -3;
	return fast.missed ? -4 : 0; /* reported and reset */
}

static void burst_then_interval(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	check_boot(2);
	a = kthread_run(caller, NULL, "rl-a");
	b = kthread_run(caller, NULL, "rl-b");
	kthread_stop(a);
	kthread_stop(b);
	/* Contended calls may refuse as well: never more than the burst. */
	assert_true(atomic_read(&passed) <= 5);
	assert_true(atomic_read(&passed) >= 1);
	assert_true(rs.missed > 0);
	assert_int_equal(check_run(turning, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(burst_then_interval),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
