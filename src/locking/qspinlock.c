// SPDX-License-Identifier: MIT
/*
 * The contended half of raw_spinlock_t: a queued spinlock with the
 * paravirt waits (the behaviour of the kernel's kernel/locking/qspinlock.c
 * and qspinlock_paravirt.h, written from their documentation).
 *
 * The word (include/preempt/spinlock.h): locked byte, pending byte, and
 * the tail, the address of the last queued node.  The first waiter, when
 * there is no queue and no other pending waiter, sets pending and spins on
 * the locked byte; it takes the lock with a plain store of the two low
 * bytes (one atomic operation on the contended line, not three).  Later
 * waiters queue (MCS): each spins on its own node, the head of the queue
 * on the lock word with the pending byte set, which keeps newcomers from
 * stealing the lock.
 *
 * A vCPU is a host thread, which the host may deschedule anywhere, also
 * holding a lock or at the head of a queue.  So every wait spins for a
 * bounded time: the pending waiter then clears pending and queues; a
 * queued waiter halts on a futex, on its node's wait word (its
 * predecessor, handing the queue on, wakes it), the head on the lock
 * word's low half after clearing pending and marking the locked byte SLOW
 * (the unlock that finds SLOW wakes it).  While the head does not spin, a
 * newcomer may take a free lock before queueing, so the running vCPUs go
 * on when the one at the front is off the host CPU.  A futex is one
 * system call, async-signal-safe, so all this works in an interrupt
 * handler (a host signal handler) too: no allocation, no host lock.
 *
 * Nodes are thread-local, four per host thread (task, softirq, hardirq,
 * NMI nesting: a handler interrupting a waiter queues with the next
 * node).  A vCPU is a thread, a task spins with preemption disabled, so
 * the nodes are per vCPU for tasks and per thread for host threads.  The
 * pending waiter needs no node: a handler interrupting it waits with its
 * own state (on another lock; the same lock from task and handler needs
 * interrupts off in the task, as in the kernel).
 *
 * Who may write the low two bytes (locked, pending) while pending is set
 * by a pending waiter P, and why each interleaving leaves one owner:
 *
 *  - The fast path, trylock and the deep-nesting spin take only a word
 *    that is 0; a stealer takes with a 16-bit compare-exchange of
 *    locked_pending from 0.  Pending set, all of them fail.
 *  - A second would-be pending waiter needs the word exactly "locked"
 *    (no tail, no pending): it fails and queues.
 *  - The holder's unlock exchanges the locked byte to 0; P stores only
 *    after it has read that 0 (acquire), so the two never overlap, and
 *    nobody sets the locked byte again before P: every taker above needs
 *    pending clear, and the head's SLOW marking is a compare-exchange of
 *    the whole word expecting locked 1.
 *  - A newcomer queueing when the tail is empty sets pending in its
 *    tail update only if pending was clear: finding P's it does not own
 *    pending, and as the head it waits until P has taken the lock and
 *    cleared it (or given up), then sets pending itself (fetch-or, owning
 *    it only if it was clear) and waits for the locked byte.  Were the
 *    head to believe P's pending its own, P's store and the head's
 *    compare-exchange could both see the lock free and both take it.
 *  - The head's halting marks SLOW with a compare-exchange that keeps P's
 *    pending: the unlock wakes it; P takes the lock (locked 1 again); the
 *    head, awake, waits for pending as above.
 *  - A queue update (tail) is a compare-exchange of the whole word: P's
 *    store in between fails it and it retries; before the store, it
 *    left the low bytes as they were, and P's store rewrites them to
 *    "locked, no pending", which is what P means.
 *  - P giving up clears pending with one fetch-and; it is P's bit
 *    (nobody else sets pending while it is set), and the lock may be
 *    free: then any of the takers above may take it, P queues.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <preempt/bug.h>
#include <preempt/spinlock.h>

#include "../sched/sched_internal.h"
#include "../port/sim.h"

/* Spins (CPU relaxes) before a waiter halts on the host or a pending
 * waiter queues: a variable, so that a test can keep a waiter spinning. */
static unsigned int spin_limit = 512;
/* Spins for a pending waiter's store that makes the word "locked" again. */
#define PK_Q_HANDOVER_SPINS 64
#define PK_Q_NODES 4

/* A node's wait word (a futex). */
enum { QW_SPINNING, QW_GRANTED, QW_HALTED };

struct pk_qnode {
	struct pk_qnode *next;
	uint32_t wait;
} __attribute__((aligned(16)));

static __thread struct pk_qnode qnodes[PK_Q_NODES]
	__attribute__((tls_model("initial-exec")));
static __thread int qnode_depth __attribute__((tls_model("initial-exec")));

static unsigned long nr_halts, nr_kicks, nr_pending_queued;

unsigned long pk_qspin_halts(void)
{
	return __atomic_load_n(&nr_halts, __ATOMIC_RELAXED);
}

