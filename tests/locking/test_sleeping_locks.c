// SPDX-License-Identifier: MIT
/*
 * Sleeping locks: mutexes, semaphores and rw-semaphores on a booted
 * machine (and on host threads), their debug reports, and might_sleep()
 * in them.  Timing enters only as wide bounds.  Tasks return error codes:
 * cmocka asserts would longjmp off a task's stack.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/hrtimer.h>
#include <preempt/mutex.h>
#include <preempt/rwsem.h>
#include <preempt/sched.h>
#include <preempt/semaphore.h>

#include "pk_machine.h"

/* Run @n copies of @fn(@arg) on the machine; 0 if each returned 0. */
static int run_tasks(int n, int (*fn)(void *), void *arg, const char *name)
{
	struct task_struct *t[8];
	int bad = 0;

	for (int i = 0; i < n; i++)
		t[i] = kthread_run(fn, arg, "%s/%d", name, i);
	for (int i = 0; i < n; i++)
		bad |= t[i] ? kthread_stop(t[i]) : -1;
	return bad;
}

/* Holders inside a critical section, and the most seen at once. */
struct occupancy {
	int in, max;
};

static void occupancy_enter(struct occupancy *o)
{
	int in = __atomic_add_fetch(&o->in, 1, __ATOMIC_SEQ_CST);
	int max = __atomic_load_n(&o->max, __ATOMIC_RELAXED);

	while (in > max &&
	       !__atomic_compare_exchange_n(&o->max, &max, in, false,
					    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		;
}

static void occupancy_leave(struct occupancy *o)
{
	__atomic_sub_fetch(&o->in, 1, __ATOMIC_SEQ_CST);
}

/* ---- mutexes ---- */

#define MUTEX_TASKS 4
#define MUTEX_ROUNDS 50

static DEFINE_MUTEX(counter_lock);
static struct occupancy counter_occ;
static int counter;

static int count_under_mutex(void *arg)
{
	(void)arg;
	for (int i = 0; i < MUTEX_ROUNDS; i++) {
		mutex_lock(&counter_lock);
		occupancy_enter(&counter_occ);
		int seen = counter;

		/* Give the others every chance to break in. */
		if (i % 10 == 0)
			msleep(1);
		else
			yield();
		counter = seen + 1;
		occupancy_leave(&counter_occ);
		mutex_unlock(&counter_lock);
	}
	return 0;
}

static void mutex_excludes_sleeping_holders(void **state)
{
	static const enum preempt_model models[] = {PREEMPT_MODEL_FULL,
						    PREEMPT_MODEL_NONE};

	(void)state;
	for (size_t m = 0; m < 2; m++) {
		counter = 0;
		memset(&counter_occ, 0, sizeof(counter_occ));
		pk_boot(2, models[m]);
		assert_int_equal(run_tasks(MUTEX_TASKS, count_under_mutex, NULL,
					   "count"),
				 0);
		machine_shutdown();
		assert_int_equal(counter, MUTEX_TASKS * MUTEX_ROUNDS);
		assert_int_equal(counter_occ.max, 1);
		assert_false(mutex_is_locked(&counter_lock));
	}
	assert_int_equal(captured.nr, 0);
}

static int got_it;

static int lock_and_note(void *arg)
{
	struct mutex *m = arg;

	mutex_lock(m);
	__atomic_store_n(&got_it, 1, __ATOMIC_RELEASE);
	mutex_unlock(m);
	return 0;
}

static void mutex_waiter_sleeps_until_unlocked(void **state)
{
	struct mutex m;
	struct task_struct *t;

	(void)state;
	mutex_init(&m);
	got_it = 0;
	mutex_lock(&m); /* the test thread holds it */
	pk_boot(2, PREEMPT_MODEL_FULL);
	t = kthread_run(lock_and_note, &m, "waiter");
	assert_non_null(t);
	/* It goes to sleep on the mutex (not spinning), and stays there. */
	for (long end = now_ms() + 5000; now_ms() < end;) {
		if (__atomic_load_n(&t->__state, __ATOMIC_ACQUIRE) ==
		    TASK_UNINTERRUPTIBLE)
			break;
		usleep(1000);
	}
	usleep(20000);
	assert_int_equal(__atomic_load_n(&t->__state, __ATOMIC_ACQUIRE),
			 TASK_UNINTERRUPTIBLE);
	assert_int_equal(__atomic_load_n(&got_it, __ATOMIC_ACQUIRE), 0);
	mutex_unlock(&m);
	assert_int_equal(kthread_stop(t), 0);
	assert_int_equal(got_it, 1);
	assert_false(mutex_is_locked(&m));
	assert_int_equal(captured.nr, 0);
}

#define HOST_THREADS 3
#define HOST_ROUNDS 2000

static void *count_on_host(void *arg)
{
	(void)arg;
	for (int i = 0; i < HOST_ROUNDS; i++) {
		mutex_lock(&counter_lock);
		occupancy_enter(&counter_occ);
		int seen = counter;

		sched_yield();
		counter = seen + 1;
		occupancy_leave(&counter_occ);
		mutex_unlock(&counter_lock);
	}
	return NULL;
}

static void mutex_excludes_host_threads(void **state)
{
	pthread_t th[HOST_THREADS];

	(void)state;
	counter = 0;
	memset(&counter_occ, 0, sizeof(counter_occ));
	for (int i = 0; i < HOST_THREADS; i++)
		assert_int_equal(
			pthread_create(&th[i], NULL, count_on_host, NULL), 0);
	for (int i = 0; i < HOST_THREADS; i++)
		pthread_join(th[i], NULL);
	assert_int_equal(counter, HOST_THREADS * HOST_ROUNDS);
	assert_int_equal(counter_occ.max, 1);
	assert_int_equal(captured.nr, 0);
}

static void trylocks(void **state)
{
	DEFINE_MUTEX(m);
	DEFINE_SEMAPHORE(sem, 1);
	DECLARE_RWSEM(rw);

	(void)state;
	assert_int_equal(mutex_trylock(&m), 1);
	assert_true(mutex_is_locked(&m));
	assert_int_equal(mutex_trylock(&m), 0); /* the owner, too */
	mutex_unlock(&m);
	assert_false(mutex_is_locked(&m));
	assert_int_equal(mutex_lock_interruptible(&m), 0);
	mutex_unlock(&m);

	assert_int_equal(down_trylock(&sem), 0); /* 0: taken */
	assert_int_equal(down_trylock(&sem), 1);
	up(&sem);
	assert_int_equal(down_interruptible(&sem), 0);
	up(&sem);

	assert_int_equal(down_read_trylock(&rw), 1);
	assert_int_equal(down_read_trylock(&rw), 1);
	assert_int_equal(down_write_trylock(&rw), 0);
	up_read(&rw);
	up_read(&rw);
	assert_false(rwsem_is_locked(&rw));
	assert_int_equal(down_write_trylock(&rw), 1);
	assert_int_equal(down_read_trylock(&rw), 0);
	assert_int_equal(down_write_trylock(&rw), 0);
	downgrade_write(&rw); /* now a reader, and readers may join */
	assert_int_equal(down_write_trylock(&rw), 0);
	assert_int_equal(down_read_trylock(&rw), 1);
	up_read(&rw);
	up_read(&rw);
	assert_false(rwsem_is_locked(&rw));
	assert_int_equal(captured.nr, 0);
}

/* ---- semaphores ---- */

#define SEM_TASKS 4
#define SEM_ROUNDS 10

static DEFINE_SEMAPHORE(pair, 2);
static struct occupancy pair_occ;
static int pair_rounds;

static int hold_a_unit(void *arg)
{
	(void)arg;
	for (int i = 0; i < SEM_ROUNDS; i++) {
		down(&pair);
		occupancy_enter(&pair_occ);
		msleep(3);
		__atomic_add_fetch(&pair_rounds, 1, __ATOMIC_RELAXED);
		occupancy_leave(&pair_occ);
		up(&pair);
	}
	return 0;
}

static void semaphore_admits_its_count(void **state)
{
	(void)state;
	memset(&pair_occ, 0, sizeof(pair_occ));
	pair_rounds = 0;
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_tasks(SEM_TASKS, hold_a_unit, NULL, "pair"), 0);
	assert_int_equal(pair_rounds, SEM_TASKS * SEM_ROUNDS);
	assert_int_equal(pair_occ.max, 2);
	assert_int_equal(down_trylock(&pair), 0); /* both units are back */
	assert_int_equal(down_trylock(&pair), 0);
	assert_int_equal(down_trylock(&pair), 1);
	up(&pair);
	up(&pair);
	assert_int_equal(captured.nr, 0);
}

struct timed_down {
	struct semaphore sem;
	struct hrtimer timer;
	int up_in_hardirq;
	long waited_ms;
};

static enum hrtimer_restart up_from_hardirq(struct hrtimer *t)
{
	struct timed_down *td =
		(struct timed_down *)((char *)t -
				      offsetof(struct timed_down, timer));

	td->up_in_hardirq = in_hardirq();
	up(&td->sem);
	return HRTIMER_NORESTART;
}

static int down_with_timeouts(void *arg)
{
	struct timed_down *td = arg;
	long t0 = now_ms();

	if (down_timeout(&td->sem, (long)msecs_to_jiffies(50)) != -ETIME)
		return -1;
	td->waited_ms = now_ms() - t0;
	/* Now an interrupt ups it long before the timeout. */
	hrtimer_setup(&td->timer, up_from_hardirq, CLOCK_MONOTONIC,
		      HRTIMER_MODE_REL);
	hrtimer_start(&td->timer, 20 * 1000000LL, HRTIMER_MODE_REL);
	t0 = now_ms();
	if (down_timeout(&td->sem, (long)msecs_to_jiffies(10000)) != 0)
		return -2;
	if (now_ms() - t0 > 5000)
		return -3;
	hrtimer_cancel(&td->timer);
	return 0;
}

static void down_timeout_times_out_and_up_works_from_irqs(void **state)
{
	static struct timed_down td;
	long t0;

	(void)state;
	memset(&td, 0, sizeof(td));
	sema_init(&td.sem, 0);
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(
		kthread_stop(kthread_run(down_with_timeouts, &td, "timed")), 0);
	assert_true(td.waited_ms >= 45);
	assert_true(td.waited_ms < 5000);
	assert_true(td.up_in_hardirq);
	machine_shutdown();

	/* A host thread polls, with the same results. */
	t0 = now_ms();
	assert_int_equal(down_timeout(&td.sem, (long)msecs_to_jiffies(30)),
			 -ETIME);
	assert_true(now_ms() - t0 >= 25);
	up(&td.sem);
	assert_int_equal(down_timeout(&td.sem, 1), 0);
	assert_int_equal(captured.nr, 0);
}

/* ---- rw-semaphores ---- */

#define READERS 3

static DECLARE_RWSEM(rw);
static struct occupancy readers_occ, writers_occ;
static int rw_violations, rw_writes;

/* Every reader stays inside until all are: they must share it. */
static int reader_meets_the_others(void *arg)
{
	long deadline = now_ms() + 3000;

	(void)arg;
	down_read(&rw);
	occupancy_enter(&readers_occ);
	while (__atomic_load_n(&readers_occ.max, __ATOMIC_ACQUIRE) < READERS &&
	       now_ms() < deadline)
		msleep(1);
	occupancy_leave(&readers_occ);
	up_read(&rw);
	return 0;
}

static void rwsem_readers_share(void **state)
{
	(void)state;
	memset(&readers_occ, 0, sizeof(readers_occ));
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(
		run_tasks(READERS, reader_meets_the_others, NULL, "reader"), 0);
	assert_int_equal(readers_occ.max, READERS);
	assert_false(rwsem_is_locked(&rw));
	assert_int_equal(captured.nr, 0);
}

static int read_rounds(void *arg)
{
	(void)arg;
	for (int i = 0; i < 20; i++) {
		down_read(&rw);
		occupancy_enter(&readers_occ);
		if (__atomic_load_n(&writers_occ.in, __ATOMIC_SEQ_CST))
			__atomic_add_fetch(&rw_violations, 1, __ATOMIC_RELAXED);
		msleep(2);
		occupancy_leave(&readers_occ);
		up_read(&rw);
	}
	return 0;
}

static int write_rounds(void *arg)
{
	(void)arg;
	for (int i = 0; i < 10; i++) {
		down_write(&rw);
		occupancy_enter(&writers_occ);
		if (__atomic_load_n(&readers_occ.in, __ATOMIC_SEQ_CST))
			__atomic_add_fetch(&rw_violations, 1, __ATOMIC_RELAXED);
		msleep(1);
		rw_writes++;
		occupancy_leave(&writers_occ);
		up_write(&rw);
		msleep(1);
	}
	return 0;
}

static void rwsem_writer_is_exclusive(void **state)
{
	struct task_struct *t[READERS + 2];

	(void)state;
	memset(&readers_occ, 0, sizeof(readers_occ));
	memset(&writers_occ, 0, sizeof(writers_occ));
	rw_violations = rw_writes = 0;
	pk_boot(2, PREEMPT_MODEL_FULL);
	for (int i = 0; i < READERS; i++)
		t[i] = kthread_run(read_rounds, NULL, "reader/%d", i);
	for (int i = READERS; i < READERS + 2; i++)
		t[i] = kthread_run(write_rounds, NULL, "writer/%d", i);
	for (int i = 0; i < READERS + 2; i++)
		assert_int_equal(kthread_stop(t[i]), 0);
	assert_int_equal(rw_violations, 0);
	assert_int_equal(writers_occ.max, 1);
	assert_int_equal(rw_writes, 20);
	assert_false(rwsem_is_locked(&rw));
	assert_int_equal(captured.nr, 0);
}

static int writer_done, readers_gave_up, gave_up_before_writer;
static long reader_stop_ms;

/*
 * Readers that always overlap: the count never drops to zero by itself.
 * They go on until the writer is done; only a starved writer lets them
 * reach the hang cap, and then they give up, which the writer notes.
 */
static int overlapping_reader(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&writer_done, __ATOMIC_ACQUIRE)) {
		if (now_ms() >= reader_stop_ms) {
			__atomic_store_n(&readers_gave_up, 1, __ATOMIC_RELEASE);
			break;
		}
		down_read(&rw);
		msleep(2);
		up_read(&rw);
	}
	return 0;
}

