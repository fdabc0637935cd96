// SPDX-License-Identifier: MIT
/*
 * Mutexes, and the slow path every sleeping lock shares: a waiter queues on
 * the lock's wait queue before it tries the lock, then sleeps; a release
 * wakes the first waiter, taking it off the queue so that the next release
 * wakes another.  A woken waiter that loses the race queues again.
 */
#include <preempt/bug.h>
#include <preempt/delay.h>
#include <preempt/irqflags.h>
#include <preempt/mutex.h>

#include "../sched/sched_internal.h"

/* ---- the shared slow path ---- */

/*
 * A sleeping waiter.  @granted: a release handed the lock to it directly
 * (pk_lock_handoff()) before waking it, so a waiter that reads false and
 * sleeps is woken to read it again.  @starved: it was woken and lost the
 * lock to a task that had not waited, which is what makes a mutex release
 * hand over instead of letting such tasks win for ever, as the kernel's
 * MUTEX_FLAG_HANDOFF.
 */
struct pk_lock_waiter {
	struct wait_queue_entry wq_entry;
	bool granted;
	bool starved;
};

static bool lock_granted(const struct pk_lock_waiter *w)
{
	return __atomic_load_n(&w->granted, __ATOMIC_ACQUIRE);
}

/* Tasks and host threads alike: a host thread's task parks (sched.h). */
bool pk_lock_wait(wait_queue_head_t *wq, bool (*trylock)(void *lock),
		  void *lock, long timeout)
{
	struct pk_lock_waiter w = {.wq_entry.task = current};
	bool taken, woken = false;

	for (;;) {
		/* Queued (and the barrier) first: a release after our
		 * attempt sees us and wakes us. */
		prepare_to_wait(wq, &w.wq_entry, TASK_UNINTERRUPTIBLE);
		taken = lock_granted(&w) || trylock(lock);
		if (taken || !timeout)
			break;
		if (woken)
			__atomic_store_n(&w.starved, true, __ATOMIC_RELAXED);
		if (timeout == PK_LOCK_WAIT_FOREVER)
			schedule();
		else
			timeout = schedule_timeout(timeout);
		woken = true;
	}
	finish_wait(wq, &w.wq_entry);
	/* Off the queue now (under its lock): no hand-over can come later. */
	if (!taken)
		taken = lock_granted(&w);
	/* A release may have picked us as we gave up: pass its wake-up on,
	 * or another waiter sleeps on with the lock free. */
	if (!taken)
		pk_lock_wake_one(wq);
	return taken;
}

void pk_lock_wake_one(wait_queue_head_t *wq)
{
	struct wait_queue_entry *w;
	unsigned long flags;

	pk_lock_irqsave(&wq->lock, flags);
	if (!list_empty(&wq->head)) {
		w = list_first_entry(&wq->head, struct wait_queue_entry, entry);
		/* Off the queue: the next release wakes the next waiter. */
		list_del_init(&w->entry);
		wake_up_process(w->task);
	}
	pk_unlock_irqrestore(&wq->lock, flags);
}

bool pk_lock_handoff(wait_queue_head_t *wq, bool only_starved,
		     void (*grant)(void *lock, struct task_struct *to),
		     void *lock)
{
	struct pk_lock_waiter *w;
	unsigned long flags;
	bool handed = false;

	pk_lock_irqsave(&wq->lock, flags);
	if (!list_empty(&wq->head)) {
		w = list_first_entry(&wq->head, struct pk_lock_waiter,
				     wq_entry.entry);
		if (!only_starved ||
		    __atomic_load_n(&w->starved, __ATOMIC_RELAXED)) {
			if (grant)
				grant(lock, w->wq_entry.task);
			__atomic_store_n(&w->granted, true, __ATOMIC_RELEASE);
			list_del_init(&w->wq_entry.entry);
			wake_up_process(w->wq_entry.task);
			handed = true;
		}
	}
	pk_unlock_irqrestore(&wq->lock, flags);
	return handed;
}

/* ---- mutexes ---- */

