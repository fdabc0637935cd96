// SPDX-License-Identifier: MIT
/*
 * kernel/rcu/sync.c on the library's RCU and wait queues.  Readers on
 * both CPUs take a fast path while rcu_sync_is_idle() and a locked slow
 * path otherwise: no fast reader ever runs while an updater is between
 * rcu_sync_enter() and rcu_sync_exit(), and the fast path comes back a
 * grace period after the last exit.  A second updater arriving while the
 * first waits for its grace period sleeps on the rcu_sync's wait queue
 * (the file's spin_lock_irqsave() on the queue's lock, wake_up_locked())
 * until the first one's grace period has passed.  Closely spaced
 * enter/exit pairs from two CPUs end idle after rcu_sync_dtor(), without
 * a warning.
 */

#include <linux/delay.h>
#include <linux/rcu_sync.h>
#include <linux/spinlock.h>

#include "check.h"

enum { IDLE, ENTER, PASSED, EXIT, REPLAY }; /* the file's gp_state values */

static DEFINE_RCU_SYNC(rss);
static DEFINE_SPINLOCK(slow_lock);
static bool writing, stop;
static atomic_t violations, fast, slow;

/* The reader side of a percpu_rw_semaphore-like lock. */
static int reader(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop)) {
		rcu_read_lock();
		if (rcu_sync_is_idle(&rss)) {
			udelay(20);
			if (READ_ONCE(writing))
				atomic_inc(&violations);
			atomic_inc(&fast);
			rcu_read_unlock();
		} else {
			rcu_read_unlock();
			spin_lock(&slow_lock);
			atomic_inc(&slow);
			spin_unlock(&slow_lock);
		}
		cond_resched();
	}
	return 0;
}

static int writer(void *arg)
{
	int rounds = (long)arg;

	for (int i = 0; i < rounds; i++) {
		rcu_sync_enter(&rss);
		spin_lock(&slow_lock);
		WRITE_ONCE(writing, true);
		udelay(200);
		WRITE_ONCE(writing, false);
		spin_unlock(&slow_lock);
		rcu_sync_exit(&rss);
		msleep(1);
	}
	return 0;
}

/* The fast path is back within 5 s (a grace period after the exit). */
static int idle_again(void *arg)
{
	(void)arg;
	for (int i = 0; i < 5000; i++) {
		bool idle;

		rcu_read_lock();
		idle = rcu_sync_is_idle(&rss);
		rcu_read_unlock();
		if (idle)
			return 0;
		msleep(1);
	}
	return -1;
}

/* @fn in a kthread bound to @cpu; its result. */
static int run_on(int (*fn)(void *), void *arg, int cpu)
{
	struct task_struct *t = kthread_create(fn, arg, "check%d", cpu);

	kthread_bind(t, cpu);
	wake_up_process(t);
	return kthread_stop(t);
}

static void readers_switch(void **state)
{
	struct task_struct *r[2], *w;
	unsigned long reports = pk_report_count();
	int fast_after;

	(void)state;
	check_boot(2);
	for (int i = 0; i < 2; i++) {
		r[i] = kthread_create(reader, NULL, "reader%d", i);
		kthread_bind(r[i], i);
		wake_up_process(r[i]);
	}
	while (atomic_read(&fast) < 100)
		msleep(1);
	w = kthread_run(writer, (void *)20L, "writer");
	assert_int_equal(kthread_stop(w), 0);
	/* A grace period after the last exit, readers are fast again. */
	assert_int_equal(check_run(idle_again, NULL), 0);
	fast_after = atomic_read(&fast);
	while (atomic_read(&fast) < fast_after + 100)
		msleep(1);
	WRITE_ONCE(stop, true);
	for (int i = 0; i < 2; i++)
		assert_int_equal(kthread_stop(r[i]), 0);
	assert_int_equal(atomic_read(&violations), 0);
	assert_true(atomic_read(&slow) > 0);
	assert_int_equal(pk_report_count(), reports);
	machine_shutdown();
}

/* ---- the state machine, on one task */