static int late_writer(void *arg)
{
	long *waited = arg;
	long t0;

	msleep(30); /* the readers are well under way */
	t0 = now_ms();
	down_write(&rw);
	*waited = now_ms() - t0;
	gave_up_before_writer =
		__atomic_load_n(&readers_gave_up, __ATOMIC_ACQUIRE);
	__atomic_store_n(&writer_done, 1, __ATOMIC_RELEASE);
	up_write(&rw);
	return 0;
}

static void rwsem_readers_do_not_starve_a_writer(void **state)
{
	struct task_struct *r[2], *w;
	long waited = -1;

	(void)state;
	writer_done = 0;
	readers_gave_up = 0;
	gave_up_before_writer = 1;
	reader_stop_ms = now_ms() + 20000; /* a hang cap, not a bound */
	pk_boot(2, PREEMPT_MODEL_FULL);
	r[0] = kthread_run(overlapping_reader, NULL, "reader/0");
	usleep(1000); /* staggered, so one is always inside */
	r[1] = kthread_run(overlapping_reader, NULL, "reader/1");
	w = kthread_run(late_writer, &waited, "writer");
	assert_int_equal(kthread_stop(w), 0);
	assert_int_equal(kthread_stop(r[0]), 0);
	assert_int_equal(kthread_stop(r[1]), 0);
	assert_true(waited >= 0);
	/* The writer got in while the readers were still coming. */
	assert_false(gave_up_before_writer);
	assert_int_equal(captured.nr, 0);
}

