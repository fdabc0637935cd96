// SPDX-License-Identifier: MIT
/*
 * The lock validator: each check, found the first time an order or a
 * usage is seen and never by deadlocking (the two orders of an AB-BA run
 * at different times), on each lock type, with the kernel's report
 * format matched line by line.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include <preempt/interrupt.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rwsem.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "lockdep_test.h"

#define LINE 13

struct dev {
	spinlock_t a, b, c;
	struct mutex m;
	struct rw_semaphore sem;
};

static struct dev dev;

static void dev_init(struct dev *d)
{
	spin_lock_init(&d->a);
	spin_lock_init(&d->b);
	spin_lock_init(&d->c);
	mutex_init(&d->m);
	init_rwsem(&d->sem);
}

/* ---- circular dependencies ---- */

static void *order_ab(void *arg)
{
	struct dev *d = arg;

	spin_lock(&d->a);
	spin_lock(&d->b);
	spin_unlock(&d->b);
	spin_unlock(&d->a);
	return NULL;
}

static void *order_ba(void *arg)
{
	struct dev *d = arg;

	spin_lock(&d->b);
	spin_lock(&d->a);
	spin_unlock(&d->a);
	spin_unlock(&d->b);
	return NULL;
}

static void run_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;

	assert_int_equal(pthread_create(&t, NULL, fn, arg), 0);
	assert_int_equal(pthread_join(t, NULL), 0);
}

static void abba_across_tasks_is_reported_in_the_kernel_format(void **state)
{
	(void)state;
	dev_init(&dev);
	run_thread(order_ab, &dev); /* one task, then the other: no deadlock */
	assert_int_equal(captured.nr, 0);
	run_thread(order_ba, &dev);
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_LOCKDEP);
	assert_line("^=+$");
	assert_line("^WARNING: possible circular locking dependency detected$");
	assert_line("^[^ ]+/[0-9]+ is trying to acquire lock:$");
	assert_line(
		"^[0-9a-f]{16} \\(&d->a\\)\\{\\+\\.\\+\\.\\}-\\{3:3\\}, at: "
		"order_ba\\+0x[0-9a-f]+/0x[0-9a-f]+$");
	assert_line("^but task is already holding lock:$");
	assert_line(
		"^[0-9a-f]{16} \\(&d->b\\)\\{\\+\\.\\+\\.\\}-\\{3:3\\}, at: "
		"order_ba\\+");
	assert_line("^which lock already depends on the new lock\\.$");
	assert_line(
		"^the existing dependency chain \\(in reverse order\\) is:$");
	assert_line("^-> #1 \\(&d->b\\)\\{\\+\\.\\+\\.\\}-\\{3:3\\}:$");
	assert_line("^ +order_ab\\+0x"); /* where a -> b was first taken */
	assert_line("^-> #0 \\(&d->a\\)\\{\\+\\.\\+\\.\\}-\\{3:3\\}:$");
	assert_line("^ Possible unsafe locking scenario:$");
	assert_line("^       CPU0                    CPU1$");
	assert_line("^       ----                    ----$");
	assert_line("^  lock\\(&d->b\\);$");
	assert_line("^                               lock\\(&d->a\\);$");
	assert_line("^                               lock\\(&d->b\\);$");
	assert_line("^  lock\\(&d->a\\);$");
	assert_line("^ \\*\\*\\* DEADLOCK \\*\\*\\*$");
	assert_line("^1 lock held by [^ ]+/[0-9]+:$");
	assert_line(
		"^ #0: [0-9a-f]{16} \\(&d->b\\)\\{\\+\\.\\+\\.\\}-\\{3:3\\}, "
		"at: order_ba\\+0x[0-9a-f]+/0x[0-9a-f]+$");
	assert_line("^stack backtrace:$");
	assert_line("^turning off the locking correctness validator\\.$");
	assert_int_equal(debug_locks, 0);
}

