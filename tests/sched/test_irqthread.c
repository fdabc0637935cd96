// SPDX-License-Identifier: MIT
/*
 * Threaded interrupt handlers on a booted machine: the primary in hardirq
 * context, thread_fn in its task "irq/<irq>-<name>", coalesced raises that
 * run the thread again, the rt model's forced threading, free_irq()
 * stopping the thread, and no threads without a machine.
 *
 * Handlers and thread functions only record what they see (cmocka asserts
 * would longjmp off a task's stack); the test thread, no vCPU, raises the
 * lines and checks.  Timing enters only as wide upper bounds.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/hardirq.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>

#include "pk_machine.h"

#define LINE 5
#define LINE2 6
#define WAIT_MS 10000

/* Poll @cond from the test thread, for at most WAIT_MS. */
#define wait_until(cond)                                                       \
	do {                                                                   \
		long __end = now_ms() + WAIT_MS;                               \
		while (!(cond) && now_ms() < __end)                            \
			usleep(1000);                                          \
		assert_true(cond);                                             \
	} while (0)

#define load(x) __atomic_load_n(&(x), __ATOMIC_SEQ_CST)
#define inc(x) __atomic_add_fetch(&(x), 1, __ATOMIC_SEQ_CST)

/* What a handler saw; written by the handler, read by the test thread. */
struct seen {
	int calls;
	int hardirq, task, preemptible, irqs_off;
	int policy, prio;
	char comm[TASK_COMM_LEN];
};

static void record(struct seen *s)
{
	s->hardirq = in_hardirq();
	s->task = in_task();
	s->preemptible = preemptible();
	s->irqs_off = irqs_disabled();
	if (in_task()) {
		s->policy = current->policy;
		s->prio = current->prio;
		memcpy(s->comm, current->comm, TASK_COMM_LEN);
	}
	inc(s->calls);
}

/* ---- a threaded handler: primary in hardirq, thread_fn in its task ---- */

static struct seen primary_seen, thread_seen;
static int thread_slept, thread_started;

static irqreturn_t primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	record(&primary_seen);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t sleepy_thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	inc(thread_started);
	record(&thread_seen);
	msleep(20); /* it may sleep */
	thread_seen.task &= in_task();
	inc(thread_slept);
	return IRQ_HANDLED;
}

static void thread_fn_runs_in_its_task(void **state)
{
	static int dev;

	(void)state;
	memset(&primary_seen, 0, sizeof(primary_seen));
	memset(&thread_seen, 0, sizeof(thread_seen));
	thread_slept = thread_started = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_threaded_irq(LINE, primary, sleepy_thread_fn,
					      0, "dev", &dev),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	wait_until(load(thread_slept) == 1);

	assert_int_equal(primary_seen.calls, 1);
	assert_true(primary_seen.hardirq);
	assert_true(primary_seen.irqs_off);
	assert_false(primary_seen.task);

	assert_int_equal(thread_seen.calls, 1);
	assert_true(thread_seen.task);
	assert_false(thread_seen.hardirq);
	assert_true(thread_seen.preemptible);
	assert_false(thread_seen.irqs_off);
	assert_string_equal(thread_seen.comm, "irq/5-dev");
	assert_int_equal(thread_seen.policy, SCHED_FIFO);
	assert_int_equal(thread_seen.prio, MAX_RT_PRIO - 1 - 50);

	/* Once more from the other vCPU: the same thread. */
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	wait_until(load(thread_slept) == 2);
	assert_int_equal(primary_seen.calls, 2);
	assert_true(primary_seen.hardirq);
	assert_string_equal(thread_seen.comm, "irq/5-dev");
	assert_int_equal(captured.nr, 0);
	assert_string_equal(free_irq(LINE, &dev), "dev");
}

static void free_irq_waits_for_the_thread(void **state)
{
	static int dev;

	(void)state;
	thread_slept = thread_started = 0;
	memset(&thread_seen, 0, sizeof(thread_seen));
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_threaded_irq(LINE, primary, sleepy_thread_fn,
					      0, "dev", &dev),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	wait_until(load(thread_started) == 1);
	/* thread_fn sleeps 20 ms: the stop waits for it and the exit. */
	assert_string_equal(free_irq(LINE, &dev), "dev");
	assert_int_equal(load(thread_slept), 1);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), -EINVAL);
	/* The slot is free again, and a new thread takes the name. */
	assert_int_equal(request_threaded_irq(LINE, primary, sleepy_thread_fn,
					      0, "dev2", &dev),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	wait_until(load(thread_slept) == 2);
	assert_string_equal(thread_seen.comm, "irq/5-dev2");
	assert_string_equal(free_irq(LINE, &dev), "dev2");
	assert_int_equal(load(thread_started), 2);
	assert_int_equal(captured.nr, 0);
}

