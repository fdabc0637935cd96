/* SPDX-License-Identifier: MIT */
#ifndef __LINUX_LOCKREF_H
#define __LINUX_LOCKREF_H

/*
 * A reference count under a spinlock (lib/lockref.c): the count changes
 * under the lock, which callers may also take to act on the count
 * themselves.  No lock-free fast path here (the kernel's needs an arch
 * with CONFIG_ARCH_USE_CMPXCHG_LOCKREF): USE_CMPXCHG_LOCKREF is 0, so
 * lockref_put_return(), which only that path implements, returns -1.
 * A count below zero is dead (lockref_mark_dead()).
 */

#include <linux/spinlock.h>
#include <linux/types.h>

#define USE_CMPXCHG_LOCKREF 0

struct lockref {
	union {
		struct {
			spinlock_t lock;
			int count;
		};
	};
};

/* Each may sleep under PREEMPT_RT (the lock), else any context. */
void lockref_get(struct lockref *lockref);
int lockref_put_return(struct lockref *lockref);
int lockref_get_not_zero(struct lockref *lockref);
int lockref_put_not_zero(struct lockref *lockref);
int lockref_put_or_lock(struct lockref *lockref);
/* With @lockref->lock held. */
void lockref_mark_dead(struct lockref *lockref);
int lockref_get_not_dead(struct lockref *lockref);

static inline bool __lockref_is_dead(const struct lockref *l)
{
	return l->count < 0;
}

#endif /* __LINUX_LOCKREF_H */
