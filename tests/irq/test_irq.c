// SPDX-License-Identifier: MIT
/*
 * Interrupt entry on signals: the count inside handlers, lazy disabling
 * with replay at the enabling edge, coalescing, NMIs, misbehaving handlers.
 *
 * The test thread is a CPU and raises at itself: a signal a thread sends
 * itself is delivered before pthread_kill() returns, so these tests are
 * deterministic.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/probe.h>

#include "pk_test.h"

#define LINE 5
#define NMI_LINE 6

static int cpu;
static int calls;
static unsigned int last_covered;
static struct pk_context seen;
static int nested_nmi_line = -1; /* raise this from the irq handler */

static irqreturn_t record(int irq, void *dev)
{
	(void)dev;
	calls++;
	last_covered = pk_irq_coalesced();
	pk_context_read(&seen);
	if (nested_nmi_line >= 0 && irq == LINE)
		irq_raise((unsigned int)nested_nmi_line, cpu);
	return IRQ_HANDLED;
}

static struct pk_context nmi_seen;
static int nmi_calls;
static int irq_from_nmi = -1; /* raise this maskable line from the NMI */
static int calls_seen_in_nmi;

static irqreturn_t record_nmi(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	nmi_calls++;
	pk_context_read(&nmi_seen);
	if (irq_from_nmi >= 0)
		irq_raise((unsigned int)irq_from_nmi, cpu);
	calls_seen_in_nmi = calls;
	return IRQ_HANDLED;
}

