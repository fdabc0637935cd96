// SPDX-License-Identifier: MIT
/*
 * refcount_t's slow paths: the symbols the kernel's lib/refcount.c
 * defines, in an object of their own, so that a program that compiles
 * lib/refcount.c links its own and this member stays out.
 */

#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t)
{
	static const char *const what[] = {
		[REFCOUNT_ADD_NOT_ZERO_OVF] = "saturated; leaking memory",
		[REFCOUNT_ADD_OVF] = "saturated; leaking memory",
		[REFCOUNT_ADD_UAF] = "addition on 0; use-after-free",
		[REFCOUNT_SUB_UAF] = "underflow; use-after-free",
		[REFCOUNT_DEC_LEAK] = "decrement hit 0; leaking memory",
	};

	refcount_set(r, REFCOUNT_SATURATED);
	WARN_ONCE(1, "refcount_t: %s.\n", what[t]);
}

bool refcount_dec_if_one(refcount_t *r)
{
	int one = 1;

	return atomic_try_cmpxchg_release(&r->refs, &one, 0);
}

bool refcount_dec_not_one(refcount_t *r)
{
	int old = refcount_read(r);

	do {
		if (unlikely(old == REFCOUNT_SATURATED))
			return true;
		if (old == 1)
			return false;
		if (unlikely(old <= 0)) {
			refcount_warn_saturate(r, REFCOUNT_DEC_LEAK);
			return true;
		}
	} while (!atomic_try_cmpxchg_release(&r->refs, &old, old - 1));
	return true;
}

bool refcount_dec_and_lock(refcount_t *r, spinlock_t *lock)
{
	if (refcount_dec_not_one(r))
		return false;
	spin_lock(lock);
	if (!refcount_dec_and_test(r)) {
		spin_unlock(lock);
		return false;
	}
	return true;
}

bool refcount_dec_and_lock_irqsave(refcount_t *r, spinlock_t *lock,
				   unsigned long *flags)
{
	if (refcount_dec_not_one(r))
		return false;
	spin_lock_irqsave(lock, *flags);
	if (!refcount_dec_and_test(r)) {
		spin_unlock_irqrestore(lock, *flags);
		return false;
	}
	return true;
}

bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock)
{
	if (refcount_dec_not_one(r))
		return false;
	mutex_lock(lock);
	if (!refcount_dec_and_test(r)) {
		mutex_unlock(lock);
		return false;
	}
	return true;
}
