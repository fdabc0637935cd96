// SPDX-License-Identifier: MIT
/*
 * The cases of the kernel's Documentation/locking/lockdep-design.rst, in
 * our own words, each with the verdict the design gives: the single-lock
 * state rules, the four checks made when a class changes state, the
 * classes of statically and dynamically initialized locks, and the
 * recursive-read rules (W writer, r non-recursive reader, R recursive
 * reader; a cycle is a deadlock only if it is "strong": no -(xR)-> edge
 * followed by an -(Sx)-> one).  No deadlock ever happens: each order runs
 * once, alone.
 */
#define _GNU_SOURCE
#include <preempt/interrupt.h>
#include <preempt/lockdep.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "lockdep_test.h"

#define LINE 15

static const char *const circular =
	"WARNING: possible circular locking dependency detected";
static const char *const recursive =
	"WARNING: possible recursive locking detected";

/* ---- bare classes, taken as W, r or R ---- */

static struct lock_class_key kx, ky, kz;
static struct lockdep_map X, Y, Z;

static void maps_init(void)
{
	lockdep_init_map(&X, "X", &kx, 0);
	lockdep_init_map(&Y, "Y", &ky, 0);
	lockdep_init_map(&Z, "Z", &kz, 0);
}

static void W(struct lockdep_map *m)
{
	lock_acquire(m, 0, 0, 0, 1, NULL, _THIS_IP_);
}

static void r(struct lockdep_map *m)
{
	lock_acquire(m, 0, 0, 1, 1, NULL, _THIS_IP_);
}

static void R(struct lockdep_map *m)
{
	lock_acquire(m, 0, 0, 2, 1, NULL, _THIS_IP_);
}

static void U(struct lockdep_map *m)
{
	lock_release(m, _THIS_IP_);
}

/* Task A: R(X) W(Y); task B: R(Y) W(X).  Each waits for the other's
 * reader to leave: the design's example of a deadlock with readers. */
static void readers_then_writers_crossed_deadlock(void **state)
{
	(void)state;
	maps_init();
	R(&X), W(&Y), U(&Y), U(&X);
	assert_int_equal(captured.nr, 0);
	R(&Y), W(&X), U(&X), U(&Y);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(circular);
	assert_report_contains("rlock(Y);");
}

/* A: W(X) R(Y); B: R(Y) W(X).  X -(ER)-> Y -(SN)-> X is not strong: A's
 * recursive read of Y waits only for a writer holding Y, and B holds it
 * as a reader.  No deadlock, no report. */
static void recursive_read_then_shared_is_no_cycle(void **state)
{
	(void)state;
	maps_init();
	W(&X), R(&Y), U(&Y), U(&X);
	R(&Y), W(&X), U(&X), U(&Y);
	assert_int_equal(captured.nr, 0);
	assert_int_equal(debug_locks, 1);
}

/* The same with A's read of Y non-recursive: a reader holding Y blocks
 * it (a writer may be waiting), so the cycle is strong. */
static void nonrecursive_read_makes_it_a_deadlock(void **state)
{
	(void)state;
	maps_init();
	W(&X), r(&Y), U(&Y), U(&X);
	R(&Y), W(&X), U(&X), U(&Y);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(circular);
}

/* A longer strong cycle through readers: X -(EN)-> Y -(SN)-> Z -(EN)-> X. */
static void longer_cycle_through_readers(void **state)
{
	(void)state;
	maps_init();
	W(&X), r(&Y), U(&Y), U(&X);
	r(&Y), W(&Z), U(&Z), U(&Y);
	assert_int_equal(captured.nr, 0);
	W(&Z), W(&X), U(&X), U(&Z);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(circular);
	assert_report_contains("Chain exists of:");
}

/* Read X then write Y, and write X then write Y: two kinds of X -> Y,
 * same order, nothing to report. */
static void two_kinds_of_one_order_are_fine(void **state)
{
	(void)state;
	maps_init();
	r(&X), W(&Y), U(&Y), U(&X);
	W(&X), W(&Y), U(&Y), U(&X);
	assert_int_equal(captured.nr, 0);
}

/* Recursive readers nest on one lock; a non-recursive one would wait
 * behind a writer waiter: self-deadlock. */
static void read_recursion_rules(void **state)
{
	(void)state;
	maps_init();
	R(&X), R(&X), U(&X), U(&X);
	r(&X), R(&X), U(&X), U(&X); /* R after any reader: fine */
	assert_int_equal(captured.nr, 0);
	r(&X), r(&X), U(&X), U(&X);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(recursive);
}

static void write_after_read_is_recursive(void **state)
{
	(void)state;
	maps_init();
	R(&X), W(&X), U(&X), U(&X);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(recursive);
}

/* ---- classes: one per init site, one per static lock ---- */

static spinlock_t statics[2] = {__SPIN_LOCK_UNLOCKED(statics[0]),
				__SPIN_LOCK_UNLOCKED(statics[1])};

static void static_locks_are_classes_of_their_own(void **state)
{
	spinlock_t dyn[2];
	struct pk_lockdep_stats before, after;

	(void)state;
	pk_lockdep_stats(&before);
	spin_lock(&statics[0]);
	spin_lock(&statics[1]); /* two classes: no recursion */
	spin_unlock(&statics[1]);
	spin_unlock(&statics[0]);
	pk_lockdep_stats(&after);
	assert_int_equal(after.lock_classes - before.lock_classes, 2);
	assert_int_equal(captured.nr, 0);
	for (int i = 0; i < 2; i++)
		spin_lock_init(&dyn[i]); /* one site, one class */
	spin_lock(&dyn[0]);
	spin_lock(&dyn[1]);
	spin_unlock(&dyn[1]);
	spin_unlock(&dyn[0]);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(recursive);
}

