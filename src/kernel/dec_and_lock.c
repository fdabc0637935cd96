// SPDX-License-Identifier: MIT
/*
 * atomic_dec_and_lock(): the symbols the kernel's lib/dec_and_lock.c
 * defines, in an object of their own (a program's lib/dec_and_lock.c
 * replaces it).  The fast path decrements without the lock unless the
 * count would reach 0.
 */

#include <linux/atomic.h>
#include <linux/spinlock.h>

int _atomic_dec_and_lock(atomic_t *atomic, spinlock_t *lock)
{
	if (atomic_add_unless(atomic, -1, 1))
		return 0;
	spin_lock(lock);
	if (atomic_dec_and_test(atomic))
		return 1;
	spin_unlock(lock);
	return 0;
}

int _atomic_dec_and_lock_irqsave(atomic_t *atomic, spinlock_t *lock,
				 unsigned long *flags)
{
	if (atomic_add_unless(atomic, -1, 1))
		return 0;
	spin_lock_irqsave(lock, *flags);
	if (atomic_dec_and_test(atomic))
		return 1;
	spin_unlock_irqrestore(lock, *flags);
	return 0;
}
