// SPDX-License-Identifier: MIT
/*
 * kernel/irq_work.c driven by the machine: irq_work_queue() raises the
 * irq_work line (arch_irq_work_raise()) and the callback runs in hardirq
 * context on the queueing CPU; irq_work_queue_on() reaches another CPU
 * through __smp_call_single_queue(); a lazy item waits for the tick's
 * irq_work_tick(); a pending item is not queued twice, a running one may
 * be; queueing from an interrupt handler works; irq_work_sync() waits for
 * a callback running on the other CPU.  Under PREEMPT_RT the kernel's
 * file runs items not marked IRQ_WORK_HARD_IRQ in its per-CPU
 * "irq_work/N" threads (smpboot), in task context.
 *
 * Built also as the ctest kernel/test_irq_work_kernel, against the kernel
 * side's own irq_work (src/kernel/irq_work.c), which runs every item in
 * hardirq context: PK_OWN_IRQ_WORK.
 */

#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/irq_work.h>

#include "check.h"

#ifdef PK_OWN_IRQ_WORK
#define SOFT_ITEMS_IN_TASK 0
#else
#define SOFT_ITEMS_IN_TASK IS_ENABLED(CONFIG_PREEMPT_RT)
#endif

#define LINE 7

struct probe {
	struct irq_work work;
	atomic_t runs;
	int cpu;
	bool hardirq, irqs_off, task;
	bool requeued;
};

static void probe_fn(struct irq_work *w)
{
	struct probe *p = container_of(w, struct probe, work);

	p->cpu = smp_processor_id();
	p->hardirq = in_hardirq();
	p->irqs_off = irqs_disabled();
	p->task = in_task();
	atomic_inc(&p->runs);
}

/* Up to 2 s for @p to have run @n times. */
static bool ran(struct probe *p, int n)
{
	for (int i = 0; i < 2000 && atomic_read(&p->runs) < n; i++)
		msleep(1);
	return atomic_read(&p->runs) >= n;
}

static bool context_ok(struct probe *p, bool hard)
{
	if (SOFT_ITEMS_IN_TASK && !hard)
		return p->task && !p->hardirq;
	return p->hardirq && p->irqs_off;
}

static struct probe local, hard, remote, lazy, from_irq;

static int queue_local(void *arg)
{
	int cpu;

	(void)arg;
	init_irq_work(&local.work, probe_fn);
	local_irq_disable();
	cpu = smp_processor_id();
	if (!irq_work_queue(&local.work))
		return -1;
	/* Pending until this CPU takes the interrupt: not queued twice. */
	if (!irq_work_is_pending(&local.work) || irq_work_queue(&local.work))
		return -2;
	local_irq_enable();
	if (!ran(&local, 1) || local.cpu != cpu || !context_ok(&local, false))
		return -3;
	if (atomic_read(&local.runs) != 1)
		return -4;
	irq_work_sync(&local.work);
	if (irq_work_is_busy(&local.work))
		return -5;

	hard.work = IRQ_WORK_INIT_HARD(probe_fn);
	if (!irq_work_queue(&hard.work) || !ran(&hard, 1) ||
	    !context_ok(&hard, true))
		return -6;
	return 0;
}

static int queue_remote(void *arg)
{
	(void)arg;
	remote.work = IRQ_WORK_INIT_HARD(probe_fn);
	if (!irq_work_queue_on(&remote.work, 1))
		return -1;
	if (!ran(&remote, 1) || remote.cpu != 1 || !context_ok(&remote, true))
		return -2;
	/* A soft item on the other CPU, and one on this CPU by number. */
	remote.work = IRQ_WORK_INIT(probe_fn);
	if (!irq_work_queue_on(&remote.work, 1) || !ran(&remote, 2) ||
	    remote.cpu != 1 || !context_ok(&remote, false))
		return -3;
	if (!irq_work_queue_on(&remote.work, 0) || !ran(&remote, 3) ||
	    remote.cpu != 0)
		return -4;
	return 0;
}

static int queue_lazy(void *arg)
{
	(void)arg;
	lazy.work = IRQ_WORK_INIT_LAZY(probe_fn);
	if (!irq_work_queue(&lazy.work))
		return -1;
	/* No interrupt for it: the tick's irq_work_tick() runs it. */
	if (!ran(&lazy, 1) || !context_ok(&lazy, false))
		return -2;
	return 0;
}

static void queue_and_check(void **state, int (*fn)(void *))
{
	struct task_struct *t;
	unsigned long reports = pk_report_count();

	(void)state;
	check_boot(2);
	t = kthread_create(fn, NULL, "queuer");
	kthread_bind(t, 0);
	wake_up_process(t);
	assert_int_equal(kthread_stop(t), 0);
	assert_int_equal(pk_report_count(), reports);
	machine_shutdown();
}

static void local_items(void **state)
{
	queue_and_check(state, queue_local);
}

static void remote_items(void **state)
{
	queue_and_check(state, queue_remote);
}

static void lazy_items(void **state)
{
	queue_and_check(state, queue_lazy);
}

/* ---- from an interrupt handler; a running item requeued */

static irqreturn_t handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	irq_work_queue(&from_irq.work);
	return IRQ_HANDLED;
}

static void requeue_fn(struct irq_work *w)
{
	struct probe *p = container_of(w, struct probe, work);

	probe_fn(w);
	/* Pending is clear once the callback runs: this queues it anew. */
	if (atomic_read(&p->runs) == 1)
		p->requeued = irq_work_queue(w);
}

static void from_interrupt(void **state)
{
	(void)state;
	check_boot(2);
	from_irq.work = IRQ_WORK_INIT_HARD(requeue_fn);
	assert_int_equal(request_irq(LINE, handler, IRQF_NO_THREAD, "q", NULL),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	for (int i = 0; i < 2000 && atomic_read(&from_irq.runs) < 2; i++)
		usleep(1000);
	assert_int_equal(atomic_read(&from_irq.runs), 2);
	assert_true(from_irq.requeued);
	assert_int_equal(from_irq.cpu, 1);
	free_irq(LINE, NULL);
	machine_shutdown();
}

/* ---- irq_work_sync() waits for a callback running elsewhere */

static struct irq_work slow;
static bool slow_started, slow_done;

static void slow_fn(struct irq_work *w)
{
	(void)w;
	WRITE_ONCE(slow_started, true);
	mdelay(20);
	WRITE_ONCE(slow_done, true);
}

static int syncer(void *arg)
{
	(void)arg;
	slow = IRQ_WORK_INIT_HARD(slow_fn);
	if (!irq_work_queue_on(&slow, 1))
		return -1;
	while (!READ_ONCE(slow_started))
		cpu_relax();
	irq_work_sync(&slow);
	return READ_ONCE(slow_done) && !irq_work_is_busy(&slow) ? 0 : -2;
}

static void sync_waits(void **state)
{
	queue_and_check(state, syncer);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(local_items), cmocka_unit_test(remote_items),
		cmocka_unit_test(lazy_items),  cmocka_unit_test(from_interrupt),
		cmocka_unit_test(sync_waits),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
