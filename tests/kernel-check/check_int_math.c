// SPDX-License-Identifier: MIT
/*
 * lib/math/int_sqrt.c and lib/math/int_pow.c: the floor square root
 * against its definition (r*r <= x < (r+1)*(r+1)) at squares, their
 * neighbours and pseudo-random values up to ULONG_MAX; int_pow() against
 * repeated multiplication, wrapping modulo 2^64.  On two CPUs at once.
 */

#include <linux/math.h>

#include "check.h"

static bool is_floor_sqrt(unsigned long x, unsigned long r)
{
	unsigned __int128 lo = (unsigned __int128)r * r,
			  hi = (unsigned __int128)(r + 1) * (r + 1);

	return lo <= x && x < hi;
}

static int roots(void *arg)
{
	unsigned long x = (unsigned long)arg;
	int bad = 0;

	for (unsigned long r = 0; r < 5000; r++) {
		bad += int_sqrt(r * r) != r;
		bad += r && int_sqrt(r * r - 1) != r - 1;
	}
	for (int i = 0; i < 100000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		bad += !is_floor_sqrt(x, int_sqrt(x));
		bad += !is_floor_sqrt(x >> 40, int_sqrt(x >> 40));
	}
	bad += int_sqrt(ULONG_MAX) != 0xffffffffUL;
	bad += int_sqrt64(1ULL << 62) != 1U << 31;
	return bad;
}

static int powers(void *arg)
{
	int bad = 0;

	(void)arg;
	for (u64 base = 0; base < 40; base++)
		for (unsigned int e = 0; e < 70; e++) {
			u64 want = 1;

			for (unsigned int k = 0; k < e; k++)
				want *= base;
			bad += int_pow(base, e) != want;
		}
	return bad;
}

static void int_math(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	check_boot(2);
	a = kthread_run(roots, (void *)1UL, "sqrt-a");
	b = kthread_run(roots, (void *)7UL, "sqrt-b");
	assert_int_equal(check_run(powers, NULL), 0);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(int_math),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
