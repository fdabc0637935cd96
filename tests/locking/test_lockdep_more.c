// SPDX-License-Identifier: MIT
/*
 * The lock validator on the lock types added last (rt_mutex, local_lock_t,
 * bit_spin_lock, the RCU readers) and its "lock held when returning to
 * user space!" check, each report matched line by line against the
 * kernel's format.
 */
#define _GNU_SOURCE

#include <preempt/bit_spinlock.h>
#include <preempt/interrupt.h>
#include <preempt/local_lock.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rcupdate.h>
#include <preempt/rtmutex.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "lockdep_test.h"

#define LINE 14

struct dev {
	struct rt_mutex rt_a, rt_b;
	struct mutex m;
	spinlock_t s;
};

static struct dev dev;

static void dev_init(struct dev *d)
{
	rt_mutex_init(&d->rt_a);
	rt_mutex_init(&d->rt_b);
	mutex_init(&d->m);
	spin_lock_init(&d->s);
}

/* ---- rt_mutex ---- */

static void rt_mutex_abba_is_circular(void **state)
{
	(void)state;
	dev_init(&dev);
	rt_mutex_lock(&dev.rt_a);
	mutex_lock(&dev.m);
	mutex_unlock(&dev.m);
	rt_mutex_unlock(&dev.rt_a);
	assert_int_equal(captured.nr, 0);
	mutex_lock(&dev.m);
	rt_mutex_lock(&dev.rt_a);
	rt_mutex_unlock(&dev.rt_a);
	mutex_unlock(&dev.m);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible circular locking dependency detected$");
	assert_line("^[0-9a-f]{16} \\(&d->rt_a\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}, "
		    "at: rt_mutex_abba_is_circular\\+0x");
	assert_line("^-> #1 \\(&d->m\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}:$");
	assert_line("^-> #0 \\(&d->rt_a\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}:$");
	assert_line("^  lock\\(&d->m\\);$");
}

static void rt_mutex_same_class_is_recursive_unless_nested(void **state)
{
	(void)state;
	dev_init(&dev); /* rt_a and rt_b: two init sites, two classes */
	rt_mutex_lock(&dev.rt_a);
	rt_mutex_lock(&dev.rt_b);
	rt_mutex_unlock(&dev.rt_b);
	rt_mutex_unlock(&dev.rt_a);
	assert_int_equal(captured.nr, 0);

	struct rt_mutex two[2];

	for (int i = 0; i < 2; i++)
		rt_mutex_init(&two[i]); /* one site: one class */
	rt_mutex_lock(&two[0]);
	rt_mutex_lock_nested(&two[1], SINGLE_DEPTH_NESTING);
	assert_int_equal(lockdep_depth(current), 2);
	rt_mutex_unlock(&two[1]);
	rt_mutex_unlock(&two[0]);
	assert_int_equal(captured.nr, 0);
	rt_mutex_lock(&two[0]);
	rt_mutex_lock(&two[1]);
	rt_mutex_unlock(&two[1]);
	rt_mutex_unlock(&two[0]);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible recursive locking detected$");
	assert_line("^  lock\\(&two\\[i\\]\\);$");
}

static DEFINE_RT_MUTEX(static_rt);

static void rt_mutex_trylock_and_static_name(void **state)
{
	(void)state;
	assert_int_equal(rt_mutex_trylock(&static_rt), 1);
	assert_int_equal(lockdep_depth(current), 1);
	lockdep_assert_held(&static_rt);
	debug_check_no_locks_held();
	rt_mutex_unlock(&static_rt);
	assert_int_equal(captured.nr, 1);
	assert_line("^ #0: [0-9a-f]{16} \\(static_rt\\)\\{\\+\\.\\+\\.\\}-"
		    "\\{4:4\\}, at: rt_mutex_trylock_and_static_name\\+0x");
}

/* ---- local_lock_t ---- */

static DEFINE_PER_CPU(local_lock_t, pcpu_lock);
static bool take_local_in_irq;
static int handled;

static irqreturn_t irq_handler(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (take_local_in_irq) {
		local_lock(&pcpu_lock);
		local_unlock(&pcpu_lock);
	} else {
		spin_lock(&dev.s); /* and left held: a leak */
	}
	handled++;
	return IRQ_HANDLED;
}

