// SPDX-License-Identifier: MIT
/*
 * The interrupt signal is held back while its own handler runs.  A
 * realtime signal queued many times (qemu-user queues every host expiry
 * of a CPU's timer) would otherwise be delivered nested: the kernel sets
 * up the next frame before the handler's first instruction, frame on
 * frame on the irq stack, until it overflows (a silent SIGSEGV, seen in
 * 5 of 6 runs of irq/test_storm under qemu-aarch64).  Here the backlog
 * is made on purpose, and the handler's depth on the irq stack measured.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdint.h>

#include <preempt/interrupt.h>

#define LINE 11
#define BACKLOG 64

static uintptr_t lowest;

static irqreturn_t note_depth(int irq, void *dev)
{
	char here;

	(void)irq;
	(void)dev;
	if (!lowest || (uintptr_t)&here < lowest)
		lowest = (uintptr_t)&here;
	return IRQ_HANDLED;
}

/* The deepest handler frame when @extra copies of the signal wait behind
 * the raise's own. */
static uintptr_t depth_with_backlog(int extra)
{
	sigset_t set;
	union sigval v = {.sival_int = 0};

	lowest = 0;
	sigemptyset(&set);
	sigaddset(&set, PK_SIGIRQ);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	assert_int_equal(irq_raise(LINE, pk_irq_this_cpu()), 0);
	for (int i = 0; i < extra; i++)
		assert_int_equal(pthread_sigqueue(pthread_self(), PK_SIGIRQ, v),
				 0);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	assert_true(lowest != 0);
	return lowest;
}

static void queued_signals_do_not_nest(void **state)
{
	uintptr_t alone, backlog;

	(void)state;
	assert_true(pk_irq_cpu_register() >= 0);
	assert_int_equal(request_irq(LINE, note_depth, 0, "depth", NULL), 0);
	alone = depth_with_backlog(0);
	backlog = depth_with_backlog(BACKLOG);
	/* Nested, 64 signal frames would put it tens of KiB deeper. */
	assert_true(alone - backlog < 4096);
	free_irq(LINE, NULL);
	pk_irq_cpu_unregister();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(queued_signals_do_not_nest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
