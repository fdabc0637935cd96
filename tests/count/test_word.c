// SPDX-License-Identifier: MIT
/* The word itself: layout, nesting, the inverted need-resched bit. */
#include <pthread.h>

#include <preempt/irqflags.h>
#include <preempt/preempt.h>

#include "pk_test.h"

static void offsets_are_the_kernels(void **state)
{
	(void)state;
	assert_int_equal(PREEMPT_OFFSET, 0x1);
	assert_int_equal(SOFTIRQ_OFFSET, 0x100);
	assert_int_equal(SOFTIRQ_DISABLE_OFFSET, 0x200);
	assert_int_equal(HARDIRQ_OFFSET, 0x10000);
	assert_int_equal(NMI_OFFSET, 0x100000);
	assert_int_equal(PREEMPT_NEED_RESCHED, 0x80000000U);
	assert_int_equal(PREEMPT_MASK, 0x000000ff);
	assert_int_equal(SOFTIRQ_MASK, 0x0000ff00);
	assert_int_equal(HARDIRQ_MASK, 0x000f0000);
	assert_int_equal(NMI_MASK, 0x00f00000);
	/* Ours: the free bits 24-30, nothing else. */
	assert_int_equal(HARDIRQ_DISABLE_MASK, 0x7f000000);
	assert_int_equal(HARDIRQ_DISABLE_MASK &
				 (PREEMPT_MASK | SOFTIRQ_MASK | HARDIRQ_MASK |
				  NMI_MASK | PREEMPT_NEED_RESCHED),
			 0);
	assert_int_equal(SOFTIRQ_LOCK_OFFSET, 0x201);
	assert_int_equal(FORK_PREEMPT_COUNT & ~PREEMPT_NEED_RESCHED, 2);
	assert_int_equal(PREEMPT_DISABLED & ~PREEMPT_NEED_RESCHED, 1);
}

static void *fresh_thread(void *arg)
{
	int *out = arg;

	out[0] = preempt_count();
	out[1] = preemptible();
	out[2] = test_preempt_need_resched();
	out[3] = (int)(pk_preempt_word == PREEMPT_ENABLED);
	preempt_disable(); /* must not leak into other threads */
	preempt_enable();
	return NULL;
}

