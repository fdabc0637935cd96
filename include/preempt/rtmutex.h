/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_RTMUTEX_H
#define PREEMPT_RTMUTEX_H

/*
 * rt_mutex: a sleeping lock with priority inheritance, the lock PREEMPT_RT
 * builds spinlock_t on.  A task blocked on it lends its priority to the
 * owner, and along the chain of owners that are blocked themselves, so a
 * medium-priority task cannot hold off a high-priority one by starving the
 * low-priority owner.
 *
 * The uncontended paths are one compare-and-swap of the owner word.  On a
 * machine's task a contended lock sleeps; on a thread that is not a vCPU
 * (no machine, or a host thread beside it) the waiter yields the host CPU
 * until the lock is handed to it.
 */

#include <stdbool.h>
#include <preempt/list.h>
#include <preempt/lockdep_types.h>
#include <preempt/sched.h>

/*
 * @owner: the owning task, or 0; bit 0 set while tasks wait (so the
 *         owner's unlock cannot take the fast path past them)
 * @waiters: struct rt_mutex_waiter, most urgent first, FIFO among equals
 * @pi_node: on the owner's list of locks that have waiters, from which its
 *           boost is recomputed when it unlocks one of them
 * @depth: recursive acquisitions by the owner (a reported bug), so the
 *         matching unlocks do not release the lock
 */
struct rt_mutex {
	unsigned long owner;
	struct list_head waiters;
	struct list_head pi_node;
	unsigned int depth;
	struct lockdep_map dep_map;
};

#define __RT_MUTEX_INITIALIZER(name)                                           \
	{                                                                      \
		.owner = 0, .waiters = LIST_HEAD_INIT((name).waiters),         \
		.pi_node = LIST_HEAD_INIT((name).pi_node), .depth = 0          \
	}
/** DEFINE_RT_MUTEX() - define and initialize an unlocked rt_mutex. */
#define DEFINE_RT_MUTEX(name)                                                  \
	struct rt_mutex name = {                                               \
		.owner = 0,                                                    \
		.waiters = LIST_HEAD_INIT((name).waiters),                     \
		.pi_node = LIST_HEAD_INIT((name).pi_node),                     \
		.depth = 0,                                                    \
		.dep_map = PK_DEP_MAP_INIT(#name, LD_WAIT_SLEEP),              \
	}

void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     struct lock_class_key *key);
/**
 * rt_mutex_init() - initialize @lock, unlocked; its lock class is the call
 * site's (the library's own rt_mutexes, PREEMPT_RT's spinlock_t inside,
 * are not validated: the spinlock_t is).
 *
 * Any context; not while the lock is in use.
 */
#define rt_mutex_init(lock)                                                    \
	do {                                                                   \
		PK_LOCKDEP_KEY(__key);                                         \
		__rt_mutex_init((lock), PK_LOCKDEP_NAME(#lock),                \
				PK_LOCKDEP_KEYP(__key));                       \
	} while (0)

/**
 * rt_mutex_lock() - take @lock, sleeping while another task holds it
 *
 * Task context, may sleep (checked with might_sleep()).  While it waits,
 * the owner (and the owner's owner, along the chain) runs at least at the
 * caller's priority.  Locking a lock the caller already holds is reported
 * ("rt_mutex deadlock: recursive locking") and returns at once.
 */
void rt_mutex_lock(struct rt_mutex *lock);

/**
 * rt_mutex_lock_nested() - rt_mutex_lock() of a second lock of a class
 * already held, at nesting level @subclass.  Task context, may sleep.
 */
void rt_mutex_lock_nested(struct rt_mutex *lock, unsigned int subclass);

/**
 * rt_mutex_trylock() - take @lock if that needs no waiting
 *
 * Any task context, atomic included; not from interrupts.  Returns 1 if
 * the caller now holds the lock, 0 otherwise (also when it already did).
 */
int rt_mutex_trylock(struct rt_mutex *lock);

/*
 * pk_rt_mutex_trylock_any() - rt_mutex_trylock() for the contexts that
 * contend for an rt spinlock_t without sleeping (an interrupt handler, a
 * thread outside the machine): the holder is current, whatever it is.
 */
int pk_rt_mutex_trylock_any(struct rt_mutex *lock);

/**
 * rt_mutex_unlock() - release @lock, handing it to its most urgent waiter
 *
 * Task context, by the owner; does not sleep.  Drops the priority the
 * caller inherited through @lock.  An unlock by another task is reported
 * and ignored.
 */
void rt_mutex_unlock(struct rt_mutex *lock);

/** rt_mutex_is_locked() - is @lock held?  Any context. */
static inline bool rt_mutex_is_locked(struct rt_mutex *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != 0;
}

/** rt_mutex_owner() - the task holding @lock, or NULL.  Any context. */
static inline struct task_struct *rt_mutex_owner(struct rt_mutex *lock)
{
	return (struct task_struct *)(__atomic_load_n(&lock->owner,
						      __ATOMIC_RELAXED) &
				      ~1UL);
}

/*
 * pk_rt_mutex_lock_rtlock() - rt_mutex_lock() for PREEMPT_RT's spinlock_t
 * and rwlock_t: the sleep check allows the caller's RCU read-side depth,
 * as the kernel's rtlock_might_resched() does.  Task context.
 */
void pk_rt_mutex_lock_rtlock(struct rt_mutex *lock);

/**
 * pk_rt_mutex_adjust_prio() - set @p's priority again from its own, the
 * loan of RCU_BOOST (task->pk_rcu_boosted) and the waiters of the
 * rt_mutexes it holds, after the loan changed.  Any context but NMI and
 * runqueue locks held.
 */
void pk_rt_mutex_adjust_prio(struct task_struct *p);

#endif /* PREEMPT_RTMUTEX_H */
