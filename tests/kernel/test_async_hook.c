// SPDX-License-Identifier: MIT
/*
 * Boot calls a program's async_init() (kernel/async.c, 6.9 on) once per
 * boot, in a task, before the initcalls, as start_kernel() does: an
 * early initcall already finds it called.
 */

#include <linux/async.h>
#include <linux/init.h>
#include <linux/sched.h>

#include "pk_kernel_test.h"

static int init_calls, seen_by_initcall = -1;
static bool init_in_task;

void async_init(void)
{
	init_calls++;
	init_in_task = in_task() && current;
}

static int __init early(void)
{
	seen_by_initcall = init_calls;
	return 0;
}
early_initcall(early);

static void async_init_before_initcalls(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(init_calls, 1);
	assert_int_equal(seen_by_initcall, 1);
	assert_true(init_in_task);
	machine_shutdown();
	pk_boot_online(1, PREEMPT_MODEL_NONE);
	assert_int_equal(init_calls, 2);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(async_init_before_initcalls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
