// SPDX-License-Identifier: MIT
/*
 * Families 9 and 11 through the linux/ tree, as kernel code uses them:
 * a work item that sleeps lets the next item of its CPU's pool run (the
 * kernel's concurrency management), items that never sleep run one at a
 * time;
 * mod_delayed_work() moves a timer, cancel_delayed_work_sync() stops it;
 * a kthread_worker runs its items in order; smp_call_function_single()
 * runs on the CPU named with interrupts off, on_each_cpu() on all; wake_up()
 * wakes every non-exclusive waiter and one exclusive one, wake_up_nr() n,
 * wake_up_all() the rest; a signal ends wait_event_interruptible().
 */

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/jiffies.h>
#include <linux/kthread.h>
#include <linux/sched/signal.h>
#include <linux/smp.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "pk_kernel_test.h"

/* ---- concurrency management on a bound workqueue */

static struct workqueue_struct *wq;
static DECLARE_COMPLETION(sleeper_started);
static DECLARE_COMPLETION(second_ran);
static DECLARE_COMPLETION(sleeper_done);
static struct work_struct sleeper_w, second_w, busy_w[4];
static long handed_over;
static bool second_queued;
static atomic_t inside, max_inside;

static void sleeper_fn(struct work_struct *w)
{
	(void)w;
	complete(&sleeper_started);
	/* Running, not sleeping, while the second item is queued. */
	while (!READ_ONCE(second_queued))
		cpu_relax();
	/* Sleeping: the pool starts another worker for the second item. */
	handed_over = wait_for_completion_timeout(&second_ran, 2 * HZ);
	complete(&sleeper_done);
}

static void second_fn(struct work_struct *w)
{
	(void)w;
	complete(&second_ran);
}

static void busy_fn(struct work_struct *w)
{
	unsigned long end = jiffies_now() + 30;
	int now = atomic_inc_return(&inside);

	(void)w;
	if (now > atomic_read(&max_inside))
		atomic_set(&max_inside, now);
	/* Busy for many time slices, in code that may be preempted. */
	while (time_before(jiffies_now(), end))
		cpu_relax();
	atomic_dec(&inside);
}

static void run_cm(enum preempt_model model)
{
	/* One CPU: only the pool's own hand-over can run the second item. */
	pk_boot_online(1, model);
	wq = alloc_workqueue("cm", 0, 0);
	assert_non_null(wq);
	INIT_WORK(&sleeper_w, sleeper_fn);
	INIT_WORK(&second_w, second_fn);
	WRITE_ONCE(second_queued, false);
	reinit_completion(&sleeper_started);
	reinit_completion(&second_ran);
	reinit_completion(&sleeper_done);
	assert_true(queue_work_on(0, wq, &sleeper_w));
	wait_for_completion(&sleeper_started);
	assert_true(queue_work_on(0, wq, &second_w));
	WRITE_ONCE(second_queued, true);
	/* Not flush_workqueue() yet: queueing its barrier kicks the pool. */
	wait_for_completion(&sleeper_done);
	flush_workqueue(wq);
	assert_true(handed_over > 0);

	/* Items that never sleep run one at a time on their CPU. */
	atomic_set(&max_inside, 0);
	for (int i = 0; i < 4; i++) {
		INIT_WORK(&busy_w[i], busy_fn);
		assert_true(queue_work_on(0, wq, &busy_w[i]));
	}
	flush_workqueue(wq);
	assert_int_equal(atomic_read(&max_inside), 1);

	destroy_workqueue(wq);
	machine_shutdown();
}

static void cm_none(void **state)
{
	(void)state;
	run_cm(PREEMPT_MODEL_NONE);
}

static void cm_full(void **state)
{
	(void)state;
	run_cm(PREEMPT_MODEL_FULL);
}

static void cm_rt(void **state)
{
	(void)state;
	run_cm(PREEMPT_MODEL_RT);
}

/* ---- delayed work, kthread_worker */

static atomic_t dcount;
static struct delayed_work dw;

static void dfn(struct work_struct *w)
{
	(void)w;
	atomic_inc(&dcount);
}

static int order[4], norder;

static void kw_fn(struct kthread_work *w);
static struct kthread_work kw[3];

static void kw_fn(struct kthread_work *w)
{
	order[norder++] = (int)(w - kw);
}

static int delayed_and_worker(void *arg)
{
	struct kthread_worker *worker;

	(void)arg;
	INIT_DELAYED_WORK(&dw, dfn);
	schedule_delayed_work(&dw, 10 * HZ);
	/* Moved up: runs soon, once. */
	mod_delayed_work(system_wq, &dw, 1);
	flush_delayed_work(&dw);
	if (atomic_read(&dcount) != 1)
		return -1;
	schedule_delayed_work(&dw, HZ);
	if (!cancel_delayed_work_sync(&dw) || delayed_work_pending(&dw))
		return -2;
	msleep(20);
	if (atomic_read(&dcount) != 1)
		return -3;

	worker = kthread_create_worker(0, "kw");
	if (IS_ERR(worker))
		return -4;
	for (int i = 0; i < 3; i++) {
		kthread_init_work(&kw[i], kw_fn);
		kthread_queue_work(worker, &kw[i]);
	}
	kthread_flush_work(&kw[2]);
	kthread_destroy_worker(worker);
	return norder == 3 && order[0] == 0 && order[1] == 1 && order[2] == 2
		       ? 0
		       : -5;
}

