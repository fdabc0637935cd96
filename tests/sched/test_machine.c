// SPDX-License-Identifier: MIT
/*
 * A booted machine: tasks, wake-ups, sleeping, and the preemption points
 * of every model.  Timing enters only as wide upper bounds (seconds where
 * milliseconds are expected).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/debug.h>
#include <preempt/delay.h>
#include <preempt/hrtimer.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/probe.h>
#include <preempt/sched.h>
#include <preempt/timer.h>
#include <preempt/wait.h>

#include "pk_machine.h"

/* ---- life cycle ---- */

static DECLARE_COMPLETION(started);

static int report_and_wait(void *arg)
{
	int *cpu = arg;

	*cpu = smp_processor_id(); /* pinned below: no report */
	complete(&started);
	while (!kthread_should_stop())
		msleep(1);
	return 42;
}

static void kthreads_run_and_stop(void **state)
{
	struct task_struct *k;
	int cpu = -1;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	reinit_completion(&started);
	k = kthread_create(report_and_wait, &cpu, "worker/%d", 7);
	assert_non_null(k);
	assert_string_equal(k->comm, "worker/7");
	assert_int_equal(k->__state, TASK_NEW);
	kthread_bind(k, 1);
	wake_up_process(k);
	/* The test thread is no vCPU: wait as a host thread would. */
	while (!completion_done(&started))
		usleep(1000);
	assert_int_equal(cpu, 1);
	assert_int_equal(kthread_stop(k), 42);
	assert_int_equal(captured.nr, 0);
}

/* ---- completions and wait queues between tasks ---- */

#define ROUNDS 200

struct pingpong {
	struct completion ping, pong;
	int count;
};

static int pinger(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < ROUNDS; i++) {
		complete(&pp->ping);
		wait_for_completion(&pp->pong);
	}
	return 0;
}

static int ponger(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < ROUNDS; i++) {
		wait_for_completion(&pp->ping);
		pp->count++;
		complete(&pp->pong);
	}
	return 0;
}

static void completions_ping_pong_across_cpus(void **state)
{
	struct pingpong pp = {.count = 0};
	struct task_struct *a, *b;

	(void)state;
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	a = kthread_run(pinger, &pp, "ping");
	b = kthread_run(ponger, &pp, "pong");
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	assert_int_equal(pp.count, ROUNDS);
}

static DECLARE_WAIT_QUEUE_HEAD(flag_wq);
static int flag;

