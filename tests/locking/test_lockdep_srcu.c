// SPDX-License-Identifier: MIT
/*
 * SRCU domains as the lock validator sees them, as the kernel's: each
 * reader a recursive read of the domain's map, synchronize_srcu() a
 * lock_sync() of it.  A grace period awaited inside the domain's own
 * reader, or under a lock one of its readers takes, is reported without
 * the deadlock happening.
 */
#define _GNU_SOURCE

#include <preempt/interrupt.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/srcu.h>

#include "lockdep_test.h"

#define LINE 17

DEFINE_STATIC_SRCU(dom);
static DEFINE_MUTEX(cfg_mutex);

struct client {
	struct srcu_struct srcu;
};

/* The reader as the validator sees it, without counting as one: the
 * grace period below does not wait for it (it would wait forever). */
static void enter_reader_map(struct srcu_struct *ssp)
{
	lock_acquire(&ssp->dep_map, 0, 0, 2, 1, NULL, _THIS_IP_);
}

static void readers_are_held_per_task(void **state)
{
	int i, j;

	(void)state;
	assert_false(srcu_read_lock_held(&dom));
	i = srcu_read_lock(&dom);
	j = srcu_read_lock(&dom); /* readers nest */
	assert_int_equal(lockdep_depth(current), 2);
	assert_true(srcu_read_lock_held(&dom));
	lockdep_assert_held(&dom);
	srcu_read_unlock(&dom, j);
	srcu_read_unlock(&dom, i);
	assert_int_equal(lockdep_depth(current), 0);
	assert_false(srcu_read_lock_held(&dom));
	assert_int_equal(captured.nr, 0);
}

static void sync_inside_own_reader_is_recursive(void **state)
{
	(void)state;
	enter_reader_map(&dom);
	synchronize_srcu(&dom);
	lock_release(&dom.dep_map, _THIS_IP_);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible recursive locking detected$");
	assert_line("^[0-9a-f]{16} \\(dom\\)\\{[-.+?]{4}\\}-\\{0:0\\}, at: "
		    "sync_inside_own_reader_is_recursive\\+0x");
	assert_line("^  rlock\\(dom\\);$");
	assert_line("^  sync\\(dom\\);$");
}

/* A reader takes the mutex; the mutex holder waits for the readers. */
static void sync_under_a_lock_a_reader_takes_is_circular(void **state)
{
	int idx;

	(void)state;
	idx = srcu_read_lock(&dom);
	mutex_lock(&cfg_mutex);
	mutex_unlock(&cfg_mutex);
	srcu_read_unlock(&dom, idx);
	assert_int_equal(captured.nr, 0);
	mutex_lock(&cfg_mutex);
	synchronize_srcu(&dom);
	mutex_unlock(&cfg_mutex);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible circular locking dependency detected$");
	assert_line("^-> #1 \\(cfg_mutex\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}:$");
	assert_line("^-> #0 \\(dom\\)\\{\\.\\+\\.\\+\\}-\\{0:0\\}:$");
	assert_line("^  lock\\(cfg_mutex\\);$");
	assert_line("^ +rlock\\(dom\\);$");
	assert_line("^  sync\\(dom\\);$");
}

/* Readers never block each other: a lock around a reader and the reader
 * around the lock is no deadlock; nor is another domain's grace period,
 * and a domain set up by init_srcu_struct() is its call site's class. */
static void what_is_not_a_deadlock(void **state)
{
	struct client c;
	int idx;

	(void)state;
	init_srcu_struct(&c.srcu);
	idx = srcu_read_lock(&dom);
	mutex_lock(&cfg_mutex);
	mutex_unlock(&cfg_mutex);
	srcu_read_unlock(&dom, idx);
	mutex_lock(&cfg_mutex);
	idx = srcu_read_lock(&dom);
	srcu_read_unlock(&dom, idx);
	mutex_unlock(&cfg_mutex);
	idx = srcu_read_lock(&dom);
	synchronize_srcu(&c.srcu);
	srcu_read_unlock(&dom, idx);
	assert_int_equal(captured.nr, 0);
	enter_reader_map(&c.srcu);
	synchronize_srcu(&c.srcu);
	lock_release(&c.srcu.dep_map, _THIS_IP_);
	assert_int_equal(captured.nr, 1);
	assert_line("^  rlock\\(&c\\.srcu\\);$");
	cleanup_srcu_struct(&c.srcu);
}

/* Nor inside an RCU reader: lockdep-RCU's report, as the kernel's. */
static void sync_inside_rcu_reader_is_suspicious(void **state)
{
	(void)state;
	rcu_read_lock();
	synchronize_srcu(&dom);
	rcu_read_unlock();
	assert_true(captured.nr >= 1);
	assert_line("^WARNING: suspicious RCU usage$");
	assert_line("Illegal synchronize_srcu\\(\\) in same-type SRCU \\(or in "
		    "RCU\\) read-side critical section$");
}

/* ---- a reader in a hardirq handler, the grace period in a task ---- */

static int handled;

static irqreturn_t srcu_reader_irq(int irq, void *dev_id)
{
	int idx;

	(void)irq;
	(void)dev_id;
	idx = srcu_read_lock(&dom);
	srcu_read_unlock(&dom, idx);
	handled++;
	return IRQ_HANDLED;
}

/* The grace period holds nothing an interrupt could wait for: no irq
 * state is recorded for it (the kernel's lock_sync()). */
static void reader_in_irq_and_sync_with_irqs_on(void **state)
{
	int cpu = pk_irq_cpu_register();

	(void)state;
	assert_true(cpu >= 0);
	assert_int_equal(request_irq(LINE, srcu_reader_irq, 0, "srcu", NULL),
			 0);
	irq_raise(LINE, cpu);
	assert_int_equal(handled, 1);
	pk_report_flush();
	synchronize_srcu(&dom);
	irq_raise(LINE, cpu);
	pk_report_flush();
	free_irq(LINE, NULL);
	assert_int_equal(captured.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(readers_are_held_per_task),
		T(sync_inside_own_reader_is_recursive),
		T(sync_under_a_lock_a_reader_takes_is_circular),
		T(what_is_not_a_deadlock),
		T(sync_inside_rcu_reader_is_suspicious),
		T(reader_in_irq_and_sync_with_irqs_on),
#undef T
	};

	if (!CONFIG_LOCKDEP) {
		printf("lockdep is compiled out (nodebug build)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
