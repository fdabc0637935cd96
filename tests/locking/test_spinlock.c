// SPDX-License-Identifier: MIT
/*
 * Spinning locks: what each variant does to the count (non-rt and rt),
 * mutual exclusion, the seed's bit_spin_is_locked(), local locks,
 * seqcounts, and the debug reports.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

#include <preempt/bit_spinlock.h>
#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/local_lock.h>
#include <preempt/seqlock.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "pk_machine.h"

static int teardown(void **state)
{
	machine_teardown(state);
	assert_int_equal(preempt_count(), 0);
	return 0;
}

static DEFINE_SPINLOCK(lock);
static DEFINE_RAW_SPINLOCK(raw);
static DEFINE_RWLOCK(rw);

static void every_variant_accounts_in_the_count(void **state)
{
	unsigned long flags;

	(void)state;
	spin_lock(&lock);
	assert_int_equal(preempt_count(), PREEMPT_LOCK_OFFSET);
	assert_true(spin_is_locked(&lock));
	spin_unlock(&lock);
	assert_false(spin_is_locked(&lock));

	spin_lock_bh(&lock);
	assert_int_equal(preempt_count(), SOFTIRQ_LOCK_OFFSET);
	assert_true(in_softirq() && !in_serving_softirq());
	spin_unlock_bh(&lock);

	spin_lock_irq(&lock);
	assert_int_equal(preempt_count(), 1 + HARDIRQ_DISABLE_OFFSET);
	spin_unlock_irq(&lock);

	spin_lock_irqsave(&lock, flags);
	assert_true(irqs_disabled() && in_atomic());
	spin_unlock_irqrestore(&lock, flags);

	raw_spin_lock(&raw);
	assert_int_equal(preempt_count(), 1);
	raw_spin_unlock(&raw);

	/* Readers share.  A task's second read hold is recursive only in
	 * interrupt context (bh off counts): elsewhere a writer queued
	 * between the two would deadlock it, and lockdep says so. */
	local_bh_disable();
	read_lock(&rw);
	read_lock(&rw);
	assert_int_equal(preempt_count(), SOFTIRQ_DISABLE_OFFSET + 2);
	read_unlock(&rw);
	read_unlock(&rw);
	local_bh_enable();
	write_lock_irqsave(&rw, flags);
	assert_true(irqs_disabled());
	write_unlock_irqrestore(&rw, flags);
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(captured.nr, 0);
}

static void trylock_fails_on_a_held_lock(void **state)
{
	unsigned long flags;

	(void)state;
	assert_int_equal(spin_trylock_irqsave(&lock, flags), 1);
	assert_true(irqs_disabled());
	lockdep_assert_held(&lock);
	spin_unlock_irqrestore(&lock, flags);
	spin_lock(&lock);
	assert_int_equal(spin_trylock_bh(&lock), 0); /* held: undone */
	assert_int_equal(spin_trylock_irq(&lock), 0);
	assert_int_equal(preempt_count(), 1);
	spin_unlock(&lock);
	if (CONFIG_DEBUG_SPINLOCK && CONFIG_DEBUG_ATOMIC_SLEEP) {
		lockdep_assert_held(&lock); /* not held: reported */
		assert_int_equal(captured.nr, 1);
	}
	assert_int_equal(spin_trylock(&lock), 1);
	assert_int_equal(preempt_count(), 1);
	raw_spin_lock(&raw);
	assert_int_equal(raw_spin_trylock(&raw), 0);
	assert_int_equal(preempt_count(), 2); /* the failed try undid itself */
	raw_spin_unlock(&raw);
	spin_unlock(&lock);
}

#define ROUNDS 30000
static long shared;

static void *hammer(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		spin_lock(&lock);
		shared++;
		spin_unlock(&lock);
	}
	return NULL;
}

static void spin_lock_excludes(void **state)
{
	pthread_t t[3];

	(void)state;
	shared = 0;
	for (int i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, hammer, NULL);
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(shared, 3L * ROUNDS);
}

/*
 * A waiter enters only when the holder lets go: the test thread holds the
 * lock, a thread starts waiting (seen in the lock word: the pending byte
 * or a queue) and must still be outside 20 ms later.  A correct lock never
 * lets it in early, whatever the timing; the 20 ms let a broken one be
 * seen.
 */
static int waiter_inside;

static void *ticket_waiter(void *arg)
{
	(void)arg;
	raw_spin_lock(&raw);
	__atomic_store_n(&waiter_inside, 1, __ATOMIC_SEQ_CST);
	raw_spin_unlock(&raw);
	return NULL;
}

