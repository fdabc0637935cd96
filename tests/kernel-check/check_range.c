// SPDX-License-Identifier: MIT
/*
 * kernel/range.c (on lib/sort.c): adding with merging, subtracting from
 * the front, the back, the middle (a split into a spare slot) and the
 * whole, compaction and sorting, and an add with no slot left.
 */

#include <linux/range.h>

#include "check.h"

#define AZ 8

static int ranges(void *arg)
{
	struct range r[AZ] = {{0}};
	int nr = 0;

	(void)arg;
	nr = add_range(r, AZ, nr, 0x300, 0x400);
	nr = add_range(r, AZ, nr, 0x100, 0x200);
	nr = add_range(r, AZ, nr, 0x500, 0x500); /* empty: not added */
	if (nr != 2)
		return -1;
	/* Overlapping both: one range from 0x100 to 0x400. */
	nr = add_range_with_merge(r, AZ, nr, 0x180, 0x320);
	if (nr != 1 || r[0].start != 0x100 || r[0].end != 0x400)
		return -2;
	nr = add_range_with_merge(r, AZ, nr, 0x800, 0x900);
	nr = add_range_with_merge(r, AZ, nr, 0x600, 0x700);
	if (nr != 3)
		return -3;
	/* The middle of the first: split into a spare slot. */
	subtract_range(r, AZ, 0x200, 0x280);
	/* The front of one, the back of another, and one whole. */
	subtract_range(r, AZ, 0x000, 0x110);
	subtract_range(r, AZ, 0x3f0, 0x500);
	subtract_range(r, AZ, 0x600, 0x700);
	nr = clean_sort_range(r, AZ);
	if (nr != 3)
		return -4;
	if (r[0].start != 0x110 || r[0].end != 0x200 || r[1].start != 0x280 ||
	    r[1].end != 0x3f0 || r[2].start != 0x800 || r[2].end != 0x900)
		return -5;
	if (range_len(&r[2]) != 0x101)
		return -6;
	/* Full: nothing added. */
	for (int i = 0; i < AZ; i++)
		nr = add_range(r, AZ, nr, 0x1000 * (u64)(AZ - i),
			       0x1000 * (u64)(AZ - i) + 1);
	if (nr != AZ)
		return -7;
	sort_range(r, nr);
	for (int i = 1; i < nr; i++)
		if (r[i - 1].start > r[i].start)
			return -8;
	return 0;
}

static void range_ops(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(ranges, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(range_ops),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
