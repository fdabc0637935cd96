// SPDX-License-Identifier: MIT
/*
 * kernel/workqueue.c itself, driven by the machine: boot ran its
 * workqueue_init_early(), workqueue_init() and workqueue_init_topology(),
 * the scheduler reports its workers' sleeps and wake-ups, the tick calls
 * wq_worker_tick().  Items run (system_wq, a queue of one's own), on the
 * CPU asked for; an item that sleeps lets the next item of its CPU's pool
 * run (concurrency management), items that never sleep run one at a
 * time; flush_work() waits for an item; cancel_work_sync() takes a
 * pending one off; a delayed item is moved by mod_delayed_work() and
 * stopped by cancel_delayed_work_sync(); an ordered queue runs its items
 * one at a time in order; an item that runs past the CPU-intensive
 * threshold (run time counted by the tick) is marked so by the tick's
 * wq_worker_tick() and the next item of its pool starts, on the same CPU
 * where tasks are preempted (full, lazy, rt); a BH queue's item runs in
 * softirq context;
 * an item queued from an interrupt handler runs;
 * destroy_workqueue() drains; nothing is reported (no lockdep splat, no
 * sleep in atomic context).  All in one boot: the file's pools are made
 * once, as in a kernel.
 */

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/smp.h>
#include <linux/workqueue.h>
#include <preempt/debug.h>

#include "check.h"
/* The file's private header (struct worker): the kernel's, extracted. */
#include "workqueue_internal.h"

/* The file's worker flag for CPU-intensive (its private enum, 6.12). */
#define WORKER_CPU_INTENSIVE (1 << 6)

#define LINE 9

/* ---- runs, where asked */

static atomic_t ran;
static int ran_on;

static void note_cpu(struct work_struct *w)
{
	WRITE_ONCE(ran_on, raw_smp_processor_id());
	atomic_inc(&ran);
}

static int runs_where_asked(void)
{
	struct work_struct w;

	INIT_WORK_ONSTACK(&w, note_cpu);
	atomic_set(&ran, 0);
	if (!schedule_work(&w) || !flush_work(&w) || atomic_read(&ran) != 1)
		return -1;
	for (int cpu = 0; cpu < 2; cpu++) {
		WRITE_ONCE(ran_on, -1);
		if (!queue_work_on(cpu, system_wq, &w))
			return -2;
		flush_work(&w);
		if (READ_ONCE(ran_on) != cpu)
			return -3;
	}
	/* Idle: nothing to wait for. */
	return flush_work(&w) ? -4 : 0;
}

/* ---- concurrency management on a bound queue */

static DECLARE_COMPLETION(second_ran);
static long sleeper_left;
static int sleeper_cpu, second_cpu;

static void sleeper(struct work_struct *w)
{
	sleeper_cpu = raw_smp_processor_id();
	/* The pool runs the second item only if it learns of this sleep. */
	sleeper_left = wait_for_completion_timeout(&second_ran, 5 * HZ);
}

static void second(struct work_struct *w)
{
	second_cpu = raw_smp_processor_id();
	complete(&second_ran);
}

static atomic_t busy_now, busy_max;

static void busy(struct work_struct *w)
{
	int now = atomic_inc_return(&busy_now);

	if (now > atomic_read(&busy_max))
		atomic_set(&busy_max, now);
	udelay(2000); /* short of the CPU-intensive threshold (10 ms) */
	atomic_dec(&busy_now);
}

static int concurrency_managed(void)
{
	struct workqueue_struct *wq = alloc_workqueue("cm", 0, 0);
	struct work_struct s, t, b[4];

	if (!wq)
		return -1;
	INIT_WORK_ONSTACK(&s, sleeper);
	INIT_WORK_ONSTACK(&t, second);
	queue_work_on(0, wq, &s);
	queue_work_on(0, wq, &t);
	flush_work(&s);
	flush_work(&t);
	if (sleeper_left <= 0 || sleeper_cpu != 0 || second_cpu != 0)
		return -2;
	for (int i = 0; i < 4; i++) {
		INIT_WORK_ONSTACK(&b[i], busy);
		queue_work_on(0, wq, &b[i]);
	}
	flush_workqueue(wq);
	destroy_workqueue(wq);
	return atomic_read(&busy_max) == 1 ? 0 : -3;
}

/* ---- cancel, flush, delayed work */

static DECLARE_COMPLETION(go);

static void blocker(struct work_struct *w)
{
	wait_for_completion(&go);
}

static void counted(struct work_struct *w)
{
	atomic_inc(&ran);
}

static int cancel_and_delay(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("cd", 0);
	struct work_struct blk, victim;
	struct delayed_work dw;

	if (!wq)
		return -1;
	atomic_set(&ran, 0);
	INIT_WORK_ONSTACK(&blk, blocker);
	INIT_WORK_ONSTACK(&victim, counted);
	queue_work(wq, &blk);
	queue_work(wq, &victim);
	/* Pending behind the blocker: taken off, never runs. */
	if (!cancel_work_sync(&victim) || work_pending(&victim))
		return -2;
	complete(&go);
	flush_workqueue(wq);
	if (atomic_read(&ran) != 0)
		return -3;

	INIT_DELAYED_WORK_ONSTACK(&dw, counted);
	queue_delayed_work(wq, &dw, 100 * HZ);
	if (!delayed_work_pending(&dw) || !mod_delayed_work(wq, &dw, 1))
		return -4;
	for (int i = 0; i < 2000 && atomic_read(&ran) == 0; i++)
		msleep(1);
	if (atomic_read(&ran) != 1)
		return -5;
	queue_delayed_work(wq, &dw, 100 * HZ);
	if (!cancel_delayed_work_sync(&dw) || delayed_work_pending(&dw))
		return -6;
	schedule_delayed_work(&dw, 100 * HZ);
	flush_delayed_work(&dw); /* queued at once, then waited for */
	if (atomic_read(&ran) != 2)
		return -7;
	destroy_workqueue(wq);
	return 0;
}