unsigned long pk_qspin_kicks(void)
{
	return __atomic_load_n(&nr_kicks, __ATOMIC_RELAXED);
}

unsigned long pk_qspin_pending_queued(void)
{
	return __atomic_load_n(&nr_pending_queued, __ATOMIC_RELAXED);
}

unsigned int pk_qspin_set_spin_limit(unsigned int spins)
{
	return __atomic_exchange_n(&spin_limit, spins, __ATOMIC_RELAXED);
}

static unsigned int spins_max(void)
{
	return __atomic_load_n(&spin_limit, __ATOMIC_RELAXED);
}

/* errno is the interrupted code's when we run in a handler. */
static void halt_on(uint32_t *word, uint32_t val)
{
	int saved = errno;

	__atomic_add_fetch(&nr_halts, 1, __ATOMIC_RELAXED);
	pk_host_futex_wait(word, val, 0);
	errno = saved;
}

static void kick(uint32_t *word, int nr)
{
	int saved = errno;

	__atomic_add_fetch(&nr_kicks, 1, __ATOMIC_RELAXED);
	pk_host_futex_wake(word, nr);
	errno = saved;
}

void pk_queued_spin_unlock_slow(raw_spinlock_t *lock)
{
	/* Only the queue head sleeps here. */
	kick(&lock->futex, 1);
}

/* Spin for the grant from our predecessor, then halt until it comes. */
static void wait_for_grant(struct pk_qnode *node)
{
	uint32_t w = QW_SPINNING;
	unsigned int limit = spins_max();

	for (unsigned int spins = 0; spins < limit; spins++) {
		if (__atomic_load_n(&node->wait, __ATOMIC_ACQUIRE) ==
		    QW_GRANTED)
			return;
		pk_cpu_relax();
	}
	if (__atomic_compare_exchange_n(&node->wait, &w, QW_HALTED, false,
					__ATOMIC_SEQ_CST, __ATOMIC_ACQUIRE))
		w = QW_HALTED;
	while (w != QW_GRANTED) {
		halt_on(&node->wait, QW_HALTED);
		w = __atomic_load_n(&node->wait, __ATOMIC_ACQUIRE);
	}
}

static void grant(struct pk_qnode *next)
{
	if (__atomic_exchange_n(&next->wait, QW_GRANTED, __ATOMIC_SEQ_CST) ==
	    QW_HALTED)
		kick(&next->wait, 1);
}

/* A successor has moved the tail past us; its link may be a moment late. */
static struct pk_qnode *wait_for_next(struct pk_qnode *node)
{
	struct pk_qnode *next;
	unsigned int limit = spins_max();

	for (unsigned int spins = 0;
	     !(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE));
	     spins++) {
		if (spins >= limit)
			pk_host_yield(); /* its thread is off the host CPU */
		else
			pk_cpu_relax();
	}
	return next;
}

/*
 * Before queueing, take the lock if it is free and nobody is spinning for
 * it (pending clear): the queue head may be a vCPU the host has
 * descheduled or halted, and a fair hand-off to it would stall every
 * running vCPU behind it (the kernel's hybrid unfair trylock).  Spin so
 * while there is a queue to join; bounded, then queue.  The take compares
 * pending too: a pending waiter that saw the lock free is about to store
 * "locked" without an atomic operation.
 */