static void a_longer_cycle_shows_the_chain(void **state)
{
	(void)state;
	dev_init(&dev);
	spin_lock(&dev.a);
	spin_lock(&dev.b);
	spin_unlock(&dev.b);
	spin_unlock(&dev.a);
	spin_lock(&dev.b);
	spin_lock(&dev.c);
	spin_unlock(&dev.c);
	spin_unlock(&dev.b);
	assert_int_equal(captured.nr, 0);
	spin_lock(&dev.c);
	spin_lock(&dev.a); /* closes a -> b -> c -> a */
	spin_unlock(&dev.a);
	spin_unlock(&dev.c);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible circular locking dependency detected$");
	assert_line("^-> #2 \\(&d->c\\)");
	assert_line("^-> #1 \\(&d->b\\)");
	assert_line("^-> #0 \\(&d->a\\)");
	assert_line("^Chain exists of:$");
	assert_line("^  &d->a --> &d->b --> &d->c$");
}

/* A mutex and an rwsem: a reader under the mutex, the writer over it. */
static void rwsem_read_write_deadlock_is_reported(void **state)
{
	(void)state;
	dev_init(&dev);
	down_read(&dev.sem);
	mutex_lock(&dev.m);
	mutex_unlock(&dev.m);
	up_read(&dev.sem);
	assert_int_equal(captured.nr, 0);
	mutex_lock(&dev.m);
	down_write(&dev.sem);
	up_write(&dev.sem);
	mutex_unlock(&dev.m);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible circular locking dependency detected$");
	assert_line("\\(&d->sem\\)\\{\\+\\+\\+\\+\\}-\\{4:4\\}");
	assert_line("^-> #1 \\(&d->m\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}:$");
}

/* might_lock() records the order without taking the lock. */
static void might_lock_records_the_dependency(void **state)
{
	(void)state;
	dev_init(&dev);
	mutex_lock(&dev.m);
	might_lock(&dev.sem);
	mutex_unlock(&dev.m);
	assert_int_equal(captured.nr, 0);
	down_write(&dev.sem);
	mutex_lock(&dev.m);
	mutex_unlock(&dev.m);
	up_write(&dev.sem);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible circular locking dependency detected$");
}

/* ---- recursion ---- */

static void same_class_twice_is_recursive_locking(void **state)
{
	spinlock_t locks[2];

	(void)state;
	for (int i = 0; i < 2; i++)
		spin_lock_init(&locks[i]); /* one init site: one class */
	spin_lock(&locks[0]);
	spin_lock(&locks[1]);
	spin_unlock(&locks[1]);
	spin_unlock(&locks[0]);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible recursive locking detected$");
	assert_line("^[0-9a-f]{16} \\(&locks\\[i\\]\\)");
	assert_line("^       CPU0$");
	assert_line("^  lock\\(&locks\\[i\\]\\);$");
	assert_line("^ May be due to missing lock nesting notation$");
	assert_line("^1 lock held by ");
}

static void nesting_annotations_suppress_recursion(void **state)
{
	spinlock_t locks[3];
	raw_spinlock_t raws[2];
	struct mutex ms[2];
	struct rw_semaphore sems[2];
	unsigned long flags;

	(void)state;
	for (int i = 0; i < 2; i++) {
		raw_spin_lock_init(&raws[i]);
		mutex_init(&ms[i]);
		init_rwsem(&sems[i]);
	}
	for (int i = 0; i < 3; i++)
		spin_lock_init(&locks[i]);
	spin_lock(&locks[0]);
	spin_lock_nested(&locks[1], SINGLE_DEPTH_NESTING);
	spin_unlock(&locks[1]);
	spin_lock_irqsave_nested(&locks[1], flags, SINGLE_DEPTH_NESTING);
	spin_unlock_irqrestore(&locks[1], flags);
	spin_lock_bh_nested(&locks[1], SINGLE_DEPTH_NESTING);
	spin_unlock_bh(&locks[1]);
	spin_unlock(&locks[0]);
	raw_spin_lock(&raws[0]);
	raw_spin_lock_nested(&raws[1], SINGLE_DEPTH_NESTING);
	raw_spin_unlock(&raws[1]);
	raw_spin_unlock(&raws[0]);
	mutex_lock(&ms[0]);
	mutex_lock_nested(&ms[1], SINGLE_DEPTH_NESTING);
	mutex_unlock(&ms[1]);
	assert_int_equal(
		mutex_lock_interruptible_nested(&ms[1], SINGLE_DEPTH_NESTING),
		0);
	mutex_unlock(&ms[1]);
	down_read(&sems[0]);
	down_read_nested(&sems[1], SINGLE_DEPTH_NESTING);
	up_read(&sems[1]);
	up_read(&sems[0]);
	down_write(&sems[0]);
	down_write_nested(&sems[1], SINGLE_DEPTH_NESTING);
	up_write(&sems[1]);
	up_write(&sems[0]);
	/* Many of one class, serialized by a lock held over them. */
	spin_lock_nest_lock(&locks[0], &ms[0]);
	spin_lock_nest_lock(&locks[1], &ms[0]);
	spin_lock_nest_lock(&locks[2], &ms[0]);
	assert_true(lockdep_is_held(&locks[2]));
	spin_unlock(&locks[2]);
	spin_unlock(&locks[1]);
	spin_unlock(&locks[0]);
	mutex_unlock(&ms[0]);
	assert_int_equal(captured.nr, 0);
	assert_int_equal(current->lockdep_depth, 0);
}

