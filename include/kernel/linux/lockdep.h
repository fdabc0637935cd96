/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LOCKDEP_H
#define _LINUX_LOCKDEP_H

/*
 * Lockdep annotations are accepted and, but for the assertions, do
 * nothing: the library has no lock dependency validator.  The held-lock
 * assertions check what the library can check: lockdep_assert_held() on
 * spinlock_t, raw_spinlock_t and rwlock_t is assert_spin_locked()-like
 * (locked by someone, debug builds); on mutexes and rw_semaphores, that
 * the lock is held.  The context assertions are the library's.
 */

#include <linux/lockdep_types.h>
#include <linux/types.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rwsem.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

/* Held by the caller (sleeping locks) or by anyone (spinning ones). */
#undef lockdep_assert_held
#define __pk_lock_held(l)                                                      \
	_Generic((l), spinlock_t *                                             \
		 : pk_spin_lock_held((spinlock_t *)(void *)(l)),               \
		   raw_spinlock_t *                                            \
		 : raw_spin_is_locked((raw_spinlock_t *)(void *)(l)),          \
		   struct mutex *                                              \
		 : ((struct mutex *)(void *)(l))->owner == get_current(),      \
		   struct rw_semaphore *                                       \
		 : rwsem_is_locked((struct rw_semaphore *)(void *)(l)),        \
		   default                                                     \
		 : true)
#define lockdep_assert_held(l) WARN_ON_ONCE(!__pk_lock_held(l))

#define lockdep_set_class(lock, key) ((void)(key))
#define lockdep_set_class_and_name(lock, key, name) ((void)(key))
#define lockdep_set_class_and_subclass(lock, key, sub) ((void)(key))
#define lockdep_set_subclass(lock, sub) ((void)0)
#define lockdep_set_novalidate_class(lock) ((void)0)
#define lockdep_register_key(key) ((void)(key))
#define lockdep_unregister_key(key) ((void)(key))
#define lockdep_init_map(map, name, key, sub) ((void)(map))
#define lockdep_match_class(lock, key) 1
#define lockdep_off() ((void)0)
#define lockdep_on() ((void)0)
#define lockdep_is_held(lock) 1
#define lockdep_assert_held_once(l) lockdep_assert_held(l)
#define lockdep_assert_held_write(l) lockdep_assert_held(l)
#define lockdep_assert_held_read(l) lockdep_assert_held(l)
#define lockdep_assert_not_held(l) ((void)(l))
#define lockdep_assert_none_held_once() ((void)0)
#define lockdep_assert(c) WARN_ON(!(c))
#define lockdep_assert_once(c) WARN_ON_ONCE(!(c))
#define lock_acquire(map, sub, try, read, check, nest, ip) ((void)0)
#define lock_release(map, ip) ((void)0)
#define lock_map_acquire(m) ((void)(m))
#define lock_map_release(m) ((void)(m))
#define lock_map_acquire_read(m) ((void)(m))
#define lockdep_pin_lock(l) ((void)(l))
#define lockdep_unpin_lock(l, c) ((void)(l))
#define might_lock(lock) ((void)(lock))
#define might_lock_read(lock) ((void)(lock))
#define might_lock_nested(lock, sub) ((void)(lock))
#define lockdep_depth(tsk) 0
#define debug_check_no_locks_held() ((void)0)
#define __lockdep_no_validate__ char pk_no_validate

#endif /* _LINUX_LOCKDEP_H */
