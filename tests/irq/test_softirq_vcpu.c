// SPDX-License-Identifier: MIT
/*
 * Softirqs and a task's bh-disabled section on a vCPU, where nothing but
 * the count holds them off (a thread that is no vCPU also claims its
 * CPU's softirq owner word): an interrupt whose exit finds bh disabled
 * leaves the softirq pending, and the outermost local_bh_enable() runs it,
 * on the task, before it returns.
 */
#define _GNU_SOURCE

#include <preempt/bottom_half.h>
#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "pk_machine.h"

#define LINE 7

static int handled, runs, runs_before_enable, runs_after_enable;
static int pending_before_enable;
static pid_t run_pid;

static void block_action(void)
{
	run_pid = current->pid;
	runs++;
}

static irqreturn_t raise_block(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	handled++;
	raise_softirq(BLOCK_SOFTIRQ);
	return IRQ_HANDLED;
}

static int bh_section(void *arg)
{
	(void)arg;
	local_bh_disable();
	/* The machine's only vCPU is the first CPU of the irq layer. */
	if (irq_raise(LINE, 0))
		return -1;
	runs_before_enable = runs;
	pending_before_enable =
		!!(local_softirq_pending() & (1U << BLOCK_SOFTIRQ));
	local_bh_enable();
	runs_after_enable = runs;
	return current->pid;
}

static void irq_exit_leaves_it_to_bh_enable(void **state)
{
	struct task_struct *t;
	int pid;

	(void)state;
	open_softirq(BLOCK_SOFTIRQ, block_action);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	assert_int_equal(request_irq(LINE, raise_block, 0, "blk", NULL), 0);
	t = kthread_run(bh_section, NULL, "bh");
	pid = kthread_stop(t);
	free_irq(LINE, NULL);
	assert_true(pid > 0);
	assert_int_equal(handled, 1); /* on the task's own vCPU, at once */
	assert_int_equal(runs_before_enable, 0); /* irq exit saw bh off */
	assert_true(pending_before_enable);
	assert_int_equal(runs, 1);	/* the enable ran it ... */
	assert_int_equal(run_pid, pid); /* ... on the task, not ksoftirqd */
	open_softirq(BLOCK_SOFTIRQ, NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(irq_exit_leaves_it_to_bh_enable,
					  machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