static int setup(void **state)
{
	(void)state;
	capture_reset();
	calls = nmi_calls = 0;
	nested_nmi_line = -1;
	memset(&seen, 0, sizeof(seen));
	assert_int_equal(request_irq(LINE, record, 0, "test", &calls), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	assert_string_equal(free_irq(LINE, &calls), "test");
	capture_stop();
	assert_int_equal(preempt_count(), 0);
	return 0;
}

static void a_thread_becomes_a_cpu(void **state)
{
	(void)state;
	assert_true(cpu >= 0);
	assert_int_equal(pk_irq_cpu_register(), cpu);
	assert_int_equal(pk_irq_this_cpu(), cpu);
}

static void bad_requests_are_refused(void **state)
{
	(void)state;
	assert_int_equal(request_irq(PK_NR_IRQS, record, 0, "x", NULL),
			 -EINVAL);
	assert_int_equal(request_irq(1, NULL, 0, "x", NULL), -EINVAL);
	/* LINE is taken without IRQF_SHARED. */
	assert_int_equal(request_irq(LINE, record, IRQF_SHARED, "x", NULL),
			 -EBUSY);
	assert_int_equal(irq_raise(LINE + 1, cpu), -EINVAL); /* unrequested */
	assert_int_equal(irq_raise(LINE, PK_NR_CPUS - 1), -ENODEV);
	assert_int_equal(irq_raise(LINE, -1), -ENODEV);
	assert_null(free_irq(LINE + 1, NULL)); /* warns */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("Trying to free already-free IRQ 6");
}

static void shared_lines_call_every_handler(void **state)
{
	int other;

	(void)state;
	assert_int_equal(request_irq(9, record, IRQF_SHARED, "a", &other), 0);
	assert_int_equal(request_irq(9, record, IRQF_SHARED, "b", &calls), 0);
	assert_int_equal(irq_raise(9, cpu), 0);
	assert_int_equal(calls, 2);
	assert_string_equal(free_irq(9, &other), "a");
	assert_string_equal(free_irq(9, &calls), "b");
}

static void handler_runs_in_hardirq_context(void **state)
{
	(void)state;
	assert_int_equal(irq_raise(LINE, cpu), 0);
	assert_int_equal(calls, 1);
	assert_int_equal(last_covered, 1);
	assert_int_equal(seen.count, HARDIRQ_OFFSET + HARDIRQ_DISABLE_OFFSET);
	assert_true(seen.in_hardirq);
	assert_false(seen.in_task);
	assert_true(seen.irqs_disabled);
	assert_true(seen.in_interrupt);
	assert_int_equal(seen.interrupt_context_level, 2);
	assert_int_equal(preempt_count(), 0);
}

static void raise_while_disabled_runs_at_restore(void **state)
{
	unsigned long outer, inner;

	(void)state;
	local_irq_save(outer);
	local_irq_save(inner);
	assert_int_equal(irq_raise(LINE, cpu), 0);
	assert_int_equal(calls, 0);
	local_irq_restore(inner); /* still disabled */
	assert_int_equal(calls, 0);
	local_irq_restore(outer); /* the enabling edge */
	assert_int_equal(calls, 1);
	assert_int_equal(seen.count, HARDIRQ_OFFSET + HARDIRQ_DISABLE_OFFSET);

	local_irq_disable();
	irq_raise(LINE, cpu);
	assert_int_equal(calls, 1);
	local_irq_enable();
	assert_int_equal(calls, 2);
	assert_true(pk_irq_stats(cpu).replayed >= 2);
}

static void raises_while_pending_coalesce(void **state)
{
	unsigned long flags;

	(void)state;
	local_irq_save(flags);
	for (int i = 0; i < 3; i++)
		irq_raise(LINE, cpu);
	local_irq_restore(flags);
	assert_int_equal(calls, 1);
	assert_int_equal(last_covered, 3);
}

static void handler_sees_bh_disabled_task(void **state)
{
	(void)state;
	local_bh_disable();
	irq_raise(LINE, cpu);
	local_bh_enable();
	assert_int_equal(calls, 1);
	assert_int_equal(seen.softirq_count, SOFTIRQ_DISABLE_OFFSET);
	assert_true(seen.in_softirq);
	assert_false(seen.in_serving_softirq);
	assert_true(seen.in_hardirq);
}

static void nmi_is_never_masked(void **state)
{
	(void)state;
	assert_int_equal(
		request_nmi(NMI_LINE, record_nmi, 0, "nmi", &nmi_calls), 0);
	local_irq_disable();
	assert_int_equal(irq_raise(NMI_LINE, cpu), 0);
	assert_int_equal(nmi_calls, 1); /* ran while disabled */
	local_irq_enable();
	assert_true(nmi_seen.in_nmi);
	assert_true(nmi_seen.in_hardirq);
	assert_int_equal(nmi_seen.interrupt_context_level, 3);
	/* The NMI disables interrupts on top of the section it hit. */
	assert_int_equal(nmi_seen.count, NMI_OFFSET + HARDIRQ_OFFSET +
						 2 * HARDIRQ_DISABLE_OFFSET);
	assert_string_equal(free_nmi(NMI_LINE, &nmi_calls), "nmi");
}

static void nmi_nests_inside_a_hardirq(void **state)
{
	(void)state;
	assert_int_equal(
		request_nmi(NMI_LINE, record_nmi, 0, "nmi", &nmi_calls), 0);
	nested_nmi_line = NMI_LINE;
	irq_raise(LINE, cpu);
	assert_int_equal(calls, 1);
	assert_int_equal(nmi_calls, 1);
	assert_int_equal(nmi_seen.count, NMI_OFFSET + 2 * HARDIRQ_OFFSET +
						 2 * HARDIRQ_DISABLE_OFFSET);
	assert_int_equal(nmi_seen.interrupt_context_level, 3);
	free_nmi(NMI_LINE, &nmi_calls);
}

static void interrupt_during_nmi_runs_at_its_return(void **state)
{
	(void)state;
	request_nmi(NMI_LINE, record_nmi, 0, "nmi", &nmi_calls);
	irq_from_nmi = LINE;
	irq_raise(NMI_LINE, cpu);
	irq_from_nmi = -1;
	assert_int_equal(nmi_calls, 1);
	assert_int_equal(calls_seen_in_nmi, 0); /* not inside the NMI */
	assert_int_equal(calls, 1);		/* but right after it */
	assert_int_equal(seen.count, HARDIRQ_OFFSET + HARDIRQ_DISABLE_OFFSET);
	free_nmi(NMI_LINE, &nmi_calls);
}

static irqreturn_t leak_preempt(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	preempt_disable();
	return IRQ_HANDLED;
}

static irqreturn_t enable_irqs(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	local_irq_enable();
	return IRQ_HANDLED;
}

static void leaking_handler_is_reported_and_repaired(void **state)
{
	(void)state;
	request_irq(10, leak_preempt, 0, "leaky", &calls);
	irq_raise(10, cpu);
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_IRQ);
	assert_report_contains("irq 10 handler leak_preempt+0x");
	assert_report_contains("[leaky] preempt leak: 01010000 -> 01010001");
	free_irq(10, &calls);

	request_irq(11, enable_irqs, 0, "enabler", &calls);
	irq_raise(11, cpu);
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(captured.nr, 2);
	assert_report_contains("irq 11 handler enable_irqs+0x");
	assert_report_contains("enabled interrupts");
	free_irq(11, &calls);
}