/* ---- interrupt states ---- */

static spinlock_t irq_lock, unsafe_lock;
static rwlock_t irq_rw;
static int handled;
static bool take_rw_in_irq;

static irqreturn_t take_irq_lock(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (take_rw_in_irq) {
		read_lock(&irq_rw);
		read_unlock(&irq_rw);
	} else {
		spin_lock(&irq_lock);
		spin_unlock(&irq_lock);
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
		assert_int_equal(
			request_irq(LINE, take_irq_lock, 0, "ld", NULL), 0);
	}
	irq_raise(LINE, cpu);
	assert_int_equal(handled, before + 1);
	pk_report_flush(); /* a report made in the handler is deferred */
}

static void irq_locks_init(void)
{
	spin_lock_init(&irq_lock);
	spin_lock_init(&unsafe_lock);
	rwlock_init(&irq_rw);
	take_rw_in_irq = false;
}

static void in_hardirq_then_irqs_on_is_inconsistent(void **state)
{
	(void)state;
	irq_locks_init();
	raise_irq(); /* IN-HARDIRQ-W */
	assert_int_equal(captured.nr, 0);
	spin_lock(&irq_lock); /* HARDIRQ-ON-W */
	spin_unlock(&irq_lock);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: inconsistent lock state$");
	assert_line("^inconsistent \\{IN-HARDIRQ-W\\} -> \\{HARDIRQ-ON-W\\} "
		    "usage\\.$");
	assert_line(
		"^[^ ]+/[0-9]+ \\[HC0\\[0\\]:SC0\\[0\\]:HE1:SE1\\] takes:$");
	assert_line("\\(&irq_lock\\)\\{\\?\\.\\.\\.\\}-\\{3:3\\}, at: ");
	assert_line("^\\{IN-HARDIRQ-W\\} state was registered at:$");
	assert_line("^ +take_irq_lock\\+0x");
	assert_line("^  <Interrupt>$");
	assert_line("^    lock\\(&irq_lock\\);$");
}

static void irqs_on_then_in_hardirq_is_inconsistent(void **state)
{
	(void)state;
	irq_locks_init();
	spin_lock(&irq_lock);
	spin_unlock(&irq_lock);
	raise_irq(); /* the handler's report, flushed */
	assert_int_equal(captured.nr, 1);
	assert_line("^inconsistent \\{HARDIRQ-ON-W\\} -> \\{IN-HARDIRQ-W\\} "
		    "usage\\.$");
	assert_line(
		"^[^ ]+/[0-9]+ \\[HC1\\[1\\]:SC0\\[0\\]:HE0:SE1\\] takes:$");
}

static void irqsave_everywhere_is_consistent(void **state)
{
	unsigned long flags;

	(void)state;
	irq_locks_init();
	raise_irq();
	spin_lock_irqsave(&irq_lock, flags);
	spin_unlock_irqrestore(&irq_lock, flags);
	spin_lock_irq(&irq_lock);
	spin_unlock_irq(&irq_lock);
	raise_irq();
	assert_int_equal(captured.nr, 0);
}

