// SPDX-License-Identifier: MIT
/*
 * A task that wakes a host thread makes the futex wake (a host system
 * call) with preemption and interrupts on (issue 19, target 8): after the
 * wait queue's lock, and in its own exit after telling kthread_stop().
 * Each round waits until the host thread sleeps, so the wake-up is a host
 * call every time; the library counts those made from a vCPU with either
 * off (pk_host_wakes_atomic), and there must be none.
 */
#include <preempt/kthread.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define ROUNDS 20

extern unsigned long pk_host_wakes_atomic;

static struct task_struct *host;
static DECLARE_COMPLETION(done);

/* Until the host thread sleeps (in kthread_stop() or the completion). */
static void wait_host_asleep(void)
{
	while (!(__atomic_load_n(&host->__state, __ATOMIC_ACQUIRE) &
		 TASK_UNINTERRUPTIBLE))
		schedule_timeout_uninterruptible(1);
}

static int exiter(void *arg)
{
	(void)arg;
	wait_host_asleep();
	return 0;
}

static int completer(void *arg)
{
	(void)arg;
	wait_host_asleep();
	complete(&done);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

static unsigned long atomic_wakes(void)
{
	return __atomic_load_n(&pk_host_wakes_atomic, __ATOMIC_RELAXED);
}

static void exit_wakes_kthread_stop_preemptibly(void **state)
{
	unsigned long before = atomic_wakes();

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	host = current;
	for (int i = 0; i < ROUNDS; i++)
		kthread_stop(kthread_run(exiter, NULL, "exiter"));
	assert_int_equal(atomic_wakes() - before, 0);
}

static void complete_wakes_host_after_the_lock(void **state)
{
	unsigned long before = atomic_wakes();

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	host = current;
	for (int i = 0; i < ROUNDS; i++) {
		struct task_struct *k;

		reinit_completion(&done);
		k = kthread_run(completer, NULL, "completer");
		wait_for_completion(&done);
		kthread_stop(k);
	}
	assert_int_equal(atomic_wakes() - before, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(exit_wakes_kthread_stop_preemptibly,
					  machine_teardown),
		cmocka_unit_test_teardown(complete_wakes_host_after_the_lock,
					  machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