static void a_new_thread_is_a_preemptible_task(void **state)
{
	int out[4] = {-1, -1, -1, -1};
	pthread_t t;

	(void)state;
	preempt_disable();
	assert_int_equal(pthread_create(&t, NULL, fresh_thread, out), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
	preempt_enable();
	assert_int_equal(out[0], 0);
	assert_int_equal(out[1], 1);
	assert_int_equal(out[2], 0);
	assert_int_equal(out[3], 1);
	assert_int_equal(preempt_count(), 0);
}

static void preempt_disable_nests(void **state)
{
	(void)state;
	for (int i = 1; i <= 10; i++) {
		preempt_disable();
		assert_int_equal(preempt_count(), i);
		assert_true(in_atomic());
		assert_false(preemptible());
	}
	for (int i = 9; i >= 0; i--) {
		preempt_enable();
		assert_int_equal(preempt_count(), i);
	}
	assert_true(preemptible());
	capture_reset();
	if (CONFIG_DEBUG_PREEMPT) {
		preempt_enable_no_resched(); /* underflow: refused */
		assert_int_equal(preempt_count(), 0);
		assert_int_equal(captured.nr, 1);
	}
	preempt_disable_notrace();
	assert_int_equal(preempt_count(), 1);
	preempt_enable_notrace();
	assert_int_equal(preempt_count(), 0);
	capture_stop();
}

static void need_resched_is_stored_inverted(void **state)
{
	(void)state;
	assert_true(pk_preempt_word & PREEMPT_NEED_RESCHED);
	set_preempt_need_resched();
	assert_false(pk_preempt_word & PREEMPT_NEED_RESCHED);
	assert_true(test_preempt_need_resched());
	/* preempt_count() hides the bit; should_resched() sees the raw word. */
	assert_int_equal(preempt_count(), 0);
	assert_true(should_resched(0));
	preempt_disable_notrace();
	assert_false(should_resched(0));
	assert_true(should_resched(PREEMPT_OFFSET));
	preempt_enable_no_resched_notrace();
	clear_preempt_need_resched();
	assert_false(test_preempt_need_resched());
	assert_false(should_resched(0));
	assert_int_equal(pk_preempt_word, PREEMPT_ENABLED);
}

static void preempt_count_set_keeps_need_resched(void **state)
{
	(void)state;
	set_preempt_need_resched();
	preempt_count_set(0x203);
	assert_int_equal(preempt_count(), 0x203);
	assert_true(test_preempt_need_resched());
	preempt_count_set(0);
	clear_preempt_need_resched();
	preempt_count_set(PREEMPT_DISABLED);
	assert_int_equal(preempt_count(), 1);
	assert_false(test_preempt_need_resched());
	preempt_count_set(0);
}

static void irq_save_restore_nests_in_the_word(void **state)
{
	unsigned long outer, inner;

	(void)state;
	local_irq_save(outer);
	assert_false(irqs_disabled_flags(outer));
	assert_true(irqs_disabled());
	assert_int_equal(preempt_count(), HARDIRQ_DISABLE_OFFSET);
	assert_true(in_atomic());
	assert_false(preemptible());
	local_irq_save(inner);
	assert_true(irqs_disabled_flags(inner));
	assert_int_equal(pk_irq_disable_depth(), 2);
	local_irq_restore(inner);
	assert_true(irqs_disabled());
	assert_int_equal(pk_irq_disable_depth(), 1);
	local_irq_restore(outer);
	assert_false(irqs_disabled());
	assert_int_equal(preempt_count(), 0);
}

static void irq_enable_enables_whatever_the_depth(void **state)
{
	unsigned long flags;

	(void)state;
	/* As the hardware flag: disable twice, enable once, interrupts on. */
	local_irq_disable();
	local_irq_disable();
	assert_int_equal(pk_irq_disable_depth(), 2);
	local_irq_enable();
	assert_false(irqs_disabled());
	/* A restore puts back what save found, even after an enable. */
	local_irq_disable();
	local_irq_save(flags);
	local_irq_enable();
	local_irq_restore(flags); /* restore with irqs on: warned once */
	assert_true(irqs_disabled());
	local_irq_enable();
	assert_int_equal(preempt_count(), 0);
}

static void irq_disable_saturates(void **state)
{
	(void)state;
	for (int i = 0; i < 200; i++)
		local_irq_disable();
	assert_int_equal(pk_irq_disable_depth(), 127);
	/* Nothing spilled into the need-resched bit. */
	assert_false(test_preempt_need_resched());
	local_irq_enable();
	assert_int_equal(pk_preempt_word, PREEMPT_ENABLED);
}

static void preempt_and_irqs_share_the_word(void **state)
{
	unsigned long flags;

	(void)state;
	set_preempt_need_resched();
	local_irq_save(flags);
	/* preempt_enable() reaching depth 0 with irqs off must not trigger. */
	preempt_disable_notrace();
	assert_false(should_resched(PREEMPT_OFFSET));
	preempt_enable_no_resched_notrace();
	local_irq_restore(flags);
	assert_true(should_resched(0));
	clear_preempt_need_resched();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(offsets_are_the_kernels),
		cmocka_unit_test(a_new_thread_is_a_preemptible_task),
		cmocka_unit_test(preempt_disable_nests),
		cmocka_unit_test(need_resched_is_stored_inverted),
		cmocka_unit_test(preempt_count_set_keeps_need_resched),
		cmocka_unit_test(irq_save_restore_nests_in_the_word),
		cmocka_unit_test(irq_enable_enables_whatever_the_depth),
		cmocka_unit_test(irq_disable_saturates),
		cmocka_unit_test(preempt_and_irqs_share_the_word),
	};

	capture_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
