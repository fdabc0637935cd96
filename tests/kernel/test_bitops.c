// SPDX-License-Identifier: MIT
/* Bit operations, searches and bitmaps. */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/kernel.h>
#include <linux/log2.h>

#include "pk_kernel_test.h"

static void test_bit_ops(void **state)
{
	DECLARE_BITMAP(map, 130) = {0};

	(void)state;
	set_bit(0, map);
	set_bit(64, map);
	__set_bit(129, map);
	assert_int_equal(map[0], 1);
	assert_int_equal(map[1], 1);
	assert_int_equal(map[2], 2);
	assert_true(test_bit(129, map));
	assert_false(test_bit(128, map));
	assert_true(test_and_set_bit(64, map));
	assert_false(test_and_set_bit(65, map));
	assert_true(test_and_clear_bit(65, map));
	assert_false(test_and_clear_bit(65, map));
	change_bit(3, map);
	assert_true(test_bit(3, map));
	assert_true(__test_and_change_bit(3, map));
	assert_false(test_bit(3, map));
	clear_bit(0, map);
	__clear_bit(129, map);
	assert_int_equal(map[0], 0);
	assert_int_equal(map[2], 0);
	assert_false(test_and_set_bit_lock(7, map));
	clear_bit_unlock(7, map);
	assert_false(test_bit(7, map));
}

static void test_find(void **state)
{
	DECLARE_BITMAP(map, 200) = {0};
	unsigned long bit, sum = 0;

	(void)state;
	assert_int_equal(find_first_bit(map, 200), 200);
	__set_bit(3, map);
	__set_bit(70, map);
	__set_bit(199, map);
	assert_int_equal(find_first_bit(map, 200), 3);
	assert_int_equal(find_next_bit(map, 200, 4), 70);
	assert_int_equal(find_next_bit(map, 199, 71),
			 199); /* beyond size: size */
	assert_int_equal(find_last_bit(map, 200), 199);
	assert_int_equal(find_first_zero_bit(map, 200), 0);
	assert_int_equal(find_next_zero_bit(map, 200, 3), 4);
	for_each_set_bit(bit, map, 200) sum += bit;
	assert_int_equal(sum, 3 + 70 + 199);
	assert_int_equal(find_nth_bit(map, 200, 1), 70);
}

static void test_bitmap(void **state)
{
	DECLARE_BITMAP(a, 100);
	DECLARE_BITMAP(b, 100);
	DECLARE_BITMAP(c, 100);
	char buf[64];

	(void)state;
	bitmap_zero(a, 100);
	bitmap_set(a, 10, 5); /* 10-14 */
	assert_int_equal(bitmap_weight(a, 100), 5);
	bitmap_zero(b, 100);
	bitmap_set(b, 12, 10); /* 12-21 */
	assert_true(bitmap_and(c, a, b, 100));
	assert_int_equal(bitmap_weight(c, 100), 3);
	bitmap_or(c, a, b, 100);
	assert_int_equal(bitmap_weight(c, 100), 12);
	assert_true(bitmap_intersects(a, b, 100));
	assert_false(bitmap_subset(a, b, 100));
	bitmap_andnot(c, a, b, 100);
	assert_int_equal(bitmap_weight(c, 100), 2);
	bitmap_clear(a, 10, 5);
	assert_true(bitmap_empty(a, 100));
	bitmap_fill(a, 100);
	assert_true(bitmap_full(a, 100));
	bitmap_zero(a, 100);
	bitmap_set(a, 0, 4);
	bitmap_set(a, 9, 1);
	bitmap_print_to_pagebuf(true, buf, a, 100);
	assert_string_equal(buf, "0-3,9\n");
	bitmap_shift_left(b, a, 2, 100);
	assert_true(test_bit(11, b) && test_bit(2, b) && !test_bit(0, b));
	assert_false(bitmap_equal(a, b, 100));
}

static void test_scalar_bits(void **state)
{
	(void)state;
	assert_int_equal(ffs(0), 0);
	assert_int_equal(ffs(0x18), 4);
	assert_int_equal(fls(0), 0);
	assert_int_equal(fls(0x18), 5);
	assert_int_equal(fls64(1ULL << 40), 41);
	assert_int_equal(__ffs(0x18), 3);
	assert_int_equal(__fls(0x18), 4);
	assert_int_equal(ffz(0x7), 3);
	assert_int_equal(hweight8(0x1ff), 8); /* only the low 8 bits */
	assert_int_equal(hweight32(0xf0f0f0f0), 16);
	assert_int_equal(hweight64(~0ULL), 64);
	assert_int_equal(ilog2(4096), 12);
	assert_int_equal(roundup_pow_of_two(33), 64);
	assert_int_equal(rounddown_pow_of_two(33), 32);
	assert_true(is_power_of_2(64));
	assert_false(is_power_of_2(0));
	assert_int_equal(rol32(0x80000001, 1), 3);
	assert_int_equal(sign_extend32(0x80, 7), -128);
	assert_int_equal(get_count_order(5), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bit_ops),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_bitmap),
		cmocka_unit_test(test_scalar_bits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