/* ---- interrupt states ---- */

static spinlock_t l1, l2;
static void (*irq_fn)(void);
static int handled;
static int cpu = -1;

static irqreturn_t handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	irq_fn();
	handled++;
	return IRQ_HANDLED;
}

static void run_in_hardirq(void (*fn)(void))
{
	int before = handled;

	if (cpu < 0) {
		cpu = pk_irq_cpu_register();
		assert_true(cpu >= 0);
		assert_int_equal(request_irq(LINE, handler, 0, "ld", NULL), 0);
	}
	irq_fn = fn;
	irq_raise(LINE, cpu);
	assert_int_equal(handled, before + 1);
	pk_report_flush(); /* a report made in the handler is deferred */
}

/* As the softirq loop marks its context in the count. */
static void run_in_softirq(void (*fn)(void))
{
	preempt_count_add(SOFTIRQ_OFFSET);
	fn();
	preempt_count_sub(SOFTIRQ_OFFSET);
}

static void take_l1(void)
{
	spin_lock(&l1);
	spin_unlock(&l1);
}

static void take_l1_irqsave(void)
{
	unsigned long flags;

	spin_lock_irqsave(&l1, flags);
	spin_unlock_irqrestore(&l1, flags);
}

static void l_init(void)
{
	spin_lock_init(&l1);
	spin_lock_init(&l2);
}

/* A lock that becomes hardirq-safe: did it take an unsafe one before? */
static void new_hardirq_safe_lock_that_took_an_unsafe_one(void **state)
{
	unsigned long flags;

	(void)state;
	l_init();
	spin_lock(&l2); /* l2: HARDIRQ-unsafe */
	spin_unlock(&l2);
	spin_lock_irqsave(&l1, flags);
	spin_lock(&l2); /* l1 -> l2, interrupts off */
	spin_unlock(&l2);
	spin_unlock_irqrestore(&l1, flags);
	assert_int_equal(captured.nr, 0);
	run_in_hardirq(take_l1); /* l1: HARDIRQ-safe */
	assert_int_equal(captured.nr, 1);
	assert_report_contains(
		"WARNING: possible irq lock inversion dependency detected");
	assert_report_contains(
		"but this lock took another, HARDIRQ-unsafe lock in the past:");
}

/* The same for softirqs. */
static void new_softirq_safe_lock_that_took_an_unsafe_one(void **state)
{
	(void)state;
	l_init();
	spin_lock(&l2); /* l2: SOFTIRQ-unsafe */
	spin_unlock(&l2);
	spin_lock_bh(&l1);
	spin_lock(&l2);
	spin_unlock(&l2);
	spin_unlock_bh(&l1);
	assert_int_equal(captured.nr, 0);
	run_in_softirq(take_l1_irqsave); /* l1: SOFTIRQ-safe only */
	assert_int_equal(captured.nr, 1);
	assert_report_contains(
		"but this lock took another, SOFTIRQ-unsafe lock in the past:");
}

/* A lock that becomes softirq-unsafe, taken before under a safe one. */
static void new_softirq_unsafe_lock_a_safe_one_took(void **state)
{
	(void)state;
	l_init();
	run_in_softirq(take_l1_irqsave); /* l1: SOFTIRQ-safe */
	spin_lock_bh(&l1);
	spin_lock_bh(&l2); /* l1 -> l2, bottom halves off */
	spin_unlock_bh(&l2);
	spin_unlock_bh(&l1);
	assert_int_equal(captured.nr, 0);
	spin_lock(&l2); /* l2: SOFTIRQ-unsafe */
	spin_unlock(&l2);
	assert_int_equal(captured.nr, 1);
	assert_report_contains(
		"but this lock was taken by another, SOFTIRQ-safe lock in the "
		"past:");
}

/* Taken with bottom halves off but interrupts on: hardirq-unsafe, not
 * softirq-unsafe.  A softirq may take it; a hardirq may not. */
static void bh_off_is_softirq_safe_not_hardirq_safe(void **state)
{
	(void)state;
	l_init();
	spin_lock_bh(&l1);
	spin_unlock_bh(&l1);
	run_in_softirq(take_l1);
	assert_int_equal(captured.nr, 0);
	run_in_hardirq(take_l1);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("inconsistent {HARDIRQ-ON-W} -> {IN-HARDIRQ-W} "
			       "usage.");
}

/* The design's usage characters: '-' used in that interrupt (and never
 * with it on), '.' neither. */
static void usage_characters(void **state)
{
	unsigned long flags;

	(void)state;
	l_init();
	run_in_hardirq(take_l1);
	run_in_softirq(take_l1_irqsave);
	local_irq_save(flags);
	spin_lock(&l1);
	debug_check_no_locks_held();
	spin_unlock(&l1);
	local_irq_restore(flags);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("(&l1){-.-.}-{3:3}");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(readers_then_writers_crossed_deadlock),
		T(recursive_read_then_shared_is_no_cycle),
		T(nonrecursive_read_makes_it_a_deadlock),
		T(longer_cycle_through_readers),
		T(two_kinds_of_one_order_are_fine),
		T(read_recursion_rules),
		T(write_after_read_is_recursive),
		T(static_locks_are_classes_of_their_own),
		T(new_hardirq_safe_lock_that_took_an_unsafe_one),
		T(new_softirq_safe_lock_that_took_an_unsafe_one),
		T(new_softirq_unsafe_lock_a_safe_one_took),
		T(bh_off_is_softirq_safe_not_hardirq_safe),
		T(usage_characters),
#undef T
	};

	if (!CONFIG_LOCKDEP) {
		printf("lockdep is compiled out (nodebug build)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