static irqreturn_t clobber_errno(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	errno = EIO;
	return IRQ_HANDLED;
}

static void errno_survives_an_interrupt(void **state)
{
	(void)state;
	request_irq(12, clobber_errno, 0, "errno", &calls);
	errno = ERANGE;
	irq_raise(12, cpu);
	assert_int_equal(errno, ERANGE);
	free_irq(12, &calls);
}

static void *raise_from_elsewhere(void *arg)
{
	(void)arg;
	for (int i = 0; i < 100; i++)
		irq_raise(LINE, cpu);
	return NULL;
}

static void any_thread_may_raise(void **state)
{
	struct timespec start, now;
	unsigned long before = pk_irq_stats(cpu).raised;
	pthread_t t;

	(void)state;
	assert_int_equal(pthread_create(&t, NULL, raise_from_elsewhere, NULL),
			 0);
	pthread_join(t, NULL);
	/* Delivered asynchronously: wait, with a wide margin. */
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (pk_irq_stats(cpu).raised - before < 100 &&
		 now.tv_sec - start.tv_sec < 30);
	assert_int_equal(pk_irq_stats(cpu).raised - before, 100);
}

static void *plain_thread(void *arg)
{
	(void)arg;
	/* A stray interrupt signal on a thread that is no CPU: ignored. */
	pthread_kill(pthread_self(), PK_SIGIRQ);
	return (void *)(long)preempt_count();
}

static void foreign_threads_never_run_handlers(void **state)
{
	void *count;
	pthread_t t;

	(void)state;
	pthread_create(&t, NULL, plain_thread, NULL);
	pthread_join(t, &count);
	assert_null(count);
	assert_int_equal(calls, 0);
}

static void child_nests_nmis(void)
{
	for (int i = 0; i < 16; i++)
		nmi_enter();
}

static void nmi_nesting_beyond_15_is_a_bug(void **state)
{
	int status;
	pid_t pid = fork();

	(void)state;
	if (pid == 0) {
		pk_set_report_hook(NULL, NULL);
		close(STDERR_FILENO);
		child_nests_nmis();
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
}

static void irq_enter_exit_by_hand(void **state)
{
	unsigned long flags;

	(void)state;
	local_irq_save(flags);
	irq_enter();
	assert_true(in_hardirq());
	assert_int_equal(preempt_count(),
			 HARDIRQ_OFFSET + HARDIRQ_DISABLE_OFFSET);
	irq_exit();
	local_irq_restore(flags);
	assert_int_equal(preempt_count(), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_thread_becomes_a_cpu),
		T(bad_requests_are_refused),
		T(shared_lines_call_every_handler),
		T(handler_runs_in_hardirq_context),
		T(raise_while_disabled_runs_at_restore),
		T(raises_while_pending_coalesce),
		T(handler_sees_bh_disabled_task),
		T(nmi_is_never_masked),
		T(nmi_nests_inside_a_hardirq),
		T(interrupt_during_nmi_runs_at_its_return),
		T(leaking_handler_is_reported_and_repaired),
		T(errno_survives_an_interrupt),
		T(any_thread_may_raise),
		T(foreign_threads_never_run_handlers),
		T(nmi_nesting_beyond_15_is_a_bug),
		T(irq_enter_exit_by_hand),
	};

	cpu = pk_irq_cpu_register();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
