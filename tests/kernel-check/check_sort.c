// SPDX-License-Identifier: MIT
/*
 * lib/sort.c: sort() and sort_r() in tasks on every CPU at once, element
 * sizes taking each swap path (4, 8 and 12 bytes, and a custom swap).
 */

#include <linux/sort.h>

#include "check.h"

#define N 5000

struct rec {
	u32 key, a, b;
};

static int cmp_u32(const void *x, const void *y)
{
	u32 a = *(const u32 *)x, b = *(const u32 *)y;

	return a < b ? -1 : a > b;
}

static int cmp_u64_desc(const void *x, const void *y, const void *priv)
{
	u64 a = *(const u64 *)x, b = *(const u64 *)y;

	(void)priv;
	return a < b ? 1 : a > b ? -1 : 0;
}

static int cmp_rec(const void *x, const void *y)
{
	return cmp_u32(&((const struct rec *)x)->key,
		       &((const struct rec *)y)->key);
}

static int swaps;

static void swap_rec(void *x, void *y, int size)
{
	struct rec t = *(struct rec *)x;

	(void)size;
	*(struct rec *)x = *(struct rec *)y;
	*(struct rec *)y = t;
	swaps++;
}

static int sorter(void *arg)
{
	static u32 w[N];
	static u64 d[N];
	static struct rec r[N];
	u32 seed = (u32)(uintptr_t)arg * 2654435761u + 1;
	u64 sum = 0, sum2 = 0;
	int bad = 0;

	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		w[i] = seed >> 8;
		d[i] = (u64)seed << 20 | (u64)i;
		r[i] = (struct rec){seed % 977, (u32)i, ~(u32)i};
		sum += w[i];
	}
	sort(w, N, sizeof(w[0]), cmp_u32, NULL);
	sort_r(d, N, sizeof(d[0]), cmp_u64_desc, NULL, NULL);
	sort(r, N, sizeof(r[0]), cmp_rec, swap_rec);
	for (int i = 0; i < N; i++) {
		sum2 += w[i];
		bad += i && w[i - 1] > w[i];
		bad += i && d[i - 1] < d[i];
		bad += i && r[i - 1].key > r[i].key;
		bad += r[i].b != ~r[i].a; /* records moved whole */
	}
	return bad || sum != sum2 ? -1 : 0;
}

static void sort_everywhere(void **state)
{
	(void)state;
	check_boot(2);
	/* One at a time: the arrays are static. */
	assert_int_equal(check_run(sorter, (void *)1), 0);
	assert_int_equal(check_run(sorter, (void *)2), 0);
	assert_true(swaps > 0); /* the custom swap was used */
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sort_everywhere),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