static void softirq_usage_is_checked(void **state)
{
	(void)state;
	irq_locks_init();
	/* Serving a softirq, as the softirq loop marks it in the count. */
	preempt_count_add(SOFTIRQ_OFFSET);
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	preempt_count_sub(SOFTIRQ_OFFSET);
	if (captured.nr)
		fprintf(stderr, "%s", captured.text);
	assert_int_equal(captured.nr, 0);
	spin_lock_bh(&unsafe_lock); /* bh off: consistent */
	spin_unlock_bh(&unsafe_lock);
	assert_int_equal(captured.nr, 0);
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	assert_int_equal(captured.nr, 1);
	assert_line("^inconsistent \\{IN-SOFTIRQ-W\\} -> \\{SOFTIRQ-ON-W\\} "
		    "usage\\.$");
}

static void irq_safe_to_irq_unsafe_order_is_reported(void **state)
{
	unsigned long flags;

	(void)state;
	irq_locks_init();
	raise_irq();		 /* irq_lock: HARDIRQ-safe */
	spin_lock(&unsafe_lock); /* HARDIRQ-unsafe */
	spin_unlock(&unsafe_lock);
	assert_int_equal(captured.nr, 0);
	spin_lock_irqsave(&irq_lock, flags);
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	spin_unlock_irqrestore(&irq_lock, flags);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: HARDIRQ-safe -> HARDIRQ-unsafe lock order "
		    "detected$");
	assert_line("is trying to acquire:$");
	assert_line("^and this task is already holding:$");
	assert_line("^which would create a new lock dependency:$");
	assert_line("^ \\(&irq_lock\\)\\{-\\.\\.\\.\\}-\\{3:3\\} -> "
		    "\\(&unsafe_lock\\)\\{\\+\\.\\+\\.\\}-\\{3:3\\}$");
	assert_line("^but this new dependency connects a HARDIRQ-irq-safe "
		    "lock:$");
	assert_line("^to a HARDIRQ-irq-unsafe lock:$");
	assert_line("^ Possible interrupt unsafe locking scenario:$");
	assert_line(
		"^                               local_irq_disable\\(\\);$");
	assert_line("^  <Interrupt>$");
}

static void irq_lock_inversion_is_reported(void **state)
{
	unsigned long flags;

	(void)state;
	irq_locks_init();
	/* irq_lock -> unsafe_lock with interrupts off: fine so far */
	spin_lock_irqsave(&irq_lock, flags);
	spin_lock(&unsafe_lock);
	spin_unlock(&unsafe_lock);
	spin_unlock_irqrestore(&irq_lock, flags);
	raise_irq(); /* irq_lock becomes HARDIRQ-safe */
	assert_int_equal(captured.nr, 0);
	spin_lock(&unsafe_lock); /* ... and what it took, unsafe */
	spin_unlock(&unsafe_lock);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible irq lock inversion dependency "
		    "detected$");
	assert_line("just changed the state of lock:$");
	assert_line("^but this lock was taken by another, HARDIRQ-safe lock "
		    "in the past:$");
	assert_line("^and interrupts could create inverse lock ordering "
		    "between them\\.$");
}

/* rwlock_t readers recurse in interrupt context, as Linux allows. */
static void rwlock_readers_recurse_in_interrupts(void **state)
{
	unsigned long flags;

	(void)state;
	irq_locks_init();
	take_rw_in_irq = true;
	read_lock(&irq_rw); /* HARDIRQ-ON-R */
	raise_irq();	    /* IN-HARDIRQ-R, on top of our read hold */
	read_unlock(&irq_rw);
	assert_int_equal(captured.nr, 0);
	write_lock_irqsave(&irq_rw, flags);
	write_unlock_irqrestore(&irq_rw, flags);
	assert_int_equal(captured.nr, 0);
	write_lock(&irq_rw); /* a writer with interrupts on: inversion */
	write_unlock(&irq_rw);
	assert_int_equal(captured.nr, 1);
	assert_line("^inconsistent \\{IN-HARDIRQ-R\\} -> \\{HARDIRQ-ON-W\\} "
		    "usage\\.$");
	take_rw_in_irq = false;
}

