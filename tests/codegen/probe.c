// SPDX-License-Identifier: MIT
/*
 * Compiled as a user would compile kernel-style code against the headers;
 * test_codegen disassembles the object.  One function per primitive.
 */
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>

void probe_preempt_disable(void);
void probe_preempt_enable(void);
int probe_in_atomic(void);
void probe_external(void);
int probe_word_across_calls(void);

void probe_preempt_disable(void)
{
	preempt_disable();
}

void probe_preempt_enable(void)
{
	preempt_enable();
}

int probe_in_atomic(void)
{
	return in_atomic();
}

/* Each call may be a preemption point the task resumes from elsewhere. */
int probe_word_across_calls(void)
{
	preempt_disable();
	probe_external();
	preempt_enable();
	probe_external();
	return in_atomic();
}

int probe_spin_until_resched(void);
int probe_spin_while_atomic(void);
int probe_word_read_twice(void);

/* A wait loop with nothing else in it: the word must be read each turn. */
int probe_spin_until_resched(void)
{
	while (!need_resched())
		;
	return 1;
}

int probe_spin_while_atomic(void)
{
	while (preempt_count())
		;
	return 0;
}

/* Two reads, two loads: a handler may have changed the word in between. */
int probe_word_read_twice(void)
{
	int before = preempt_count();

	return preempt_count() - before;
}

/* Every primitive that updates the word, for the arm64 discipline check:
 * each update one atomic read-modify-write, never a plain store. */
void probe_update_irq_save_restore(void);
void probe_update_irq_disable_enable(void);
void probe_update_need_resched(void);
void probe_update_count_set(int pc);
void probe_update_count_add_sub(unsigned int val);

void probe_update_irq_save_restore(void)
{
	unsigned long flags;

	local_irq_save(flags);
	local_irq_restore(flags);
}

void probe_update_irq_disable_enable(void)
{
	local_irq_disable();
	local_irq_enable();
}

void probe_update_need_resched(void)
{
	set_preempt_need_resched();
	clear_preempt_need_resched();
}

void probe_update_count_set(int pc)
{
	preempt_count_set(pc);
}

void probe_update_count_add_sub(unsigned int val)
{
	__preempt_count_add(val);
	__preempt_count_sub(val);
}
