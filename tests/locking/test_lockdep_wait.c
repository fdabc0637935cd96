// SPDX-License-Identifier: MIT
/*
 * "BUG: Invalid wait context": Documentation/locking/locktypes.rst's
 * nesting rules (sleeping locks, then spinlock_t/rwlock_t/local_lock,
 * then raw_spinlock_t and bit spinlocks) checked in every model, so that
 * what breaks under PREEMPT_RT is reported without it, each report
 * matched line by line against the kernel's format.
 */
#define _GNU_SOURCE

#include <preempt/bit_spinlock.h>
#include <preempt/interrupt.h>
#include <preempt/local_lock.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "lockdep_test.h"

#define LINE_HARD 15
#define LINE_THREADABLE 16

struct wdev {
	raw_spinlock_t raw;
	spinlock_t s, s2;
	rwlock_t rw;
	struct mutex m;
};

static struct wdev w;
static DEFINE_PER_CPU(local_lock_t, wait_pcpu);

static void w_init(void)
{
	raw_spin_lock_init(&w.raw);
	spin_lock_init(&w.s);
	spin_lock_init(&w.s2);
	rwlock_init(&w.rw);
	mutex_init(&w.m);
	local_lock_init(&wait_pcpu);
}

static void spinlock_under_raw_spinlock_is_invalid(void **state)
{
	(void)state;
	w_init();
	raw_spin_lock(&w.raw);
	spin_lock(&w.s);
	spin_unlock(&w.s);
	raw_spin_unlock(&w.raw);
	assert_int_equal(captured.nr, 1);
	assert_line("^=============================$");
	assert_line("^\\[ BUG: Invalid wait context \\]$");
	assert_line("^-----------------------------$");
	assert_line("^[^ ]+/[0-9]+ is trying to lock:$");
	/* not marked yet: the check comes before the usage, as the kernel's */
	assert_line("^[0-9a-f]{16} \\(&w\\.s\\)\\{\\.\\.\\.\\.\\}-\\{3:3\\}, "
		    "at: spinlock_under_raw_spinlock_is_invalid\\+0x");
	assert_line("^other info that might help us debug this:$");
	assert_line("^context-\\{5:5\\}$");
	assert_line("^1 lock held by [^ ]+/[0-9]+:$");
	assert_line("^ #0: [0-9a-f]{16} \\(&w\\.raw\\)\\{\\+\\.\\+\\.\\}-"
		    "\\{2:2\\}, at: spinlock_under_raw_spinlock_is_invalid");
	assert_line("^stack backtrace:$");
	assert_line("^turning off the locking correctness validator\\.$");
}

/* rwlock_t and local_lock_t are spinlock_t's category too. */
static void rwlock_and_local_lock_under_raw_are_invalid(void **state)
{
	(void)state;
	w_init();
	pk_lockdep_keep_going(true);
	raw_spin_lock(&w.raw);
	read_lock(&w.rw);
	read_unlock(&w.rw);
	local_lock(&wait_pcpu);
	local_unlock(&wait_pcpu);
	raw_spin_unlock(&w.raw);
	assert_int_equal(captured.nr, 2);
	assert_line("^[0-9a-f]{16} \\(&wait_pcpu\\)\\{\\.\\.\\.\\.\\}-"
		    "\\{3:3\\}, at: ");
}

static void mutex_under_spinlock_is_invalid(void **state)
{
	(void)state;
	w_init();
	spin_lock(&w.s);
	mutex_lock(&w.m); /* might_sleep() reports first */
	mutex_unlock(&w.m);
	spin_unlock(&w.s);
	assert_line("^\\[ BUG: Invalid wait context \\]$");
	assert_line("^[0-9a-f]{16} \\(&w\\.m\\)\\{\\.\\.\\.\\.\\}-\\{4:4\\}, "
		    "at: mutex_under_spinlock_is_invalid\\+0x");
	assert_line("^context-\\{5:5\\}$");
	assert_line("^ #0: [0-9a-f]{16} \\(&w\\.s\\)\\{\\+\\.\\+\\.\\}-"
		    "\\{3:3\\}, at: ");
}

/* A bit spinlock is validated for nothing else, but nests as a raw one. */
static void spinlock_under_bit_spin_lock_is_invalid(void **state)
{
	unsigned long word = 0;

	(void)state;
	w_init();
	bit_spin_lock(1, &word);
	spin_lock(&w.s);
	spin_unlock(&w.s);
	bit_spin_unlock(1, &word);
	assert_int_equal(captured.nr, 1);
	assert_line("^\\[ BUG: Invalid wait context \\]$");
	assert_line("^ #0: [0-9a-f]{16} \\(bit_spin_lock\\)\\{\\.\\.\\.\\.\\}-"
		    "\\{2:2\\}, at: ");
}

/* rcu_read_lock_sched() is preempt_disable(): raw locks only inside;
 * rcu_read_lock() allows spinlock_t (PREEMPT_RCU readers under rt). */
