/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SPINLOCK_H
#define _LINUX_SPINLOCK_H

/*
 * spinlock_t, raw_spinlock_t and rwlock_t: the library's.  spinlock_t
 * follows the model the machine booted in: a spinning lock that disables
 * preemption, or under PREEMPT_RT a sleeping rt_mutex, whichever way the
 * code was compiled (the choice is the library's, at boot).
 */

#include <linux/bottom_half.h>
#include <linux/compiler.h>
#include <linux/linkage.h>
#include <linux/irqflags.h>
#include <linux/lockdep.h>
#include <linux/preempt.h>
#include <linux/spinlock_types.h>
#include <linux/types.h>
#include <asm/processor.h>
#include <preempt/spinlock.h>
#include <linux/cleanup.h>

/* The lock guards (guard(spinlock_irqsave)(&lock) & co.). */
DEFINE_LOCK_GUARD_1(raw_spinlock, raw_spinlock_t, raw_spin_lock(_T->lock),
		    raw_spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irq, raw_spinlock_t,
		    raw_spin_lock_irq(_T->lock), raw_spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(raw_spinlock_irqsave, raw_spinlock_t,
		    raw_spin_lock_irqsave(_T->lock, _T->flags),
		    raw_spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)
DEFINE_LOCK_GUARD_1(spinlock, spinlock_t, spin_lock(_T->lock),
		    spin_unlock(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irq, spinlock_t, spin_lock_irq(_T->lock),
		    spin_unlock_irq(_T->lock))
DEFINE_LOCK_GUARD_1(spinlock_irqsave, spinlock_t,
		    spin_lock_irqsave(_T->lock, _T->flags),
		    spin_unlock_irqrestore(_T->lock, _T->flags),
		    unsigned long flags)

#define raw_spin_trylock_irqsave(lock, flags)                                  \
	({                                                                     \
		local_irq_save(flags);                                         \
		raw_spin_trylock(lock) ? 1 : ({                                \
			local_irq_restore(flags);                              \
			0;                                                     \
		});                                                            \
	})
#define spin_lock_init_key(lock, name, key) __spin_lock_init(lock, name, key)
/** spin_is_contended() - never known here: 0. */
#define spin_is_contended(lock) ((void)(lock), 0)
#define raw_spin_is_contended(lock) ((void)(lock), 0)
#define spin_needbreak(lock) need_resched()
/**
 * atomic_dec_and_lock() - decrement; at 0 return 1 with @lock held, else 0.
 * Task context (or wherever @lock may be taken).
 */
int _atomic_dec_and_lock(atomic_t *atomic, spinlock_t *lock);
int _atomic_dec_and_lock_irqsave(atomic_t *atomic, spinlock_t *lock,
				 unsigned long *flags);
#define atomic_dec_and_lock(atomic, lock) _atomic_dec_and_lock(atomic, lock)
#define atomic_dec_and_lock_irqsave(atomic, lock, flags)                       \
	_atomic_dec_and_lock_irqsave(atomic, lock, &(flags))

#endif /* _LINUX_SPINLOCK_H */
