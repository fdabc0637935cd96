// SPDX-License-Identifier: MIT
/*
 * The scheduler core's entry and wake-up paths: every way into schedule()
 * checks for "scheduling while atomic", a sleeping call from softirq
 * context is reported and the machine goes on, and a waker waiting for a
 * task still on its CPU gives the host CPU up.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <semaphore.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

#include "pk_machine.h"

/* captured keeps only the last report: count the ones this file is about. */
static int sched_atomic_reports;

static bool counting_hook(const struct pk_report *report, void *arg)
{
	(void)arg;
	captured.nr++;
	if (strstr(report->text, "BUG: scheduling while atomic"))
		__atomic_add_fetch(&sched_atomic_reports, 1, __ATOMIC_RELAXED);
	snprintf(captured.text, sizeof(captured.text), "%s", report->text);
	return true;
}

static int setup(void **state)
{
	(void)state;
	capture_reset();
	sched_atomic_reports = 0;
	pk_set_report_hook(counting_hook, NULL);
	return 0;
}

/* Poll @flag for up to @ms (a wide margin): true once set. */
static bool wait_flag(int *flag, long ms)
{
	long end = now_ms() + ms;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE))
		if (now_ms() > end)
			return false;
		else
			usleep(1000);
	return true;
}

/* ---- 6: yield() while atomic ---- */

static int observed_count = -1;
static int yielder_count = -1;

static int observer(void *arg)
{
	(void)arg;
	__atomic_store_n(&observed_count, preempt_count(), __ATOMIC_RELEASE);
	return 0;
}

static int yielder(void *arg)
{
	/* Queued behind us on our only CPU, same class: no preemption. */
	wake_up_process(arg);
	preempt_disable();
	yield(); /* BUG: scheduling while atomic; repaired, not leaked */
	yielder_count = preempt_count();
	return 0;
}

static void yield_while_atomic_is_reported_and_not_leaked(void **state)
{
	struct task_struct *o, *y;

	(void)state;
	observed_count = -1;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	o = kthread_create(observer, NULL, "observer");
	y = kthread_create(yielder, o, "yielder");
	wake_up_process(y);
	assert_int_equal(kthread_stop(y), 0);
	assert_int_equal(kthread_stop(o), 0);
	assert_int_equal(__atomic_load_n(&observed_count, __ATOMIC_ACQUIRE), 0);
	assert_int_equal(yielder_count, 0);
	assert_true(sched_atomic_reports >= 1);
	assert_report_contains("BUG: scheduling while atomic: yielder/");
}

/* ---- yield() among normal tasks: round robin ---- */

#define RR_TASKS 3
#define RR_ROUNDS 50
static struct task_struct *rr_tasks[RR_TASKS];
static int rr_log[RR_TASKS * RR_ROUNDS];
static int rr_pos;
/* yield() hands back every count it took: after each, the word's count
 * is the task's own (zero here). */
static int rr_count_left;

static int rr_task(void *arg)
{
	int id = (int)(long)arg;

	/* The first wakes the others on its own vCPU: queued at once, in
	 * order, behind it (same class: no preemption). */
	if (id == 0)
		for (int i = 1; i < RR_TASKS; i++)
			wake_up_process(rr_tasks[i]);
	for (int i = 0; i < RR_ROUNDS; i++) {
		rr_log[__atomic_fetch_add(&rr_pos, 1, __ATOMIC_ACQ_REL)] = id;
		yield();
		if (preempt_count())
			__atomic_store_n(&rr_count_left, preempt_count(),
					 __ATOMIC_RELAXED);
	}
	return 0;
}

/*
 * Three normal tasks on one vCPU under voluntary (no preemption but at
 * the yields): each yield puts the task at the queue's tail and runs the
 * head, so the tasks take turns in the order they were queued --
 * yield()'s fast path, which rotates the queue in one step, with more
 * than one task queued.
 */
static void yield_takes_turns_in_queue_order(void **state)
{
	(void)state;
	rr_pos = 0;
	rr_count_left = 0;
	pk_boot_online(1, PREEMPT_MODEL_VOLUNTARY);
	for (long i = 0; i < RR_TASKS; i++)
		rr_tasks[i] = kthread_create(rr_task, (void *)i, "rr-%ld", i);
	wake_up_process(rr_tasks[0]);
	for (int i = 0; i < RR_TASKS; i++)
		assert_int_equal(kthread_stop(rr_tasks[i]), 0);
	assert_int_equal(rr_pos, RR_TASKS * RR_ROUNDS);
	for (int i = 0; i < RR_TASKS * RR_ROUNDS; i++)
		assert_int_equal(rr_log[i], i % RR_TASKS);
	assert_int_equal(rr_count_left, 0);
	assert_int_equal(sched_atomic_reports, 0);
}

/* ---- yield() with nothing else to run ---- */

