// SPDX-License-Identifier: MIT
/*
 * Mutexes at task exit: a mutex still held when its owner exits is
 * reported in lockdep's words and handed on, so its waiters proceed.
 * Fairness: a waiter that lost the lock once gets it at the next release
 * (the kernel's hand-off), and a semaphore's up() gives its unit to the
 * first waiter, however often the releaser takes the lock again.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/mutex.h>
#include <preempt/sched.h>
#include <preempt/semaphore.h>
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

/*
 * ---- fairness ----
 * One vCPU, no preemption: the hog releases and takes the lock again
 * before the woken waiter can run, then yields to it.  Without a hand-off
 * the waiter finds the lock taken every time, for all HOG_ROUNDS rounds.
 */
#define HOG_ROUNDS 1000

struct hog {
	void (*take)(void);
	void (*release)(void);
	bool (*waiter_queued)(void);
	struct completion held;
	int waiter_got; /* the hog's round when the waiter got the lock */
	int round;
};

static struct hog hog;
static DEFINE_MUTEX(hog_mutex);
static struct semaphore hog_sem;

static void mutex_take(void)
{
	mutex_lock(&hog_mutex);
}

static void mutex_release(void)
{
	mutex_unlock(&hog_mutex);
}

static bool mutex_queued(void)
{
	return pk_lock_has_waiters(&hog_mutex.wait);
}

static void sem_take(void)
{
	down(&hog_sem);
}

static void sem_release(void)
{
	up(&hog_sem);
}

static bool sem_queued(void)
{
	return pk_lock_has_waiters(&hog_sem.wait);
}

static int hog_task(void *arg)
{
	(void)arg;
	hog.take();
	complete(&hog.held);
	while (!hog.waiter_queued())
		msleep(1);
	for (hog.round = 0; hog.round < HOG_ROUNDS &&
			    !__atomic_load_n(&hog.waiter_got, __ATOMIC_ACQUIRE);
	     hog.round++) {
		hog.release();
		hog.take(); /* before the woken waiter runs: one vCPU */
		yield();
	}
	hog.release();
	return 0;
}

static int hog_waiter(void *arg)
{
	(void)arg;
	wait_for_completion(&hog.held);
	hog.take();
	__atomic_store_n(&hog.waiter_got, hog.round + 1, __ATOMIC_RELEASE);
	hog.release();
	return 0;
}

static void run_hog(void (*take)(void), void (*release)(void),
		    bool (*queued)(void))
{
	struct task_struct *h, *w;

	hog.take = take;
	hog.release = release;
	hog.waiter_queued = queued;
	hog.waiter_got = 0;
	init_completion(&hog.held);
	pk_boot_online(1, PREEMPT_MODEL_NONE);
	h = kthread_run(hog_task, NULL, "hog");
	w = kthread_run(hog_waiter, NULL, "waiter");
	assert_int_equal(kthread_stop(h), 0);
	assert_int_equal(kthread_stop(w), 0);
	/* Woken once, lost once, then handed the lock: round 1 or 2. */
	if (hog.waiter_got == 0 || hog.waiter_got > 3)
		fail_msg("the waiter got the lock at the hog's round %d of %d "
			 "(0: only after the hog stopped)",
			 hog.waiter_got - 1, HOG_ROUNDS);
}

static void starved_mutex_waiter_is_handed_the_lock(void **state)
{
	(void)state;
	run_hog(mutex_take, mutex_release, mutex_queued);
	assert_false(mutex_is_locked(&hog_mutex));
}

static void semaphore_up_gives_the_unit_to_the_waiter(void **state)
{
	(void)state;
	sema_init(&hog_sem, 1);
	run_hog(sem_take, sem_release, sem_queued);
	assert_int_equal(hog_sem.count, 1);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* Held mutexes are tracked by the debug checks. */
		pk_only_if(CONFIG_DEBUG_MUTEXES,
			   T(mutex_held_at_exit_is_reported_and_released)),
		T(starved_mutex_waiter_is_handed_the_lock),
		T(semaphore_up_gives_the_unit_to_the_waiter),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
