// SPDX-License-Identifier: MIT
/* Errors and basics: ERR_PTR, container_of, min/max/clamp, bit fields,
 * overflow. */

#include <linux/bitfield.h>
#include <linux/bits.h>
#include <linux/err.h>
#include <linux/kernel.h>
#include <linux/hex.h>
#include <linux/math64.h>
#include <linux/overflow.h>
#include <linux/random.h>
#include <asm/unaligned.h>
#include <linux/slab.h>
#include <linux/swab.h>

#include "pk_kernel_test.h"

struct outer {
	int a;
	struct {
		long x;
	} inner;
	int tail[];
};

static void test_err_ptr(void **state)
{
	void *p = ERR_PTR(-ENOMEM);
	int v;

	(void)state;
	assert_true(IS_ERR(p));
	assert_int_equal(PTR_ERR(p), -ENOMEM);
	assert_true(IS_ERR(ERR_PTR(-MAX_ERRNO)));
	assert_false(IS_ERR(ERR_PTR(-MAX_ERRNO - 1)));
	assert_false(IS_ERR(&v));
	assert_true(IS_ERR_OR_NULL(NULL));
	assert_false(IS_ERR_OR_NULL(&v));
	assert_ptr_equal(ERR_CAST(p), p);
	assert_int_equal(PTR_ERR_OR_ZERO(&v), 0);
	assert_int_equal(PTR_ERR_OR_ZERO(ERR_PTR(-EPROBE_DEFER)),
			 -EPROBE_DEFER);
	assert_int_equal(ENOTSUPP, 524);
	assert_int_equal(ERESTARTSYS, 512);
}

static void test_container_and_sizes(void **state)
{
	struct outer o;
	int arr[7];

	(void)state;
	assert_ptr_equal(container_of(&o.inner, struct outer, inner), &o);
	assert_int_equal(ARRAY_SIZE(arr), 7);
	assert_int_equal(sizeof_field(struct outer, inner), sizeof(long));
	assert_int_equal(struct_size(&o, tail, 3), sizeof(o) + 3 * sizeof(int));
	/* An overflowing size saturates, so the allocator refuses it. */
	assert_int_equal(struct_size(&o, tail, SIZE_MAX / 2), SIZE_MAX);
	assert_int_equal(array_size(SIZE_MAX / 2, 3), SIZE_MAX);
	BUILD_BUG_ON(sizeof(u64) != 8);
}

static void test_minmax(void **state)
{
	int calls = 0;
	unsigned int u = 5;

	(void)state;
	assert_int_equal(min(3, 9), 3);
	assert_int_equal(max(-3, -9), -3);
	assert_int_equal(min_t(int, u, -1), -1);    /* min_t compares as int */
	assert_int_equal(max_t(u8, u + 251, 2), 2); /* 256 truncated to u8: 0 */
	assert_int_equal(clamp(15, 0, 10), 10);
	assert_int_equal(clamp(-5, 0, 10), 0);
	assert_int_equal(clamp(7, 0, 10), 7);
	/* Each argument once. */
	assert_int_equal(max(++calls, 0), 1);
	assert_int_equal(calls, 1);
	{
		int a = 1, b = 2;

		swap(a, b);
		assert_int_equal(a, 2);
		assert_int_equal(b, 1);
	}
	assert_int_equal(DIV_ROUND_UP(7, 2), 4);
	assert_int_equal(round_up(13, 8), 16);
	assert_int_equal(round_down(13, 8), 8);
	assert_int_equal(roundup(13, 5), 15);
	assert_int_equal(ALIGN(17, 16), 32);
	assert_true(IS_ALIGNED(64, 32));
	assert_int_equal(abs(-4), 4);
	assert_int_equal(upper_32_bits(0x1234567800000000ULL), 0x12345678);
	assert_int_equal(lower_32_bits(0x12345678abcdef01ULL), 0xabcdef01);
}