static void task_read_recursion_of_rwlock_is_reported(void **state)
{
	(void)state;
	irq_locks_init();
	read_lock(&irq_rw);
	read_lock(&irq_rw); /* a writer queued in between deadlocks it */
	read_unlock(&irq_rw);
	read_unlock(&irq_rw);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: possible recursive locking detected$");
	assert_line("^  rlock\\(&irq_rw\\);$");
}

/* ---- releases, exits, assertions ---- */

static void bad_unlock_balance_is_reported(void **state)
{
	static struct lock_class_key key;
	struct lockdep_map map;

	(void)state;
	lockdep_init_map(&map, "my_map", &key, 0);
	lock_acquire(&map, 0, 0, 0, 1, NULL, _THIS_IP_);
	lock_release(&map, _THIS_IP_);
	assert_int_equal(captured.nr, 0);
	lock_release(&map, _THIS_IP_);
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: bad unlock balance detected!$");
	assert_line(
		"^[^ ]+/[0-9]+ is trying to release lock \\(my_map\\) at:$");
	assert_line("^but there are no more locks to release!$");
	assert_line("^no locks held by ");
}

static void unlock_order_is_free(void **state)
{
	(void)state;
	dev_init(&dev);
	spin_lock(&dev.a);
	spin_lock(&dev.b);
	spin_unlock(&dev.a); /* not the last taken: allowed */
	spin_unlock(&dev.b);
	spin_lock(&dev.a);
	spin_lock(&dev.b);
	spin_unlock(&dev.b);
	spin_unlock(&dev.a);
	assert_int_equal(captured.nr, 0);
	assert_int_equal(current->lockdep_depth, 0);
}

static void locks_held_are_reported(void **state)
{
	(void)state;
	dev_init(&dev);
	mutex_lock(&dev.m);
	assert_int_equal(lockdep_depth(current), 1);
	debug_check_no_locks_held();
	assert_int_equal(captured.nr, 1);
	assert_line("^WARNING: [^ ]+/[0-9]+ still has locks held!$");
	assert_line("^1 lock held by [^ ]+/[0-9]+:$");
	assert_line(
		"^ #0: [0-9a-f]{16} \\(&d->m\\)\\{\\+\\.\\+\\.\\}-\\{4:4\\}, "
		"at: locks_held_are_reported\\+0x");
	mutex_unlock(&dev.m);
}

static DEFINE_SPINLOCK(big_lock);
static DEFINE_MUTEX(big_mutex);

static void assertions_work_for_every_lock_type(void **state)
{
	raw_spinlock_t raw;
	rwlock_t rw;
	struct rt_mutex rtm;

	(void)state;
	dev_init(&dev);
	raw_spin_lock_init(&raw);
	rwlock_init(&rw);
	rt_mutex_init(&rtm);
	spin_lock(&big_lock);
	write_lock(&rw); /* a raw lock nests inside, not outside */
	raw_spin_lock(&raw);
	lockdep_assert_held(&big_lock);
	lockdep_assert_held(&raw);
	lockdep_assert_held(&rw);
	lockdep_assert_held_write(&rw);
	raw_spin_unlock(&raw);
	write_unlock(&rw);
	spin_unlock(&big_lock);
	mutex_lock(&big_mutex);
	lockdep_assert_held(&big_mutex);
	assert_int_equal(lockdep_is_held(&big_mutex), 1);
	mutex_unlock(&big_mutex);
	assert_int_equal(lockdep_is_held(&big_mutex), 0);
	down_read(&dev.sem);
	lockdep_assert_held(&dev.sem);
	lockdep_assert_held_read(&dev.sem);
	up_read(&dev.sem);
	down_write(&dev.sem);
	lockdep_assert_held_write(&dev.sem);
	up_write(&dev.sem);
	rt_mutex_lock(&rtm);
	lockdep_assert_held(&rtm);
	rt_mutex_unlock(&rtm);
	lockdep_assert_not_held(&big_lock);
	lockdep_assert_none_held_once();
	if (captured.nr)
		fprintf(stderr, "%s", captured.text);
	assert_int_equal(captured.nr, 0);

	lockdep_assert_held(&big_lock); /* not held */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("WARNING");
	capture_reset();
	pk_debug_ratelimit_reset();
	down_write(&dev.sem);
	lockdep_assert_held_read(&dev.sem); /* held, but for writing */
	up_write(&dev.sem);
	assert_int_equal(captured.nr, 1);
}