static int cpu = -1;

static void raise_irq(void)
{
	int before = handled;

	if (cpu < 0) {
		cpu = pk_irq_cpu_register();
		assert_true(cpu >= 0);
		assert_int_equal(request_irq(LINE, irq_handler, 0, "ld", NULL),
				 0);
	}
	irq_raise(LINE, cpu);
	assert_int_equal(handled, before + 1);
	pk_report_flush();
}

static void local_lock_is_validated_by_its_name(void **state)
{
	(void)state;
	dev_init(&dev);
	local_lock_init(&pcpu_lock);
	local_lock(&pcpu_lock);
	assert_int_equal(lockdep_depth(current), 1);
	lockdep_assert_held(&this_cpu_ptr(&pcpu_lock)->sl);
	spin_lock(&dev.s);
	spin_unlock(&dev.s);
	local_unlock(&pcpu_lock);
	assert_int_equal(lockdep_depth(current), 0);
	assert_int_equal(captured.nr, 0);
	spin_lock(&dev.s);
	local_lock(&pcpu_lock);
	local_unlock(&pcpu_lock);
	spin_unlock(&dev.s);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible circular locking dependency detected$");
	assert_line("^[0-9a-f]{16} \\(&pcpu_lock\\)\\{\\+\\.\\+\\.\\}-"
		    "\\{3:3\\}, at: local_lock_is_validated_by_its_name\\+0x");
}

/* local_lock() only disables preemption: an interrupt taking it too is
 * the kernel's inconsistent lock state; local_lock_irq() is fine. */
static void local_lock_in_irq_needs_the_irq_variant(void **state)
{
	unsigned long flags;

	(void)state;
	local_lock_init(&pcpu_lock);
	take_local_in_irq = true;
	raise_irq();
	local_lock_irq(&pcpu_lock);
	local_unlock_irq(&pcpu_lock);
	local_lock_irqsave(&pcpu_lock, flags);
	local_unlock_irqrestore(&pcpu_lock, flags);
	assert_int_equal(captured.nr, 0);
	local_lock(&pcpu_lock);
	local_unlock(&pcpu_lock);
	take_local_in_irq = false;
	assert_int_equal(captured.nr, 1);
	assert_line("^inconsistent \\{IN-HARDIRQ-W\\} -> \\{HARDIRQ-ON-W\\} "
		    "usage\\.$");
	assert_line("\\(&pcpu_lock\\)\\{\\?\\.\\.\\.\\}-\\{3:3\\}, at: ");
}

/* ---- bit_spin_lock ---- */

static void bit_spin_locks_are_tracked_not_checked(void **state)
{
	unsigned long a = 0, b = 0;

	(void)state;
	bit_spin_lock(0, &a);
	bit_spin_lock(3, &b);
	assert_int_equal(lockdep_depth(current), 2);
	bit_spin_unlock(3, &b);
	bit_spin_unlock(0, &a);
	bit_spin_lock(3, &b); /* the other order: no class to order */
	bit_spin_lock(0, &a);
	bit_spin_unlock(0, &a);
	assert_int_equal(lockdep_depth(current), 1);
	assert_int_equal(captured.nr, 0);
	debug_check_no_locks_held();
	bit_spin_unlock(3, &b);
	assert_int_equal(captured.nr, 1);
	assert_line("^ #0: [0-9a-f]{16} \\(bit_spin_lock\\)\\{\\.\\.\\.\\.\\}-"
		    "\\{2:2\\}, at: ");
}

/* ---- RCU readers ---- */

