/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_REFCOUNT_H
#define _LINUX_REFCOUNT_H

/*
 * Reference counts that refuse to wrap.  As the kernel's: an increment
 * from 0 (use after free), an addition that overflows, or a decrement
 * below 0 reports "refcount_t: <what>" once per problem and leaves the
 * counter saturated at REFCOUNT_SATURATED, so the object leaks rather
 * than being freed while in use.  Increments are relaxed; a decrement that
 * reaches 0 orders everything before it (release, then acquire for the
 * freeing).  Any context.
 */

#include <limits.h>
#include <linux/atomic.h>
#include <linux/bug.h>
#include <linux/compiler.h>
#include <linux/types.h>

typedef struct refcount_struct {
	atomic_t refs;
} refcount_t;

#define REFCOUNT_INIT(n)                                                       \
	{                                                                      \
		.refs = ATOMIC_INIT(n),                                        \
	}
#define REFCOUNT_MAX INT_MAX
#define REFCOUNT_SATURATED (INT_MIN / 2)

enum refcount_saturation_type {
	REFCOUNT_ADD_NOT_ZERO_OVF,
	REFCOUNT_ADD_OVF,
	REFCOUNT_ADD_UAF,
	REFCOUNT_SUB_UAF,
	REFCOUNT_DEC_LEAK,
};

/** refcount_warn_saturate() - report @t and saturate @r.  Any context. */
void refcount_warn_saturate(refcount_t *r, enum refcount_saturation_type t);

static inline void refcount_set(refcount_t *r, int n)
{
	atomic_set(&r->refs, n);
}
static inline void refcount_set_release(refcount_t *r, int n)
{
	atomic_set_release(&r->refs, n);
}
static inline unsigned int refcount_read(const refcount_t *r)
{
	return (unsigned int)atomic_read(&r->refs);
}

/** refcount_add_not_zero() - add @i unless 0; false if it was 0. */
static inline __must_check bool __refcount_add_not_zero(int i, refcount_t *r,
							int *oldp)
{
	int old = refcount_read(r);

	do {
		if (!old)
			break;
	} while (!atomic_try_cmpxchg_relaxed(&r->refs, &old, old + i));
	if (oldp)
		*oldp = old;
	if (unlikely(old < 0 || old + i < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_NOT_ZERO_OVF);
	return old;
}
static inline __must_check bool refcount_add_not_zero(int i, refcount_t *r)
{
	return __refcount_add_not_zero(i, r, NULL);
}
static inline __must_check bool refcount_inc_not_zero(refcount_t *r)
{
	return __refcount_add_not_zero(1, r, NULL);
}
static inline __must_check bool __refcount_inc_not_zero(refcount_t *r,
							int *oldp)
{
	return __refcount_add_not_zero(1, r, oldp);
}

/** refcount_add() - add @i; from 0 it is a use after free (reported). */
static inline void __refcount_add(int i, refcount_t *r, int *oldp)
{
	int old = atomic_fetch_add_relaxed(i, &r->refs);

	if (oldp)
		*oldp = old;
	if (unlikely(!old))
		refcount_warn_saturate(r, REFCOUNT_ADD_UAF);
	else if (unlikely(old < 0 || old + i < 0))
		refcount_warn_saturate(r, REFCOUNT_ADD_OVF);
}
static inline void refcount_add(int i, refcount_t *r)
{
	__refcount_add(i, r, NULL);
}
static inline void refcount_inc(refcount_t *r)
{
	__refcount_add(1, r, NULL);
}
static inline void __refcount_inc(refcount_t *r, int *oldp)
{
	__refcount_add(1, r, oldp);
}

/** refcount_sub_and_test() - subtract @i; true when it reached 0. */
static inline __must_check bool __refcount_sub_and_test(int i, refcount_t *r,
							int *oldp)
{
	int old = atomic_fetch_sub_release(i, &r->refs);

	if (oldp)
		*oldp = old;
	if (old == i) {
		smp_acquire__after_ctrl_dep();
		return true;
	}
	if (unlikely(old < 0 || old - i < 0))
		refcount_warn_saturate(r, REFCOUNT_SUB_UAF);
	return false;
}
static inline __must_check bool refcount_sub_and_test(int i, refcount_t *r)
{
	return __refcount_sub_and_test(i, r, NULL);
}
static inline __must_check bool refcount_dec_and_test(refcount_t *r)
{
	return __refcount_sub_and_test(1, r, NULL);
}
static inline __must_check bool __refcount_dec_and_test(refcount_t *r,
							int *oldp)
{
	return __refcount_sub_and_test(1, r, oldp);
}

/** refcount_dec() - drop a reference that is not the last (reported). */
static inline void __refcount_dec(refcount_t *r, int *oldp)
{
	int old = atomic_fetch_sub_release(1, &r->refs);

	if (oldp)
		*oldp = old;
	if (unlikely(old <= 1))
		refcount_warn_saturate(r, REFCOUNT_DEC_LEAK);
}
static inline void refcount_dec(refcount_t *r)
{
	__refcount_dec(r, NULL);
}

/** refcount_dec_if_one() - 1 -> 0 only; true if done. */
bool refcount_dec_if_one(refcount_t *r);
/** refcount_dec_not_one() - decrement unless 1; false if it was 1. */
bool refcount_dec_not_one(refcount_t *r);
/** refcount_dec_and_lock() etc.: take @lock only for the last reference. */
struct spinlock;
struct mutex;
bool refcount_dec_and_lock(refcount_t *r, struct spinlock *lock);
bool refcount_dec_and_lock_irqsave(refcount_t *r, struct spinlock *lock,
				   unsigned long *flags);
bool refcount_dec_and_mutex_lock(refcount_t *r, struct mutex *lock);

#endif /* _LINUX_REFCOUNT_H */
