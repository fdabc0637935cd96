// SPDX-License-Identifier: MIT
/*
 * Mutexes at task exit: a mutex still held when its owner exits is
 * reported in lockdep's words and handed on, so its waiters proceed.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/mutex.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

#include "pk_machine.h"

static DEFINE_MUTEX(m);
static DECLARE_COMPLETION(locked);
static int waiter_got;

static int exits_holding(void *arg)
{
	(void)arg;
	mutex_lock(&m);
	complete(&locked);
	/* Leave only once the waiter sleeps on the mutex. */
	while (!pk_lock_has_waiters(&m.wait))
		msleep(1);
	return 0;
}

static int waits_for_it(void *arg)
{
	(void)arg;
	wait_for_completion(&locked);
	mutex_lock(&m);
	__atomic_store_n(&waiter_got, 1, __ATOMIC_RELEASE);
	mutex_unlock(&m);
	return 0;
}

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

static void mutex_held_at_exit_is_reported_and_released(void **state)
{
	struct task_struct *owner, *w;
	char pid[80];

	(void)state;
	if (!CONFIG_DEBUG_MUTEXES)
		skip(); /* held mutexes are tracked by the debug checks */
	waiter_got = 0;
	reinit_completion(&locked);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	w = kthread_run(waits_for_it, NULL, "waiter");
	owner = kthread_run(exits_holding, NULL, "holder");
	snprintf(pid, sizeof(pid), "WARNING: holder/%d still has locks held!",
		 owner->pid);
	assert_int_equal(kthread_stop(owner), 0);
	assert_report_contains(pid);
	/* Seconds for what takes microseconds: a lost waiter, not noise. */
	if (!wait_flag(&waiter_got, 10000))
		fail_msg("the mutex stayed locked after its owner exited");
	assert_int_equal(kthread_stop(w), 0);
	assert_false(mutex_is_locked(&m));
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(mutex_held_at_exit_is_reported_and_released),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
