// SPDX-License-Identifier: MIT
/* Time: jiffies as variables the tick advances, conversions, ktime, timers. */

#include <linux/completion.h>
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/timer.h>

#include "pk_kernel_test.h"

static void test_conversions(void **state)
{
	ktime_t now;

	(void)state;
	assert_int_equal(HZ, 1000);
	assert_int_equal(msecs_to_jiffies(10), 10);
	assert_int_equal(TICK_USEC, 1000); /* HZ 1000 */
	assert_int_equal(jiffies_to_usecs(1), TICK_USEC);
	assert_int_equal(usecs_to_jiffies(1500), 2); /* rounded up */
	assert_int_equal(nsecs_to_jiffies(1), 1);
	assert_int_equal(jiffies_to_msecs(250), 250);
	assert_int_equal(jiffies_to_usecs(3), 3000);
	assert_true(time_after(5UL, 3UL));
	assert_false(time_after(3UL, 5UL));
	/* Across the wrap. */
	assert_true(time_after(2UL, ULONG_MAX - 1));
	assert_true(time_before(ULONG_MAX - 1, 2UL));
	assert_true(time_after_eq(7UL, 7UL));
	assert_true(time_in_range(5UL, 4UL, 6UL));
	assert_true(time_after64(1ULL, ~0ULL));
	assert_int_equal(ktime_to_ms(ms_to_ktime(42)), 42);
	assert_int_equal(ktime_set(1, 5), NSEC_PER_SEC + 5);
	/* One reading: a second one may come a host stall of >1 ms later. */
	now = ktime_get();
	assert_true(ktime_after(ktime_add_ms(now, 1), now));
	assert_false(ktime_after(now, ktime_get()));
	assert_true(MAX_SCHEDULE_TIMEOUT == LONG_MAX);
}

/* Waits until jiffies (the variable, as kernel code reads it) moves on. */
static int jiffies_moves(void *arg)
{
	unsigned long start = jiffies;
	u64 start64 = get_jiffies_64();
	unsigned long *pj =
		(unsigned long *)&jiffies; /* its address is usable */

	(void)arg;
	/* From INITIAL_JIFFIES at boot, as the kernel's: never 0. */
	if ((long)(start - INITIAL_JIFFIES) < 0 ||
	    (long)(start - INITIAL_JIFFIES) > 10 * HZ ||
	    start64 - INITIAL_JIFFIES > 10 * HZ)
		return 3;
	msleep(20);
	if (!time_after(*pj, start + 10))
		return 1;
	if (get_jiffies_64() < start64 + 10)
		return 2;
	return 0;
}

static void test_jiffies_variable(void **state)
{
	(void)state;
	pk_boot(1, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(jiffies_moves, NULL), 0);
	machine_shutdown();
}

struct ticker {
	struct timer_list timer;
	int fired;
	unsigned long armed_at, ran_at;
	bool in_softirq;
	struct completion done;
};

static void ticker_fn(struct timer_list *t)
{
	struct ticker *tk = from_timer(tk, t, timer);

	tk->ran_at = jiffies;
	tk->in_softirq = in_serving_softirq();
	tk->fired++;
	complete(&tk->done);
}

static int timer_task(void *arg)
{
	struct ticker *tk = arg;
	struct timer_list never;

	timer_setup(&tk->timer, ticker_fn, 0);
	init_completion(&tk->done);
	tk->armed_at = jiffies;
	mod_timer(&tk->timer, jiffies + 5);
	wait_for_completion(&tk->done);
	/* A timer deleted before it is due never runs. */
	timer_setup(&never, ticker_fn, 0);
	mod_timer(&never, jiffies + 1000);
	if (!timer_pending(&never) || timer_delete_sync(&never) != 1)
		return 1;
	if (timer_pending(&never) || timer_delete(&never) != 0)
		return 2;
	return 0;
}

static void timer_in(enum preempt_model model)
{
	struct ticker tk = {0};

	pk_boot(1, model);
	assert_int_equal(run_on_machine(timer_task, &tk), 0);
	machine_shutdown();
	assert_int_equal(tk.fired, 1);
	assert_true(time_after_eq(tk.ran_at, tk.armed_at + 5));
	/* Serving TIMER_SOFTIRQ: also in rt's ktimers thread, as in Linux. */
	assert_true(tk.in_softirq);
}

static void test_timers_every_model(void **state)
{
	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(all_models); m++)
		timer_in(all_models[m]);
	preempt_model_set(PREEMPT_MODEL_FULL);
}

/* add_timer_on(): the callback runs on the CPU asked for, whoever armed it. */
struct remote_timer {
	struct timer_list timer;
	int cpu;
	struct completion done;
};

static void remote_fn(struct timer_list *t)
{
	struct remote_timer *rt = from_timer(rt, t, timer);

	rt->cpu = smp_processor_id();
	complete(&rt->done);
}

static int remote_task(void *arg)
{
	struct remote_timer *rt = arg;

	timer_setup(&rt->timer, remote_fn, 0);
	init_completion(&rt->done);
	rt->timer.expires = jiffies + 2;
	add_timer_on(&rt->timer, 1);
	wait_for_completion(&rt->done);
	return smp_processor_id();
}

static void test_add_timer_on_another_cpu(void **state)
{
	struct remote_timer rt = {.cpu = -1};
	struct task_struct *k;

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	k = kthread_create(remote_task, &rt, "armer");
	kthread_bind(k, 0);
	get_task_struct(k);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 0); /* armed on vCPU 0 */
	put_task_struct(k);
	machine_shutdown();
	assert_int_equal(rt.cpu, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_conversions),
		cmocka_unit_test(test_jiffies_variable),
		cmocka_unit_test(test_timers_every_model),
		cmocka_unit_test(test_add_timer_on_another_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