/* ---- coalescing: the thread runs after the last raise ---- */

#define RAISES 300

static int primary_calls, raises_covered, primary_seq;
static int thread_runs, thread_last_seq;

static irqreturn_t counting_primary(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	__atomic_add_fetch(&raises_covered, (int)pk_irq_coalesced(),
			   __ATOMIC_SEQ_CST);
	inc(primary_calls);
	inc(primary_seq);
	return IRQ_WAKE_THREAD;
}

static irqreturn_t counting_thread_fn(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	/* Read first: a primary after this read asks for another run. */
	__atomic_store_n(&thread_last_seq, load(primary_seq), __ATOMIC_SEQ_CST);
	inc(thread_runs);
	msleep(1); /* raises pile up meanwhile */
	return IRQ_HANDLED;
}

static void raises_while_it_runs_run_it_again(void **state)
{
	static int dev;
	int calls;

	(void)state;
	primary_calls = raises_covered = primary_seq = 0;
	thread_runs = 0;
	thread_last_seq = -1;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_threaded_irq(LINE, counting_primary,
					      counting_thread_fn, IRQF_ONESHOT,
					      "count", &dev),
			 0);
	for (int i = 0; i < RAISES; i++) {
		assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(i & 1)), 0);
		if (i % 10 == 0)
			usleep(200);
	}
	/* Every raise reaches a primary, and the thread sees the last. */
	wait_until(load(raises_covered) == RAISES);
	calls = load(primary_calls);
	wait_until(load(thread_last_seq) == calls);
	usleep(20000); /* nothing else is owed */
	assert_int_equal(load(primary_calls), calls);
	assert_int_equal(load(thread_last_seq), calls);
	assert_true(load(thread_runs) >= 1);
	assert_true(load(thread_runs) <= calls);
	assert_true(calls <= RAISES);
	assert_string_equal(free_irq(LINE, &dev), "count");
	assert_int_equal(captured.nr, 0);
}

/* ---- the default primary, shared lines ---- */

static struct seen shared_a, shared_b;

static irqreturn_t shared_thread_fn(int irq, void *dev)
{
	(void)irq;
	record(dev);
	return IRQ_HANDLED;
}

static void default_primary_and_shared_threads(void **state)
{
	(void)state;
	memset(&shared_a, 0, sizeof(shared_a));
	memset(&shared_b, 0, sizeof(shared_b));
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_threaded_irq(LINE, NULL, shared_thread_fn,
					      IRQF_SHARED, "a", &shared_a),
			 0);
	assert_int_equal(request_threaded_irq(LINE, NULL, shared_thread_fn,
					      IRQF_SHARED, "b", &shared_b),
			 0);
	/* Not shared: refused, and no thread is left behind. */
	assert_int_equal(request_threaded_irq(LINE, NULL, shared_thread_fn, 0,
					      "c", NULL),
			 -EBUSY);
	assert_int_equal(
		request_threaded_irq(LINE, NULL, NULL, IRQF_SHARED, "d", NULL),
		-EINVAL);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	wait_until(load(shared_a.calls) == 1 && load(shared_b.calls) == 1);
	assert_true(shared_a.task);
	assert_true(shared_b.task);
	assert_string_equal(shared_a.comm, "irq/5-a");
	assert_string_equal(shared_b.comm, "irq/5-b");
	assert_string_equal(free_irq(LINE, &shared_a), "a");
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	wait_until(load(shared_b.calls) == 2);
	assert_int_equal(load(shared_a.calls), 1);
	assert_string_equal(free_irq(LINE, &shared_b), "b");
	assert_int_equal(captured.nr, 0);
}

/* ---- the rt model threads plain handlers ---- */

static struct seen plain_seen, hard_seen;

static irqreturn_t plain_handler(int irq, void *dev)
{
	(void)irq;
	record(dev);
	return IRQ_HANDLED;
}