static void waiter_enters_when_the_holder_lets_go(void **state)
{
	struct timespec pause = {0, 20 * 1000 * 1000};
	pthread_t t;
	uint64_t v;
	int early;

	(void)state;
	waiter_inside = 0;
	raw_spin_lock(&raw);
	pthread_create(&t, NULL, ticket_waiter, NULL);
	do { /* the waiter is waiting: pending, or queued */
		sched_yield();
		v = __atomic_load_n(&raw.val, __ATOMIC_ACQUIRE);
	} while (!(v & ~PK_Q_LOCKED_MASK));
	nanosleep(&pause, NULL);
	early = __atomic_load_n(&waiter_inside, __ATOMIC_SEQ_CST);
	raw_spin_unlock(&raw);
	pthread_join(t, NULL);
	assert_int_equal(early, 0);
	assert_int_equal(waiter_inside, 1);
	assert_false(raw_spin_is_locked(&raw));
}

/*
 * A reader arriving while the writer holds the lock waits for it.  The
 * writer stays inside until the reader has started and 20 ms more: in a
 * correct lock the reader can never see the writer inside, whatever the
 * timing; a lock that lets it in is seen doing so.
 */
static int writer_inside, reader_started, reader_saw_writer, reader_done;

static void *late_reader(void *arg)
{
	(void)arg;
	__atomic_store_n(&reader_started, 1, __ATOMIC_SEQ_CST);
	read_lock(&rw);
	if (__atomic_load_n(&writer_inside, __ATOMIC_SEQ_CST))
		reader_saw_writer = 1;
	read_unlock(&rw);
	__atomic_store_n(&reader_done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void rwlock_reader_waits_for_the_writer(void **state)
{
	pthread_t t;

	(void)state;
	writer_inside = reader_started = reader_saw_writer = reader_done = 0;
	write_lock(&rw);
	__atomic_store_n(&writer_inside, 1, __ATOMIC_SEQ_CST);
	pthread_create(&t, NULL, late_reader, NULL);
	while (!__atomic_load_n(&reader_started, __ATOMIC_SEQ_CST))
		sched_yield();
	mdelay(20); /* a spinlock holder does not sleep */
	assert_int_equal(__atomic_load_n(&reader_done, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&writer_inside, 0, __ATOMIC_SEQ_CST);
	write_unlock(&rw);
	pthread_join(t, NULL);
	assert_int_equal(reader_saw_writer, 0);
	assert_int_equal(reader_done, 1);
	assert_int_equal(captured.nr, 0);
}

static void recursion_is_reported_not_hung(void **state)
{
	(void)state;
	spin_lock(&lock);
	spin_lock(&lock); /* self-deadlock: a report instead of a hang */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("BUG: spinlock recursion on CPU#");
	assert_report_contains(" lock: lock+0x");
	spin_unlock(&lock);
	assert_true(spin_is_locked(&lock)); /* the outer hold remains */
	spin_unlock(&lock);
	assert_false(spin_is_locked(&lock));
}

static void unlock_misuse_is_reported(void **state)
{
	(void)state;
	spin_unlock(&lock); /* not held: refused, count untouched */
	assert_int_equal(preempt_count(), 0);
	assert_report_contains("BUG: spinlock already unlocked");
}

static void *take_and_keep(void *arg)
{
	raw_spin_lock(arg);
	preempt_enable(); /* this thread goes on; the lock stays taken */
	return NULL;
}

static void wrong_owner_is_reported(void **state)
{
	raw_spinlock_t l;
	pthread_t t;

	(void)state;
	raw_spin_lock_init(&l);
	pthread_create(&t, NULL, take_and_keep, &l);
	pthread_join(t, NULL);
	preempt_disable();
	raw_spin_unlock(&l);
	assert_report_contains("BUG: spinlock wrong owner");
	assert_false(raw_spin_is_locked(&l));
}

static void bit_spinlocks(void **state)
{
	unsigned long word = 0;

	(void)state;
	bit_spin_lock(3, &word);
	assert_int_equal(word, 1UL << 3);
	assert_int_equal(preempt_count(), 1);
	assert_true(bit_spin_is_locked(3, &word));
	assert_int_equal(bit_spin_trylock(3, &word), 0);
	bit_spin_unlock(3, &word);
	assert_int_equal(word, 0);
	assert_false(bit_spin_is_locked(3, &word));
}

static DEFINE_PER_CPU(local_lock_t, llock);

static void local_locks_non_rt(void **state)
{
	unsigned long flags;

	(void)state;
	local_lock_init(&llock);
	local_lock(&llock);
	assert_int_equal(preempt_count(), 1);
	local_unlock(&llock);
	local_lock_irqsave(&llock, flags);
	assert_true(irqs_disabled());
	assert_int_equal(preempt_count(), HARDIRQ_DISABLE_OFFSET);
	local_unlock_irqrestore(&llock, flags);
	assert_int_equal(preempt_count(), 0);
}

static seqcount_t seq = SEQCNT_ZERO(seq);
static DEFINE_SEQLOCK(seqlock);

static void seqcount_writers_must_not_be_preemptible(void **state)
{
	unsigned int start;

	(void)state;
	start = read_seqcount_begin(&seq);
	preempt_disable();
	write_seqcount_begin(&seq);
	write_seqcount_end(&seq);
	preempt_enable();
	assert_true(read_seqcount_retry(&seq, start));
	assert_int_equal(captured.nr, 0);
	if (CONFIG_DEBUG_ATOMIC_SLEEP) {
		write_seqcount_begin(&seq); /* preemptible: reported */
		write_seqcount_end(&seq);
		assert_int_equal(captured.nr, 1);
	}
	start = read_seqbegin(&seqlock);
	write_seqlock(&seqlock);
	write_sequnlock(&seqlock);
	assert_true(read_seqretry(&seqlock, start));
	start = read_seqbegin(&seqlock);
	assert_false(read_seqretry(&seqlock, start));
}

/* ---- the rt substitution, on a machine booted rt ---- */

struct rt_seen {
	int count_spin, count_raw, irqs_off_spin, migrate_off;
	int count_bh, local_count, bh_off;
};

static int observe_rt(void *arg)
{
	struct rt_seen *s = arg;
	unsigned long flags;

	spin_lock(&lock);
	s->count_spin = preempt_count();
	s->migrate_off = is_migration_disabled();
	spin_unlock(&lock);
	spin_lock_irqsave(&lock, flags);
	s->irqs_off_spin = irqs_disabled();
	spin_unlock_irqrestore(&lock, flags);
	spin_lock_bh(&lock);
	s->count_bh = preempt_count();
	s->bh_off = in_softirq() && preemptible();
	spin_unlock_bh(&lock);
	raw_spin_lock(&raw);
	s->count_raw = preempt_count();
	raw_spin_unlock(&raw);
	local_lock(&llock);
	s->local_count = preempt_count();
	local_unlock(&llock);
	return preempt_count();
}

static void rt_spinlocks_sleep_and_keep_the_count(void **state)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = PREEMPT_MODEL_RT};
	struct rt_seen s = {0};

	(void)state;
	local_lock_init(&llock);
	assert_int_equal(machine_boot(&cfg), 0);
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_FULL), -EBUSY);
	assert_int_equal(kthread_stop(kthread_run(observe_rt, &s, "rt")), 0);
	assert_int_equal(s.count_spin, 0); /* PREEMPT_LOCK_OFFSET is 0 */
	assert_true(s.migrate_off);
	assert_false(s.irqs_off_spin); /* _irqsave leaves interrupts on */
	/* PREEMPT_RT: bh state is the task's, out of the word. */
	assert_int_equal(s.count_bh, 0);
	assert_true(s.bh_off);
	assert_int_equal(s.count_raw, 1); /* raw locks still spin */
	assert_int_equal(s.local_count, 0);
}