static bool steal(raw_spinlock_t *lock)
{
	unsigned int limit = spins_max();

	for (unsigned int spins = 0; spins < limit; spins++) {
		uint64_t v = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);
		uint16_t free = 0;

		if (!(v & (PK_Q_LOCKED_MASK | PK_Q_PENDING_MASK)) &&
		    __atomic_compare_exchange_n(
			    &lock->locked_pending, &free, (uint16_t)PK_Q_LOCKED,
			    false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
		if (!(v & PK_Q_TAIL_MASK) || (v & PK_Q_PENDING_MASK))
			return false;
		pk_cpu_relax();
	}
	return false;
}

/*
 * The first waiter of a held lock with no queue: set pending, spin on the
 * locked byte, take the lock with a plain store (nobody else writes the
 * two low bytes while pending is set: the interleavings at the top).
 * Bounded: the holder's vCPU may be off the host CPU, so then clear
 * pending and queue, where the wait may halt.
 */
static bool pending_lock(raw_spinlock_t *lock)
{
	uint64_t v = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);
	unsigned int limit = spins_max();

	/* The pending waiter before us is storing "locked": a moment. */
	for (int spins = 0; v == PK_Q_PENDING && spins < PK_Q_HANDOVER_SPINS;
	     spins++) {
		pk_cpu_relax();
		v = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);
	}
	if (v != PK_Q_LOCKED ||
	    !__atomic_compare_exchange_n(&lock->val, &v,
					 PK_Q_LOCKED | PK_Q_PENDING, false,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return false;
	for (unsigned int spins = 0; spins < limit; spins++) {
		if (!__atomic_load_n(&lock->locked, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&lock->locked_pending,
					 (uint16_t)PK_Q_LOCKED,
					 __ATOMIC_RELAXED);
			return true;
		}
		pk_cpu_relax();
	}
	__atomic_fetch_and(&lock->val, ~PK_Q_PENDING, __ATOMIC_RELAXED);
	__atomic_add_fetch(&nr_pending_queued, 1, __ATOMIC_RELAXED);
	return false;
}

/*
 * The queue head: spin for the lock with the pending byte set (no
 * stealing meanwhile), take it, and say whether someone queued behind.
 * @own: the pending byte is ours; a pending waiter's is not, and the head
 * waits until that waiter has taken the lock and cleared it.  After a
 * bounded spin it clears its pending (running vCPUs may steal), marks the
 * held lock SLOW and halts until the unlock wakes it.
 */
static bool head_lock(raw_spinlock_t *lock, uint64_t tail, bool own)
{
	unsigned int limit = spins_max();

	for (;;) {
		uint64_t v, slow;

		for (unsigned int spins = 0; spins < limit; spins++) {
			uint16_t lp = (uint16_t)PK_Q_PENDING;

			v = __atomic_load_n(&lock->val, __ATOMIC_ACQUIRE);
			if (!own && !(v & PK_Q_PENDING_MASK)) {
				own = !(__atomic_fetch_or(&lock->val,
							  PK_Q_PENDING,
							  __ATOMIC_ACQUIRE) &
					PK_Q_PENDING_MASK);
				continue;
			}
			if (!own || (v & PK_Q_LOCKED_MASK)) {
				pk_cpu_relax();
				continue;
			}
			/* Last in the queue: the word becomes "locked". */
			if ((v & PK_Q_TAIL_MASK) == tail &&
			    __atomic_compare_exchange_n(
				    &lock->val, &v, PK_Q_LOCKED, false,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return false;
			if ((v & PK_Q_TAIL_MASK) != tail &&
			    __atomic_compare_exchange_n(
				    &lock->locked_pending, &lp,
				    (uint16_t)PK_Q_LOCKED, false,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return true;
		}
		if (own)
			__atomic_fetch_and(&lock->val, ~PK_Q_PENDING,
					   __ATOMIC_RELAXED);
		own = false;
		v = __atomic_load_n(&lock->val, __ATOMIC_ACQUIRE);
		switch (v & PK_Q_LOCKED_MASK) {
		case 0:
			/* Free, but a pending waiter's to take: its thread
			 * may be off the host CPU. */
			if (v & PK_Q_PENDING_MASK)
				pk_host_yield();
			continue;
		case PK_Q_LOCKED:
			slow = (v & ~PK_Q_LOCKED_MASK) | PK_Q_SLOW;
			if (!__atomic_compare_exchange_n(
				    &lock->val, &v, slow, false,
				    __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
				continue;
			v = slow;
			break;
		default:
			break;
		}
		halt_on(&lock->futex, (uint32_t)v);
	}
}

static void queue_lock(raw_spinlock_t *lock, struct pk_qnode *node)
{
	uint64_t tail = (uint64_t)(uintptr_t)node << PK_Q_TAIL_SHIFT;
	uint64_t v, prev, new;

	BUG_ON((uintptr_t)node >> (64 - PK_Q_TAIL_SHIFT));
	node->next = NULL;
	node->wait = QW_SPINNING;
	v = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);
	/* First in an empty queue: the head at once, pending set in the same
	 * update (one atomic operation on the contended line, not two),
	 * unless a pending waiter has set it: that one is not ours. */
	do
		new = (v & ~PK_Q_TAIL_MASK) | tail |
		      (v & (PK_Q_TAIL_MASK | PK_Q_PENDING_MASK) ? 0
								: PK_Q_PENDING);
	while (!__atomic_compare_exchange_n(
		&lock->val, &v, new, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	prev = v & PK_Q_TAIL_MASK;
	if (prev) {
		struct pk_qnode *p =
			(struct pk_qnode *)(uintptr_t)(prev >> PK_Q_TAIL_SHIFT);

		__atomic_store_n(&p->next, node, __ATOMIC_RELEASE);
		wait_for_grant(node);
	}
	if (head_lock(lock, tail, (new ^ v) & PK_Q_PENDING))
		grant(wait_for_next(node));
}

void pk_queued_spin_lock_slow(raw_spinlock_t *lock)
{
	int idx;

	if (steal(lock) || pending_lock(lock))
		return;
	idx = qnode_depth++;
	barrier();
	if (unlikely(idx >= PK_Q_NODES)) {
		/* Nested deeper than task/softirq/hardirq/NMI: just spin. */
		unsigned int limit = spins_max();

		for (unsigned int spins = 0; !arch_spin_trylock(lock); spins++)
			spins < limit ? pk_cpu_relax() : (void)pk_host_yield();
	} else {
		queue_lock(lock, &qnodes[idx]);
	}
	barrier();
	qnode_depth--;
}
