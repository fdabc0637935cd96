// SPDX-License-Identifier: MIT
/* A module whose init fails: reported at boot, and never exited. */

#define KBUILD_MODNAME "failing"

#include <linux/module.h>

#include "pk_kernel_test.h"

static int exits;

static int __init failing_init(void)
{
	return -EIO;
}

static void __exit failing_exit(void)
{
	exits++;
}

module_init(failing_init);
module_exit(failing_exit);

static void test_failed_init_is_not_exited(void **state)
{
	const char *out;

	(void)state;
	console_capture();
	pk_boot(1, PREEMPT_MODEL_FULL);
	machine_shutdown();
	out = console_release();
	assert_non_null(strstr(out, "initcall failing_init returned -5\n"));
	assert_int_equal(exits, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_failed_init_is_not_exited),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