/* ---- debug reports ---- */

static void *unlock_elsewhere(void *arg)
{
	mutex_unlock(arg);
	return NULL;
}

static void mutex_misuse_is_reported_and_survived(void **state)
{
	DEFINE_MUTEX(m);
	pthread_t th;

	(void)state;
	mutex_unlock(&m);
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_WARN);
	assert_report_contains("DEBUG_LOCKS_WARN_ON(!mutex_is_locked(lock))");
	assert_report_contains("which is not locked");
	assert_false(mutex_is_locked(&m));

	mutex_lock(&m);
	mutex_lock(&m); /* would deadlock: reported, not taken */
	assert_int_equal(captured.nr, 2);
	assert_report_contains("DEBUG_LOCKS_WARN_ON(mutex_owner(lock) == "
			       "current)");
	assert_report_contains("already holds");
	mutex_unlock(&m); /* undoes the refused lock: still held */
	assert_true(mutex_is_locked(&m));
	mutex_unlock(&m);
	assert_false(mutex_is_locked(&m));
	assert_int_equal(captured.nr, 2);

	mutex_lock(&m);
	assert_int_equal(pthread_create(&th, NULL, unlock_elsewhere, &m), 0);
	pthread_join(th, NULL);
	assert_int_equal(captured.nr, 3);
	assert_report_contains("DEBUG_LOCKS_WARN_ON(mutex_owner(lock) != "
			       "current)");
	assert_report_contains("held by another task");
	assert_false(mutex_is_locked(&m)); /* released all the same */

	/* Still a working mutex. */
	assert_int_equal(mutex_trylock(&m), 1);
	mutex_unlock(&m);
	mutex_lock(&m);
	mutex_unlock(&m);
	assert_int_equal(captured.nr, 3);
}

