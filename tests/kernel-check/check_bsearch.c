// SPDX-License-Identifier: MIT
/* lib/bsearch.c: every element found, every gap and both ends missed. */

#include <linux/bsearch.h>

#include "check.h"

#define N 1001

static int cmp(const void *key, const void *elt)
{
	int a = *(const int *)key, b = *(const int *)elt;

	return a < b ? -1 : a > b;
}

static int searcher(void *arg)
{
	static int v[N];
	int bad = 0;

	(void)arg;
	for (int i = 0; i < N; i++)
		v[i] = 2 * i;
	for (int n = 0; n <= N; n += 125) { /* sizes 0, 125, ... 1000 */
		for (int k = -1; k <= 2 * n; k++) {
			int *p = bsearch(&k, v, (size_t)n, sizeof(int), cmp);

			if (k % 2 == 0 && k >= 0 && k < 2 * n)
				bad += p != &v[k / 2];
			else
				bad += p != NULL;
		}
	}
	return bad ? -1 : 0;
}

static void bsearch_all(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(searcher, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bsearch_all),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
