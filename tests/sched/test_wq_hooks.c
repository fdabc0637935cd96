// SPDX-License-Identifier: MIT
/*
 * A program that brings its own workqueue code defines wq_worker_sleeping
 * and wq_worker_running, as kernel/workqueue.c does: the scheduler calls
 * them around the sleeps of the program's PF_WQ_WORKER tasks, and only
 * of those (the library's own workers report to the library).
 */
#define _GNU_SOURCE
#include <preempt/delay.h>
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

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(program_hooks_see_its_workers_sleep),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
