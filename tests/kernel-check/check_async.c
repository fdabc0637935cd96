// SPDX-License-Identifier: MIT
/*
 * kernel/async.c on the library's workqueues: calls run in parallel with
 * each other and their caller (two calls that wait for each other both
 * finish); async_synchronize_cookie() returns only when every call
 * scheduled before the cookie has finished, async_synchronize_full()
 * when all have, but not for a call in an exclusive domain, which its
 * own async_synchronize_full_domain() waits for; current_is_async() is
 * true in a call only (not in a plain work item, not in a task); a call
 * scheduled from an interrupt handler runs.  Boot ran the file's
 * async_init() (6.9 on) before the initcalls.
 */

#include <linux/async.h>
#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/workqueue.h>

#include "check.h"

#define LINE 9

static atomic_t finished;

static void counted(void *data, async_cookie_t cookie)
{
	msleep((unsigned long)data);
	atomic_inc(&finished);
}

/* Two calls that each wait for the other: only parallel calls finish. */
static DECLARE_COMPLETION(ping);
static DECLARE_COMPLETION(pong);
static long ping_left, pong_left;

static void pinger(void *data, async_cookie_t cookie)
{
	complete(&ping);
	ping_left = wait_for_completion_timeout(&pong, 2 * HZ);
}

static void ponger(void *data, async_cookie_t cookie)
{
	complete(&pong);
	pong_left = wait_for_completion_timeout(&ping, 2 * HZ);
}

static int basics(void *arg)
{
	async_cookie_t first, later;

	(void)arg;
	atomic_set(&finished, 0);
	for (long i = 0; i < 20; i++)
		async_schedule(counted, (void *)(i % 4));
	async_synchronize_full();
	if (atomic_read(&finished) != 20)
		return -1;

	async_schedule(pinger, NULL);
	async_schedule(ponger, NULL);
	async_synchronize_full();
	if (ping_left <= 0 || pong_left <= 0)
		return -2;

	/* Everything before a cookie is done when its wait returns. */
	atomic_set(&finished, 0);
	first = async_schedule(counted, (void *)30L);
	later = async_schedule(counted, (void *)0L);
	if (later <= first)
		return -3;
	async_synchronize_cookie(later);
	if (atomic_read(&finished) < 1)
		return -4;
	async_synchronize_full();
	return atomic_read(&finished) == 2 ? 0 : -5;
}

static void parallel_and_ordered(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(basics, NULL), 0);
	machine_shutdown();
}

/* ---- an exclusive domain; current_is_async() */

static ASYNC_DOMAIN_EXCLUSIVE(mine);
static DECLARE_COMPLETION(release);
static bool held_done, in_async, in_work, in_task = true;

static void held(void *data, async_cookie_t cookie)
{
	in_async = current_is_async();
	wait_for_completion(&release);
	WRITE_ONCE(held_done, true);
}

static void plain_work(struct work_struct *w)
{
	in_work = current_is_async();
}

static int domains(void *arg)
{
	struct work_struct w;

	(void)arg;
	async_schedule_domain(held, NULL, &mine);
	/* The full synchronization leaves the exclusive domain out. */
	async_synchronize_full();
	if (READ_ONCE(held_done))
		return -1;
	complete(&release);
	async_synchronize_full_domain(&mine);
	if (!READ_ONCE(held_done) || !in_async)
		return -2;
	INIT_WORK(&w, plain_work);
	in_work = true;
	schedule_work(&w);
	flush_work(&w);
	in_task = current_is_async();
	return in_work || in_task ? -3 : 0;
}

static void exclusive_domain(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(domains, NULL), 0);
	machine_shutdown();
}

/* ---- from an interrupt handler */

static bool from_irq_ran;

static void irq_call(void *data, async_cookie_t cookie)
{
	WRITE_ONCE(from_irq_ran, true);
}

static irqreturn_t handler(int irq, void *dev)
{
	async_schedule(irq_call, NULL);
	return IRQ_HANDLED;
}

static int wait_irq_call(void *arg)
{
	(void)arg;
	for (int i = 0; i < 2000 && !READ_ONCE(from_irq_ran); i++)
		msleep(1);
	async_synchronize_full();
	return READ_ONCE(from_irq_ran) ? 0 : -1;
}

static void from_interrupt(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(request_irq(LINE, handler, IRQF_NO_THREAD, "a", NULL),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	assert_int_equal(check_run(wait_irq_call, NULL), 0);
	free_irq(LINE, NULL);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parallel_and_ordered),
		cmocka_unit_test(exclusive_domain),
		cmocka_unit_test(from_interrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