/* Static locks are named by the defining macro, the others by the init
 * expression. */
static void names_follow_the_kernel(void **state)
{
	(void)state;
	dev_init(&dev);
	spin_lock(&big_lock);
	spin_lock(&dev.a);
	debug_check_no_locks_held();
	spin_unlock(&dev.a);
	spin_unlock(&big_lock);
	assert_line("^ #0: [0-9a-f]{16} \\(big_lock\\)\\{");
	assert_line("^ #1: [0-9a-f]{16} \\(&d->a\\)\\{");
}

/* ---- keys in allocated memory ---- */

struct obj {
	struct lock_class_key key;
	spinlock_t lock;
};

static void dynamic_keys_make_classes_and_go_away(void **state)
{
	struct obj *o = calloc(1, sizeof(*o));
	struct pk_lockdep_stats st;
	unsigned long classes;

	(void)state;
	dev_init(&dev);
	lockdep_register_key(&o->key);
	spin_lock_init(&o->lock);
	lockdep_set_class_and_name(&o->lock, &o->key, "obj_lock");
	spin_lock(&o->lock);
	spin_lock(&dev.a);
	spin_unlock(&dev.a);
	spin_unlock(&o->lock);
	pk_lockdep_stats(&st);
	classes = st.lock_classes;
	assert_true(st.direct_dependencies >= 1);
	lockdep_unregister_key(&o->key); /* its class and order forgotten */
	free(o);
	o = calloc(1, sizeof(*o));
	lockdep_register_key(&o->key);
	spin_lock_init(&o->lock);
	lockdep_set_class_and_name(&o->lock, &o->key, "obj_lock");
	spin_lock(&dev.a);
	spin_lock(&o->lock); /* the reverse order of a forgotten class */
	spin_unlock(&o->lock);
	spin_unlock(&dev.a);
	assert_int_equal(captured.nr, 0);
	pk_lockdep_stats(&st);
	assert_int_equal(st.lock_classes, classes + 1);
	/* ... and this one's order is known. */
	spin_lock(&o->lock);
	spin_lock(&dev.a);
	spin_unlock(&dev.a);
	spin_unlock(&o->lock);
	assert_int_equal(captured.nr, 1);
	assert_line("^-> #1 \\(obj_lock\\)");
	lockdep_unregister_key(&o->key);
	free(o);
}

/* Tracked but never checked; and lockdep_off() stops the tracking. */
static void novalidate_and_off_silence_the_checks(void **state)
{
	spinlock_t locks[2];

	(void)state;
	for (int i = 0; i < 2; i++) {
		spin_lock_init(&locks[i]);
		lockdep_set_novalidate_class(&locks[i]);
	}
	spin_lock(&locks[0]);
	spin_lock(&locks[1]); /* one class twice: not checked */
	assert_int_equal(lockdep_depth(current), 2);
	assert_true(lockdep_is_held(&locks[1]));
	spin_unlock(&locks[1]);
	spin_unlock(&locks[0]);
	dev_init(&dev);
	lockdep_off();
	order_ab(&dev);
	order_ba(&dev);
	assert_int_equal(lockdep_depth(current), 0);
	lockdep_on();
	assert_int_equal(captured.nr, 0);
	order_ab(&dev); /* on again: a -> b recorded ... */
	order_ba(&dev); /* ... and b -> a found against it */
	assert_int_equal(captured.nr, 1);
}

/* might_lock_read(): a read dependency, taken and dropped. */
static void might_lock_read_is_a_read(void **state)
{
	(void)state;
	dev_init(&dev);
	down_write(&dev.sem);
	mutex_lock(&dev.m);
	mutex_unlock(&dev.m);
	up_write(&dev.sem);
	mutex_lock(&dev.m);
	might_lock_read(&dev.sem);
	mutex_unlock(&dev.m);
	assert_int_equal(captured.nr, 1);
	assert_line("^  rlock\\(&d->sem\\);$");
}

