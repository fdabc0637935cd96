// SPDX-License-Identifier: MIT
/*
 * The contended half of raw_spinlock_t: a queued spinlock with the
 * paravirt waits (the behaviour of the kernel's kernel/locking/qspinlock.c
 * and qspinlock_paravirt.h, written from their documentation).
 *
 * The word (include/preempt/spinlock.h): locked byte, pending byte, and
 * the tail, the address of the last queued node.  Waiters queue (MCS):
 * each spins on its own node, the head of the queue on the lock word with
 * the pending byte set, which keeps newcomers from stealing the lock.
 *
 * A vCPU is a host thread, which the host may deschedule anywhere, also
 * holding a lock or at the head of a queue.  So every wait spins for a
 * bounded time and then halts on a futex: a queued waiter on its node's
 * wait word (its predecessor, handing the queue on, wakes it), the head
 * on the lock word's low half after clearing pending and marking the
 * locked byte SLOW (the unlock that finds SLOW wakes it).  While the head
 * does not spin, a newcomer may take a free lock before queueing, so the
 * running vCPUs go on when the one at the front is off the host CPU.  A futex
 * is one system call, async-signal-safe, so all this works in an interrupt
 * handler (a host signal handler) too: no allocation, no host lock.
 *
 * Nodes are thread-local, four per host thread (task, softirq, hardirq,
 * NMI nesting: a handler interrupting a waiter queues with the next
 * node).  A vCPU is a thread, a task spins with preemption disabled, so
 * the nodes are per vCPU for tasks and per thread for host threads.
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

/* Spins (CPU relaxes) before a waiter halts on the host. */
#define PK_Q_SPIN_LIMIT 512
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

static unsigned long nr_halts, nr_kicks;

unsigned long pk_qspin_halts(void)
{
	return __atomic_load_n(&nr_halts, __ATOMIC_RELAXED);
}

unsigned long pk_qspin_kicks(void)
{
	return __atomic_load_n(&nr_kicks, __ATOMIC_RELAXED);
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

	for (int spins = 0; spins < PK_Q_SPIN_LIMIT; spins++) {
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

	for (int spins = 0;
	     !(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE));
	     spins++) {
		if (spins >= PK_Q_SPIN_LIMIT)
			pk_host_yield(); /* its thread is off the host CPU */
		else
			pk_cpu_relax();
	}
	return next;
}

/*
 * Before queueing, take the lock if it is free and no queue head is
 * spinning for it (pending clear): the head may be a vCPU the host has
 * descheduled or halted, and a fair hand-off to it would stall every
 * running vCPU behind it (the kernel's hybrid unfair trylock).  Spin so
 * while there is a queue to join; bounded, then queue.
 */
static bool steal(raw_spinlock_t *lock)
{
	for (int spins = 0; spins < PK_Q_SPIN_LIMIT; spins++) {
		uint64_t v = __atomic_load_n(&lock->val, __ATOMIC_RELAXED);
		uint8_t free = 0;

		if (!(v & (PK_Q_LOCKED_MASK | PK_Q_PENDING_MASK)) &&
		    __atomic_compare_exchange_n(
			    &lock->locked, &free, (uint8_t)PK_Q_LOCKED, false,
			    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return true;
		if (!(v & PK_Q_TAIL_MASK) || (v & PK_Q_PENDING_MASK))
			return false;
		pk_cpu_relax();
	}
	return false;
}

/*
 * The queue head: spin for the lock with the pending byte set (no
 * stealing meanwhile), take it, and say whether someone queued behind.
 * After a bounded spin it clears pending (running vCPUs may steal),
 * marks the held lock SLOW and halts until the unlock wakes it.
 */
static bool head_lock(raw_spinlock_t *lock, uint64_t tail, bool pending)
{
	for (;;) {
		uint64_t v, slow;

		if (!pending)
			__atomic_fetch_or(&lock->val, PK_Q_PENDING,
					  __ATOMIC_RELAXED);
		pending = false;
		for (int spins = 0; spins < PK_Q_SPIN_LIMIT; spins++) {
			uint16_t lp = (uint16_t)PK_Q_PENDING;

			v = __atomic_load_n(&lock->val, __ATOMIC_ACQUIRE);
			if (v & PK_Q_LOCKED_MASK) {
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
		__atomic_fetch_and(&lock->val, ~PK_Q_PENDING, __ATOMIC_RELAXED);
		v = __atomic_load_n(&lock->val, __ATOMIC_ACQUIRE);
		switch (v & PK_Q_LOCKED_MASK) {
		case 0:
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
	 * update (one atomic operation on the contended line, not two). */
	do
		new = (v & ~PK_Q_TAIL_MASK) | tail |
		      (v & PK_Q_TAIL_MASK ? 0 : PK_Q_PENDING);
	while (!__atomic_compare_exchange_n(
		&lock->val, &v, new, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED));
	prev = v & PK_Q_TAIL_MASK;
	if (prev) {
		struct pk_qnode *p =
			(struct pk_qnode *)(uintptr_t)(prev >> PK_Q_TAIL_SHIFT);

		__atomic_store_n(&p->next, node, __ATOMIC_RELEASE);
		wait_for_grant(node);
	}
	if (head_lock(lock, tail, !prev))
		grant(wait_for_next(node));
}

void pk_queued_spin_lock_slow(raw_spinlock_t *lock)
{
	int idx;

	if (steal(lock))
		return;
	idx = qnode_depth++;
	barrier();
	if (unlikely(idx >= PK_Q_NODES)) {
		/* Nested deeper than task/softirq/hardirq/NMI: just spin. */
		for (int spins = 0; !arch_spin_trylock(lock); spins++)
			spins < PK_Q_SPIN_LIMIT ? pk_cpu_relax()
						: (void)pk_host_yield();
	} else {
		queue_lock(lock, &qnodes[idx]);
	}
	barrier();
	qnode_depth--;
}
