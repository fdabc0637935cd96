// SPDX-License-Identifier: MIT
/*
 * raw_spinlock_t as a queued spinlock with paravirt waits, and the
 * *_lock_irq* operations' one update of the word.  Built twice: as
 * configured and with the debug checks compiled out (the one-update fast
 * paths are inline, so this program's build decides which runs).
 *
 * Every wait here is for an event (a byte in the lock word, a counter);
 * the deadlines only turn a hang into a message and are minutes wide.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stddef.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "pk_machine.h"

#define DEADLINE_MS 120000

static inline void relax(void)
{
#if defined(__x86_64__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
	barrier();
}

static int teardown(void **state)
{
	machine_teardown(state);
	assert_int_equal(preempt_count(), 0);
	return 0;
}

/* Wait until *@p >= @want, failing (late) instead of hanging. */
static void wait_for_long(const long *p, long want, const char *what)
{
	long end = now_ms() + DEADLINE_MS;

	while (__atomic_load_n(p, __ATOMIC_ACQUIRE) < want) {
		if (now_ms() > end)
			fail_msg("never: %s (%ld of %ld)", what,
				 __atomic_load_n(p, __ATOMIC_ACQUIRE), want);
		sched_yield();
	}
}

static uint64_t word(raw_spinlock_t *l)
{
	return __atomic_load_n(&l->val, __ATOMIC_ACQUIRE);
}

/* Wait until the lock word satisfies (w & @mask) != @not. */
static uint64_t wait_word_changes(raw_spinlock_t *l, uint64_t mask,
				  uint64_t not, const char *what)
{
	long end = now_ms() + DEADLINE_MS;
	uint64_t w;

	while (((w = word(l)) & mask) == not ) {
		if (now_ms() > end)
			fail_msg("never: %s (word %#llx)", what,
				 (unsigned long long)w);
		sched_yield();
	}
	return w;
}

/* ---- the word ---- */

static DEFINE_RAW_SPINLOCK(layout_lock);
static DEFINE_RAW_SPINLOCK(order_lock);
static int order[8], nr_order;

static void *order_waiter(void *arg)
{
	raw_spin_lock(&order_lock);
	order[nr_order++] = (int)(long)arg;
	raw_spin_unlock(&order_lock);
	return NULL;
}

static void *layout_waiter(void *arg)
{
	(void)arg;
	raw_spin_lock(&layout_lock);
	raw_spin_unlock(&layout_lock);
	return NULL;
}

static void word_layout_is_as_documented(void **state)
{
	raw_spinlock_t *lp = &layout_lock;
	pthread_t t[2];
	uint64_t w, tail;

	(void)state;
	assert_int_equal(offsetof(raw_spinlock_t, locked), 0);
	assert_int_equal(offsetof(raw_spinlock_t, pending), 1);
	assert_int_equal(offsetof(raw_spinlock_t, futex), 0);
	assert_int_equal(sizeof(lp->val), 8);
	assert_true(word(lp) == 0 && !raw_spin_is_locked(lp));
	raw_spin_lock(lp);
	assert_true(word(lp) == PK_Q_LOCKED && raw_spin_is_locked(lp));
	assert_int_equal(preempt_count(), PREEMPT_LOCK_OFFSET);
	/* The first waiter spins as the pending waiter, gives up and
	 * queues: the tail is its node, 16-byte aligned;
	 * as the head it spins with pending set, or has halted and marked
	 * the locked byte SLOW. */
	pthread_create(&t[0], NULL, layout_waiter, NULL);
	w = wait_word_changes(lp, PK_Q_TAIL_MASK, 0, "queued waiter");
	assert_int_equal((w >> PK_Q_TAIL_SHIFT) % 16, 0);
	w = wait_word_changes(lp, PK_Q_LOCKED_MASK | PK_Q_PENDING_MASK,
			      PK_Q_LOCKED, "head spinning or halted");
	assert_true((w & PK_Q_PENDING_MASK) == PK_Q_PENDING ||
		    (w & PK_Q_LOCKED_MASK) == PK_Q_SLOW);
	/* The second queues behind it: the tail moves to its node. */
	tail = w & PK_Q_TAIL_MASK;
	pthread_create(&t[1], NULL, layout_waiter, NULL);
	w = wait_word_changes(lp, PK_Q_TAIL_MASK, tail, "second waiter");
	assert_true((w & PK_Q_TAIL_MASK) != 0);
	raw_spin_unlock(lp);
	pthread_join(t[0], NULL);
	pthread_join(t[1], NULL);
	assert_int_equal(word(lp), 0);
	assert_int_equal(preempt_count(), 0);
}

