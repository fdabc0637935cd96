// SPDX-License-Identifier: MIT
/*
 * Wait queues and completions between host threads and tasks: a host
 * thread sleeping in wait_for_completion()/wait_event() is a task on its
 * own CPU (sched.h), so a task on a vCPU wakes it and the other way round,
 * and nothing is lost.  Timing enters only as wide upper bounds.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define ROUNDS 200

struct pingpong {
	struct completion ping, pong;
	int count;
};

static int task_pinger(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < ROUNDS; i++) {
		complete(&pp->ping);
		wait_for_completion(&pp->pong);
	}
	return 0;
}

/* The host thread (the test's own) answers a task, ROUNDS times. */
static void host_thread_and_task_complete_each_other(void **state)
{
	struct pingpong pp = {.count = 0};
	struct task_struct *k;

	(void)state;
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(task_pinger, &pp, "pinger");
	assert_non_null(k);
	for (int i = 0; i < ROUNDS; i++) {
		wait_for_completion(&pp.ping);
		pp.count++;
		complete(&pp.pong);
	}
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(pp.count, ROUNDS);
	assert_int_equal(captured.nr, 0);
}

static DECLARE_WAIT_QUEUE_HEAD(wq);
static int flag;

static int set_flag_later(void *arg)
{
	(void)arg;
	msleep(5);
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	wake_up(&wq);
	return 0;
}

/* wait_event_timeout() on a host thread returns at the wake-up, early. */
static void host_wait_event_timeout_is_woken_early(void **state)
{
	struct task_struct *k;
	long left, t0;

	(void)state;
	flag = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	t0 = now_ms();
	k = kthread_run(set_flag_later, NULL, "setter");
	left = wait_event_timeout(wq, __atomic_load_n(&flag, __ATOMIC_ACQUIRE),
				  60 * pk_machine_hz());
	assert_true(left > 0);
	/* A minute's timeout, woken after 5 ms: far below the timeout. */
	assert_true(now_ms() - t0 < 30000);
	kthread_stop(k);
}

static int task_waits(void *arg)
{
	(void)arg;
	wait_event(wq, __atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	return 7;
}

/* And the other way: a host thread's wake_up() reaches a task. */
static void host_thread_wakes_a_task(void **state)
{
	struct task_struct *k;

	(void)state;
	flag = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(task_waits, NULL, "waits");
	usleep(2000);
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	wake_up(&wq);
	assert_int_equal(kthread_stop(k), 7);
}

/* Without a machine, every thread is a task: two threads, ping-pong. */
static void *host_pinger(void *arg)
{
	task_pinger(arg);
	return NULL;
}

static void two_host_threads_without_a_machine(void **state)
{
	struct pingpong pp = {.count = 0};
	pthread_t t;

	(void)state;
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	assert_int_equal(pthread_create(&t, NULL, host_pinger, &pp), 0);
	for (int i = 0; i < ROUNDS; i++) {
		wait_for_completion(&pp.ping);
		pp.count++;
		complete(&pp.pong);
	}
	pthread_join(t, NULL);
	assert_int_equal(pp.count, ROUNDS);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(host_thread_and_task_complete_each_other),
		T(host_wait_event_timeout_is_woken_early),
		T(host_thread_wakes_a_task),
		T(two_host_threads_without_a_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
