// SPDX-License-Identifier: MIT
/*
 * Kconfig-shaped helpers: a static key whose default follows a Kconfig
 * symbol (DEFINE_STATIC_KEY_MAYBE(), static_branch_maybe()), and
 * for_each_cpu_wrap() over a CPU mask.
 */

#include <linux/cpumask.h>
#include <linux/jump_label.h>

#include "pk_kernel_test.h"

#define CONFIG_PK_TEST_ON 1

DEFINE_STATIC_KEY_MAYBE(CONFIG_PK_TEST_ON, key_on);
DEFINE_STATIC_KEY_MAYBE(CONFIG_PK_TEST_OFF, key_off);

static void key_maybe_follows_the_symbol(void **state)
{
	(void)state;
	assert_true(static_branch_maybe(CONFIG_PK_TEST_ON, &key_on));
	assert_false(static_branch_maybe(CONFIG_PK_TEST_OFF, &key_off));
	/* Still keys: they switch. */
	static_branch_disable(&key_on);
	static_branch_enable(&key_off);
	assert_false(static_branch_maybe(CONFIG_PK_TEST_ON, &key_on));
	assert_true(static_branch_maybe(CONFIG_PK_TEST_OFF, &key_off));
	static_branch_enable(&key_on);
	static_branch_disable(&key_off);
}

static void cpu_wrap_starts_at_start(void **state)
{
	struct cpumask m;
	unsigned int seen[8], n = 0;
	int cpu;

	(void)state;
	pk_boot(4, PREEMPT_MODEL_FULL);
	cpumask_clear(&m);
	cpumask_set_cpu(0, &m);
	cpumask_set_cpu(1, &m);
	cpumask_set_cpu(3, &m);
	for_each_cpu_wrap(cpu, &m, 2)
	{
		if (n < 8)
			seen[n] = (unsigned int)cpu;
		n++;
	}
	assert_int_equal(n, 3);
	assert_int_equal(seen[0], 3);
	assert_int_equal(seen[1], 0);
	assert_int_equal(seen[2], 1);
	/* From a set CPU: it comes first; break leaves the loop. */
	n = 0;
	for_each_cpu_wrap(cpu, &m, 1)
	{
		seen[n++] = (unsigned int)cpu;
		if (n == 2)
			break;
	}
	assert_int_equal(n, 2);
	assert_int_equal(seen[0], 1);
	assert_int_equal(seen[1], 3);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(key_maybe_follows_the_symbol),
		cmocka_unit_test(cpu_wrap_starts_at_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
