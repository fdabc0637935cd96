/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_MUTEX_H
#define PREEMPT_MUTEX_H

/*
 * Mutexes, as the kernel's: a sleeping lock with one owner.  Taking a free
 * mutex is one compare-and-swap of the owner; a contended one queues the
 * task on the mutex's wait queue and sleeps; an unlock wakes one waiter.
 *
 * A host thread (not a task of a booted machine) sleeps and is woken as a
 * task does: its task parks (sched.h).
 *
 * With CONFIG_DEBUG_MUTEXES (on with the debug checks) misuse is reported
 * and survived: an unlock of an unlocked mutex is ignored, an unlock by a
 * task that is not the owner releases it anyway, and a recursive lock by
 * the owner returns without taking it (its next unlock is then ignored)
 * instead of deadlocking.  A mutex its owner still holds when it exits is
 * reported (lockdep's "still has locks held!") and released for it, so
 * its waiters go on, as a robust futex hands on a dead owner's lock.
 */

#include <limits.h>
#include <stdbool.h>

#include <preempt/lockdep.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

#ifndef CONFIG_DEBUG_MUTEXES
#define CONFIG_DEBUG_MUTEXES CONFIG_DEBUG_PREEMPT
#endif

struct mutex {
	struct task_struct *owner; /* NULL when unlocked */
	wait_queue_head_t wait;
	int pk_recursion; /* debug: self-deadlocks reported and let through */
	struct list_head pk_held_node; /* debug: on owner->pk_held_mutexes */
	struct lockdep_map dep_map;
};

#define __MUTEX_INITIALIZER(name)                                              \
	{                                                                      \
		.owner = NULL,                                                 \
		.wait = __WAIT_QUEUE_HEAD_INITIALIZER((name).wait),            \
		.pk_recursion = 0,                                             \
		.pk_held_node = LIST_HEAD_INIT((name).pk_held_node),           \
		.dep_map = PK_DEP_MAP_INIT(#name, LD_WAIT_SLEEP),              \
	}
/** DEFINE_MUTEX() - define an unlocked mutex named @name. */
#define DEFINE_MUTEX(name) struct mutex name = __MUTEX_INITIALIZER(name)

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key);
/**
 * mutex_init() - initialize @lock, unlocked; its lock class is the call
 * site's.  Any context.
 */
#define mutex_init(lock)                                                       \
	do {                                                                   \
		PK_LOCKDEP_KEY(__key);                                         \
		__mutex_init((lock), PK_LOCKDEP_NAME(#lock),                   \
			     PK_LOCKDEP_KEYP(__key));                          \
	} while (0)

/**
 * mutex_lock() - take @lock, sleeping while another task holds it
 *
 * Task context, may sleep (checked by might_sleep()).  Not recursive.
 */
void mutex_lock(struct mutex *lock);

/**
 * mutex_lock_interruptible() - mutex_lock() that a signal could cut short
 *
 * Task context, may sleep.  Tasks get no signals here: always returns 0.
 */
int mutex_lock_interruptible(struct mutex *lock);

/**
 * mutex_trylock() - take @lock if it is free, without sleeping
 *
 * Task context (a mutex belongs to a task: not from interrupts).  Returns
 * 1 if taken, 0 if it is held (by the caller too).
 */
int mutex_trylock(struct mutex *lock);

/**
 * mutex_lock_nested() - mutex_lock() of a second mutex of a class already
 * held, at nesting level @subclass.  Task context.
 */
void mutex_lock_nested(struct mutex *lock, unsigned int subclass);
/** mutex_lock_interruptible_nested() - the same, interruptible. */
int mutex_lock_interruptible_nested(struct mutex *lock, unsigned int subclass);
void pk_mutex_lock_nest_lock(struct mutex *lock, struct lockdep_map *nest);
/** mutex_lock_nest_lock() - one of many of a class, all under @nest. */
#define mutex_lock_nest_lock(lock, nest)                                       \
	pk_mutex_lock_nest_lock(lock, &(nest)->dep_map)

/**
 * mutex_unlock() - release @lock and wake one waiter
 *
 * Task context, by the task that took it.  Does not sleep.
 */
void mutex_unlock(struct mutex *lock);

/** mutex_is_locked() - is @lock held?  Any context. */
static inline bool mutex_is_locked(struct mutex *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != NULL;
}

/* ---- the slow path the sleeping locks share (mutex.c); not an API ---- */

#define PK_LOCK_WAIT_FOREVER LONG_MAX

/**
 * pk_lock_wait() - wait on @wq until @trylock(@lock) succeeds, at most
 * @timeout ticks (PK_LOCK_WAIT_FOREVER: no limit).  Task or host thread
 * context, may sleep.  Returns true once taken, false on timeout.
 */
bool pk_lock_wait(wait_queue_head_t *wq, bool (*trylock)(void *lock),
		  void *lock, long timeout);

/**
 * pk_lock_wake_one() - wake the first waiter of @wq, taking it off the
 * queue.  Any context, interrupts included.
 */
void pk_lock_wake_one(wait_queue_head_t *wq);

/**
 * pk_lock_handoff() - hand a lock being released to its first waiter,
 * which pk_lock_wait() then returns as taken: @grant(@lock, waiter) makes
 * the waiter the owner (NULL: nothing to record, as a semaphore's unit).
 * With @only_starved, only a waiter that was woken and lost the lock to a
 * newcomer gets it.  Returns false, and does nothing, when no such waiter
 * is queued: the caller then releases as usual.  Any context.
 */
bool pk_lock_handoff(wait_queue_head_t *wq, bool only_starved,
		     void (*grant)(void *lock, struct task_struct *to),
		     void *lock);

/**
 * pk_lock_has_waiters() - may a task be queued on @wq?  Any context; call
 * after the release is stored.  The full barrier pairs with the one in
 * set_current_state() of a waiter that queued itself before its trylock:
 * either the waiter sees the release or the releaser sees the waiter.
 */
static inline bool pk_lock_has_waiters(wait_queue_head_t *wq)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	return __atomic_load_n(&wq->head.next, __ATOMIC_RELAXED) != &wq->head;
}

#endif /* PREEMPT_MUTEX_H */