static void test_bits_and_fields(void **state)
{
	(void)state;
	assert_int_equal(BIT(5), 32);
	assert_int_equal(GENMASK(7, 4), 0xf0);
	assert_int_equal(GENMASK_ULL(63, 62), 0xc000000000000000ULL);
	assert_int_equal(FIELD_PREP(GENMASK(11, 8), 0xa), 0xa00);
	assert_int_equal(FIELD_GET(GENMASK(11, 8), 0x1a55), 0xa);
	assert_int_equal(FIELD_MAX(GENMASK(3, 1)), 7);
	assert_true(FIELD_FIT(GENMASK(3, 1), 7));
	assert_false(FIELD_FIT(GENMASK(3, 1), 8));
}

static void test_overflow(void **state)
{
	u8 r8;
	int r;

	(void)state;
	assert_true(check_add_overflow((u8)200, (u8)100, &r8));
	assert_false(check_add_overflow(20, 30, &r));
	assert_int_equal(r, 50);
	assert_true(check_mul_overflow(INT_MAX, 2, &r));
	assert_true(check_sub_overflow(0U, 1U, &(unsigned int){0}));
	assert_int_equal(size_add(SIZE_MAX, 1), SIZE_MAX);
	assert_int_equal(size_sub(5, 7), SIZE_MAX);
}

static void test_kstrto(void **state)
{
	unsigned long ul;
	int i;
	u8 b;
	bool flag;

	(void)state;
	assert_int_equal(kstrtoul("0x1f\n", 0, &ul), 0);
	assert_int_equal(ul, 31);
	assert_int_equal(kstrtoint("-42", 10, &i), 0);
	assert_int_equal(i, -42);
	assert_int_equal(kstrtoint("12x", 10, &i), -EINVAL);
	assert_int_equal(kstrtoint("19a", 10, &i), -EINVAL); /* a hex digit */
	assert_int_equal(kstrtoint("18", 8, &i), -EINVAL);
	assert_int_equal(kstrtoint("017", 0, &i), 0); /* base 0: octal */
	assert_int_equal(i, 15);
	assert_int_equal(kstrtou8("256", 10, &b), -ERANGE);
	assert_int_equal(kstrtoint("99999999999", 10, &i), -ERANGE);
	assert_int_equal(kstrtobool("on", &flag), 0);
	assert_true(flag);
	assert_int_equal(kstrtobool("N", &flag), 0);
	assert_false(flag);
	assert_int_equal(kstrtobool("maybe", &flag), -EINVAL);
}

static void test_strings(void **state)
{
	char buf[6];
	char *d;

	(void)state;
	assert_int_equal(strscpy(buf, "hello", sizeof(buf)), 5);
	assert_int_equal(strscpy(buf, "too long", sizeof(buf)), -E2BIG);
	assert_string_equal(buf, "too l");
	d = kstrdup("dup", GFP_KERNEL);
	assert_string_equal(d, "dup");
	kfree(d);
	assert_null(kstrdup(NULL, GFP_KERNEL));
	assert_true(sysfs_streq("on\n", "on"));
	assert_false(sysfs_streq("onx", "on"));
	{
		static const char *const opts[] = {"a", "bb", "c"};

		assert_int_equal(match_string(opts, 3, "bb"), 1);
		assert_int_equal(match_string(opts, 3, "z"), -EINVAL);
	}
	assert_int_equal(str_has_prefix("prefix-rest", "prefix"), 6);
}

/* The lax conversions: as far as the digits go, the end reported. */
static void test_simple_strto(void **state)
{
	char *end;

	(void)state;
	assert_int_equal(simple_strtoul("123abc", &end, 10), 123);
	assert_string_equal(end, "abc");
	assert_int_equal(simple_strtoull("0x1fz", &end, 0), 31);
	assert_string_equal(end, "z");
	assert_int_equal(simple_strtoul("0x1f", &end, 16), 31);
	assert_int_equal(simple_strtoul("017", &end, 0), 15);
	assert_int_equal(simple_strtol("-12k", &end, 0), -12);
	assert_string_equal(end, "k");
	assert_int_equal(simple_strtoll("x", &end, 10), 0);
	assert_string_equal(end, "x");
	assert_int_equal(kstrtos16("-32768", 10, &(s16){0}), 0);
	assert_int_equal(kstrtos8("-129", 10, &(s8){0}), -ERANGE);
	{
		char s[] = "  \tpadded \n";

		assert_string_equal(skip_spaces(s), "padded \n");
		assert_string_equal(strim(s), "padded");
	}
}