static void spinlock_in_sched_reader_is_invalid(void **state)
{
	(void)state;
	w_init();
	rcu_read_lock();
	spin_lock(&w.s);
	spin_unlock(&w.s);
	rcu_read_unlock();
	assert_int_equal(captured.nr, 0);
	rcu_read_lock_sched();
	spin_lock(&w.s);
	spin_unlock(&w.s);
	rcu_read_unlock_sched();
	assert_int_equal(captured.nr, 1);
	assert_line(
		"^ #0: [0-9a-f]{16} \\(rcu_read_lock_sched\\)\\{\\.\\.\\.\\."
		"\\}-\\{1:2\\}, at: ");
}

/* Every allowed nesting, and a trylock (which never waits): silent. */
static void allowed_nestings_are_silent(void **state)
{
	unsigned long word = 0;

	(void)state;
	w_init();
	mutex_lock(&w.m);
	spin_lock(&w.s);
	read_lock(&w.rw);
	raw_spin_lock(&w.raw);
	bit_spin_lock(0, &word);
	bit_spin_unlock(0, &word);
	raw_spin_unlock(&w.raw);
	read_unlock(&w.rw);
	spin_unlock(&w.s);
	local_lock(&wait_pcpu);
	spin_lock(&w.s2);
	spin_unlock(&w.s2);
	local_unlock(&wait_pcpu);
	mutex_unlock(&w.m);
	raw_spin_lock(&w.raw);
	assert_true(spin_trylock(&w.s));
	spin_unlock(&w.s);
	raw_spin_unlock(&w.raw);
	assert_int_equal(captured.nr, 0);
}

/* With keep_going, one report per class, not one per acquisition. */
static void one_report_per_class(void **state)
{
	(void)state;
	w_init();
	pk_lockdep_keep_going(true);
	for (int i = 0; i < 3; i++) {
		raw_spin_lock(&w.raw);
		spin_lock(&w.s);
		spin_unlock(&w.s);
		raw_spin_unlock(&w.raw);
	}
	assert_int_equal(captured.nr, 1);
}

/* ---- hardirq: what rt would thread may take spinlock_t ---- */

static int cpu = -1;
static int handled;

static irqreturn_t take_spinlock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	spin_lock(&w.s);
	spin_unlock(&w.s);
	handled++;
	return IRQ_HANDLED;
}

static void raise_line(unsigned int line)
{
	int before = handled;

	irq_raise(line, cpu);
	assert_int_equal(handled, before + 1);
	pk_report_flush(); /* a report made in the handler is deferred */
}

static void spinlock_in_hard_handler_is_invalid(void **state)
{
	unsigned long flags;

	(void)state;
	w_init();
	if (cpu < 0) {
		cpu = pk_irq_cpu_register();
		assert_true(cpu >= 0);
		assert_int_equal(request_irq(LINE_HARD, take_spinlock,
					     IRQF_NO_THREAD, "hard", NULL),
				 0);
		assert_int_equal(request_irq(LINE_THREADABLE, take_spinlock, 0,
					     "threadable", NULL),
				 0);
	}
	spin_lock_irqsave(&w.s, flags); /* no irq inversion to report */
	spin_unlock_irqrestore(&w.s, flags);
	raise_line(LINE_THREADABLE);
	assert_int_equal(captured.nr, 0);
	raise_line(LINE_HARD);
	assert_int_equal(captured.nr, 1);
	assert_line("^\\[ BUG: Invalid wait context \\]$");
	assert_line("^[0-9a-f]{16} \\(&w\\.s\\)\\{-\\.\\.\\.\\}-\\{3:3\\}, "
		    "at: take_spinlock\\+0x");
	assert_line("^context-\\{2:2\\}$");
}

/* A per-CPU lock carries no irq inversion (the kernel skips it): an
 * irq-safe lock held around local_lock(), taken elsewhere with irqs on. */
static void local_lock_carries_no_irq_inversion(void **state)
{
	unsigned long flags;

	pk_lockdep_keep_going(true); /* past the hard handler's report */
	spinlock_in_hard_handler_is_invalid(state); /* w.s: hardirq-safe */
	capture_reset();
	assert_int_equal(debug_locks, 1);
	local_lock(&wait_pcpu); /* HARDIRQ-ON-W */
	local_unlock(&wait_pcpu);
	spin_lock_irqsave(&w.s, flags);
	local_lock(&wait_pcpu);
	local_unlock(&wait_pcpu);
	spin_unlock_irqrestore(&w.s, flags);
	assert_int_equal(captured.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(spinlock_under_raw_spinlock_is_invalid),
		T(rwlock_and_local_lock_under_raw_are_invalid),
		T(mutex_under_spinlock_is_invalid),
		T(spinlock_under_bit_spin_lock_is_invalid),
		T(spinlock_in_sched_reader_is_invalid),
		T(allowed_nestings_are_silent),
		T(one_report_per_class),
		T(spinlock_in_hard_handler_is_invalid),
		T(local_lock_carries_no_irq_inversion),
#undef T
	};

	if (!CONFIG_LOCKDEP) {
		printf("lockdep is compiled out (nodebug build)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
