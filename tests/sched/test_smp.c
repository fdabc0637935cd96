// SPDX-License-Identifier: MIT
/*
 * Cross-CPU calls: the function runs on each target vCPU in hardirq
 * context with interrupts disabled, on the caller's own CPU in place with
 * interrupts disabled; with wait, every run has finished on return.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <preempt/delay.h>
#include <preempt/hardirq.h>
#include <preempt/irqflags.h>
#include <preempt/smp.h>
#include <preempt/wait.h>

#include "pk_machine.h"

struct seen {
	int count;
	unsigned long cpus;    /* bit per CPU it ran on */
	unsigned long hardirq; /* bit per CPU where in_hardirq() */
	int irqs_on;	       /* runs with interrupts enabled: must stay 0 */
};

static void note(void *arg)
{
	struct seen *s = arg;
	int cpu = raw_smp_processor_id();

	__atomic_or_fetch(&s->cpus, 1UL << cpu, __ATOMIC_SEQ_CST);
	if (in_hardirq())
		__atomic_or_fetch(&s->hardirq, 1UL << cpu, __ATOMIC_SEQ_CST);
	if (!irqs_disabled())
		__atomic_add_fetch(&s->irqs_on, 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&s->count, 1, __ATOMIC_SEQ_CST);
}

/* From a host thread: runs on the target, done on return. */
static void single_call_waits(void **state)
{
	struct seen s = {0};

	(void)state;
	pk_boot_online(3, PREEMPT_MODEL_FULL);
	assert_int_equal(smp_call_function_single(2, note, &s, 1), 0);
	assert_int_equal(s.count, 1);
	assert_int_equal(s.cpus, 1UL << 2);
	assert_int_equal(s.hardirq, 1UL << 2);
	assert_int_equal(s.irqs_on, 0);
	assert_int_equal(smp_call_function_single(3, note, &s, 1), -ENXIO);
	assert_int_equal(captured.nr, 0);
}

static struct seen task_seen;
static unsigned long mask_bits[1];

static int on_each_from_cpu0(void *arg)
{
	(void)arg;
	on_each_cpu(note, &task_seen, 1);
	return task_seen.count;
}

/* on_each_cpu() from a task: every CPU, its own in place (not hardirq). */
static void on_each_cpu_includes_the_caller(void **state)
{
	struct task_struct *k;

	(void)state;
	memset(&task_seen, 0, sizeof(task_seen));
	pk_boot_online(3, PREEMPT_MODEL_FULL);
	k = kthread_create(on_each_from_cpu0, NULL, "each");
	kthread_bind(k, 0);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 3);
	assert_int_equal(task_seen.cpus, 0x7);
	assert_int_equal(task_seen.hardirq, 0x6); /* not CPU 0: the caller */
	assert_int_equal(task_seen.irqs_on, 0);
}

static int mask_from_cpu0(void *arg)
{
	(void)arg;
	on_each_cpu_mask((const struct cpumask *)mask_bits, note, &task_seen,
			 true);
	smp_call_function(note, &task_seen, 1); /* the others: 1 and 2 */
	return 0;
}

/* on_each_cpu_mask(): only the CPUs in the mask; a plain bitmap works. */
static void on_each_cpu_mask_honours_the_mask(void **state)
{
	struct task_struct *k;

	(void)state;
	memset(&task_seen, 0, sizeof(task_seen));
	mask_bits[0] = (1UL << 0) | (1UL << 2);
	pk_boot_online(3, PREEMPT_MODEL_FULL);
	k = kthread_create(mask_from_cpu0, NULL, "mask");
	kthread_bind(k, 0);
	wake_up_process(k);
	kthread_stop(k);
	assert_int_equal(task_seen.count, 4);
	assert_int_equal(task_seen.cpus, 0x7);
}

/* Without wait: returns at once; the calls still happen. */
static void async_calls_arrive(void **state)
{
	static struct seen s;
	long t0;

	(void)state;
	memset(&s, 0, sizeof(s));
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 50; i++)
		smp_call_function(note, &s, 0);
	t0 = now_ms();
	while (__atomic_load_n(&s.count, __ATOMIC_SEQ_CST) < 100 &&
	       now_ms() - t0 < 20000)
		msleep(1);
	assert_int_equal(s.count, 100);
	assert_int_equal(s.hardirq, 0x3);
}

static int async_csd_result[2];

static int send_async(void *arg)
{
	static call_single_data_t csd;
	static struct seen s;

	(void)arg;
	INIT_CSD(&csd, note, &s);
	async_csd_result[0] = smp_call_function_single_async(1, &csd);
	while (!__atomic_load_n(&s.count, __ATOMIC_SEQ_CST))
		msleep(1);
	async_csd_result[1] = s.hardirq == 2;
	return 0;
}

static void single_async_with_own_csd(void **state)
{
	struct task_struct *k;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(send_async, NULL, "async");
	kthread_bind(k, 0);
	wake_up_process(k);
	kthread_stop(k);
	assert_int_equal(async_csd_result[0], 0);
	assert_int_equal(async_csd_result[1], 1);
}

/* Interrupts disabled: reported (it can deadlock), and it still works. */
static int call_irqs_off(void *arg)
{
	struct seen *s = arg;

	local_irq_disable();
	smp_call_function_single(1, note, s, 1);
	local_irq_enable();
	return s->count;
}

static void call_with_irqs_disabled_warns(void **state)
{
	static struct seen s;
	struct task_struct *k;

	(void)state;
	memset(&s, 0, sizeof(s));
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(call_irqs_off, &s, "irqsoff");
	kthread_bind(k, 0);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 1);
	assert_true(captured.nr >= 1);
	assert_report_contains("WARNING");
	assert_report_contains("smp");
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(single_call_waits),
		T(on_each_cpu_includes_the_caller),
		T(on_each_cpu_mask_honours_the_mask),
		T(async_calls_arrive),
		T(single_async_with_own_csd),
		T(call_with_irqs_disabled_warns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