static int flag_waiter(void *arg)
{
	(void)arg;
	wait_event(flag_wq, __atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	return 1;
}

static int flag_setter(void *arg)
{
	(void)arg;
	msleep(5);
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	wake_up(&flag_wq);
	return 2;
}

static void wait_event_sleeps_until_the_condition(void **state)
{
	struct task_struct *w, *s;

	(void)state;
	flag = 0;
	pk_boot_online(1, PREEMPT_MODEL_NONE);
	w = kthread_run(flag_waiter, NULL, "waiter");
	s = kthread_run(flag_setter, NULL, "setter");
	assert_int_equal(kthread_stop(w), 1);
	assert_int_equal(kthread_stop(s), 2);
}

/*
 * One wake_up() wakes every waiter; two complete()s release two waiters.
 * One CPU, model none: the setter sleeps after waking, the woken waiters
 * (queued before it wakes again) run, and it counts them.  kthread_stop()
 * would wake the waiters itself, so the count is the setter's.
 */
static int nr_woken;
static struct completion two_done;

static int flag_waiter_counts(void *arg)
{
	(void)arg;
	wait_event(flag_wq, __atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	__atomic_add_fetch(&nr_woken, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static int completion_waiter_counts(void *arg)
{
	(void)arg;
	wait_for_completion(&two_done);
	__atomic_add_fetch(&nr_woken, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static int wake_both(void *arg)
{
	msleep(5); /* both waiters asleep */
	if (arg) {
		complete(&two_done);
		complete(&two_done);
	} else {
		__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
		wake_up(&flag_wq);
	}
	msleep(5); /* the woken run */
	return __atomic_load_n(&nr_woken, __ATOMIC_SEQ_CST);
}

static void two_waiters_are_both_woken(bool completion)
{
	struct task_struct *w[2], *s;
	int seen;

	flag = 0;
	nr_woken = 0;
	init_completion(&two_done);
	pk_boot_online(1, PREEMPT_MODEL_NONE);
	for (int i = 0; i < 2; i++)
		w[i] = kthread_run(completion ? completion_waiter_counts
					      : flag_waiter_counts,
				   NULL, "waiter/%d", i);
	s = kthread_run(wake_both, completion ? &two_done : NULL, "waker");
	seen = kthread_stop(s);
	complete_all(&two_done); /* a waiter left behind must not hang us */
	for (int i = 0; i < 2; i++)
		kthread_stop(w[i]);
	assert_int_equal(seen, 2);
}

static void wake_up_wakes_every_waiter(void **state)
{
	(void)state;
	two_waiters_are_both_woken(false);
}

static void two_completes_release_two_waiters(void **state)
{
	(void)state;
	two_waiters_are_both_woken(true);
}

static int sleeper(void *arg)
{
	long *slept = arg;
	long t0 = now_ms();

	msleep(20);
	*slept = now_ms() - t0;
	return 0;
}

static void msleep_sleeps_at_least_that_long(void **state)
{
	long slept = 0;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	kthread_stop(kthread_run(sleeper, &slept, "sleeper"));
	assert_true(slept >= 20);
	assert_true(slept < 5000);
}

/* ---- the models' preemption points ---- */

enum hog_point { HOG_NOTHING, HOG_MIGHT_SLEEP, HOG_COND_RESCHED, HOG_USER };

static int high_ran;
static bool high_is_fair; /* high is a normal task, not FIFO */
static int hog_saw_high;
static enum hog_point hog_point;

/*
 * The FIFO task is woken from a timer softirq that the hog itself arms
 * when it starts, so the wake-up always lands while the hog runs, however
 * late the host lets it start (an msleep() begun before the hog was
 * created could end before it, on a loaded host).  The hog's deadline is
 * only the window in which a model that does not preempt must not: the
 * answer is the event, whether the hog saw the task run.
 */
static struct timer_list wake_timer;
static struct task_struct *high_task;
static int wake_fired;

static void wake_high(struct timer_list *t)
{
	(void)t;
	__atomic_store_n(&wake_fired, 1, __ATOMIC_RELEASE);
	wake_up_process(high_task);
}

static int hog(void *arg)
{
	long deadline = now_ms() + 1500;

	(void)arg;
	mod_timer(&wake_timer, jiffies + 2);
	if (hog_point == HOG_USER)
		enter_user();
	/* Never blocks; preemption points only as configured. */
	while (now_ms() < deadline) {
		if (__atomic_load_n(&high_ran, __ATOMIC_ACQUIRE)) {
			hog_saw_high = 1;
			break;
		}
		if (hog_point == HOG_MIGHT_SLEEP)
			might_sleep();
		else if (hog_point == HOG_COND_RESCHED)
			cond_resched();
	}
	if (hog_point == HOG_USER)
		exit_user();
	return 0;
}

static int high(void *arg)
{
	(void)arg;
	for (;;) { /* asleep until the hog's timer wakes us */
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (__atomic_load_n(&wake_fired, __ATOMIC_ACQUIRE))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	__atomic_store_n(&high_ran, 1, __ATOMIC_RELEASE);
	return 0;
}

/* Did a FIFO task get the only CPU from a hog that never sleeps? */
static bool high_preempts_hog(enum preempt_model model, enum hog_point pt)
{
	struct task_struct *l;

	high_ran = hog_saw_high = wake_fired = 0;
	hog_point = pt;
	pk_boot_online(1, model);
	timer_setup(&wake_timer, wake_high, 0);
	high_task = kthread_create(high, NULL, "high");
	if (!high_is_fair)
		sched_set_fifo(high_task);
	wake_up_process(high_task);
	l = kthread_run(hog, NULL, "hog");
	kthread_stop(l);
	kthread_stop(high_task);
	del_timer_sync(&wake_timer);
	machine_shutdown();
	return hog_saw_high;
}

static void full_lazy_rt_preempt_a_hog(void **state)
{
	(void)state;
	assert_true(high_preempts_hog(PREEMPT_MODEL_FULL, HOG_NOTHING));
	assert_true(high_preempts_hog(PREEMPT_MODEL_LAZY, HOG_NOTHING));
	assert_true(high_preempts_hog(PREEMPT_MODEL_RT, HOG_NOTHING));
}

/*
 * A normal task that wakes while a normal hog runs waits for the hog's
 * slice to end: full reschedules then, lazy sets the lazy flag, which the
 * next tick makes a real reschedule (the hog is kernel code, not "user").
 */
static void lazy_reschedule_is_promoted_at_the_tick(void **state)
{
	bool lazy, full;

	(void)state;
	high_is_fair = true;
	lazy = high_preempts_hog(PREEMPT_MODEL_LAZY, HOG_NOTHING);
	full = high_preempts_hog(PREEMPT_MODEL_FULL, HOG_NOTHING);
	high_is_fair = false;
	assert_true(lazy);
	assert_true(full);
}

static void none_and_voluntary_do_not(void **state)
{
	(void)state;
	assert_false(high_preempts_hog(PREEMPT_MODEL_NONE, HOG_NOTHING));
	assert_false(high_preempts_hog(PREEMPT_MODEL_VOLUNTARY, HOG_NOTHING));
}

static void voluntary_preempts_at_might_sleep(void **state)
{
	(void)state;
	assert_true(
		high_preempts_hog(PREEMPT_MODEL_VOLUNTARY, HOG_MIGHT_SLEEP));
	assert_false(high_preempts_hog(PREEMPT_MODEL_NONE, HOG_MIGHT_SLEEP));
}

static void none_preempts_at_cond_resched(void **state)
{
	(void)state;
	assert_true(high_preempts_hog(PREEMPT_MODEL_NONE, HOG_COND_RESCHED));
}

static void user_code_is_preemptible_in_every_model(void **state)
{
	(void)state;
	assert_true(high_preempts_hog(PREEMPT_MODEL_NONE, HOG_USER));
	assert_true(high_preempts_hog(PREEMPT_MODEL_VOLUNTARY, HOG_USER));
}

/* ---- migration ---- */

static int pinned_moves;

static int stays_put(void *arg)
{
	(void)arg;
	migrate_disable();
	int cpu = raw_smp_processor_id();

	for (int i = 0; i < 30; i++) {
		msleep(1);
		if (raw_smp_processor_id() != cpu)
			pinned_moves++;
	}
	migrate_enable();
	return cpu;
}

static int spinner(void *arg)
{
	long deadline = now_ms() + 200;

	(void)arg;
	while (now_ms() < deadline)
		cond_resched();
	return 0;
}

static void migrate_disable_keeps_a_task_on_its_cpu(void **state)
{
	struct task_struct *t[6];

	(void)state;
	pinned_moves = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 4; i++)
		t[i] = kthread_run(spinner, NULL, "spin/%d", i);
	t[4] = kthread_run(stays_put, NULL, "pinned/0");
	t[5] = kthread_run(stays_put, NULL, "pinned/1");
	for (int i = 0; i < 6; i++)
		assert_true(kthread_stop(t[i]) >= 0);
	assert_int_equal(pinned_moves, 0);
}

static int record_cpus(void *arg)
{
	cpumask_t *seen = arg;

	for (int i = 0; i < 20; i++) {
		*seen |= 1ULL << raw_smp_processor_id();
		msleep(1);
	}
	return 0;
}

static void affinity_is_respected(void **state)
{
	cpumask_t seen = 0;
	struct task_struct *k;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(record_cpus, &seen, "affine");
	assert_int_equal(set_cpus_allowed_ptr(k, 1ULL << 1), 0);
	kthread_bind(k, 1);
	wake_up_process(k);
	kthread_stop(k);
	assert_int_equal(seen, 1ULL << 1);
	assert_int_equal(set_cpus_allowed_ptr(k == NULL ? NULL : current, 0),
			 -EINVAL);
}

/* ---- switching the model under load ---- */

static struct pingpong model_pp;

static int busy_then_sleep(void *arg)
{
	long *rounds = arg;

	while (!kthread_should_stop()) {
		long end = now_ms() + 2;

		while (now_ms() < end)
			cond_resched();
		msleep(1);
		(*rounds)++;
	}
	return 0;
}

static void switching_models_loses_nothing(void **state)
{
	struct task_struct *a, *b, *busy[2];
	long rounds[2] = {0, 0};
	long end;

	(void)state;
	model_pp.count = 0;
	init_completion(&model_pp.ping);
	init_completion(&model_pp.pong);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	a = kthread_run(pinger, &model_pp, "ping");
	b = kthread_run(ponger, &model_pp, "pong");
	busy[0] = kthread_run(busy_then_sleep, &rounds[0], "busy/0");
	busy[1] = kthread_run(busy_then_sleep, &rounds[1], "busy/1");
	end = now_ms() + 500;
	for (int m = 0; now_ms() < end; m = (m + 1) % PREEMPT_MODEL_NR) {
		preempt_model_set((enum preempt_model)m);
		usleep(3000);
	}
	preempt_model_set(PREEMPT_MODEL_FULL);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	kthread_stop(busy[0]);
	kthread_stop(busy[1]);
	assert_int_equal(model_pp.count, ROUNDS);
	assert_true(rounds[0] > 0 && rounds[1] > 0);
}

/* ---- timers and per-CPU data ---- */

struct timer_probe {
	struct timer_list timer;
	struct pk_context ctx;
	int cpu, fired;
	struct completion done;
};

static void timer_fired(struct timer_list *t)
{
	struct timer_probe *tp = from_timer(tp, t, timer);

	pk_context_read(&tp->ctx);
	tp->cpu = raw_smp_processor_id();
	tp->fired++;
	complete(&tp->done);
}

static int arm_timers(void *arg)
{
	struct timer_probe *tp = arg;
	struct timer_list never;
	int cpu = raw_smp_processor_id();

	timer_setup(&tp->timer, timer_fired, 0);
	mod_timer(&tp->timer, jiffies + 3);
	wait_for_completion(&tp->done);
	/* A timer disarmed before it is due never runs.  (No cmocka
	 * asserts in a task: they would longjmp off its stack.) */
	timer_setup(&never, timer_fired, 0);
	mod_timer(&never, jiffies + 1000);
	if (!timer_pending(&never) || del_timer_sync(&never) != 1 ||
	    timer_pending(&never))
		return -1;
	return cpu;
}

static void timers_fire_in_softirq_on_their_cpu(void **state)
{
	struct timer_probe tp = {.fired = 0};
	struct task_struct *k;

	(void)state;
	init_completion(&tp.done);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(arm_timers, &tp, "timers");
	kthread_bind(k, 1);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 1);
	assert_int_equal(tp.fired, 1);
	assert_int_equal(tp.cpu, 1);
	assert_true(tp.ctx.in_serving_softirq);
	assert_false(tp.ctx.in_task);
}

/*
 * A TIMER_IRQSAFE timer's function runs with interrupts off (a plain
 * one's with them on), and del_timer_sync() waits for it with interrupts
 * off without a report (the kernel's flush_delayed_work() does so).
 */
static int arm_irqsafe(void *arg)
{
	struct timer_probe *tp = arg;
	struct pk_context plain;
	unsigned long reports, flags;
	int was;

	timer_setup(&tp->timer, timer_fired, 0);
	mod_timer(&tp->timer, jiffies + 1);
	wait_for_completion(&tp->done);
	plain = tp->ctx;
	reinit_completion(&tp->done);
	timer_setup(&tp->timer, timer_fired, TIMER_IRQSAFE);
	mod_timer(&tp->timer, jiffies + 1);
	wait_for_completion(&tp->done);
	if (plain.irqs_disabled || !tp->ctx.irqs_disabled)
		return -1;
	reports = pk_report_count();
	mod_timer(&tp->timer, jiffies + 1000);
	local_irq_save(flags);
	was = del_timer_sync(&tp->timer);
	local_irq_restore(flags);
	if (was != 1)
		return -2;
	return pk_report_count() == reports ? 0 : -3;
}

static void irqsafe_timers_run_with_interrupts_off(void **state)
{
	struct timer_probe tp = {.fired = 0};

	(void)state;
	init_completion(&tp.done);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(kthread_stop(kthread_run(arm_irqsafe, &tp, "irqsafe")),
			 0);
	assert_int_equal(tp.fired, 2);
}

/*
 * An IRQSAFE callback that deletes its own timer synchronously would wait
 * for itself, with interrupts off: reported, and it returns.
 */
static struct timer_list self_timer;
static struct completion self_done;

static void deletes_itself(struct timer_list *t)
{
	del_timer_sync(t);
	complete(&self_done);
}

static int arm_self_deleting(void *arg)
{
	(void)arg;
	timer_setup(&self_timer, deletes_itself, TIMER_IRQSAFE);
	mod_timer(&self_timer, jiffies + 1);
	wait_for_completion(&self_done);
	return 0;
}

static void irqsafe_timer_deleting_itself_is_reported(void **state)
{
	(void)state;
	init_completion(&self_done);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	assert_int_equal(
		kthread_stop(kthread_run(arm_self_deleting, NULL, "self")), 0);
	pk_report_flush(); /* made in the timer's softirq, at irq exit */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("del_timer_sync() from its own callback");
}

/*
 * A timer armed at the farthest expiry (jiffies + LONG_MAX, what
 * schedule_timeout(MAX_SCHEDULE_TIMEOUT) once armed) must not hold back a
 * due one: the list compares wrapping differences.  The near timer is
 * made due, with its softirq held off by bh, before the far one is armed.
 */
struct far_probe {
	struct timer_list near, far;
	struct completion done;
};

static void near_fired(struct timer_list *t)
{
	struct far_probe *fp = from_timer(fp, t, near);

	complete(&fp->done);
}

static void far_fired(struct timer_list *t)
{
	(void)t;
}

static int arm_near_and_far(void *arg)
{
	struct far_probe *fp = arg;
	unsigned long due;
	long left;

	timer_setup(&fp->near, near_fired, 0);
	timer_setup(&fp->far, far_fired, 0);
	local_bh_disable();
	mod_timer(&fp->near, jiffies + 1);
	due = jiffies + 3;
	while ((long)(jiffies - due) < 0) /* ticks still count jiffies */
		__asm__ __volatile__("" ::: "memory");
	mod_timer(&fp->far, jiffies + LONG_MAX);
	local_bh_enable();
	left = (long)wait_for_completion_timeout(&fp->done,
						 msecs_to_jiffies(20000));
	del_timer_sync(&fp->far);
	del_timer_sync(&fp->near);
	return left > 0;
}

static void far_timer_does_not_block_due_ones(void **state)
{
	struct far_probe fp;
	struct task_struct *k;

	(void)state;
	init_completion(&fp.done);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(arm_near_and_far, &fp, "far");
	assert_int_equal(kthread_stop(k), 1);
}

/*
 * Timers fire in expiry order, whatever order they were armed in.  All
 * three are armed from one jiffies reading with interrupts off, so no tick
 * runs in between and the order is the expiries', not the arming's.
 */
struct order_probe {
	struct timer_list timer[3];
	struct hrtimer hr[3];
	int order[3], nr;
	struct completion done;
};

static struct order_probe *order_probe;

static void order_timer_fired(struct timer_list *t)
{
	struct order_probe *op = order_probe;

	op->order[op->nr] = (int)(t - op->timer);
	if (++op->nr == 3)
		complete(&op->done);
}

static int arm_in_reverse(void *arg)
{
	struct order_probe *op = arg;
	static const int ticks[3] = {6, 2, 4}; /* fire as 1, 2, 0 */
	unsigned long flags, j;

	for (int i = 0; i < 3; i++)
		timer_setup(&op->timer[i], order_timer_fired, 0);
	local_irq_save(flags);
	j = jiffies;
	for (int i = 0; i < 3; i++)
		mod_timer(&op->timer[i], j + ticks[i]);
	local_irq_restore(flags);
	wait_for_completion(&op->done);
	return 0;
}

static void timers_fire_in_expiry_order(void **state)
{
	struct order_probe op = {.nr = 0};

	(void)state;
	order_probe = &op;
	init_completion(&op.done);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	assert_int_equal(kthread_stop(kthread_run(arm_in_reverse, &op, "t")),
			 0);
	assert_int_equal(op.nr, 3);
	assert_int_equal(op.order[0], 1);
	assert_int_equal(op.order[1], 2);
	assert_int_equal(op.order[2], 0);
}

static enum hrtimer_restart order_hr_fired(struct hrtimer *t)
{
	struct order_probe *op = order_probe;

	op->order[op->nr] = (int)(t - op->hr);
	if (++op->nr == 3)
		complete(&op->done);
	return HRTIMER_NORESTART;
}

/* Absolute expiries from one clock reading, armed with interrupts off. */
static int hr_arm_in_reverse(void *arg)
{
	struct order_probe *op = arg;
	static const long long us[3] = {3000, 1000, 2000}; /* 1, 2, 0 */
	unsigned long flags;
	ktime_t t0;

	for (int i = 0; i < 3; i++)
		hrtimer_setup(&op->hr[i], order_hr_fired, CLOCK_MONOTONIC,
			      HRTIMER_MODE_ABS);
	local_irq_save(flags);
	t0 = ktime_get();
	for (int i = 0; i < 3; i++)
		hrtimer_start(&op->hr[i], t0 + us[i] * 1000, HRTIMER_MODE_ABS);
	local_irq_restore(flags);
	wait_for_completion(&op->done);
	return 0;
}

static void hrtimers_fire_in_expiry_order(void **state)
{
	struct order_probe op = {.nr = 0};

	(void)state;
	order_probe = &op;
	init_completion(&op.done);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	assert_int_equal(
		kthread_stop(kthread_run(hr_arm_in_reverse, &op, "hr")), 0);
	assert_int_equal(op.nr, 3);
	assert_int_equal(op.order[0], 1);
	assert_int_equal(op.order[1], 2);
	assert_int_equal(op.order[2], 0);
}

static DEFINE_PER_CPU(long, hits);

static int count_per_cpu(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		this_cpu_inc(hits);
		if (i % 100 == 0)
			msleep(1);
	}
	return 0;
}

static void per_cpu_counters_add_up(void **state)
{
	struct task_struct *t[4];
	long total = 0;
	int cpu;

	(void)state;
	memset(hits, 0, sizeof(hits));
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 4; i++)
		t[i] = kthread_run(count_per_cpu, NULL, "percpu/%d", i);
	for (int i = 0; i < 4; i++)
		kthread_stop(t[i]);
	for (int c = 0; c < 2; c++)
		total += per_cpu(hits, c);
	assert_int_equal(total, 4000);
	cpu = get_cpu();
	assert_ptr_equal(this_cpu_ptr(&hits), per_cpu_ptr(&hits, cpu));
	put_cpu();
}

/* ---- high-resolution timers ---- */

struct hr_probe {
	struct hrtimer timer;
	struct pk_context ctx;
	int cpu, fired;
	struct completion done;
};

static enum hrtimer_restart hr_fired(struct hrtimer *t)
{
	struct hr_probe *hp = (struct hr_probe *)t;

	pk_context_read(&hp->ctx);
	hp->cpu = raw_smp_processor_id();
	if (++hp->fired < 3) {
		hrtimer_forward_now(t, 200000); /* periodic, 200 us */
		return HRTIMER_RESTART;
	}
	complete(&hp->done);
	return HRTIMER_NORESTART;
}

static int use_hrtimers(void *arg)
{
	struct hr_probe *hp = arg;
	struct hrtimer never;
	long long t0 = ktime_get(), slept;

	usleep_range(300, 400);
	slept = ktime_get() - t0;
	/* Microseconds, not a tick: at least 300 us, far less than 1 s. */
	if (slept < 300000 || slept > 1000000000LL)
		return -1;
	hrtimer_setup(&hp->timer, hr_fired, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_start(&hp->timer, 100000, HRTIMER_MODE_REL);
	wait_for_completion(&hp->done);
	hrtimer_setup(&never, hr_fired, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	hrtimer_start(&never, 1000000000LL, HRTIMER_MODE_REL);
	if (!hrtimer_active(&never) || hrtimer_cancel(&never) != 1)
		return -2;
	return raw_smp_processor_id();
}

static void hrtimers_fire_in_hardirq_on_their_cpu(void **state)
{
	struct hr_probe hp = {.fired = 0};
	struct task_struct *k;

	(void)state;
	init_completion(&hp.done);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(use_hrtimers, &hp, "hr");
	kthread_bind(k, 1);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 1);
	assert_int_equal(hp.fired, 3);
	assert_int_equal(hp.cpu, 1);
	assert_true(hp.ctx.in_hardirq);
	assert_true(hp.ctx.irqs_disabled);
}

/* ---- ksoftirqd is a task on its vCPU ---- */

static struct {
	char comm[TASK_COMM_LEN];
	int cpu;
	bool serving;
	struct completion done;
} softirq_seen;

static void record_softirq(void)
{
	memcpy(softirq_seen.comm, current->comm, TASK_COMM_LEN);
	softirq_seen.cpu = raw_smp_processor_id();
	softirq_seen.serving = in_serving_softirq();
	complete(&softirq_seen.done);
}

static int raise_in_task(void *arg)
{
	(void)arg;
	raise_softirq(BLOCK_SOFTIRQ); /* task context: ksoftirqd runs it */
	wait_for_completion(&softirq_seen.done);
	return 0;
}

static void ksoftirqd_runs_as_a_task_on_its_cpu(void **state)
{
	struct task_struct *k;

	(void)state;
	init_completion(&softirq_seen.done);
	open_softirq(BLOCK_SOFTIRQ, record_softirq);
	pk_boot_online(2, PREEMPT_MODEL_RT);
	k = kthread_create(raise_in_task, NULL, "raiser");
	kthread_bind(k, 1);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 0);
	open_softirq(BLOCK_SOFTIRQ, NULL);
	assert_string_equal(softirq_seen.comm, "ksoftirqd/1");
	assert_int_equal(softirq_seen.cpu, 1);
	assert_true(softirq_seen.serving);
}

/* ---- the consistency matrix, inside tasks ---- */

static int probe_walk(void *arg)
{
	struct pk_context *seen = arg;
	struct pk_probe_state st = {0};

	for (size_t i = 0; i < pk_probe_script_len; i++) {
		if (pk_probe_apply(&st, pk_probe_script[i].op))
			return -1;
		pk_context_read(&seen[i]);
		seen[i].need_resched = false; /* the tick's business */
	}
	return preempt_count();
}

/*
 * Under rt the same steps differ only as PREEMPT_RT says (pk_context_rt():
 * bh-disable state out of the word); every other answer is the same.
 */
static void predicates_agree_in_tasks_of_every_model(void **state)
{
	static struct pk_context first[64], seen[64], rt[64];
	int bh_only_preemptible = 0;

	(void)state;
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		pk_boot_online(2, (enum preempt_model)m);
		assert_int_equal(
			kthread_stop(kthread_run(probe_walk, m ? seen : first,
						 "probe")),
			0);
		machine_shutdown();
		if (m == PREEMPT_MODEL_RT) {
			memcpy(rt, first, sizeof(rt));
			for (size_t i = 0; i < pk_probe_script_len; i++) {
				pk_context_rt(&rt[i]);
				bh_only_preemptible +=
					rt[i].preemptible && rt[i].in_softirq;
			}
			assert_memory_equal(
				rt, seen, pk_probe_script_len * sizeof(rt[0]));
		} else if (m) {
			assert_memory_equal(first, seen,
					    pk_probe_script_len *
						    sizeof(first[0]));
		}
	}
	/* The rt difference is real: bh-disabled steps stay preemptible. */
	assert_int_equal(bh_only_preemptible, 2);
	/* And the task's answers are the plain thread's. */
	probe_walk(seen);
	assert_memory_equal(first, seen, pk_probe_script_len * sizeof(seen[0]));
}

/* ---- reports ---- */

static int schedule_atomic(void *arg)
{
	(void)arg;
	preempt_disable();
	schedule(); /* BUG: scheduling while atomic; count repaired */
	return preempt_count();
}

static int exit_atomic(void *arg)
{
	(void)arg;
	preempt_disable();
	return 0; /* exits with preempt_count 1 */
}

static int cpu_in_preemptible(void *arg)
{
	(void)arg;
	return smp_processor_id() >= 0;
}

static void misuse_is_reported_and_repaired(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(kthread_stop(kthread_run(schedule_atomic, NULL, "sa")),
			 0);
	assert_int_equal(captured.kind, PK_REPORT_SCHED_ATOMIC);
	assert_report_contains("BUG: scheduling while atomic: sa/");
	assert_report_contains("/0x00000001\n");

	kthread_stop(kthread_run(exit_atomic, NULL, "ea"));
	assert_report_contains("note: ea[");
	assert_report_contains("] exited with preempt_count 1");

	if (CONFIG_DEBUG_PREEMPT) {
		pk_debug_ratelimit_reset();
		kthread_stop(kthread_run(cpu_in_preemptible, NULL, "cpu"));
		assert_report_contains("BUG: using smp_processor_id() in "
				       "preemptible [00000000] code: cpu/");
	}
}

/* ---- the boot error path ---- */

static irqreturn_t squatter(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	return IRQ_HANDLED;
}

/*
 * A line the machine needs is taken (not shared): boot fails, frees only
 * what it requested, and a later boot finds every line free again.
 */
static void failed_boot_frees_only_what_it_requested(void **state)
{
	struct machine_config cfg = {.nr_cpus = 1, .hz = 1000, .model = -1};
	const unsigned int lines[] = {63, 62, 61}; /* tick, IPI, hrtimer */
	int dev;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		captured.nr = 0;
		assert_int_equal(
			request_irq(lines[i], squatter, 0, "squatter", &dev),
			0);
		assert_true(machine_boot(&cfg) < 0);
		assert_int_equal(num_online_cpus(), 0);
		if (captured.nr) /* "Trying to free already-free IRQ" */
			fail_msg("line %u: %s", lines[i], captured.text);
		assert_string_equal(free_irq(lines[i], &dev), "squatter");
	}
	assert_int_equal(machine_boot(&cfg), 0);
}

/* ---- task references ---- */

static int quick(void *arg)
{
	(void)arg;
	return 5;
}

/* Exited, never stopped, still referenced: shutdown must not free it. */
static void shutdown_keeps_referenced_tasks(void **state)
{
	struct task_struct *k;
	long end;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(quick, NULL, "kept");
	assert_non_null(k);
	get_task_struct(k);
	end = now_ms() + 10000; /* seconds for microseconds of work */
	while (!__atomic_load_n(&k->pk_exited, __ATOMIC_ACQUIRE) &&
	       now_ms() < end)
		usleep(1000);
	assert_true(__atomic_load_n(&k->pk_exited, __ATOMIC_ACQUIRE));
	machine_shutdown(); /* drops kthread_create()'s reference */
	assert_string_equal(k->comm, "kept");
	assert_int_equal(k->pk_exit_code, 5);
	put_task_struct(k); /* the last: freed here (LSan sees a leak) */
}

/* ---- the environment: $PREEMPT_NR_CPUS, $PREEMPT_HZ, $PREEMPT_MODEL ---- */

/* This binary, re-run with --print-machine: it boots a machine with the
 * defaults (machine_boot(NULL)) and prints what it got. */
static int print_machine(void)
{
	if (machine_boot(NULL))
		return 1;
	printf("cpus %d hz %d jiffies/s %lu model %s\n", num_online_cpus(),
	       pk_machine_hz(), msecs_to_jiffies(1000),
	       preempt_model_str(preempt_model()));
	machine_shutdown();
	return 0;
}

static char child_out[256], child_err[1024];

/* Run the machine printer with @env ("NAME=value", NULL-terminated). */
static void machine_with(const char *const *env)
{
	char *self = realpath("/proc/self/exe", NULL);
	char out_path[] = "/tmp/test_machine_out.XXXXXX";
	char err_path[] = "/tmp/test_machine_err.XXXXXX";
	int out = mkstemp(out_path), err = mkstemp(err_path), status;
	ssize_t n;
	pid_t pid;

	assert_non_null(self);
	assert_true(out >= 0 && err >= 0);
	unlink(out_path);
	unlink(err_path);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		unsetenv("PREEMPT_NR_CPUS");
		unsetenv("PREEMPT_HZ");
		unsetenv("PREEMPT_MODEL");
		for (; *env; env++)
			putenv((char *)*env);
		dup2(out, STDOUT_FILENO);
		dup2(err, STDERR_FILENO);
		pk_execv(self, (char *const[]){self, "--print-machine", NULL});
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	n = pread(out, child_out, sizeof(child_out) - 1, 0);
	child_out[n > 0 ? n : 0] = '\0';
	n = pread(err, child_err, sizeof(child_err) - 1, 0);
	child_err[n > 0 ? n : 0] = '\0';
	close(out);
	close(err);
	free(self);
}

#define MACHINE_WITH(...) machine_with((const char *const[]){__VA_ARGS__, NULL})

static void environment_sets_the_machine_defaults(void **state)
{
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	char want[128];

	(void)state;
	MACHINE_WITH("PREEMPT_NR_CPUS=3", "PREEMPT_HZ=250",
		     "PREEMPT_MODEL=voluntary");
	assert_string_equal(child_out,
			    "cpus 3 hz 250 jiffies/s 250 model voluntary\n");
	assert_string_equal(child_err, "");
	MACHINE_WITH("PREEMPT_NR_CPUS=1", "PREEMPT_HZ=100");
	assert_string_equal(child_out,
			    "cpus 1 hz 100 jiffies/s 100 model full\n");
	/* None set: the host's CPUs (at most PK_NR_CPUS), 1000 Hz, full. */
	MACHINE_WITH("PREEMPT_X=1");
	snprintf(want, sizeof(want),
		 "cpus %ld hz 1000 jiffies/s 1000 model full\n",
		 host < 1	     ? 1
		 : host > PK_NR_CPUS ? PK_NR_CPUS
				     : host);
	assert_string_equal(child_out, want);
	assert_string_equal(child_err, "");
}

/*
 * Values that are no number, zero, negative or out of range are ignored:
 * the default applies.  $PREEMPT_MODEL, the one the library reads at
 * load, also says so on stderr, in one line.
 */
static void bad_environment_values_get_the_defaults(void **state)
{
	long host = sysconf(_SC_NPROCESSORS_ONLN);
	char want[128];

	(void)state;
	snprintf(want, sizeof(want),
		 "cpus %ld hz 1000 jiffies/s 1000 model full\n",
		 host < 1	     ? 1
		 : host > PK_NR_CPUS ? PK_NR_CPUS
				     : host);
	MACHINE_WITH("PREEMPT_NR_CPUS=two", "PREEMPT_HZ=0",
		     "PREEMPT_MODEL=fast");
	assert_string_equal(child_out, want);
	assert_non_null(strstr(child_err, "PREEMPT_MODEL=fast is not one of"));
	assert_non_null(strchr(child_err, '\n'));
	assert_null(strchr(strchr(child_err, '\n') + 1, '\n'));
	MACHINE_WITH("PREEMPT_NR_CPUS=-2", "PREEMPT_HZ=1000x");
	assert_string_equal(child_out, want);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		T(kthreads_run_and_stop),
		T(completions_ping_pong_across_cpus),
		T(wait_event_sleeps_until_the_condition),
		T(msleep_sleeps_at_least_that_long),
		T(full_lazy_rt_preempt_a_hog),
		T(lazy_reschedule_is_promoted_at_the_tick),
		T(none_and_voluntary_do_not),
		T(voluntary_preempts_at_might_sleep),
		T(none_preempts_at_cond_resched),
		T(user_code_is_preemptible_in_every_model),
		T(migrate_disable_keeps_a_task_on_its_cpu),
		T(affinity_is_respected),
		T(switching_models_loses_nothing),
		T(timers_fire_in_softirq_on_their_cpu),
		T(irqsafe_timers_run_with_interrupts_off),
		T(irqsafe_timer_deleting_itself_is_reported),
		T(per_cpu_counters_add_up),
		T(ksoftirqd_runs_as_a_task_on_its_cpu),
		T(hrtimers_fire_in_hardirq_on_their_cpu),
		T(timers_fire_in_expiry_order),
		T(far_timer_does_not_block_due_ones),
		T(wake_up_wakes_every_waiter),
		T(two_completes_release_two_waiters),
		T(hrtimers_fire_in_expiry_order),
		T(predicates_agree_in_tasks_of_every_model),
		T(misuse_is_reported_and_repaired),
		T(failed_boot_frees_only_what_it_requested),
		T(shutdown_keeps_referenced_tasks),
		T(environment_sets_the_machine_defaults),
		T(bad_environment_values_get_the_defaults),
	};

	if (argc > 1 && !strcmp(argv[1], "--print-machine"))
		return print_machine();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
