// SPDX-License-Identifier: MIT
/*
 * Kernel code's own hold of a wait queue's lock (kernel/rcu/sync.c does
 * spin_lock_irqsave(&wq->lock) and wake_up_locked()): the spinlock_t
 * operations on &wq->lock take the library's queue lock, excluding the
 * library's own wake-ups from another CPU; call_rcu_hurry() is call_rcu().
 */

#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/spinlock.h>
#include <linux/wait.h>

#include "pk_kernel_test.h"

static DECLARE_WAIT_QUEUE_HEAD(wq);
static bool cond, woken, waker_done, waker_started;

static int sleeper(void *arg)
{
	(void)arg;
	wait_event(wq, READ_ONCE(cond));
	WRITE_ONCE(woken, true);
	return 0;
}

static int waker(void *arg)
{
	(void)arg;
	WRITE_ONCE(waker_started, true);
	wake_up(&wq); /* takes the queue's lock: waits for the holder */
	WRITE_ONCE(waker_done, true);
	return 0;
}

static int holder(void *arg)
{
	struct task_struct *s, *w;
	unsigned long flags;
	int ret = 0;

	(void)arg;
	s = kthread_create(sleeper, NULL, "sleeper");
	kthread_bind(s, 1);
	wake_up_process(s);
	while (!waitqueue_active(&wq))
		msleep(1);

	spin_lock_irq(&wq.lock);
	if (!irqs_disabled() || !in_atomic())
		ret = -1;
	spin_unlock_irq(&wq.lock);
	if (irqs_disabled())
		ret = -2;

	w = kthread_create(waker, NULL, "waker");
	kthread_bind(w, 1);
	spin_lock_irqsave(&wq.lock, flags);
	wake_up_process(w);
	while (!READ_ONCE(waker_started))
		cpu_relax();
	mdelay(5);
	if (READ_ONCE(waker_done)) /* its wake_up() got the lock we hold */
		ret = -3;
	WRITE_ONCE(cond, true);
	wake_up_locked(&wq);
	spin_unlock_irqrestore(&wq.lock, flags);
	if (irqs_disabled())
		ret = -4;

	kthread_stop(w);
	kthread_stop(s);
	return READ_ONCE(woken) && READ_ONCE(waker_done) ? ret : -5;
}

static void run(enum preempt_model model)
{
	struct task_struct *t;

	WRITE_ONCE(cond, false);
	WRITE_ONCE(woken, false);
	WRITE_ONCE(waker_done, false);
	WRITE_ONCE(waker_started, false);
	pk_boot_online(2, model);
	t = kthread_create(holder, NULL, "holder");
	kthread_bind(t, 0);
	wake_up_process(t);
	assert_int_equal(kthread_stop(t), 0);
	machine_shutdown();
}

static void kernel_wq_lock_none(void **state)
{
	(void)state;
	run(PREEMPT_MODEL_NONE);
}

static void kernel_wq_lock_full(void **state)
{
	(void)state;
	run(PREEMPT_MODEL_FULL);
}

static void kernel_wq_lock_rt(void **state)
{
	(void)state;
	run(PREEMPT_MODEL_RT);
}

static int hurried;

static void hurry_cb(struct rcu_head *head)
{
	(void)head;
	hurried++;
}

static void kernel_call_rcu_hurry(void **state)
{
	static struct rcu_head head;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	call_rcu_hurry(&head, hurry_cb);
	rcu_barrier();
	assert_int_equal(hurried, 1);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_wq_lock_none),
		cmocka_unit_test(kernel_wq_lock_full),
		cmocka_unit_test(kernel_wq_lock_rt),
		cmocka_unit_test(kernel_call_rcu_hurry),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