static void rcu_readers_are_held_locks(void **state)
{
	(void)state;
	rcu_read_lock();
	rcu_read_lock_bh();
	rcu_read_lock_sched();
	assert_int_equal(lockdep_depth(current), 3);
	assert_int_equal(lock_is_held(&rcu_lock_map), 1);
	assert_int_equal(lock_is_held(&rcu_bh_lock_map), 1);
	assert_int_equal(lock_is_held(&rcu_sched_lock_map), 1);
	debug_check_no_locks_held();
	rcu_read_unlock_sched();
	rcu_read_unlock_bh();
	rcu_read_unlock();
	assert_int_equal(captured.nr, 1);
	assert_line("^3 locks held by [^ ]+/[0-9]+:$");
	assert_line("^ #0: [0-9a-f]{16} \\(rcu_read_lock\\)\\{\\.\\.\\.\\.\\}-"
		    "\\{1:3\\}, at: rcu_readers_are_held_locks\\+0x");
	assert_line(
		"^ #1: [0-9a-f]{16} \\(rcu_read_lock_bh\\)\\{\\.\\.\\.\\.\\}"
		"-\\{1:3\\}, at: ");
	assert_line(
		"^ #2: [0-9a-f]{16} \\(rcu_read_lock_sched\\)\\{\\.\\.\\.\\."
		"\\}-\\{1:2\\}, at: ");
}

/*
 * A reader never waits: a lock taken inside a reader and a reader entered
 * under the lock is no deadlock, in either order (the kernel's verdict:
 * its readers are recursive reads it does not order).
 */
static void rcu_reader_and_a_lock_in_both_orders_is_fine(void **state)
{
	(void)state;
	dev_init(&dev);
	rcu_read_lock();
	spin_lock(&dev.s);
	spin_unlock(&dev.s);
	rcu_read_unlock();
	spin_lock(&dev.s);
	rcu_read_lock();
	rcu_read_unlock();
	spin_unlock(&dev.s);
	rcu_read_lock();
	rcu_read_lock(); /* nests */
	rcu_read_unlock();
	rcu_read_unlock();
	assert_int_equal(lockdep_depth(current), 0);
	assert_int_equal(lock_is_held(&rcu_lock_map), 0);
	assert_int_equal(captured.nr, 0);
	assert_int_equal(debug_locks, 1);
}

/* ---- returning to user space ---- */

static void enter_user_with_a_lock_held_is_reported(void **state)
{
	(void)state;
	dev_init(&dev);
	enter_user();
	exit_user();
	assert_int_equal(captured.nr, 0);
	mutex_lock(&dev.m);
	rcu_read_lock();
	enter_user();
	exit_user();
	rcu_read_unlock();
	mutex_unlock(&dev.m);
	assert_int_equal(captured.nr, 1);
	assert_line("^=+$");
	assert_line("^WARNING: lock held when returning to user space!$");
	assert_line("^-+$");
	assert_line("^[^ ]+/[0-9]+ is leaving the kernel with locks still "
		    "held!$");
	assert_line("^2 locks held by [^ ]+/[0-9]+:$");
	assert_line(
		"^ #0: [0-9a-f]{16} \\(&d->m\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}, "
		"at: enter_user_with_a_lock_held_is_reported\\+0x");
	assert_line("^ #1: [0-9a-f]{16} \\(rcu_read_lock\\)");
	assert_int_equal(debug_locks, 0);
}

/* An interrupt that leaves a lock held, returning to a task in user mode. */
static void irq_return_to_user_with_a_leaked_lock(void **state)
{
	(void)state;
	dev_init(&dev);
	enter_user();
	raise_irq(); /* takes dev.s and keeps it */
	exit_user();
	/* The irq layer's "preempt leak" warning, then lockdep's. */
	assert_int_equal(captured.nr, 2);
	assert_line("^WARNING: lock held when returning to user space!$");
	assert_line("^1 lock held by [^ ]+/[0-9]+:$");
	assert_line("^ #0: [0-9a-f]{16} \\(&d->s\\)\\{-\\.\\.\\.\\}-\\{3:3\\}, "
		    "at: irq_handler\\+0x");
	spin_unlock(&dev.s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(rt_mutex_abba_is_circular),
		T(rt_mutex_same_class_is_recursive_unless_nested),
		T(rt_mutex_trylock_and_static_name),
		T(local_lock_is_validated_by_its_name),
		T(local_lock_in_irq_needs_the_irq_variant),
		T(bit_spin_locks_are_tracked_not_checked),
		T(rcu_readers_are_held_locks),
		T(rcu_reader_and_a_lock_in_both_orders_is_fine),
		T(enter_user_with_a_lock_held_is_reported),
		T(irq_return_to_user_with_a_leaked_lock),
#undef T
	};

	if (!CONFIG_LOCKDEP) {
		printf("lockdep is compiled out (nodebug build)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
