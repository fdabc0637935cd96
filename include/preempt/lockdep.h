/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_LOCKDEP_H
#define PREEMPT_LOCKDEP_H

/*
 * The lock validator (the kernel's CONFIG_PROVE_LOCKING; docs/lockdep.md)
 * and the context assertions.
 *
 * Every lock carries a struct lockdep_map.  Each acquisition is recorded
 * on the task's held-lock stack and, the first time a new pair of classes
 * is seen nested, as an edge of a dependency graph that is searched for a
 * cycle then and there: an AB-BA order is reported the first time the
 * second order is taken, with no deadlock needed.  The interrupt states a
 * class was used in (from the count) are checked the same way.
 *
 * The context assertions need no lockdep state: the count is
 * unconditional and the interrupt-disable depth lives in it.
 */

#include <stdbool.h>
#include <preempt/bug.h>
#include <preempt/debug.h>
#include <preempt/lockdep_types.h>

struct task_struct;
struct mutex;
struct rw_semaphore;
struct rt_mutex;

/* Is the validator still validating?  Cleared by its first report. */
extern int debug_locks;

enum { LOCK_STATE_UNKNOWN = -1, LOCK_STATE_NOT_HELD, LOCK_STATE_HELD };

#if CONFIG_LOCKDEP
/**
 * lockdep_init_map_type() - set up @lock's class: @key (NULL: the map's own
 * address, for a static lock) named @name; @subclass is added to every
 * acquisition's.  Any context; not while the lock is held.
 */
void lockdep_init_map_type(struct lockdep_map *lock, const char *name,
			   struct lock_class_key *key, int subclass, int inner,
			   int outer, int lock_type);
/**
 * lock_acquire() - record that the caller takes @lock
 * @subclass: nesting level of a lock of the same class (0..7)
 * @trylock: 1 for a trylock that succeeded: it cannot deadlock
 * @read: 0 exclusive, 1 shared, 2 shared and recursive
 * @check: 0 only tracks it as held
 * @nest_lock: a held lock serializing the acquisitions of @lock's class
 * @ip: where, for the reports
 *
 * Any context, interrupt handlers included.  Reports what it finds.
 */
void lock_acquire(struct lockdep_map *lock, unsigned int subclass, int trylock,
		  int read, int check, struct lockdep_map *nest_lock,
		  unsigned long ip);
/** lock_release() - record that the caller released @lock.  Any context. */
void lock_release(struct lockdep_map *lock, unsigned long ip);
/**
 * lock_sync() - record that the caller waits for @lock's holders without
 * holding it (synchronize_srcu()): an acquisition and release at once,
 * checked for deadlocks but not for interrupt safety.  Task context.
 */
void lock_sync(struct lockdep_map *lock, unsigned int subclass, int read,
	       int check, struct lockdep_map *nest_lock, unsigned long ip);
/** lock_downgrade() - the caller's write hold of @lock became a read. */
void lock_downgrade(struct lockdep_map *lock, unsigned long ip);
/**
 * lock_is_held_type() - does the caller hold @lock (@read: -1 any way,
 * 0 for writing, 1 for reading)?  1 also while the validator is off,
 * LOCK_STATE_UNKNOWN for a lock it does not track.  Any context.
 */
int lock_is_held_type(const struct lockdep_map *lock, int read);
/** lockdep_register_key() - a key in allocated memory.  Task context. */
void lockdep_register_key(struct lock_class_key *key);
/**
 * lockdep_unregister_key() - forget @key and its classes before its memory
 * is freed.  Task context, no lock of the key held.
 */
void lockdep_unregister_key(struct lock_class_key *key);
/** lockdep_off() - stop recording the current task's locks (nests). */
void lockdep_off(void);
/** lockdep_on() - undo one lockdep_off(). */
void lockdep_on(void);
/** debug_check_no_locks_held() - report if the caller holds any lock. */
void debug_check_no_locks_held(void);
/**
 * lockdep_sys_exit() - report if the caller holds any lock on its way back
 * to "user" code ("lock held when returning to user space!").  Called by
 * enter_user() and by an interrupt returning to a task in user mode.
 */
