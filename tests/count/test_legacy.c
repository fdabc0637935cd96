// SPDX-License-Identifier: MIT
/*
 * The comparison build: -DCONFIG_PREEMPT_COUNT=0 reproduces Linux's
 * PREEMPT_COUNT=n (include/linux/preempt.h without CONFIG_PREEMPT_COUNT),
 * which `make bench` measures the unconditional count against.  This file
 * is compiled that way, with the debug checks off as the benchmark's
 * copy is, and checks what the build promises: preempt_disable() and
 * preempt_enable() leave the word alone and never reschedule, raw
 * spinlocks still exclude but do not count, preemptible() is 0 (the
 * seed's bug, kept), and what never depended on the option (interrupt
 * disabling, bottom halves, interrupt nesting) still counts.
 */
#define CONFIG_PREEMPT_COUNT 0
#ifndef CONFIG_DEBUG_PREEMPT
#define CONFIG_DEBUG_PREEMPT 0
#endif
#ifndef CONFIG_DEBUG_ATOMIC_SLEEP
#define CONFIG_DEBUG_ATOMIC_SLEEP 0
#endif
#define CONFIG_DEBUG_SPINLOCK 0

#include <preempt/bottom_half.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "pk_test.h"

_Static_assert(!CONFIG_PREEMPT_COUNT, "built as PREEMPT_COUNT=n");

static DEFINE_RAW_SPINLOCK(lock);

static unsigned long reschedules(void)
{
	struct pk_sched_stats s = pk_sched_stats();
	unsigned long n = 0;

	for (int i = 0; i < PK_RESCHED_NR; i++)
		n += s.resched[i];
	return n;
}

static void preempt_disable_leaves_the_word_alone(void **state)
{
	unsigned long before = reschedules();

	(void)state;
	assert_int_equal(preempt_count(), 0);
	preempt_disable();
	preempt_disable();
	assert_int_equal(preempt_count(), 0);
	assert_false(in_atomic());
	preempt_enable();
	/* A reschedule owed at the enable is not taken: no preempt_enable()
	 * preemption point without the count. */
	set_preempt_need_resched();
	preempt_enable();
	assert_true(test_preempt_need_resched());
	assert_int_equal(reschedules(), before);
	clear_preempt_need_resched();
	assert_int_equal(preempt_count(), 0);
}

static void preemptible_is_zero(void **state)
{
	(void)state;
	assert_int_equal(preempt_count(), 0);
	assert_false(preemptible());
}

static void raw_spinlocks_exclude_without_counting(void **state)
{
	(void)state;
	raw_spin_lock(&lock);
	assert_int_equal(preempt_count(), 0);
	assert_false(raw_spin_trylock(&lock));
	raw_spin_unlock(&lock);
	assert_true(raw_spin_trylock(&lock));
	assert_int_equal(preempt_count(), 0);
	raw_spin_unlock(&lock);
}

static void the_rest_of_the_word_still_counts(void **state)
{
	unsigned long flags;

	(void)state;
	local_irq_save(flags);
	assert_int_equal(preempt_count(), HARDIRQ_DISABLE_OFFSET);
	assert_true(irqs_disabled());
	local_irq_restore(flags);
	local_bh_disable();
	assert_int_equal(preempt_count(), SOFTIRQ_DISABLE_OFFSET);
	local_bh_enable();
	__preempt_count_add(HARDIRQ_OFFSET);
	assert_true(in_hardirq());
	__preempt_count_sub(HARDIRQ_OFFSET);
	assert_int_equal(preempt_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(preempt_disable_leaves_the_word_alone),
		cmocka_unit_test(preemptible_is_zero),
		cmocka_unit_test(raw_spinlocks_exclude_without_counting),
		cmocka_unit_test(the_rest_of_the_word_still_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