static void non_rt_machine_refuses_rt(void **state)
{
	struct machine_config cfg = {.nr_cpus = 1,
				     .model = PREEMPT_MODEL_VOLUNTARY};

	(void)state;
	assert_int_equal(machine_boot(&cfg), 0);
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_RT), -EBUSY);
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_NONE), 0);
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_LAZY), 0);
}

static int exit_holding(void *arg)
{
	spin_lock(arg);
	preempt_enable(); /* sloppy: leaves with the lock still held */
	return 0;
}

/* rt: the lock leaves the count alone, so nothing to smuggle out. */
static int exit_holding_rt(void *arg)
{
	spin_lock(arg);
	return 0;
}

static void lock_held_at_exit_is_reported(void **state)
{
	struct machine_config cfg = {.nr_cpus = 1, .model = PREEMPT_MODEL_FULL};
	spinlock_t held;

	(void)state;
	spin_lock_init(&held);
	assert_int_equal(machine_boot(&cfg), 0);
	kthread_stop(kthread_run(exit_holding, &held, "leaky"));
	assert_report_contains("WARNING: leaky/");
	assert_report_contains("still has locks held!");
	machine_shutdown();

	/* The same under rt, where the lock is an rt_mutex. */
	cfg.model = PREEMPT_MODEL_RT;
	captured.nr = 0;
	spin_lock_init(&held);
	assert_int_equal(machine_boot(&cfg), 0);
	kthread_stop(kthread_run(exit_holding_rt, &held, "leaky-rt"));
	assert_int_equal(captured.nr, 1);
	assert_report_contains("WARNING: leaky-rt/");
	assert_report_contains("still has locks held!");
}