/*
 * Waiters enter in the order they queued.  Each arrival is seen in the word
 * before the next starts, so the order is the test's, not the scheduler's.
 */
static void queue_hands_off_in_arrival_order(void **state)
{
	pthread_t t[5];
	uint64_t tail = 0;

	(void)state;
	nr_order = 0;
	order_lock.val = 0;
	raw_spin_lock(&order_lock);
	/* Fields are written by the order_waiter threads under the lock. */
	for (long i = 0; i < 5; i++) {
		pthread_create(&t[i], NULL, order_waiter, (void *)i);
		tail = wait_word_changes(&order_lock, PK_Q_TAIL_MASK, tail,
					 "queued") &
		       PK_Q_TAIL_MASK;
	}
	raw_spin_unlock(&order_lock);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	assert_int_equal(nr_order, 5);
	for (int i = 0; i < 5; i++)
		assert_int_equal(order[i], i);
}

/* ---- halting: the holder is off the CPU, the waiters sleep ---- */

#define HALT_ROUNDS 100
#define HALT_WAITERS 3
static DEFINE_RAW_SPINLOCK(halt_lock);
static long halt_round, halt_done;

static void *halt_waiter(void *arg)
{
	(void)arg;
	for (long r = 1; r <= HALT_ROUNDS; r++) {
		wait_for_long(&halt_round, r, "round start");
		raw_spin_lock(&halt_lock);
		__atomic_add_fetch(&halt_done, 1, __ATOMIC_RELEASE);
		raw_spin_unlock(&halt_lock);
	}
	return NULL;
}

/*
 * Each round the holder takes the lock, lets three waiters at it (the
 * queue head, two queued behind) and lets go only once they
 * have halted on the host; each must be woken.  A lost wake-up hangs.
 */
static void halted_waiters_are_woken(void **state)
{
	pthread_t t[HALT_WAITERS];
	unsigned long halts0 = pk_qspin_halts(), kicks0 = pk_qspin_kicks();

	(void)state;
	halt_round = halt_done = 0;
	for (int i = 0; i < HALT_WAITERS; i++)
		pthread_create(&t[i], NULL, halt_waiter, NULL);
	for (long r = 1; r <= HALT_ROUNDS; r++) {
		unsigned long h = pk_qspin_halts();
		long end = now_ms() + DEADLINE_MS;

		raw_spin_lock(&halt_lock);
		__atomic_store_n(&halt_round, r, __ATOMIC_RELEASE);
		while (pk_qspin_halts() < h + HALT_WAITERS ||
		       (word(&halt_lock) & PK_Q_LOCKED_MASK) != PK_Q_SLOW) {
			if (now_ms() > end)
				fail_msg("round %ld: the waiters never halted",
					 r);
			sched_yield();
		}
		raw_spin_unlock(&halt_lock);
		wait_for_long(&halt_done, r * HALT_WAITERS, "waiters woken");
	}
	for (int i = 0; i < HALT_WAITERS; i++)
		pthread_join(t[i], NULL);
	assert_true(pk_qspin_halts() - halts0 >= HALT_ROUNDS * HALT_WAITERS);
	assert_true(pk_qspin_kicks() - kicks0 >= HALT_ROUNDS);
	assert_int_equal(word(&halt_lock), 0);
}

/* ---- the pending waiter: the first waiter when there is no queue ---- */

static DEFINE_RAW_SPINLOCK(pend_lock);
static long pend_round, pend_done;

static void *pend_waiter(void *arg)
{
	(void)arg;
	wait_for_long(&pend_round, 1, "start");
	raw_spin_lock(&pend_lock);
	__atomic_add_fetch(&pend_done, 1, __ATOMIC_RELEASE);
	raw_spin_unlock(&pend_lock);
	return NULL;
}

/*
 * A holder that keeps the lock past the spin limit: the one waiter finds
 * the word just "locked", spins as the pending waiter, gives up, queues
 * and halts as the head; the unlock wakes it.  Without the fallback it
 * would spin on the vCPU forever (a hang here).
 */
