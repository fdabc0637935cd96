// SPDX-License-Identifier: MIT
/*
 * The safe-point rule: a task is preempted from an interrupt only in its
 * own code with no host code below it.  Built twice: linked with
 * libpreempt.so (test_preempt_libc) and with libpreempt.a
 * (test_preempt_libc_a), where the library's code sits inside the program
 * and addresses alone cannot tell it from the program's.  The fully static
 * link (libc inside too) is soak_libc_static.
 */
#include "pk_test.h"

#include "safepoint_cases.h"

/* A failed case says what went wrong. */
static void assert_case(const char *error)
{
	if (error)
		fail_msg("%s", error);
}

static void not_preempted_in_a_callback_from_libc(void **state)
{
	(void)state;
	assert_case(case_callback_from_libc());
}

static void not_preempted_inside_libc(void **state)
{
	(void)state;
	assert_case(case_inside_libc());
}

static void not_preempted_inside_the_library(void **state)
{
	(void)state;
	assert_case(case_inside_library());
}

/*
 * Tasks that spend much of their time in malloc(), free() and snprintf()
 * are preempted from the tick in every model: a task switched out inside
 * libc would deadlock the next one on that vCPU or corrupt the heap.
 */
static void soak_every_model(void **state)
{
	(void)state;
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		unsigned long irq_preemptions;

		assert_null(case_soak((enum preempt_model)m, 4, 1000,
				      &irq_preemptions));
		/* Interrupt return preempts user code in every model, so it
		 * must have: the rule defers, it does not forbid. */
		assert_true(irq_preemptions > 0);
	}
	assert_int_equal(captured.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(not_preempted_in_a_callback_from_libc),
		cmocka_unit_test(not_preempted_inside_libc),
		cmocka_unit_test(not_preempted_inside_the_library),
		cmocka_unit_test(soak_every_model),
	};

	capture_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
