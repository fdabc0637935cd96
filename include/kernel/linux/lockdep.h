/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LOCKDEP_H
#define _LINUX_LOCKDEP_H

/*
 * The lock validator, as kernel code calls it: the library's (the
 * kernel's CONFIG_PROVE_LOCKING semantics, docs/lockdep.md), on in the
 * debug build.  What follows are the kernel's few remaining spellings.
 */

#include <linux/lockdep_types.h>
#include <linux/types.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rwsem.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

/* Pinning guards against a lock dropped behind the caller's back; the
 * library's locks are not dropped that way. */
#define lockdep_pin_lock(l) ((void)(l))
#define lockdep_unpin_lock(l, c) ((void)(l))
#define lockdep_repin_lock(l, c) ((void)(l))
#define __lockdep_no_validate__ char pk_no_validate

/** lockdep_copy_map() - @to takes @from's class.  Any context. */
static inline void lockdep_copy_map(struct lockdep_map *to,
				    struct lockdep_map *from)
{
	*to = *from;
}

/* Cross-release's invariant marker: no cross-release state here. */
#define lockdep_invariant_state(force) ((void)(force))

#endif /* _LINUX_LOCKDEP_H */
