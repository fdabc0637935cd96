// SPDX-License-Identifier: MIT
/*
 * lib/kstrtox.c: the program's own kstrto*() replace the library's member
 * whole (kstrtoul()/kstrtol() inline onto them, as in the kernel), and the
 * library itself then calls them: a module parameter from
 * $PREEMPT_CMDLINE is parsed by the kernel's kstrtouint().  The strict
 * rules: whole string, one trailing newline, bases and prefixes, ranges.
 */

#include <linux/kstrtox.h>
#include <linux/moduleparam.h>

#include "check.h"

static unsigned int level = 1;
module_param(level, uint, 0644);

struct ull_case {
	const char *s;
	unsigned int base;
	int err;
	unsigned long long v;
};

static const struct ull_case ull_cases[] = {
	{"0", 0, 0, 0},
	{"42", 10, 0, 42},
	{"42\n", 10, 0, 42},
	{"+42", 10, 0, 42},
	{"0x1F", 0, 0, 31},
	{"0x1f", 16, 0, 31},
	{"1f", 16, 0, 31},
	{"017", 0, 0, 15},
	{"017", 10, 0, 17},
	{"101", 2, 0, 5},
	{"18446744073709551615", 10, 0, ~0ULL},
	{"18446744073709551616", 10, -ERANGE, 0},
	{"0xffffffffffffffff", 0, 0, ~0ULL},
	{"0x10000000000000000", 0, -ERANGE, 0},
	{"", 10, -EINVAL, 0},
	{"\n", 10, -EINVAL, 0},
	{"12\n\n", 10, -EINVAL, 0},
	{" 12", 10, -EINVAL, 0},
	{"12 ", 10, -EINVAL, 0},
	{"-1", 10, -EINVAL, 0},
	{"0x", 16, -EINVAL, 0},
	{"9", 8, -EINVAL, 0},
};

static int conversions(void *arg)
{
	unsigned long long ull;
	long long ll;
	unsigned long ul;
	long l;
	unsigned int ui;
	int i;
	u16 u16v;
	s16 s16v;
	u8 u8v;
	s8 s8v;
	bool b;

	(void)arg;
	for (size_t k = 0; k < ARRAY_SIZE(ull_cases); k++) {
		const struct ull_case *c = &ull_cases[k];
		int err;

		ull = 0xdead;
		err = kstrtoull(c->s, c->base, &ull);
		if (err != c->err || ull != (err ? 0xdead : c->v)) {
			printk("kstrtoull(\"%s\", %u): %d %llu\n", c->s,
			       c->base, err, ull);
			return -1 - (int)k;
		}
	}
	if (kstrtoll("-9223372036854775808", 10, &ll) || ll != LLONG_MIN ||
	    kstrtoll("-9223372036854775809", 10, &ll) != -ERANGE ||
	    kstrtoll("9223372036854775808", 10, &ll) != -ERANGE)
		return -100;
	if (kstrtoul("0x7fffffffffffffff", 0, &ul) || ul != LONG_MAX ||
	    kstrtol("-17", 10, &l) || l != -17)
		return -101;
	if (kstrtouint("4294967295", 10, &ui) || ui != UINT_MAX ||
	    kstrtouint("4294967296", 10, &ui) != -ERANGE ||
	    kstrtoint("-2147483648", 10, &i) || i != INT_MIN ||
	    kstrtoint("2147483648", 10, &i) != -ERANGE)
		return -102;
	if (kstrtou16("65535", 10, &u16v) || u16v != 65535 ||
	    kstrtou16("65536", 10, &u16v) != -ERANGE ||
	    kstrtos16("-32769", 10, &s16v) != -ERANGE ||
	    kstrtou8("0xff", 0, &u8v) || u8v != 255 ||
	    kstrtos8("-128", 10, &s8v) || s8v != -128 ||
	    kstrtos8("128", 10, &s8v) != -ERANGE)
		return -103;
	if (kstrtobool("on", &b) || !b || kstrtobool("off", &b) || b ||
	    kstrtobool("Y", &b) || !b || kstrtobool("0", &b) || b ||
	    kstrtobool("o", &b) != -EINVAL || kstrtobool("x", &b) != -EINVAL)
		return -104;
	return 0;
}

static void strict_conversions(void **state)
{
	(void)state;
	check_boot(2);
	/* machine_boot() parsed $PREEMPT_CMDLINE with our kstrtouint(). */
	assert_int_equal(level, 12);
	assert_int_equal(check_run(conversions, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(strict_conversions),
	};

	setenv("PREEMPT_CMDLINE", "level=0xc", 1);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
