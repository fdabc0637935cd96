// SPDX-License-Identifier: MIT
/*
 * lib/cmdline.c: get_option()'s return codes, get_options() with ranges,
 * memparse()'s suffixes, parse_option_str(), and next_arg() splitting a
 * command line with quotes, on the library's simple_strto*().
 */

#include <linux/kernel.h>

#include "check.h"

static int options(void *arg)
{
	char s1[] = "12,-3,7", *p = s1;
	int v = 0, ints[10];

	(void)arg;
	/* 2: a comma follows; 1: the last one; 0: no number. */
	if (get_option(&p, &v) != 2 || v != 12 || get_option(&p, &v) != 2 ||
	    v != -3 || get_option(&p, &v) != 1 || v != 7)
		return -1;
	p = (char[]){"x"};
	if (get_option(&p, &v) != 0)
		return -2;
	/* ints[0] is the count; 3-5 is a range. */
	get_options("1,2,3-5,7", ARRAY_SIZE(ints), ints);
	if (ints[0] != 6 || ints[1] != 1 || ints[2] != 2 || ints[3] != 3 ||
	    ints[4] != 4 || ints[5] != 5 || ints[6] != 7)
		return -3;
	/* nints bounds what is stored. */
	get_options("9,8,7,6", 3, ints);
	if (ints[0] != 2 || ints[1] != 9 || ints[2] != 8)
		return -4;
	return 0;
}

static int sizes(void *arg)
{
	char *end;

	(void)arg;
	if (memparse("4096", &end) != 4096 || *end)
		return -1;
	if (memparse("64K", &end) != 64 << 10 || *end)
		return -2;
	if (memparse("3m,rest", &end) != 3 << 20 || strcmp(end, ",rest"))
		return -3;
	if (memparse("2G", NULL) != 2ULL << 30 ||
	    memparse("1T", NULL) != 1ULL << 40 ||
	    memparse("1P", NULL) != 1ULL << 50 ||
	    memparse("1E", NULL) != 1ULL << 60)
		return -4;
	if (memparse("0x10M", NULL) != 16ULL << 20 ||
	    memparse("010k", NULL) != 8 << 10)
		return -5;
	return 0;
}

static int words(void *arg)
{
	char line[] = "root=/dev/vda1 quiet  msg=\"a b c\" mod.x=1 ro";
	static const char *const want[][2] = {
		{"root", "/dev/vda1"}, {"quiet", NULL}, {"msg", "a b c"},
		{"mod.x", "1"},	       {"ro", NULL},
	};
	char *args = line, *param, *val;
	size_t n = 0;

	(void)arg;
	if (!parse_option_str("a,bb,c", "bb") ||
	    parse_option_str("a,bb", "b") || !parse_option_str("x", "x") ||
	    parse_option_str("", "x"))
		return -1;
	while (*args) {
		args = next_arg(args, &param, &val);
		if (n >= ARRAY_SIZE(want) || strcmp(param, want[n][0]))
			return -2;
		if (want[n][1] ? !val || strcmp(val, want[n][1]) : val != NULL)
			return -3;
		n++;
	}
	return n == ARRAY_SIZE(want) ? 0 : -4;
}

static void cmdline(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(options, NULL), 0);
	assert_int_equal(check_run(sizes, NULL), 0);
	assert_int_equal(check_run(words, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cmdline),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