static void test_hex_and_random(void **state)
{
	u8 bin[3] = {0x01, 0xab, 0xff}, back[3];
	char hex[7] = {0};
	u32 seen = 0;

	(void)state;
	assert_ptr_equal(bin2hex(hex, bin, 3), hex + 6);
	assert_string_equal(hex, "01abff");
	assert_int_equal(hex2bin(back, "01ABff", 3), 0);
	assert_memory_equal(back, bin, 3);
	assert_int_equal(hex2bin(back, "0g", 1), -EINVAL);
	assert_int_equal(hex_asc_upper_hi(0xab), 'A');
	/* 64 draws below 8: every value, and never 8 or more. */
	for (int i = 0; i < 64 * 8; i++) {
		u32 v = get_random_u32_below(8);

		assert_true(v < 8);
		seen |= 1u << v;
	}
	assert_int_equal(seen, 0xff);
	assert_true(get_random_u64() != get_random_u64());
}

static void test_math64_unaligned(void **state)
{
	u8 buf[9] = {0};
	u32 rem;

	(void)state;
	assert_int_equal(div_u64_rem(1000000000007ULL, 1000, &rem),
			 1000000000ULL);
	assert_int_equal(rem, 7);
	/* 2^63 * 6 does not fit 64 bits before the shift. */
	assert_int_equal(mul_u64_u32_shr(1ULL << 63, 6, 4), 3ULL << 60);
	assert_int_equal(mul_u64_u32_div(1ULL << 62, 10, 20), 1ULL << 61);
	assert_int_equal(DIV_S64_ROUND_CLOSEST(-7, 2), -4);
	assert_int_equal(DIV_S64_ROUND_CLOSEST(7, 2), 4);
	assert_int_equal(DIV64_U64_ROUND_UP(7, 2), 4);
	put_unaligned_be32(0x11223344, buf + 1);
	assert_int_equal(buf[1], 0x11);
	assert_int_equal(get_unaligned_le32(buf + 1), 0x44332211);
	assert_int_equal(get_unaligned_be24(buf + 1), 0x112233);
	put_unaligned_le64(0x0102030405060708ULL, buf + 1);
	assert_int_equal(buf[1], 0x08);
	assert_int_equal(get_unaligned_be64(buf + 1), 0x0807060504030201ULL);
	put_unaligned((u16)0xbeef, (u16 *)(buf + 3));
	assert_int_equal(get_unaligned((u16 *)(buf + 3)), 0xbeef);
}

/*
 * Kernel code asks #ifdef __BIG_ENDIAN: exactly one of the two is defined,
 * the host's (the C library defines both), and swab.h's swaps swap.
 */
static void test_byte_order(void **state)
{
	const union {
		u32 word;
		u8 bytes[4];
	} probe = {.word = 0x01020304};
#ifdef __BIG_ENDIAN
	const int tree_big = 1;
#else
	const int tree_big = 0;
#endif
#ifdef __LITTLE_ENDIAN
	const int tree_little = 1;
#else
	const int tree_little = 0;
#endif

	(void)state;
	assert_int_equal(tree_big, probe.bytes[0] == 0x01);
	assert_int_equal(tree_little, probe.bytes[0] == 0x04);
	assert_int_equal(swab32(0x01020304U), 0x04030201U);
	assert_int_equal(swab16(0x0102), 0x0201);
	assert_true(swab64(0x0102030405060708ULL) == 0x0807060504030201ULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_err_ptr),
		cmocka_unit_test(test_container_and_sizes),
		cmocka_unit_test(test_minmax),
		cmocka_unit_test(test_bits_and_fields),
		cmocka_unit_test(test_overflow),
		cmocka_unit_test(test_kstrto),
		cmocka_unit_test(test_strings),
		cmocka_unit_test(test_simple_strto),
		cmocka_unit_test(test_hex_and_random),
		cmocka_unit_test(test_math64_unaligned),
		cmocka_unit_test(test_byte_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