static void rt_forces_handlers_into_threads(void **state)
{
	int cpu;

	(void)state;
	memset(&plain_seen, 0, sizeof(plain_seen));
	memset(&hard_seen, 0, sizeof(hard_seen));
	/* Chosen before the boot, as rt is in Linux; the machine keeps it. */
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_RT), 0);
	pk_boot_online(2, (enum preempt_model) - 1);
	assert_true(preempt_model_rt());
	assert_int_equal(
		request_irq(LINE, plain_handler, 0, "plain", &plain_seen), 0);
	assert_int_equal(request_irq(LINE2, plain_handler, IRQF_NO_THREAD,
				     "hard", &hard_seen),
			 0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	assert_int_equal(irq_raise(LINE2, pk_vcpu_irq_cpu(1)), 0);
	wait_until(load(plain_seen.calls) == 1 && load(hard_seen.calls) == 1);

	assert_true(plain_seen.task);
	assert_false(plain_seen.hardirq);
	assert_true(plain_seen.preemptible);
	assert_string_equal(plain_seen.comm, "irq/5-plain");
	assert_int_equal(plain_seen.policy, SCHED_FIFO);

	assert_true(hard_seen.hardirq);
	assert_false(hard_seen.task);
	assert_true(hard_seen.irqs_off);

	assert_string_equal(free_irq(LINE2, &hard_seen), "hard");

	/* Shutdown stops the thread of a line still requested; the forced
	 * handler goes back to hardirq, on a CPU that is no vCPU. */
	machine_shutdown();
	cpu = pk_irq_cpu_register();
	assert_true(cpu >= 0);
	assert_int_equal(irq_raise(LINE, cpu), 0); /* delivered at once */
	assert_int_equal(plain_seen.calls, 2);
	assert_true(plain_seen.hardirq);
	assert_string_equal(free_irq(LINE, &plain_seen), "plain");
	pk_irq_cpu_unregister();
	assert_int_equal(captured.nr, 0);
}

/* ---- no machine, no threads ---- */

static irqreturn_t wakes_without_thread(int irq, void *dev)
{
	(void)irq;
	record(dev);
	return IRQ_WAKE_THREAD;
}

static void no_machine_no_threads(void **state)
{
	static int dev;
	int cpu;

	(void)state;
	memset(&plain_seen, 0, sizeof(plain_seen));
	assert_int_equal(request_threaded_irq(LINE, primary, sleepy_thread_fn,
					      0, "dev", &dev),
			 -ENODEV);
	assert_int_equal(request_threaded_irq(LINE, NULL, sleepy_thread_fn, 0,
					      "dev", &dev),
			 -ENODEV);
	assert_int_equal(irq_raise(LINE, 0), -EINVAL); /* nothing installed */
	assert_int_equal(request_nmi(LINE, NULL, 0, "nmi", &dev), -EINVAL);

	/* rt without a machine: the plain handler stays in hardirq. */
	cpu = pk_irq_cpu_register();
	assert_true(cpu >= 0);
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_RT), 0);
	assert_int_equal(
		request_irq(LINE, plain_handler, 0, "plain", &plain_seen), 0);
	assert_int_equal(irq_raise(LINE, cpu), 0); /* delivered at once */
	assert_int_equal(plain_seen.calls, 1);
	assert_true(plain_seen.hardirq);
	assert_false(plain_seen.task);
	assert_string_equal(free_irq(LINE, &plain_seen), "plain");

	/* IRQ_WAKE_THREAD from a handler that has none is a driver bug. */
	memset(&plain_seen, 0, sizeof(plain_seen));
	assert_int_equal(request_irq(LINE, wakes_without_thread, 0, "nothread",
				     &plain_seen),
			 0);
	assert_int_equal(irq_raise(LINE, cpu), 0);
	assert_int_equal(plain_seen.calls, 1);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("IRQ 5 device nothread returned IRQ_WAKE_THREAD "
			       "but no thread function available.");
	assert_string_equal(free_irq(LINE, &plain_seen), "nothread");
	pk_irq_cpu_unregister();
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(thread_fn_runs_in_its_task),
		T(free_irq_waits_for_the_thread),
		T(raises_while_it_runs_run_it_again),
		T(default_primary_and_shared_threads),
		T(rt_forces_handlers_into_threads),
		T(no_machine_no_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