void lockdep_sys_exit(void);
/* lockdep_sys_exit() for @p; true if it reported. */
bool pk_lockdep_user_check(struct task_struct *p);
/** pk_lockdep_set_novalidate() - track @lock as held, check nothing. */
void pk_lockdep_set_novalidate(struct lockdep_map *lock);
/*
 * A lock released by another task than its owner @p (reported by the lock
 * itself): off @p's stack.  Only for that misuse: @p may be running.
 */
void pk_lockdep_release_task(struct task_struct *p, struct lockdep_map *lock);
/* Reports a task about to leave with locks held; true if it held some. */
bool pk_lockdep_exit_check(struct task_struct *p, const char *how);
/* might_lock(): a dependency checked and dropped.  Task context. */
void pk_might_lock(struct lockdep_map *lock, unsigned int subclass, int read,
		   unsigned long ip);
#else
static inline void lockdep_init_map_type(struct lockdep_map *lock,
					 const char *name,
					 struct lock_class_key *key,
					 int subclass, int inner, int outer,
					 int lock_type)
{
	(void)lock, (void)name, (void)key, (void)subclass, (void)inner;
	(void)outer, (void)lock_type;
}
static inline void lock_acquire(struct lockdep_map *lock, unsigned int subclass,
				int trylock, int read, int check,
				struct lockdep_map *nest_lock, unsigned long ip)
{
	(void)lock, (void)subclass, (void)trylock, (void)read, (void)check;
	(void)nest_lock, (void)ip;
}
static inline void lock_release(struct lockdep_map *lock, unsigned long ip)
{
	(void)lock, (void)ip;
}
static inline void lock_sync(struct lockdep_map *lock, unsigned int subclass,
			     int read, int check, struct lockdep_map *nest_lock,
			     unsigned long ip)
{
	(void)lock, (void)subclass, (void)read, (void)check, (void)nest_lock;
	(void)ip;
}
static inline void lock_downgrade(struct lockdep_map *lock, unsigned long ip)
{
	(void)lock, (void)ip;
}
#define lock_is_held_type(l, r) ((void)(l), LOCK_STATE_UNKNOWN)
#define lockdep_register_key(k) ((void)(k))
#define lockdep_unregister_key(k) ((void)(k))
#define lockdep_off() ((void)0)
#define lockdep_on() ((void)0)
#define debug_check_no_locks_held() ((void)0)
#define lockdep_sys_exit() ((void)0)
#define pk_lockdep_user_check(p) ((void)(p), false)
#define pk_lockdep_set_novalidate(l) ((void)(l))
#define pk_lockdep_exit_check(p, how) ((void)(p), false)
#define pk_lockdep_release_task(p, l) ((void)(p), (void)(l))
static inline void pk_might_lock(struct lockdep_map *lock,
				 unsigned int subclass, int read,
				 unsigned long ip)
{
	(void)lock, (void)subclass, (void)read, (void)ip;
}
#endif

#define lockdep_init_map_waits(l, n, k, s, inner, outer)                       \
	lockdep_init_map_type(l, n, k, s, inner, outer, LD_LOCK_NORMAL)
#define lockdep_init_map_wait(l, n, k, s, inner)                               \
	lockdep_init_map_waits(l, n, k, s, inner, LD_WAIT_INV)
#define lockdep_init_map(l, n, k, s)                                           \
	lockdep_init_map_wait(l, n, k, s, LD_WAIT_INV)

/* The kernel's acquire flavours, as its lock implementations use them. */
#define lock_acquire_exclusive(l, s, t, n, i) lock_acquire(l, s, t, 0, 1, n, i)
#define lock_acquire_shared(l, s, t, n, i) lock_acquire(l, s, t, 1, 1, n, i)
#define lock_acquire_shared_recursive(l, s, t, n, i)                           \
	lock_acquire(l, s, t, 2, 1, n, i)
#define lock_map_acquire(l) lock_acquire_exclusive(l, 0, 0, NULL, _THIS_IP_)
#define lock_map_acquire_read(l)                                               \
	lock_acquire_shared_recursive(l, 0, 0, NULL, _THIS_IP_)
#define lock_map_release(l) lock_release(l, _THIS_IP_)
#define lock_map_sync(l) lock_sync(l, 0, 0, 1, NULL, _THIS_IP_)

