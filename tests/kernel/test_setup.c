// SPDX-License-Identifier: MIT
/*
 * __setup() and early_param() handlers of the kernel-style command line
 * ($PREEMPT_CMDLINE): early options first, by exact name, then the module
 * parameters, then the other options to the __setup() handlers by prefix,
 * each until one takes it; all before the initcalls.  And
 * module_param_string().
 */

#define KBUILD_MODNAME "stest"

#include <linux/init.h>
#include <linux/module.h>
#include <linux/moduleparam.h>

#include "pk_kernel_test.h"

static int level = 1;
module_param(level, int, 0444);
static char greeting[8] = "hi";
module_param_string(greeting, greeting, sizeof(greeting), 0444);

static char log_[256];

static void note(const char *fmt, const char *arg)
{
	size_t n = strlen(log_);

	snprintf(log_ + n, sizeof(log_) - n, fmt, arg ? arg : "(null)");
}

/* Sees the module parameter as it was: early options come first. */
static int __init early_mode(char *val)
{
	note("early(%s)", val);
	note(level == 1 ? " level unset;" : " level set;", NULL);
	return 0;
}
early_param("stest_mode", early_mode);

static int __init early_bad(char *val)
{
	(void)val;
	return -EINVAL;
}
early_param("stest_bad", early_bad);

static int __init setup_foo(char *str)
{
	note("foo(%s) ", str);
	return 1;
}
__setup("stest_foo=", setup_foo);

static int __init setup_flag(char *str)
{
	note("flag(%s) ", str);
	return 1;
}
__setup("nostest", setup_flag);

/*
 * Two handlers of one prefix, in whichever order the link puts them: each
 * takes one value and declines the other, so one of the two options is
 * always declined first and must reach the other handler.
 */
static int x_taken, y_taken;

static int __init setup_takes_x(char *str)
{
	if (strcmp(str, "x"))
		return 0;
	x_taken++;
	return 1;
}
__setup("stest_two=", setup_takes_x);

static int __init setup_takes_y(char *str)
{
	if (strcmp(str, "y"))
		return 0;
	y_taken++;
	return 1;
}
__setup("stest_two=", setup_takes_y);

static int __init init_fn(void)
{
	note("init ", NULL);
	return 0;
}
module_init(init_fn);

MODULE_LICENSE("MIT");

static void handlers_run_in_order(void **state)
{
	(void)state;
	log_[0] = '\0';
	level = 1;
	x_taken = y_taken = 0;
	setenv("PREEMPT_CMDLINE",
	       "stest_foo=bar stest.level=3 nostest stest-two=x stest_two=y "
	       "stest_mode=fast unrelated=1 stest.greeting=hello",
	       1);
	pk_boot(1, PREEMPT_MODEL_FULL);
	machine_shutdown();
	unsetenv("PREEMPT_CMDLINE");
	assert_int_equal(level, 3);
	assert_string_equal(greeting, "hello");
	assert_string_equal(log_, "early(fast) level unset;foo(bar) flag() "
				  "init ");
	assert_int_equal(x_taken, 1);
	assert_int_equal(y_taken, 1);
}

/* An early option without "=" gets NULL; one its handler rejects is
 * reported, as is a string parameter too long, and boot goes on. */
static void malformed_early_option_is_reported(void **state)
{
	const char *out;

	(void)state;
	log_[0] = '\0';
	level = 1;
	strcpy(greeting, "hi");
	setenv("PREEMPT_CMDLINE",
	       "stest_mode stest_bad=1 stest.greeting=toolongvalue", 1);
	console_capture();
	pk_boot(1, PREEMPT_MODEL_FULL);
	machine_shutdown();
	out = console_release();
	unsetenv("PREEMPT_CMDLINE");
	assert_string_equal(log_, "early((null)) level unset;init ");
	assert_non_null(strstr(out, "Malformed early option 'stest_bad'"));
	/* A string parameter too long for its array: refused, kept. */
	assert_string_equal(greeting, "hi");
	assert_non_null(
		strstr(out, "stest.greeting: string doesn't fit in 7 chars."));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(handlers_run_in_order),
		cmocka_unit_test(malformed_early_option_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