/* ---- after the first report ---- */

static void the_first_report_turns_lockdep_off(void **state)
{
	(void)state;
	dev_init(&dev);
	order_ab(&dev);
	order_ba(&dev);
	assert_int_equal(captured.nr, 1);
	assert_int_equal(debug_locks, 0);
	spin_lock(&dev.c);
	spin_lock(&dev.a);
	spin_unlock(&dev.a);
	spin_unlock(&dev.c);
	spin_lock(&dev.a);
	spin_lock(&dev.c);
	spin_unlock(&dev.c);
	spin_unlock(&dev.a);
	assert_int_equal(captured.nr, 1);
}

static void keep_going_reports_each_problem_once(void **state)
{
	(void)state;
	pk_lockdep_keep_going(true);
	dev_init(&dev);
	order_ab(&dev);
	order_ba(&dev);
	order_ba(&dev); /* the same again: known */
	assert_int_equal(captured.nr, 1);
	assert_int_equal(debug_locks, 1);
	assert_false(report_has_line("^turning off the locking"));
	spin_lock(&dev.c);
	spin_lock(&dev.a);
	spin_unlock(&dev.a);
	spin_unlock(&dev.c);
	spin_lock(&dev.a);
	spin_lock(&dev.c);
	spin_unlock(&dev.c);
	spin_unlock(&dev.a);
	assert_int_equal(captured.nr, 2);
	pk_lockdep_keep_going(false);
}

static void stats_count_classes_dependencies_and_chains(void **state)
{
	struct pk_lockdep_stats st;

	(void)state;
	dev_init(&dev);
	order_ab(&dev);
	spin_lock(&dev.a);
	spin_lock(&dev.b);
	spin_lock(&dev.c);
	spin_unlock(&dev.c);
	spin_unlock(&dev.b);
	spin_unlock(&dev.a);
	pk_lockdep_stats(&st);
	assert_int_equal(st.lock_classes, 3);
	assert_int_equal(st.direct_dependencies, 2); /* a->b, b->c */
	assert_int_equal(st.lock_chains, 3);	     /* a, a-b, a-b-c */
	assert_int_equal(st.max_locking_depth, 3);
	assert_int_equal(st.hardirq_unsafe, 3);
	assert_int_equal(st.hardirq_safe, 0);
	assert_int_equal(st.softirq_unsafe, 3);
	assert_true(st.chain_lookup_hits >= 2);
	assert_int_equal(st.debug_locks, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(abba_across_tasks_is_reported_in_the_kernel_format),
		T(a_longer_cycle_shows_the_chain),
		T(rwsem_read_write_deadlock_is_reported),
		T(might_lock_records_the_dependency),
		T(same_class_twice_is_recursive_locking),
		T(nesting_annotations_suppress_recursion),
		T(in_hardirq_then_irqs_on_is_inconsistent),
		T(irqs_on_then_in_hardirq_is_inconsistent),
		T(irqsave_everywhere_is_consistent),
		T(softirq_usage_is_checked),
		T(irq_safe_to_irq_unsafe_order_is_reported),
		T(irq_lock_inversion_is_reported),
		T(rwlock_readers_recurse_in_interrupts),
		T(task_read_recursion_of_rwlock_is_reported),
		T(bad_unlock_balance_is_reported),
		T(unlock_order_is_free),
		T(locks_held_are_reported),
		T(assertions_work_for_every_lock_type),
		T(names_follow_the_kernel),
		T(dynamic_keys_make_classes_and_go_away),
		T(novalidate_and_off_silence_the_checks),
		T(might_lock_read_is_a_read),
		T(the_first_report_turns_lockdep_off),
		T(keep_going_reports_each_problem_once),
		T(stats_count_classes_dependencies_and_chains),
#undef T
	};

	if (!CONFIG_LOCKDEP) {
		printf("lockdep is compiled out (nodebug build)\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
