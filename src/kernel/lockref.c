// SPDX-License-Identifier: MIT
/*
 * lockref, the locked path only (linux/lockref.h): defining only names
 * lib/lockref.c defines, so a program's copy of the file replaces this
 * object whole.
 */

#include <linux/lockref.h>
#include <linux/lockdep.h>
#include <linux/spinlock.h>

void lockref_get(struct lockref *lockref)
{
	spin_lock(&lockref->lock);
	lockref->count++;
	spin_unlock(&lockref->lock);
}

/* Only the lock-free path can answer without the lock: -1, as the kernel. */
int lockref_put_return(struct lockref *lockref)
{
	(void)lockref;
	return -1;
}

int lockref_get_not_zero(struct lockref *lockref)
{
	int got = 0;

	spin_lock(&lockref->lock);
	if (lockref->count > 0) {
		lockref->count++;
		got = 1;
	}
	spin_unlock(&lockref->lock);
	return got;
}

int lockref_put_not_zero(struct lockref *lockref)
{
	int put = 0;

	spin_lock(&lockref->lock);
	if (lockref->count > 1) {
		lockref->count--;
		put = 1;
	}
	spin_unlock(&lockref->lock);
	return put;
}

/* The last reference is not dropped here: the caller gets the lock. */
int lockref_put_or_lock(struct lockref *lockref)
{
	spin_lock(&lockref->lock);
	if (lockref->count <= 1)
		return 0;
	lockref->count--;
	spin_unlock(&lockref->lock);
	return 1;
}

void lockref_mark_dead(struct lockref *lockref)
{
	lockdep_assert_held(&lockref->lock);
	lockref->count = -128;
}

int lockref_get_not_dead(struct lockref *lockref)
{
	int got = 0;

	spin_lock(&lockref->lock);
	if (lockref->count >= 0) {
		lockref->count++;
		got = 1;
	}
	spin_unlock(&lockref->lock);
	return got;
}
