// SPDX-License-Identifier: MIT
/*
 * irq_work: callbacks run in hardirq context on the CPU they were queued
 * for (a self-IPI, or the tick for lazy items), once per queueing while
 * pending, queued safely from an NMI; irq_work_sync() waits for a running
 * callback; a program's irq_work_tick() is called from the tick.
 */
#define _GNU_SOURCE
#include <preempt/delay.h>
#include <preempt/hardirq.h>
#include <preempt/interrupt.h>
#include <preempt/irq_work.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define NMI_LINE 9
#define LONG_WAIT (20 * pk_machine_hz())

static struct completion ran;
static int runs, hardirq, nmi, cpu_seen, spin_release;

static void record(struct irq_work *w)
{
	(void)w;
	hardirq = in_hardirq() && !in_nmi() && irqs_disabled();
	nmi = in_nmi();
	cpu_seen = raw_smp_processor_id();
	__atomic_add_fetch(&runs, 1, __ATOMIC_SEQ_CST);
	complete(&ran);
}

static void reset(void)
{
	runs = hardirq = nmi = 0;
	cpu_seen = -1;
	init_completion(&ran);
}

static void wait_ran(void)
{
	assert_true(wait_for_completion_timeout(&ran, LONG_WAIT) > 0);
}

/* The program's own hook: called from every tick once a machine runs. */
static unsigned long program_ticks;

void irq_work_tick(void)
{
	__atomic_add_fetch(&program_ticks, 1, __ATOMIC_RELAXED);
}

static struct irq_work work = IRQ_WORK_INIT(record);
static struct irq_work lazy = IRQ_WORK_INIT_LAZY(record);
static int task_result;

/* Queued twice with interrupts off: one run, at the enabling edge. */
static int queue_twice(void *arg)
{
	(void)arg;
	local_irq_disable();
	task_result = irq_work_queue(&work) && !irq_work_queue(&work) &&
		      irq_work_is_pending(&work);
	local_irq_enable(); /* the self-IPI is delivered here */
	/* A busy CPU ticks (an idle one may not: NO_HZ_IDLE). */
	while (!__atomic_load_n(&program_ticks, __ATOMIC_RELAXED))
		; /* spin: the busy CPU keeps its tick */
	return raw_smp_processor_id();
}

static void queue_runs_once_in_hardirq_on_this_cpu(void **state)
{
	struct task_struct *k;
	int cpu;

	(void)state;
	reset();
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(queue_twice, NULL, "queue");
	kthread_bind(k, 1);
	wake_up_process(k);
	cpu = kthread_stop(k);
	wait_ran();
	assert_true(task_result);
	assert_int_equal(runs, 1);
	assert_true(hardirq);
	assert_int_equal(cpu_seen, cpu);
	assert_int_equal(cpu, 1);
	assert_false(irq_work_is_busy(&work));
	assert_true(program_ticks > 0);
}

static int queue_lazy(void *arg)
{
	(void)arg;
	task_result = irq_work_queue(&lazy);
	return 0;
}

/* Lazy items run from the tick, in hardirq context too. */
static void lazy_work_runs_from_the_tick(void **state)
{
	struct task_struct *k;

	(void)state;
	reset();
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(queue_lazy, NULL, "lazy");
	kthread_stop(k);
	wait_ran();
	assert_true(task_result);
	assert_true(hardirq);
	assert_int_equal(runs, 1);
}

/* irq_work_queue_on(): on the CPU asked for, from a host thread too. */
static void queue_on_another_cpu(void **state)
{
	(void)state;
	reset();
	pk_boot_online(3, PREEMPT_MODEL_FULL);
	assert_true(irq_work_queue_on(&work, 2));
	wait_ran();
	assert_int_equal(cpu_seen, 2);
	assert_true(hardirq);
	/* A lazy item sent to another CPU goes at once, but it does run. */
	reset();
	assert_true(irq_work_queue_on(&lazy, 1));
	wait_ran();
	assert_int_equal(cpu_seen, 1);
}

/* From an NMI: queued there, run later in hardirq (not NMI) context. */
static irqreturn_t nmi_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	irq_work_queue(&work);
	return IRQ_HANDLED;
}

static void queue_from_nmi(void **state)
{
	int dev;

	(void)state;
	reset();
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_nmi(NMI_LINE, nmi_handler, 0, "nmi", &dev), 0);
	assert_int_equal(irq_raise(NMI_LINE, pk_vcpu_irq_cpu(1)), 0);
	wait_ran();
	assert_true(hardirq);
	assert_false(nmi);
	assert_int_equal(cpu_seen, 1);
	free_nmi(NMI_LINE, &dev);
}

/* irq_work_sync() returns only once the callback has returned. */
static int finished;

static void spinning(struct irq_work *w)
{
	(void)w;
	complete(&ran);
	while (!__atomic_load_n(&spin_release, __ATOMIC_SEQ_CST))
		;
	__atomic_store_n(&finished, 1, __ATOMIC_SEQ_CST);
}

static struct irq_work spinner = IRQ_WORK_INIT(spinning);

static int release_spinner(void *arg)
{
	(void)arg;
	msleep(30);
	__atomic_store_n(&spin_release, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static void sync_waits_for_the_callback(void **state)
{
	struct task_struct *k;

	(void)state;
	reset();
	finished = spin_release = 0;
	pk_boot_online(3, PREEMPT_MODEL_FULL);
	assert_true(irq_work_queue_on(&spinner, 2));
	wait_ran();
	assert_true(irq_work_is_busy(&spinner));
	k = kthread_create(release_spinner, NULL, "release");
	kthread_bind(k, 1);
	wake_up_process(k);
	irq_work_sync(&spinner);
	assert_true(__atomic_load_n(&finished, __ATOMIC_SEQ_CST));
	assert_false(irq_work_is_busy(&spinner));
	kthread_stop(k);
}

static void without_a_machine_it_warns(void **state)
{
	struct irq_work w;

	(void)state;
	init_irq_work(&w, record);
	assert_false(irq_work_queue(&w));
	assert_int_equal(captured.nr, 1);
	assert_report_contains("booted machine");
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(queue_runs_once_in_hardirq_on_this_cpu),
		T(lazy_work_runs_from_the_tick),
		T(queue_on_another_cpu),
		T(queue_from_nmi),
		T(sync_waits_for_the_callback),
		T(without_a_machine_it_warns),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
