// SPDX-License-Identifier: MIT
/*
 * A program that brings its own workqueue code defines wq_worker_sleeping
 * and wq_worker_running, as kernel/workqueue.c does: the scheduler calls
 * them around the sleeps of the program's PF_WQ_WORKER tasks, and only
 * of those (the library's own workers report to the library).  The tick
 * calls its wq_worker_tick() for such a worker that runs, after adding the
 * tick's length to its se.sum_exec_runtime; the tasklet softirqs call its
 * workqueue_softirq_action() (BH workqueues), highpri for HI_SOFTIRQ.
 */
#define _GNU_SOURCE
#include <preempt/bottom_half.h>
#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/sched.h>
#include <preempt/wait.h>
#include <preempt/workqueue.h>

#include "pk_machine.h"

static struct task_struct *expected;
static int sleeping, running, strangers, sleep_state_ok = 1;

void wq_worker_sleeping(struct task_struct *task)
{
	if (task != expected) {
		__atomic_add_fetch(&strangers, 1, __ATOMIC_SEQ_CST);
		return;
	}
	/* Called before the switch, in the task, with its sleeping state. */
	if (task != current || task->__state == TASK_RUNNING)
		sleep_state_ok = 0;
	__atomic_add_fetch(&sleeping, 1, __ATOMIC_SEQ_CST);
}

void wq_worker_running(struct task_struct *task)
{
	if (task != expected) {
		__atomic_add_fetch(&strangers, 1, __ATOMIC_SEQ_CST);
		return;
	}
	__atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST);
}

static int ticks_seen, tick_strangers;
static uint64_t runtime_seen;

void wq_worker_tick(struct task_struct *task)
{
	if (task != expected) {
		__atomic_add_fetch(&tick_strangers, 1, __ATOMIC_SEQ_CST);
		return;
	}
	__atomic_store_n(&runtime_seen, task->se.sum_exec_runtime,
			 __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&ticks_seen, 1, __ATOMIC_SEQ_CST);
}

static int bh_normal, bh_highpri;

void workqueue_softirq_action(bool highpri)
{
	if (!in_serving_softirq())
		return;
	__atomic_add_fetch(highpri ? &bh_highpri : &bh_normal, 1,
			   __ATOMIC_SEQ_CST);
}

static struct completion go;

static int my_worker(void *arg)
{
	(void)arg;
	wait_for_completion(&go); /* one sleep */
	msleep(2);		  /* and another */
	return 0;
}

static void sleep_and_wake(struct work_struct *w)
{
	(void)w;
	msleep(2);
}

static void program_hooks_see_its_workers_sleep(void **state)
{
	struct work_struct w;
	struct task_struct *k;

	(void)state;
	init_completion(&go);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(my_worker, NULL, "kworker/mine");
	k->flags |= PF_WQ_WORKER;
	expected = k;
	wake_up_process(k);
	msleep(10);
	complete(&go);
	kthread_stop(k);
	assert_true(sleeping >= 2);
	assert_true(running >= 2);
	assert_true(sleep_state_ok);
	/* The library's workers sleep too, but not into the program's hooks. */
	INIT_WORK(&w, sleep_and_wake);
	queue_work(system_wq, &w);
	flush_work(&w);
	assert_int_equal(strangers, 0);
}

static int spinner(void *arg)
{
	(void)arg;
	/* Ten ticks of running: the tick sees this worker run. */
	while (__atomic_load_n(&ticks_seen, __ATOMIC_SEQ_CST) < 10)
		;
	return 0;
}

static void tick_sees_running_worker(void **state)
{
	struct task_struct *k;

	(void)state;
	/* The first test's worker may have run through ticks of its own. */
	ticks_seen = 0;
	runtime_seen = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_create(spinner, NULL, "kworker/spin");
	k->flags |= PF_WQ_WORKER;
	expected = k;
	wake_up_process(k);
	kthread_stop(k);
	assert_true(ticks_seen >= 10);
	/* A tick's length for each tick seen, added before the hook runs. */
	assert_true(runtime_seen >= 10ULL * (1000000000ULL / pk_machine_hz()));
	assert_int_equal(tick_strangers, 0);
}

static int raiser(void *arg)
{
	(void)arg;
	local_bh_disable();
	raise_softirq(TASKLET_SOFTIRQ);
	raise_softirq(HI_SOFTIRQ);
	local_bh_enable(); /* they run here, or in ksoftirqd */
	return 0;
}

static void tasklet_softirqs_run_bh_work(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	kthread_stop(kthread_run(raiser, NULL, "raiser"));
	for (int i = 0;
	     i < 2000 && !__atomic_load_n(&bh_highpri, __ATOMIC_SEQ_CST); i++)
		msleep(1);
	assert_true(__atomic_load_n(&bh_normal, __ATOMIC_SEQ_CST) >= 1);
	assert_true(__atomic_load_n(&bh_highpri, __ATOMIC_SEQ_CST) >= 1);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(program_hooks_see_its_workers_sleep),
		T(tick_sees_running_worker),
		T(tasklet_softirqs_run_bh_work),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
