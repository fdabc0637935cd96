/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MUTEX_H
#define _LINUX_MUTEX_H

/* Mutexes: the library's (priority inheritance under PREEMPT_RT). */

#include <linux/linkage.h>
#include <linux/lockdep.h>
#include <linux/types.h>
#include <linux/cleanup.h>
#include <preempt/mutex.h>

DEFINE_GUARD(mutex, struct mutex *, mutex_lock(_T), mutex_unlock(_T))

#define mutex_lock_killable_nested(lock, sub)                                  \
	mutex_lock_interruptible_nested(lock, sub)
#define mutex_lock_killable(lock) mutex_lock_interruptible(lock)
#define mutex_lock_io(lock) mutex_lock(lock)
#define mutex_destroy(lock) ((void)(lock))
#define mutex_init_with_key(lock, key) __mutex_init(lock, #lock, key)

#endif /* _LINUX_MUTEX_H */
