// SPDX-License-Identifier: MIT
/* lib/glob.c: *, ?, classes, ranges and negation, on the whole string. */

#include <linux/glob.h>

#include "check.h"

static const struct {
	const char *pat, *str;
	bool match;
} cases[] = {
	{"a*c", "abbbc", true},
	{"a*c", "abbbd", false},
	{"*", "", true},
	{"?", "", false},
	{"a?c", "abc", true},
	{"a?c", "ac", false},
	{"[abc]x", "bx", true},
	{"[abc]x", "dx", false},
	{"[a-c]x", "cx", true},
	{"[!a-c]x", "cx", false},
	{"[!a-c]x", "zx", true},
	{"*.ko", "pkdev.ko", true},
	{"*.ko", "pkdev.kox", false},
	{"ab", "abc", false},
	{"*b*", "abc", true},
	{"[]]", "]", true},
};

static int matcher(void *arg)
{
	int bad = 0;

	(void)arg;
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		if (glob_match(cases[i].pat, cases[i].str) != cases[i].match) {
			printf("glob_match(\"%s\", \"%s\") wrong\n",
			       cases[i].pat, cases[i].str);
			bad++;
		}
	return bad ? -1 : 0;
}

static void glob_cases(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(matcher, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(glob_cases),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