static int states(void *arg)
{
	struct rcu_sync r;
	bool idle;

	(void)arg;
	rcu_sync_init(&r);
	if (r.gp_state != IDLE || r.gp_count)
		return -1;
	rcu_sync_enter(&r);
	if (r.gp_state != PASSED || r.gp_count != 1)
		return -2;
	rcu_sync_enter(&r); /* nested: no grace period to wait for */
	rcu_sync_exit(&r);
	if (r.gp_state != PASSED || r.gp_count != 1)
		return -3;
	/*
	 * The exit's callback is queued inside this reader, so its grace
	 * period cannot end before the check: still the slow path.
	 */
	rcu_read_lock();
	rcu_sync_exit(&r);
	idle = rcu_sync_is_idle(&r);
	rcu_read_unlock();
	if (idle || r.gp_count)
		return -4;
	rcu_barrier();
	if (r.gp_state != IDLE)
		return -5;
	/* Re-entered before the exit's grace period: the callback replays. */
	rcu_sync_enter(&r);
	rcu_read_lock();
	rcu_sync_exit(&r);
	rcu_read_unlock();
	rcu_sync_enter(&r); /* gp_state EXIT, or IDLE if it already passed */
	rcu_sync_exit(&r);
	rcu_sync_dtor(&r);
	return r.gp_state == IDLE ? 0 : -6;
}

static void state_machine(void **state)
{
	unsigned long reports = pk_report_count();

	(void)state;
	check_boot(2);
	assert_int_equal(check_run(states, NULL), 0);
	assert_int_equal(pk_report_count(), reports);
	machine_shutdown();
}

/* ---- a second updater sleeps on the wait queue until the first's GP */

static DEFINE_RCU_SYNC(two);
static atomic_t entered, in_reader;
static bool early;

static int holder(void *arg)
{
	(void)arg;
	rcu_read_lock();
	atomic_set(&in_reader, 1);
	/* Both updaters are counted: one in its GP, one on the queue. */
	while (READ_ONCE(two.gp_count) < 2)
		cpu_relax();
	mdelay(5);
	if (atomic_read(&entered))
		WRITE_ONCE(early, true);
	rcu_read_unlock();
	return 0;
}

static int updater(void *arg)
{
	(void)arg;
	rcu_sync_enter(&two);
	atomic_inc(&entered);
	if (READ_ONCE(two.gp_state) != PASSED)
		return -1;
	return 0;
}

static int second_waits(void *arg)
{
	struct task_struct *h, *u[2];

	(void)arg;
	h = kthread_create(holder, NULL, "holder");
	kthread_bind(h, 0);
	wake_up_process(h);
	while (!atomic_read(&in_reader))
		msleep(1);
	for (int i = 0; i < 2; i++) {
		u[i] = kthread_create(updater, NULL, "updater%d", i);
		kthread_bind(u[i], 1);
		wake_up_process(u[i]);
	}
	if (kthread_stop(h))
		return -1;
	for (int i = 0; i < 2; i++)
		if (kthread_stop(u[i]))
			return -2;
	if (READ_ONCE(early) || atomic_read(&entered) != 2)
		return -3;
	rcu_sync_exit(&two);
	rcu_sync_exit(&two);
	rcu_sync_dtor(&two);
	return two.gp_state == IDLE ? 0 : -4;
}

static void second_updater_waits(void **state)
{
	unsigned long reports = pk_report_count();

	(void)state;
	check_boot(2);
	/* Off CPU 0, where the holder spins in its reader. */
	assert_int_equal(run_on(second_waits, NULL, 1), 0);
	assert_int_equal(pk_report_count(), reports);
	machine_shutdown();
}

/* ---- closely spaced pairs from both CPUs */

static int pairs(void *arg)
{
	(void)arg;
	for (int i = 0; i < 300; i++) {
		rcu_sync_enter(&rss);
		if (READ_ONCE(rss.gp_state) < PASSED)
			return -1;
		rcu_sync_exit(&rss);
		if (!(i % 16))
			msleep(1);
	}
	return 0;
}

static int dtor(void *arg)
{
	rcu_sync_dtor(arg);
	return 0;
}

static void close_pairs(void **state)
{
	struct task_struct *t[2];
	unsigned long reports = pk_report_count();

	(void)state;
	check_boot(2);
	for (int i = 0; i < 2; i++) {
		t[i] = kthread_create(pairs, NULL, "pairs%d", i);
		kthread_bind(t[i], i);
		wake_up_process(t[i]);
	}
	for (int i = 0; i < 2; i++)
		assert_int_equal(kthread_stop(t[i]), 0);
	assert_int_equal(check_run(dtor, &rss), 0);
	assert_int_equal(READ_ONCE(rss.gp_state), IDLE);
	assert_int_equal(pk_report_count(), reports);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(readers_switch),
		cmocka_unit_test(state_machine),
		cmocka_unit_test(second_updater_waits),
		cmocka_unit_test(close_pairs),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