static void pending_waiter_queues_and_halts(void **state)
{
	unsigned long q0 = pk_qspin_pending_queued(), h0 = pk_qspin_halts();
	long end = now_ms() + DEADLINE_MS;
	pthread_t t;

	(void)state;
	pend_round = pend_done = 0;
	pthread_create(&t, NULL, pend_waiter, NULL);
	raw_spin_lock(&pend_lock);
	__atomic_store_n(&pend_round, 1, __ATOMIC_RELEASE);
	while (pk_qspin_pending_queued() == q0 || pk_qspin_halts() == h0 ||
	       (word(&pend_lock) & PK_Q_LOCKED_MASK) != PK_Q_SLOW) {
		if (now_ms() > end)
			fail_msg("the pending waiter never queued and halted "
				 "(word %#llx)",
				 (unsigned long long)word(&pend_lock));
		sched_yield();
	}
	assert_int_equal(__atomic_load_n(&pend_done, __ATOMIC_ACQUIRE), 0);
	raw_spin_unlock(&pend_lock);
	pthread_join(t, NULL);
	assert_int_equal(pend_done, 1);
	assert_int_equal(pk_qspin_pending_queued() - q0, 1);
	assert_int_equal(word(&pend_lock), 0);
}

#define PH_ROUNDS 60
static DEFINE_RAW_SPINLOCK(ph_lock);
static long ph_go[2], ph_done, ph_inside, ph_overlaps, ph_entered;
static long ph_first[2];

