// SPDX-License-Identifier: MIT
/*
 * The seed's promise: every predicate gives the same answer under every
 * preemption model, and that answer is the kernel's definition.
 *
 * The probe script walks the real word through every context transition.
 * At each step this test knows, from its own table, what the count must
 * be; it derives every predicate from that count with the kernel's
 * definitions (include/linux/preempt.h) and compares with what the library
 * answers, model by model.  Built twice: with debug checks on and off.
 */
#include <preempt/preempt.h>
#include <preempt/probe.h>

#include "pk_test.h"

#define IRQ_OFF HARDIRQ_DISABLE_OFFSET

/* The count after each step of pk_probe_script, worked out by hand. */
static const unsigned int expected_count[] = {
	0x1,
	0x2,
	0x1,
	0x0,
	0x200,
	0x201,
	0x200,
	0x0,
	IRQ_OFF,
	2 * IRQ_OFF,
	IRQ_OFF,
	0x0,
	IRQ_OFF,
	0x0,
	0x100,
	0x300,
	0x10300 + IRQ_OFF,
	0x120300 + IRQ_OFF,
	0x10300 + IRQ_OFF,
	0x300,
	0x100,
	0x0,
	0x10000 + IRQ_OFF,
	0x20000 + 2 * IRQ_OFF,
	0x20001 + 2 * IRQ_OFF,
	0x20000 + 2 * IRQ_OFF,
	0x10000 + IRQ_OFF,
	0x0,
	0x1,
	0x110001,
	0x220001,
	0x110001,
	0x1,
	0x0,
};

/* The kernel's definitions, applied to a count by hand. */
static void kernel_definitions(unsigned int pc, struct pk_context *k)
{
	bool irqs_off = (pc & 0x7f000000) != 0;

	*k = (struct pk_context){
		.count = pc,
		.hardirq_count = pc & 0x000f0000,
		.softirq_count = pc & 0x0000ff00,
		.nmi_count = pc & 0x00f00000,
		.irq_count = pc & 0x00ffff00,
		.in_nmi = (pc & 0x00f00000) != 0,
		.in_hardirq = (pc & 0x000f0000) != 0,
		.in_serving_softirq = (pc & 0x100) != 0,
		.in_softirq = (pc & 0xff00) != 0,
		.in_interrupt = (pc & 0x00ffff00) != 0,
		.in_task = !(pc & (0x00f00000 | 0x000f0000 | 0x100)),
		.in_atomic = pc != 0,
		.in_atomic_preempt_off = pc != 1,
		.preemptible = pc == 0 && !irqs_off,
		.irqs_disabled = irqs_off,
		.interrupt_context_level = (pc & 0x00f00000)   ? 3
					   : (pc & 0x000f0000) ? 2
					   : (pc & 0x100)      ? 1
							       : 0,
		.need_resched = false,
	};
}

static void assert_context_equal(const struct pk_context *want,
				 const struct pk_context *got, const char *who,
				 size_t step)
{
	if (!memcmp(want, got, sizeof(*want)))
		return;
	fail_msg("step %zu (%s), %s: count %#x want %#x; in_task %d/%d "
		 "in_atomic %d/%d preemptible %d/%d irqs_disabled %d/%d "
		 "level %u/%u",
		 step, pk_probe_script[step].what, who, got->count, want->count,
		 got->in_task, want->in_task, got->in_atomic, want->in_atomic,
		 got->preemptible, want->preemptible, got->irqs_disabled,
		 want->irqs_disabled, got->interrupt_context_level,
		 want->interrupt_context_level);
}

static void walk(struct pk_context *seen)
{
	struct pk_probe_state st = {0};

	for (size_t i = 0; i < pk_probe_script_len; i++) {
		assert_int_equal(pk_probe_apply(&st, pk_probe_script[i].op), 0);
		pk_context_read(&seen[i]);
	}
	assert_int_equal(st.depth, 0);
}

static void script_and_table_agree(void **state)
{
	(void)state;
	assert_int_equal(pk_probe_script_len,
			 sizeof(expected_count) / sizeof(expected_count[0]));
}

static void every_model_gives_the_kernels_answers(void **state)
{
	struct pk_context first[64], seen[64], kernel;

	(void)state;
	assert_true(pk_probe_script_len <= 64);
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		assert_int_equal(preempt_model_set((enum preempt_model)m), 0);
		walk(m ? seen : first);
		for (size_t i = 0; i < pk_probe_script_len; i++) {
			kernel_definitions(expected_count[i], &kernel);
			assert_context_equal(&kernel, m ? &seen[i] : &first[i],
					     preempt_model_str(m), i);
			if (m)
				assert_context_equal(&first[i], &seen[i],
						     "vs model none", i);
		}
	}
	assert_int_equal(captured.nr, 0);
	assert_int_equal(preempt_count(), 0);
}

static void the_script_covers_every_context(void **state)
{
	bool level_seen[4] = {0}, bh_off = false, irqs_off = false;
	bool nmi_in_hardirq_in_softirq = false;

	(void)state;
	for (size_t i = 0; i < pk_probe_script_len; i++) {
		struct pk_context k;

		kernel_definitions(expected_count[i], &k);
		level_seen[k.interrupt_context_level] = true;
		bh_off |= (k.softirq_count & 0x200) && k.in_task;
		irqs_off |= k.irqs_disabled && k.in_task;
		nmi_in_hardirq_in_softirq |= k.in_nmi && k.in_serving_softirq;
	}
	for (int l = 0; l < 4; l++)
		assert_true(level_seen[l]);
	assert_true(bh_off);
	assert_true(irqs_off);
	assert_true(nmi_in_hardirq_in_softirq);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(script_and_table_agree),
		cmocka_unit_test(every_model_gives_the_kernels_answers),
		cmocka_unit_test(the_script_covers_every_context),
	};

	capture_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