void __mutex_init(struct mutex *lock, const char *name,
		  struct lock_class_key *key)
{
	lock->owner = NULL;
	init_waitqueue_head(&lock->wait);
	lock->pk_recursion = 0;
	INIT_LIST_HEAD(&lock->pk_held_node);
	lockdep_init_map_wait(&lock->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

bool pk_mutex_owned(struct mutex *lock)
{
	return __atomic_load_n(&lock->owner, __ATOMIC_RELAXED) == current;
}

/* Sequentially consistent: the waiter's side of pk_lock_has_waiters(). */
static bool mutex_acquire(struct mutex *lock)
{
	struct task_struct *none = NULL;

	return __atomic_compare_exchange_n(&lock->owner, &none, current, false,
					   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
}

static bool mutex_acquire_cb(void *lock)
{
	return mutex_acquire(lock);
}

/* A release to a starved waiter: the owner word goes straight to it. */
static void mutex_grant(void *lock, struct task_struct *to)
{
	__atomic_store_n(&((struct mutex *)lock)->owner, to, __ATOMIC_RELEASE);
}

#if CONFIG_DEBUG_MUTEXES
/* The owner locking again would sleep forever: report and let it through. */
static bool mutex_self_deadlock(struct mutex *lock)
{
	if (__atomic_load_n(&lock->owner, __ATOMIC_RELAXED) != current)
		return false;
	WARN_ONCE(1,
		  "DEBUG_LOCKS_WARN_ON(mutex_owner(lock) == current)\n"
		  "%s/%d is trying to acquire mutex %p it already holds: "
		  "would deadlock; not taken, its next unlock ignored\n",
		  current->comm, task_pid_nr(current), (void *)lock);
	lock->pk_recursion++;
	return true;
}

/* Reports misuse; returns false when there is nothing to release. */
static bool mutex_unlock_checks(struct mutex *lock)
{
	struct task_struct *owner =
		__atomic_load_n(&lock->owner, __ATOMIC_RELAXED);

	if (WARN_ONCE(!owner,
		      "DEBUG_LOCKS_WARN_ON(!mutex_is_locked(lock))\n"
		      "%s/%d is releasing mutex %p, which is not locked\n",
		      current->comm, task_pid_nr(current), (void *)lock))
		return false;
	if (owner == current && lock->pk_recursion) {
		lock->pk_recursion--; /* the unlock of a refused lock */
		return false;
	}
	/* The kernel releases it all the same: the owner may be gone. */
	WARN_ONCE(owner != current,
		  "DEBUG_LOCKS_WARN_ON(mutex_owner(lock) != current)\n"
		  "%s/%d is releasing mutex %p, held by another task (%p)\n",
		  current->comm, task_pid_nr(current), (void *)lock,
		  (void *)owner);
	lock->pk_recursion = 0;
	return true;
}
/*
 * The mutexes each task holds, for the exit check.  One lock for every
 * list: a wrong-owner unlock takes the mutex off another task's list.
 */
static int held_lock;

static void mutex_note_held(struct mutex *lock)
{
	struct task_struct *p = current;
	unsigned long flags;

	pk_lock_irqsave(&held_lock, flags);
	if (!p->pk_held_mutexes.next) /* a host thread's task, say */
		INIT_LIST_HEAD(&p->pk_held_mutexes);
	list_add_tail(&lock->pk_held_node, &p->pk_held_mutexes);
	pk_unlock_irqrestore(&held_lock, flags);
}

static void mutex_note_released(struct mutex *lock)
{
	unsigned long flags;

	pk_lock_irqsave(&held_lock, flags);
	if (lock->pk_held_node.next) /* not zeroed memory never initialized */
		list_del_init(&lock->pk_held_node);
	pk_unlock_irqrestore(&held_lock, flags);
}

static int mutex_held_by(struct task_struct *p, void **locks, int max)
{
	struct list_head *pos;
	unsigned long flags;
	int n = 0;

	pk_lock_irqsave(&held_lock, flags);
	if (p->pk_held_mutexes.next)
		for (pos = p->pk_held_mutexes.next; pos != &p->pk_held_mutexes;
		     pos = pos->next, n++)
			if (n < max)
				locks[n] = list_entry(pos, struct mutex,
						      pk_held_node);
	pk_unlock_irqrestore(&held_lock, flags);
	return n;
}

/*
 * At exit, after the report: release what @p still holds, as its unlock
 * would, so the waiters go on instead of sleeping forever.
 */
static void mutex_exit_release(struct task_struct *p)
{
	void *lock;

	while (mutex_held_by(p, &lock, 1)) {
		((struct mutex *)lock)->pk_recursion = 0;
		mutex_unlock(lock);
	}
}

static const struct pk_task_mutex_ops mutex_exit_ops = {
	.held = mutex_held_by,
	.release = mutex_exit_release,
};

__attribute__((constructor)) static void mutex_exit_ops_init(void)
{
	__atomic_store_n(&pk_task_mutex_ops, &mutex_exit_ops, __ATOMIC_RELEASE);
}
#else
static inline void mutex_note_held(struct mutex *lock)
{
	(void)lock;
}

static inline void mutex_note_released(struct mutex *lock)
{
	(void)lock;
}

static inline bool mutex_self_deadlock(struct mutex *lock)
{
	(void)lock;
	return false;
}

static inline bool mutex_unlock_checks(struct mutex *lock)
{
	(void)lock;
	return true;
}
#endif

static void mutex_lock_common(struct mutex *lock, unsigned int sub,
			      struct lockdep_map *nest, unsigned long ip)
{
	might_sleep();
	pk_sim_lib_point(PK_SIM_LOCK);
	if (likely(mutex_acquire(lock))) {
		lock_acquire(&lock->dep_map, sub, 0, 0, 1, nest, ip);
		mutex_note_held(lock);
		return;
	}
	if (mutex_self_deadlock(lock))
		return;
	/* Before sleeping: an order that can deadlock is reported first. */
	lock_acquire(&lock->dep_map, sub, 0, 0, 1, nest, ip);
	pk_lock_wait(&lock->wait, mutex_acquire_cb, lock, PK_LOCK_WAIT_FOREVER);
	mutex_note_held(lock);
}

#define RET_IP ((unsigned long)__builtin_return_address(0))

void mutex_lock(struct mutex *lock)
{
	mutex_lock_common(lock, 0, NULL, RET_IP);
}

void mutex_lock_nested(struct mutex *lock, unsigned int subclass)
{
	mutex_lock_common(lock, subclass, NULL, RET_IP);
}

void pk_mutex_lock_nest_lock(struct mutex *lock, struct lockdep_map *nest)
{
	mutex_lock_common(lock, 0, nest, RET_IP);
}

int mutex_lock_interruptible(struct mutex *lock)
{
	mutex_lock_common(lock, 0, NULL, RET_IP);
	return 0;
}

int mutex_lock_interruptible_nested(struct mutex *lock, unsigned int subclass)
{
	mutex_lock_common(lock, subclass, NULL, RET_IP);
	return 0;
}

int mutex_trylock(struct mutex *lock)
{
	if (!mutex_acquire(lock))
		return 0;
	lock_acquire(&lock->dep_map, 0, 1, 0, 1, NULL, RET_IP);
	mutex_note_held(lock);
	return 1;
}

static void mutex_release(struct mutex *lock, unsigned long ip);

void mutex_unlock(struct mutex *lock)
{
	mutex_release(lock, RET_IP);
	pk_sim_lib_point(PK_SIM_UNLOCK);
}

static void mutex_release(struct mutex *lock, unsigned long ip)
{
	if (!mutex_unlock_checks(lock))
		return;
	/* A wrong-owner release was reported above; the owner's record
	 * goes when it exits. */
	if (CONFIG_LOCKDEP) {
		struct task_struct *owner =
			__atomic_load_n(&lock->owner, __ATOMIC_RELAXED);

		if (owner == current)
			lock_release(&lock->dep_map, ip);
		else
			pk_lockdep_release_task(owner, &lock->dep_map);
	}
	mutex_note_released(lock);
	/* Never free between us and a starved waiter: no one can steal it. */
	if (pk_lock_has_waiters(&lock->wait) &&
	    pk_lock_handoff(&lock->wait, true, mutex_grant, lock))
		return;
	__atomic_store_n(&lock->owner, NULL, __ATOMIC_RELEASE);
	if (pk_lock_has_waiters(&lock->wait))
		pk_lock_wake_one(&lock->wait);
}