/* Who enters first, and whether anyone is inside already. */
static void *ph_waiter(void *arg)
{
	long who = (long)arg;

	for (long r = 1; r <= PH_ROUNDS; r++) {
		wait_for_long(&ph_go[who], r, "round start");
		raw_spin_lock(&ph_lock);
		if (__atomic_fetch_add(&ph_inside, 1, __ATOMIC_RELAXED))
			__atomic_add_fetch(&ph_overlaps, 1, __ATOMIC_RELAXED);
		if (__atomic_fetch_add(&ph_entered, 1, __ATOMIC_RELAXED) ==
		    2 * (r - 1))
			ph_first[who]++;
		for (int i = 0; i < 2000; i++)
			relax();
		__atomic_sub_fetch(&ph_inside, 1, __ATOMIC_RELAXED);
		raw_spin_unlock(&ph_lock);
		__atomic_add_fetch(&ph_done, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

/*
 * A pending waiter P and a queue head H behind it, both spinning (no
 * limit) when the holder lets go: P owns the pending byte and goes
 * first, H waits until P has cleared it.  A head that took P's pending
 * for its own would race P's plain store at the unlock (entering first
 * or together with P, some rounds of sixty).
 */
static void pending_waiter_goes_before_the_head(void **state)
{
	unsigned int old = pk_qspin_set_spin_limit(UINT32_MAX / 2);
	pthread_t t[2];

	(void)state;
	ph_done = ph_overlaps = ph_entered = 0;
	ph_first[0] = ph_first[1] = 0;
	for (long i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, ph_waiter, (void *)i);
	for (long r = 1; r <= PH_ROUNDS; r++) {
		raw_spin_lock(&ph_lock);
		__atomic_store_n(&ph_go[0], r, __ATOMIC_RELEASE);
		wait_word_changes(&ph_lock, ~0ULL, PK_Q_LOCKED, "P pending");
		assert_int_equal(word(&ph_lock), PK_Q_LOCKED | PK_Q_PENDING);
		__atomic_store_n(&ph_go[1], r, __ATOMIC_RELEASE);
		wait_word_changes(&ph_lock, PK_Q_TAIL_MASK, 0, "H queued");
		raw_spin_unlock(&ph_lock);
		wait_for_long(&ph_done, 2 * r, "both entered");
	}
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	pk_qspin_set_spin_limit(old);
	assert_int_equal(ph_overlaps, 0);
	assert_int_equal(ph_first[0], PH_ROUNDS);
	assert_int_equal(word(&ph_lock), 0);
}

/* ---- mutual exclusion: tasks, host threads, hardirq handlers ---- */

#define EX_LINE 21
#define EX_TASKS 4
#define EX_THREADS 2
#define EX_ITERS 3000
static DEFINE_SPINLOCK(ex_lock);
static volatile long ex_counter;
static long ex_irq_calls, ex_raising;

/* A read-modify-write wide enough that an overlap loses an update. */
static void ex_increment(void)
{
	long v = ex_counter;

	for (int i = 0; i < 8; i++)
		relax();
	ex_counter = v + 1;
}

static irqreturn_t ex_handler(int irq, void *dev)
{
	unsigned long flags;

	(void)irq;
	(void)dev;
	spin_lock_irqsave(&ex_lock, flags);
	ex_increment();
	spin_unlock_irqrestore(&ex_lock, flags);
	__atomic_add_fetch(&ex_irq_calls, 1, __ATOMIC_RELAXED);
	return IRQ_HANDLED;
}

static int ex_task(void *arg)
{
	(void)arg;
	for (int i = 0; i < EX_ITERS; i++) {
		unsigned long flags;

		/* Interrupts off: this CPU's handler takes the lock too. */
		spin_lock_irqsave(&ex_lock, flags);
		ex_increment();
		spin_unlock_irqrestore(&ex_lock, flags);
		if (i % 64 == 0)
			cond_resched();
	}
	return 0;
}

static void *ex_thread(void *arg)
{
	(void)arg;
	for (int i = 0; i < EX_ITERS; i++) {
		unsigned long flags;

		/* Not a CPU, but the validator wants one irq-safe way. */
		spin_lock_irqsave(&ex_lock, flags);
		ex_increment();
		spin_unlock_irqrestore(&ex_lock, flags);
	}
	return NULL;
}

static void *ex_raiser(void *arg)
{
	(void)arg;
	for (int i = 0; __atomic_load_n(&ex_raising, __ATOMIC_ACQUIRE); i++) {
		irq_raise(EX_LINE, i & 1);
		sched_yield();
	}
	return NULL;
}

static void excludes_tasks_threads_and_handlers(void **state)
{
	struct task_struct *k[EX_TASKS];
	pthread_t t[EX_THREADS], raiser;
	long calls;

	(void)state;
	ex_counter = 0;
	ex_irq_calls = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(request_irq(EX_LINE, ex_handler, 0, "ex", NULL), 0);
	__atomic_store_n(&ex_raising, 1, __ATOMIC_RELEASE);
	pthread_create(&raiser, NULL, ex_raiser, NULL);
	for (int i = 0; i < EX_TASKS; i++) {
		k[i] = kthread_create_on_cpu(ex_task, NULL, (unsigned)i % 2,
					     "ex/%u");
		wake_up_process(k[i]);
	}
	for (int i = 0; i < EX_THREADS; i++)
		pthread_create(&t[i], NULL, ex_thread, NULL);
	for (int i = 0; i < EX_THREADS; i++)
		pthread_join(t[i], NULL);
	for (int i = 0; i < EX_TASKS; i++)
		assert_int_equal(kthread_stop(k[i]), 0);
	/* At least one handler ran (the raiser goes on until then). */
	wait_for_long(&ex_irq_calls, 1, "a handler call");
	__atomic_store_n(&ex_raising, 0, __ATOMIC_RELEASE);
	pthread_join(raiser, NULL);
	free_irq(EX_LINE, NULL);
	calls = __atomic_load_n(&ex_irq_calls, __ATOMIC_ACQUIRE);
	assert_int_equal(ex_counter,
			 (long)(EX_TASKS + EX_THREADS) * EX_ITERS + calls);
	assert_false(spin_is_locked(&ex_lock));
}

/* ---- the *_lock_irq* operations: one update of the word ---- */

static DEFINE_SPINLOCK(irq_lock);
static DEFINE_RAW_SPINLOCK(irq_raw);
static DEFINE_RWLOCK(irq_rw);

static void lock_irq_forms_count_exactly(void **state)
{
	unsigned long f, outer;
	const int one = PREEMPT_LOCK_OFFSET + HARDIRQ_DISABLE_OFFSET;

	(void)state;
	spin_lock_irqsave(&irq_lock, f);
	assert_int_equal(f, 0);
	assert_int_equal(preempt_count(), one);
	spin_unlock_irqrestore(&irq_lock, f);
	assert_int_equal(preempt_count(), 0);

	/* Nested in a section with interrupts off: flags say so, and the
	 * restore goes back to that depth, not to enabled. */
	local_irq_save(outer);
	raw_spin_lock_irqsave(&irq_raw, f);
	assert_true(irqs_disabled_flags(f));
	assert_int_equal(preempt_count(), one + HARDIRQ_DISABLE_OFFSET);
	raw_spin_unlock_irqrestore(&irq_raw, f);
	assert_int_equal(preempt_count(), HARDIRQ_DISABLE_OFFSET);
	local_irq_restore(outer);
	assert_int_equal(preempt_count(), 0);

	raw_spin_lock_irq(&irq_raw);
	assert_int_equal(preempt_count(), one);
	raw_spin_unlock_irq(&irq_raw);
	spin_lock_irq(&irq_lock);
	assert_int_equal(preempt_count(), one);
	spin_unlock_irq(&irq_lock);
	read_lock_irqsave(&irq_rw, f);
	assert_int_equal(preempt_count(), one);
	read_unlock_irqrestore(&irq_rw, f);
	write_lock_irq(&irq_rw);
	assert_int_equal(preempt_count(), one);
	write_unlock_irq(&irq_rw);
	read_lock_irq(&irq_rw);
	assert_int_equal(preempt_count(), one);
	read_unlock_irq(&irq_rw);
	write_lock_irqsave(&irq_rw, f);
	assert_int_equal(preempt_count(), one);
	write_unlock_irqrestore(&irq_rw, f);
	assert_int_equal(preempt_count(), 0);
	assert_false(spin_is_locked(&irq_lock));
}

#define REPLAY_LINE 22
static long replayed;

static irqreturn_t replay_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	__atomic_add_fetch(&replayed, 1, __ATOMIC_RELEASE);
	return IRQ_HANDLED;
}

struct unlock_edge {
	long before_unlock, after_unlock;
	bool resched_left;
};

/*
 * The unlock is the enabling edge: an interrupt that arrived while the
 * lock held interrupts off runs before spin_unlock_irqrestore() returns,
 * and a reschedule owed is taken there.
 */
static int unlock_edge_task(void *arg)
{
	struct unlock_edge *e = arg;
	unsigned long f;
	long end = now_ms() + DEADLINE_MS;

	spin_lock_irqsave(&irq_lock, f);
	irq_raise(REPLAY_LINE, raw_smp_processor_id());
	/* The signal comes to this thread; it finds interrupts off. */
	while (!pk_task_tls(pk_irq_soft_pending) && now_ms() < end)
		relax();
	e->before_unlock = __atomic_load_n(&replayed, __ATOMIC_ACQUIRE);
	spin_unlock_irqrestore(&irq_lock, f);
	e->after_unlock = __atomic_load_n(&replayed, __ATOMIC_ACQUIRE);

	raw_spin_lock_irq(&irq_raw);
	set_preempt_need_resched();
	raw_spin_unlock_irq(&irq_raw);
	e->resched_left = test_preempt_need_resched();
	return 0;
}

static void unlock_replays_and_reschedules(void **state)
{
	struct unlock_edge e = {0};
	struct task_struct *k;

	(void)state;
	replayed = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	assert_int_equal(
		request_irq(REPLAY_LINE, replay_handler, 0, "replay", NULL), 0);
	k = kthread_create_on_cpu(unlock_edge_task, &e, 0, "edge/%u");
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 0);
	free_irq(REPLAY_LINE, NULL);
	assert_int_equal(e.before_unlock, 0);
	assert_int_equal(e.after_unlock, 1);
	assert_false(e.resched_left);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(word_layout_is_as_documented,
					  teardown),
		cmocka_unit_test_teardown(queue_hands_off_in_arrival_order,
					  teardown),
		cmocka_unit_test_teardown(halted_waiters_are_woken, teardown),
		cmocka_unit_test_teardown(pending_waiter_queues_and_halts,
					  teardown),
		cmocka_unit_test_teardown(pending_waiter_goes_before_the_head,
					  teardown),
		cmocka_unit_test_teardown(excludes_tasks_threads_and_handlers,
					  teardown),
		cmocka_unit_test_teardown(lock_irq_forms_count_exactly,
					  teardown),
		cmocka_unit_test_teardown(unlock_replays_and_reschedules,
					  teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
