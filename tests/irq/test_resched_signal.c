// SPDX-License-Identifier: MIT
/*
 * Interrupt return asks for a reschedule with PK_SIGRESCHED, a realtime
 * signal: the kernel queues one per send instead of merging them, and the
 * handler does not block itself.  Requests made while one is still queued
 * must not queue more: a backlog is delivered as nested frames on the task
 * stack (about a hundred overflowed a 256 KiB task stack under qemu-user,
 * a silent SIGSEGV).
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <time.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "pk_machine.h"

#define LINE 9
#define RAISES 50

static int handled;

static irqreturn_t count_irq(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	handled++;
	return IRQ_HANDLED;
}

/*
 * On the vCPU, the resched signal blocked: each raise is handled at once
 * (a signal to oneself arrives before the syscall returns) and, under
 * lazy, its return asks for a reschedule.  Returns the requests queued.
 */
static int raise_with_resched_blocked(void *arg)
{
	const struct timespec zero = {0};
	sigset_t set, old;
	int queued = 0;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, PK_SIGRESCHED);
	pthread_sigmask(SIG_BLOCK, &set, &old);
	for (int i = 0; i < RAISES; i++)
		if (irq_raise(LINE, pk_vcpu_irq_cpu(0)))
			return -1;
	while (sigtimedwait(&set, NULL, &zero) == PK_SIGRESCHED)
		queued++;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return queued;
}

static void one_resched_request_queued_at_most(void **state)
{
	int queued;

	(void)state;
	handled = 0;
	/* The signal's way, not the port's redirect (test_irq_return). */
	setenv("PREEMPT_IRQ_RETURN", "signal", 1);
	pk_boot_online(1, PREEMPT_MODEL_LAZY);
	unsetenv("PREEMPT_IRQ_RETURN");
	assert_int_equal(request_irq(LINE, count_irq, 0, "resched", NULL), 0);
	queued = kthread_stop(
		kthread_run(raise_with_resched_blocked, NULL, "raiser"));
	free_irq(LINE, NULL);
	assert_int_equal(handled, RAISES);
	/* Asked for (lazy asks at every return to a preemptible task), and
	 * queued once: a second send would queue a second signal. */
	assert_int_equal(queued, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(one_resched_request_queued_at_most,
					  machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