static void rwsem_misuse_is_reported(void **state)
{
	DECLARE_RWSEM(sem);

	(void)state;
	up_read(&sem);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("is not read-locked");
	up_write(&sem);
	assert_int_equal(captured.nr, 2);
	assert_report_contains("is not write-locked");
	assert_false(rwsem_is_locked(&sem));
	down_write(&sem);
	up_write(&sem);
	down_read(&sem);
	up_read(&sem);
	assert_false(rwsem_is_locked(&sem));
	assert_int_equal(captured.nr, 2);
}

static void sleeping_locks_in_atomic_context_are_reported(void **state)
{
	DEFINE_MUTEX(m);
	DEFINE_SEMAPHORE(sem, 1);
	DECLARE_RWSEM(sem_rw);

	(void)state;
	preempt_disable();
	mutex_lock(&m);
	mutex_unlock(&m);
	preempt_enable();
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_MIGHT_SLEEP);
	assert_report_contains(
		"BUG: sleeping function called from invalid context at ");
	assert_report_contains("mutex.c:");
	assert_report_contains("preempt_count: 1, expected: 0");

	pk_debug_ratelimit_reset();
	preempt_disable();
	down(&sem);
	up(&sem);
	preempt_enable();
	assert_int_equal(captured.nr, 2);
	assert_report_contains("semaphore.c:");

	pk_debug_ratelimit_reset();
	preempt_disable();
	down_read(&sem_rw);
	up_read(&sem_rw);
	preempt_enable();
	assert_int_equal(captured.nr, 3);
	assert_report_contains("rwsem.c:");
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(mutex_excludes_sleeping_holders),
		T(mutex_waiter_sleeps_until_unlocked),
		T(mutex_excludes_host_threads),
		T(trylocks),
		T(semaphore_admits_its_count),
		T(down_timeout_times_out_and_up_works_from_irqs),
		T(rwsem_readers_share),
		T(rwsem_writer_is_exclusive),
		T(rwsem_readers_do_not_starve_a_writer),
		pk_only_if(CONFIG_DEBUG_MUTEXES,
			   T(mutex_misuse_is_reported_and_survived)),
		pk_only_if(CONFIG_DEBUG_RWSEMS, T(rwsem_misuse_is_reported)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(sleeping_locks_in_atomic_context_are_reported)),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