static void delayed_work_and_kthread_worker(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(delayed_and_worker, NULL), 0);
	machine_shutdown();
}

/* ---- cross-CPU calls */

static int call_cpu = -1;
static bool call_hardirq; /* interrupts off, at least */
static atomic_t each;

static void on_cpu(void *info)
{
	(void)info;
	call_cpu = smp_processor_id();
	/* An interrupt on another CPU; the caller's own runs it directly. */
	call_hardirq = irqs_disabled();
}

static void on_each(void *info)
{
	(void)info;
	atomic_or(1 << smp_processor_id(), &each);
}

static int cross_calls(void *arg)
{
	(void)arg;
	if (smp_call_function_single(1, on_cpu, NULL, 1) || call_cpu != 1 ||
	    !call_hardirq)
		return -1;
	on_each_cpu(on_each, NULL, 1);
	return atomic_read(&each) == 3 ? 0 : -2;
}

static void smp_calls(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(cross_calls, NULL), 0);
	machine_shutdown();
}

/* ---- exclusive waits, signals */

static DECLARE_WAIT_QUEUE_HEAD(q);
static atomic_t woken_excl, woken_plain;
static int gate; /* bumped before each wake-up */

static int excl_waiter(void *arg)
{
	int seen = 0;

	(void)arg;
	while (!kthread_should_stop()) {
		if (wait_event_interruptible_exclusive(
			    q,
			    READ_ONCE(gate) != seen || kthread_should_stop()))
			return -1;
		if (READ_ONCE(gate) != seen) {
			seen = READ_ONCE(gate);
			atomic_inc(&woken_excl);
		}
	}
	return 0;
}

static int plain_waiter(void *arg)
{
	int seen = 0;

	(void)arg;
	while (!kthread_should_stop()) {
		wait_event(q, READ_ONCE(gate) != seen || kthread_should_stop());
		if (READ_ONCE(gate) != seen) {
			seen = READ_ONCE(gate);
			atomic_inc(&woken_plain);
		}
	}
	return 0;
}

static DECLARE_WAIT_QUEUE_HEAD(never);
static bool sig_done;

static int signalled(void *arg)
{
	int ret;

	(void)arg;
	ret = wait_event_interruptible(never, false);
	WRITE_ONCE(sig_done, true);
	return ret;
}

/* Entries on @wq, counted under its lock (the kernel code's way). */
static size_t queued(wait_queue_head_t *wq)
{
	unsigned long flags;
	size_t n;

	spin_lock_irqsave(&wq->lock, flags);
	n = list_count_nodes(&wq->head);
	spin_unlock_irqrestore(&wq->lock, flags);
	return n;
}

/* Wait (2 s at most) for the counts, and a little more for strays. */
static void settle(int excl, int plain)
{
	for (int i = 0; i < 2000 && (atomic_read(&woken_excl) < excl ||
				     atomic_read(&woken_plain) < plain);
	     i++)
		usleep(1000);
	usleep(20000);
}

static void exclusive_waits(void **state)
{
	struct task_struct *t[4], *s;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 3; i++)
		t[i] = kthread_run(excl_waiter, NULL, "excl%d", i);
	t[3] = kthread_run(plain_waiter, NULL, "plain");
	/* All four queued: three exclusive, one not. */
	while (queued(&q) < 4)
		usleep(1000);

	WRITE_ONCE(gate, 1);
	wake_up(&q);
	settle(1, 1);
	assert_int_equal(atomic_read(&woken_excl), 1);
	assert_int_equal(atomic_read(&woken_plain), 1);

	while (queued(&q) < 4)
		usleep(1000);
	WRITE_ONCE(gate, 2);
	wake_up_nr(&q, 2);
	settle(3, 2);
	assert_int_equal(atomic_read(&woken_excl), 3);

	s = kthread_run(signalled, NULL, "signalled");
	while (queued(&never) < 1)
		usleep(1000);
	send_sig(SIGUSR1, s, 0);
	/* Ended by the signal, not by kthread_stop()'s wake-up. */
	for (int i = 0; i < 2000 && !READ_ONCE(sig_done); i++)
		usleep(1000);
	assert_true(READ_ONCE(sig_done));
	assert_int_equal(kthread_stop(s), -ERESTARTSYS);

	for (int i = 0; i < 4; i++)
		assert_int_equal(kthread_stop(t[i]), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cm_none),
		cmocka_unit_test(cm_full),
		cmocka_unit_test(cm_rt),
		cmocka_unit_test(delayed_work_and_kthread_worker),
		cmocka_unit_test(smp_calls),
		cmocka_unit_test(exclusive_waits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