/* ---- an ordered queue */

#define NR_ORDERED 8
static int order[NR_ORDERED], next_slot;
static atomic_t ordered_now;
static bool overlapped;

struct numbered {
	struct work_struct work;
	int n;
};

static void in_order(struct work_struct *w)
{
	struct numbered *item = container_of(w, struct numbered, work);

	if (atomic_inc_return(&ordered_now) != 1)
		overlapped = true;
	if (item->n % 3 == 0)
		msleep(1); /* a sleeper does not let the next one start */
	order[next_slot++] = item->n;
	atomic_dec(&ordered_now);
}

static int ordered(void)
{
	struct workqueue_struct *wq = alloc_ordered_workqueue("ord-%d", 0, 1);
	struct numbered items[NR_ORDERED];

	if (!wq)
		return -1;
	for (int i = 0; i < NR_ORDERED; i++) {
		INIT_WORK_ONSTACK(&items[i].work, in_order);
		items[i].n = i;
		queue_work_on(i % 2, wq, &items[i].work);
	}
	destroy_workqueue(wq); /* drains first */
	if (overlapped || next_slot != NR_ORDERED)
		return -2;
	for (int i = 0; i < NR_ORDERED; i++)
		if (order[i] != i)
			return -3;
	return 0;
}

/* ---- CPU-intensive items (the tick's wq_worker_tick()) */

static atomic_t quick_ran;
static bool hog_intensive, hog_saw_quick;

static void hog(struct work_struct *w)
{
	struct worker *worker = kthread_data(current);
	unsigned long end = jiffies + msecs_to_jiffies(300);

	/*
	 * Spinning in this file's code (a task is preempted from an interrupt
	 * only there): past the 10 ms threshold of run time, counted by the
	 * tick, the pool stops counting this worker and wakes another for
	 * the next item, which takes the CPU where tasks are preempted.
	 */
	while (time_before(jiffies, end) && !atomic_read(&quick_ran))
		cpu_relax();
	hog_saw_quick = atomic_read(&quick_ran);
	hog_intensive = worker->flags & WORKER_CPU_INTENSIVE;
}

static void quick(struct work_struct *w)
{
	atomic_set(&quick_ran, 1);
}

static int cpu_intensive(void)
{
	struct workqueue_struct *wq = alloc_workqueue("ci", 0, 0);
	struct work_struct h, q;
	bool preemptible = preempt_model_full() || preempt_model_lazy() ||
			   preempt_model_rt();

	if (!wq)
		return -1;
	INIT_WORK_ONSTACK(&h, hog);
	INIT_WORK_ONSTACK(&q, quick);
	queue_work_on(0, wq, &h);
	queue_work_on(0, wq, &q);
	flush_workqueue(wq);
	destroy_workqueue(wq);
	if (!hog_intensive)
		return -2;
	return hog_saw_quick == preemptible ? 0 : -3;
}

/* ---- a BH workqueue: items in softirq context */

static bool bh_in_softirq;

static void bh_item(struct work_struct *w)
{
	bh_in_softirq = in_serving_softirq();
	atomic_inc(&ran);
}

static int bh_workqueue(void)
{
	struct work_struct w;

	atomic_set(&ran, 0);
	INIT_WORK_ONSTACK(&w, bh_item);
	queue_work(system_bh_wq, &w);
	flush_work(&w);
	return atomic_read(&ran) == 1 && bh_in_softirq ? 0 : -1;
}

/* ---- from an interrupt handler */

static struct work_struct irq_work_item;
static bool irq_queued;

static irqreturn_t handler(int irq, void *dev)
{
	WRITE_ONCE(irq_queued, queue_work(system_highpri_wq, &irq_work_item));
	return IRQ_HANDLED;
}

static int from_interrupt(void)
{
	atomic_set(&ran, 0);
	INIT_WORK(&irq_work_item, counted);
	if (request_irq(LINE, handler, IRQF_NO_THREAD, "wq", NULL))
		return -1;
	irq_raise(LINE, pk_vcpu_irq_cpu(1));
	for (int i = 0; i < 2000 && atomic_read(&ran) == 0; i++)
		msleep(1);
	free_irq(LINE, NULL);
	return READ_ONCE(irq_queued) && atomic_read(&ran) == 1 ? 0 : -2;
}

static int all(void *arg)
{
	int (*const steps[])(void) = {runs_where_asked, concurrency_managed,
				      cancel_and_delay, ordered,
				      cpu_intensive,	bh_workqueue,
				      from_interrupt};

	(void)arg;
	for (unsigned int i = 0; i < ARRAY_SIZE(steps); i++) {
		int ret = steps[i]();

		if (ret) {
			pr_err("check_workqueue: step %u: %d\n", i, ret);
			return (int)i * 100 + ret;
		}
	}
	return 0;
}

static void kernel_workqueue(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(all, NULL), 0);
	machine_shutdown();
	/* No splat on the way: no lock misuse, no sleep in atomic context. */
	assert_int_equal(pk_report_count(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_workqueue),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
