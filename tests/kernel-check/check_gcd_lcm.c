// SPDX-License-Identifier: MIT
/*
 * lib/math/gcd.c and lib/math/lcm.c: against Euclid's algorithm on
 * pseudo-random pairs (with shared powers of two, the binary gcd's case),
 * the zero cases, and lcm's overflow-free a / gcd * b.  Two CPUs at once.
 */

#include <linux/gcd.h>
#include <linux/lcm.h>

#include "check.h"

static unsigned long euclid(unsigned long a, unsigned long b)
{
	while (b) {
		unsigned long t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static int pairs(void *arg)
{
	unsigned long x = (unsigned long)arg;
	int bad = 0;

	for (int i = 0; i < 100000; i++) {
		unsigned long a, b, g;

		x = x * 6364136223846793005UL + 1442695040888963407UL;
		a = (x >> 40) << (x & 7);
		b = (x & 0xfffff) << ((x >> 3) & 7);
		g = gcd(a, b);
		bad += g != euclid(a, b);
		if (a && b) {
			bad += lcm(a, b) != a / g * b;
			bad += lcm(a, b) % a || lcm(a, b) % b;
		}
	}
	return bad;
}

static int edges(void *arg)
{
	(void)arg;
	if (gcd(0, 12) != 12 || gcd(12, 0) != 12 || gcd(0, 0) != 0)
		return -1;
	if (gcd(1UL << 63, 1UL << 40) != 1UL << 40 || gcd(17, 1) != 1)
		return -2;
	if (gcd(~0UL, ~0UL - 1) != 1 || gcd(48, 180) != 12)
		return -3;
	if (lcm(0, 7) != 0 || lcm(7, 0) != 0 || lcm(4, 6) != 12)
		return -4;
	if (lcm_not_zero(0, 7) != 7 || lcm_not_zero(7, 0) != 7 ||
	    lcm_not_zero(4, 6) != 12)
		return -5;
	/* a * b would overflow, a / gcd * b does not. */
	if (lcm(1UL << 62, 3UL << 61) != 3UL << 62)
		return -6;
	return 0;
}

static void gcd_lcm(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	check_boot(2);
	assert_int_equal(check_run(edges, NULL), 0);
	a = kthread_run(pairs, (void *)1UL, "gcd-a");
	b = kthread_run(pairs, (void *)2UL, "gcd-b");
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gcd_lcm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