/* Re-key @lock, keeping its wait type. */
#define __pk_lockdep_rekey(lock, name, key, sub)                               \
	lockdep_init_map_type(&(lock)->dep_map, name, key, sub,                \
			      (lock)->dep_map.wait_type_inner,                 \
			      (lock)->dep_map.wait_type_outer,                 \
			      (lock)->dep_map.lock_type)
/** lockdep_set_class() - give @lock the class of @key.  Not while held. */
#define lockdep_set_class(lock, key) __pk_lockdep_rekey(lock, #key, key, 0)
/** lockdep_set_class_and_name() - the same, printed as @name. */
#define lockdep_set_class_and_name(lock, key, name)                            \
	__pk_lockdep_rekey(lock, name, key, 0)
/** lockdep_set_class_and_subclass() - class of @key, subclass @sub. */
#define lockdep_set_class_and_subclass(lock, key, sub)                         \
	__pk_lockdep_rekey(lock, #key, key, sub)
/** lockdep_set_subclass() - @lock's acquisitions nest at level @sub. */
#define lockdep_set_subclass(lock, sub)                                        \
	__pk_lockdep_rekey(lock, (lock)->dep_map.name, (lock)->dep_map.key, sub)
/** lockdep_set_novalidate_class() - @lock is tracked, never checked. */
#define lockdep_set_novalidate_class(lock)                                     \
	pk_lockdep_set_novalidate(&(lock)->dep_map)
/** lockdep_match_class() - has @lock the class of @key? */
#define lockdep_match_class(lock, key) ((lock)->dep_map.key == (key))

#define lock_is_held(l) lock_is_held_type(l, -1)
/** lockdep_is_held() - does the caller hold @lock (any lock type)? */
#define lockdep_is_held(lock) lock_is_held(&(lock)->dep_map)
#define lockdep_is_held_type(lock, r) lock_is_held_type(&(lock)->dep_map, (r))
/** lockdep_depth() - locks @tsk holds, as the validator counts them. */
#define lockdep_depth(tsk) (CONFIG_LOCKDEP ? (tsk)->lockdep_depth : 0)

/*
 * For a lock the validator does not track (the library's own, a zeroed
 * one, or without the validator), what the lock itself knows: its owner.
 */
bool pk_mutex_owned(struct mutex *lock);
bool pk_rwsem_owned(struct rw_semaphore *sem, int read);
bool pk_rt_mutex_owned(struct rt_mutex *lock);
#define __pk_lock_owned(l, r)                                                  \
	_Generic((l), spinlock_t *                                             \
		 : pk_spin_lock_held((spinlock_t *)(void *)(l)),               \
		   raw_spinlock_t *                                            \
		 : raw_spin_is_locked((raw_spinlock_t *)(void *)(l)),          \
		   rwlock_t *                                                  \
		 : ((rwlock_t *)(void *)(l))->cnt != 0, struct mutex *         \
		 : pk_mutex_owned((struct mutex *)(void *)(l)),                \
		   struct rw_semaphore *                                       \
		 : pk_rwsem_owned((struct rw_semaphore *)(void *)(l), r),      \
		   struct rt_mutex *                                           \
		 : pk_rt_mutex_owned((struct rt_mutex *)(void *)(l)), default  \
		 : true)

static inline int pk_lock_state(int tracked, bool owned)
{
	if (tracked != LOCK_STATE_UNKNOWN)
		return tracked;
	return owned ? LOCK_STATE_HELD : LOCK_STATE_NOT_HELD;
}
#define __pk_held(l, r)                                                        \
	pk_lock_state(lockdep_is_held_type(l, r), __pk_lock_owned(l, r))

/** lockdep_assert() - warn once (validator on) unless @c. */
#define lockdep_assert(c)                                                      \
	do {                                                                   \
		WARN_ON_ONCE(debug_locks && !(c));                             \
	} while (0)
#define lockdep_assert_once(c) lockdep_assert(c)
/**
 * lockdep_assert_held() - warn once unless the caller holds @l, a lock of
 * any type.  Any context.
 */
#define lockdep_assert_held(l) lockdep_assert(__pk_held(l, -1) != 0)
#define lockdep_assert_held_once(l) lockdep_assert_held(l)
/** lockdep_assert_not_held() - warn once if the caller holds @l. */
#define lockdep_assert_not_held(l)                                             \
	lockdep_assert(__pk_held(l, -1) != LOCK_STATE_HELD)
/** lockdep_assert_held_write() - warn once unless held exclusively. */
#define lockdep_assert_held_write(l) lockdep_assert(__pk_held(l, 0) != 0)
/** lockdep_assert_held_read() - warn once unless held shared. */
#define lockdep_assert_held_read(l) lockdep_assert(__pk_held(l, 1) != 0)
/** lockdep_assert_none_held_once() - warn once if any lock is held. */
#define lockdep_assert_none_held_once()                                        \
	lockdep_assert(!CONFIG_LOCKDEP || !current->lockdep_depth)

/**
 * might_lock() - check the dependencies of taking @lock here, without
 * taking it.  Task context.
 */
#define might_lock(lock) pk_might_lock(&(lock)->dep_map, 0, 0, _THIS_IP_)
#define might_lock_read(lock) pk_might_lock(&(lock)->dep_map, 0, 1, _THIS_IP_)
#define might_lock_nested(lock, sub)                                           \
	pk_might_lock(&(lock)->dep_map, sub, 0, _THIS_IP_)

#if CONFIG_DEBUG_ATOMIC_SLEEP
/** lockdep_assert_irqs_enabled() - warn once if interrupts are off. */
#define lockdep_assert_irqs_enabled()                                          \
	do {                                                                   \
		WARN_ON_ONCE(irqs_disabled());                                 \
	} while (0)
/** lockdep_assert_irqs_disabled() - warn once if interrupts are on. */
#define lockdep_assert_irqs_disabled()                                         \
	do {                                                                   \
		WARN_ON_ONCE(!irqs_disabled());                                \
	} while (0)
/** lockdep_assert_preemption_enabled() - warn once unless preemptible. */
#define lockdep_assert_preemption_enabled()                                    \
	do {                                                                   \
		WARN_ON_ONCE(preempt_count() != 0 || irqs_disabled());         \
	} while (0)
/** lockdep_assert_preemption_disabled() - warn once if preemptible. */
#define lockdep_assert_preemption_disabled()                                   \
	do {                                                                   \
		WARN_ON_ONCE(preempt_count() == 0 && !irqs_disabled());        \
	} while (0)
/** lockdep_assert_in_softirq() - warn once unless in softirq context. */
#define lockdep_assert_in_softirq()                                            \
	do {                                                                   \
		WARN_ON_ONCE(!in_softirq() || in_hardirq() || in_nmi());       \
	} while (0)
#else
#define lockdep_assert_irqs_enabled()                                          \
	do {                                                                   \
	} while (0)
#define lockdep_assert_irqs_disabled()                                         \
	do {                                                                   \
	} while (0)
#define lockdep_assert_preemption_enabled()                                    \
	do {                                                                   \
	} while (0)
#define lockdep_assert_preemption_disabled()                                   \
	do {                                                                   \
	} while (0)
#define lockdep_assert_in_softirq()                                            \
	do {                                                                   \
	} while (0)
#endif

/**
 * struct pk_lockdep_stats - the validator's counters (/proc/lockdep_stats)
 */
struct pk_lockdep_stats {
	unsigned long lock_classes, max_lock_classes;
	unsigned long direct_dependencies, max_dependencies;
	unsigned long lock_chains, max_lock_chains;
	unsigned long stack_trace_entries, max_stack_trace_entries;
	unsigned long hardirq_safe, hardirq_unsafe;
	unsigned long softirq_safe, softirq_unsafe;
	unsigned long read_locks, irq_context_chains;
	unsigned long max_bfs_queue_depth, max_locking_depth;
	unsigned long acquisitions, chain_lookup_hits, chain_lookup_misses;
	unsigned long reports;
	int debug_locks;
};

/** pk_lockdep_stats() - a snapshot of the counters.  Any context. */
void pk_lockdep_stats(struct pk_lockdep_stats *st);
/**
 * pk_lockdep_keep_going() - keep validating after a report (the kernel
 * stops at the first); also PREEMPT_LOCKDEP=keep_going.  Returns the old
 * setting.  Task context.
 */
bool pk_lockdep_keep_going(bool on);
/**
 * pk_lockdep_reset() - forget every class and dependency and validate
 * again (tests).  Task context, no lock held anywhere.
 */
void pk_lockdep_reset(void);

#endif /* PREEMPT_LOCKDEP_H */