static int lone_yields;

static int lone_task(void *arg)
{
	(void)arg;
	for (int i = 0; i < RR_ROUNDS; i++) {
		yield();
		lone_yields++;
	}
	return 0;
}

/*
 * A task alone on its vCPU: each yield() finds no other normal task
 * queued, keeps the CPU and returns (the fast path's rotation needs a
 * task to rotate to).
 */
static void yield_alone_keeps_the_cpu(void **state)
{
	struct task_struct *k;

	(void)state;
	lone_yields = 0;
	pk_boot_online(1, PREEMPT_MODEL_VOLUNTARY);
	k = kthread_run(lone_task, NULL, "lone");
	assert_non_null(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(lone_yields, RR_ROUNDS);
	assert_int_equal(sched_atomic_reports, 0);
}

/* ---- 7: msleep() in a tasklet ---- */

static int tasklet_done, task_done;

static void sleepy_tasklet(struct tasklet_struct *t)
{
	(void)t;
	msleep(20); /* BUG: scheduling while atomic, then on */
	__atomic_store_n(&tasklet_done, 1, __ATOMIC_RELEASE);
}

static struct tasklet_struct sleepy;

static int schedule_sleepy(void *arg)
{
	(void)arg;
	local_bh_disable();
	tasklet_schedule(&sleepy);
	local_bh_enable(); /* runs the tasklet here, in softirq context */
	msleep(1);	   /* and the machine still sleeps and wakes */
	__atomic_store_n(&task_done, 1, __ATOMIC_RELEASE);
	return 0;
}

static void msleep_in_a_tasklet_is_reported_and_survived(void **state)
{
	struct task_struct *k;

	(void)state;
	tasklet_done = task_done = 0;
	tasklet_setup(&sleepy, sleepy_tasklet);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(schedule_sleepy, NULL, "tasklet-sched");
	assert_non_null(k);
	/* Seconds for milliseconds of work: a hang, not a slow machine. */
	if (!wait_flag(&tasklet_done, 10000) || !wait_flag(&task_done, 10000))
		fail_msg("the machine hung after msleep() in a tasklet");
	assert_int_equal(kthread_stop(k), 0);
	assert_true(sched_atomic_reports >= 1);
}

/* ---- 11a: a waker waiting for on_cpu yields the host CPU ---- */

static struct task_struct *spin_target;
static pthread_t waker;
static int waker_yields;

/*
 * The library's sched_yield() lands here: a yield by the waker while its
 * target still looks on a CPU lets the "switch" finish.
 */
int sched_yield(void)
{
	struct task_struct *p = __atomic_load_n(&spin_target, __ATOMIC_ACQUIRE);

	if (p && pthread_equal(pthread_self(), waker) &&
	    __atomic_load_n(&p->pk_on_cpu, __ATOMIC_ACQUIRE)) {
		waker_yields++;
		__atomic_store_n(&p->pk_on_cpu, 0, __ATOMIC_RELEASE);
	}
	return (int)syscall(SYS_sched_yield);
}

static sem_t watchdog_sem;

/* Without the yield the waker would spin forever: end it, but late. */
static void *watchdog(void *arg)
{
	struct task_struct *p = arg;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 5;
	if (sem_timedwait(&watchdog_sem, &ts) != 0)
		__atomic_store_n(&p->pk_on_cpu, 0, __ATOMIC_RELEASE);
	return NULL;
}

static int idle_until_stopped(void *arg)
{
	(void)arg;
	while (!kthread_should_stop())
		msleep(1);
	return 3;
}

static void waker_yields_while_the_target_is_on_cpu(void **state)
{
	struct task_struct *k;
	pthread_t dog;

	(void)state;
	waker_yields = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_create(idle_until_stopped, NULL, "on-cpu");
	assert_non_null(k);
	/* As if still saving its registers on another CPU. */
	__atomic_store_n(&k->pk_on_cpu, 1, __ATOMIC_RELEASE);
	sem_init(&watchdog_sem, 0, 0);
	assert_int_equal(pthread_create(&dog, NULL, watchdog, k), 0);
	waker = pthread_self();
	__atomic_store_n(&spin_target, k, __ATOMIC_RELEASE);
	wake_up_process(k);
	__atomic_store_n(&spin_target, NULL, __ATOMIC_RELEASE);
	sem_post(&watchdog_sem);
	pthread_join(dog, NULL);
	sem_destroy(&watchdog_sem);
	assert_true(waker_yields >= 1);
	assert_int_equal(kthread_stop(k), 3);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(yield_while_atomic_is_reported_and_not_leaked),
		T(yield_takes_turns_in_queue_order),
		T(yield_alone_keeps_the_cpu),
		T(msleep_in_a_tasklet_is_reported_and_survived),
		T(waker_yields_while_the_target_is_on_cpu),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
