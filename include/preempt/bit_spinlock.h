/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_BIT_SPINLOCK_H
#define PREEMPT_BIT_SPINLOCK_H

/*
 * A spinlock in one bit of a word (the kernel's bit_spinlock.h), always
 * with preemption disabled while held.
 */

#include <sched.h> /* sched_yield() */
#include <preempt/lockdep.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#define __pk_bit(nr) (1UL << (nr))

/* The one lockdep map of all bit locks: tracked as held, not checked. */
extern struct lockdep_map pk_bit_spin_map;

/** bit_spin_trylock() - set bit @bitnum of *@addr if clear; 1 on success. */
static inline int bit_spin_trylock(int bitnum, unsigned long *addr)
{
	preempt_disable();
	if (__atomic_fetch_or(addr, __pk_bit(bitnum), __ATOMIC_ACQUIRE) &
	    __pk_bit(bitnum)) {
		preempt_enable();
		return 0;
	}
	lock_acquire(&pk_bit_spin_map, 0, 1, 0, 0, NULL, _THIS_IP_);
	return 1;
}

/**
 * bit_spin_lock() - take the lock in bit @bitnum of *@addr
 *
 * Any context.  Waits with preemption enabled, as the kernel does.
 */
static inline void bit_spin_lock(int bitnum, unsigned long *addr)
{
	while (!bit_spin_trylock(bitnum, addr))
		while (__atomic_load_n(addr, __ATOMIC_RELAXED) &
		       __pk_bit(bitnum))
			sched_yield();
}

/** bit_spin_unlock() - release it (release ordering).  Any context. */
static inline void bit_spin_unlock(int bitnum, unsigned long *addr)
{
	if (!WARN_ON_ONCE(!(__atomic_load_n(addr, __ATOMIC_RELAXED) &
			    __pk_bit(bitnum))))
		lock_release(&pk_bit_spin_map, _THIS_IP_);
	__atomic_fetch_and(addr, ~__pk_bit(bitnum), __ATOMIC_RELEASE);
	preempt_enable();
}

#define __bit_spin_unlock(bitnum, addr) bit_spin_unlock(bitnum, addr)

/**
 * bit_spin_is_locked() - is it held?
 *
 * Seed patch 006: with one CPU and no lock debugging nobody else can hold
 * it, so the answer is the count's (any holder disabled preemption); with
 * several CPUs or debugging, the bit says.
 */
static inline int bit_spin_is_locked(int bitnum, unsigned long *addr)
{
	if (CONFIG_DEBUG_SPINLOCK || num_online_cpus() != 1)
		return !!(__atomic_load_n(addr, __ATOMIC_RELAXED) &
			  __pk_bit(bitnum));
	return preempt_count();
}

#endif /* PREEMPT_BIT_SPINLOCK_H */