/*
 * A handler that takes a spinlock on an idle vCPU: the lock's reference
 * is on the idle task, which must survive it (it lives in the runqueue).
 */
#define IDLE_LOCK_LINE 20
#define IDLE_LOCK_RAISES 200
static DEFINE_SPINLOCK(idle_lock);
static int idle_lock_handled;

static irqreturn_t idle_lock_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	spin_lock(&idle_lock);
	idle_lock_handled++;
	spin_unlock(&idle_lock);
	return IRQ_HANDLED;
}

static int idle_lock_task(void *arg)
{
	(void)arg;
	return 7;
}

static void spinlock_in_hardirq_on_an_idle_cpu(void **state)
{
	long end;

	(void)state;
	idle_lock_handled = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_irq(IDLE_LOCK_LINE, idle_lock_handler, 0,
				     "idle-lock", NULL),
			 0);
	/* One at a time, each handled before the next: seconds of margin
	 * for what takes microseconds. */
	end = now_ms() + 20000;
	for (int i = 1; i <= IDLE_LOCK_RAISES; i++) {
		assert_int_equal(irq_raise(IDLE_LOCK_LINE, 1), 0);
		while (__atomic_load_n(&idle_lock_handled, __ATOMIC_ACQUIRE) <
		       i) {
			if (now_ms() > end)
				fail_msg("raise %d of %d never handled", i,
					 IDLE_LOCK_RAISES);
			sched_yield();
		}
	}
	free_irq(IDLE_LOCK_LINE, NULL);
	/* The idle task's memory intact: the CPU still schedules. */
	for (int i = 0; i < 4; i++)
		assert_int_equal(kthread_stop(kthread_run(idle_lock_task, NULL,
							  "after/%d", i)),
				 7);
}

/*
 * The owner exited and was stopped (its last reference gone but the
 * lock's): the report still names it, from memory that is still its.
 */
static void owner_report_after_owner_exit(void **state)
{
	struct machine_config cfg = {.nr_cpus = 1, .model = PREEMPT_MODEL_FULL};
	struct task_struct *k;
	spinlock_t held;
	char who[64];

	(void)state;
	if (!CONFIG_DEBUG_SPINLOCK)
		skip();
	spin_lock_init(&held);
	assert_int_equal(machine_boot(&cfg), 0);
	k = kthread_run(exit_holding, &held, "gone-owner");
	snprintf(who, sizeof(who), ".owner: gone-owner/%d,", k->pid);
	kthread_stop(k);
	machine_shutdown();
	preempt_disable(); /* the unlock's preempt_enable() */
	spin_unlock(&held);
	assert_report_contains("BUG: spinlock wrong owner");
	assert_report_contains(who);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, capture_setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(every_variant_accounts_in_the_count),
		T(trylock_fails_on_a_held_lock),
		T(waiter_enters_when_the_holder_lets_go),
		T(spin_lock_excludes),
		T(rwlock_reader_waits_for_the_writer),
		pk_only_if(CONFIG_DEBUG_SPINLOCK,
			   T(recursion_is_reported_not_hung)),
		pk_only_if(CONFIG_DEBUG_SPINLOCK, T(unlock_misuse_is_reported)),
		pk_only_if(CONFIG_DEBUG_SPINLOCK, T(wrong_owner_is_reported)),
		T(bit_spinlocks),
		T(spinlock_in_hardirq_on_an_idle_cpu),
		T(local_locks_non_rt),
		T(seqcount_writers_must_not_be_preemptible),
		T(rt_spinlocks_sleep_and_keep_the_count),
		T(non_rt_machine_refuses_rt),
		pk_only_if(CONFIG_DEBUG_SPINLOCK,
			   T(lock_held_at_exit_is_reported)),
		pk_only_if(CONFIG_DEBUG_SPINLOCK,
			   T(owner_report_after_owner_exit)),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
