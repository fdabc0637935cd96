/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_ATOMIC_H
#define _LINUX_ATOMIC_H

/*
 * atomic_t, atomic64_t and atomic_long_t with the kernel's whole API, on
 * the compiler's __atomic builtins.  Orderings as the kernel defines them
 * (Documentation/atomic_t.txt): operations that return nothing are
 * relaxed; value-returning ones are fully ordered, their _acquire,
 * _release and _relaxed forms as named; a failed cmpxchg orders nothing.
 * All of them: any context, including NMI (lock-free on x86-64 and arm64).
 */

#include <linux/compiler.h>
#include <linux/types.h>
#include <asm/barrier.h>

#define __PK_MO_full __ATOMIC_SEQ_CST
#define __PK_MO_acquire __ATOMIC_ACQUIRE
#define __PK_MO_release __ATOMIC_RELEASE
#define __PK_MO_relaxed __ATOMIC_RELAXED
/* A failed compare-exchange may not be release-ordered. */
#define __PK_MOF_full __ATOMIC_SEQ_CST
#define __PK_MOF_acquire __ATOMIC_ACQUIRE
#define __PK_MOF_release __ATOMIC_RELAXED
#define __PK_MOF_relaxed __ATOMIC_RELAXED

/* xchg(), cmpxchg(), try_cmpxchg() on any naturally aligned scalar. */
#define __pk_xchg(p, v, mo) __atomic_exchange_n((p), (v), mo)
#define __pk_cmpxchg(p, o, n, mo, mof)                                         \
	({                                                                     \
		__typeof__(*(p)) __pk_old = (o);                               \
		__atomic_compare_exchange_n((p), &__pk_old, (n), false, mo,    \
					    mof);                              \
		__pk_old;                                                      \
	})
#define __pk_try_cmpxchg(p, po, n, mo, mof)                                    \
	__atomic_compare_exchange_n((p), (po), (n), false, mo, mof)

#define xchg(p, v) __pk_xchg(p, v, __PK_MO_full)
#define cmpxchg(p, o, n) __pk_cmpxchg(p, o, n, __PK_MO_full, __PK_MOF_full)
#define try_cmpxchg(p, po, n)                                                  \
	__pk_try_cmpxchg(p, po, n, __PK_MO_full, __PK_MOF_full)
#define cmpxchg64(p, o, n) cmpxchg(p, o, n)
#define try_cmpxchg64(p, po, n) try_cmpxchg(p, po, n)
#define xchg_acquire(p, v) __pk_xchg(p, v, __PK_MO_acquire)
#define cmpxchg_acquire(p, o, n)                                               \
	__pk_cmpxchg(p, o, n, __PK_MO_acquire, __PK_MOF_acquire)
#define try_cmpxchg_acquire(p, po, n)                                          \
	__pk_try_cmpxchg(p, po, n, __PK_MO_acquire, __PK_MOF_acquire)
#define cmpxchg64_acquire(p, o, n) cmpxchg_acquire(p, o, n)
#define try_cmpxchg64_acquire(p, po, n) try_cmpxchg_acquire(p, po, n)
#define xchg_release(p, v) __pk_xchg(p, v, __PK_MO_release)
#define cmpxchg_release(p, o, n)                                               \
	__pk_cmpxchg(p, o, n, __PK_MO_release, __PK_MOF_release)
#define try_cmpxchg_release(p, po, n)                                          \
	__pk_try_cmpxchg(p, po, n, __PK_MO_release, __PK_MOF_release)
#define cmpxchg64_release(p, o, n) cmpxchg_release(p, o, n)
#define try_cmpxchg64_release(p, po, n) try_cmpxchg_release(p, po, n)
#define xchg_relaxed(p, v) __pk_xchg(p, v, __PK_MO_relaxed)
#define cmpxchg_relaxed(p, o, n)                                               \
	__pk_cmpxchg(p, o, n, __PK_MO_relaxed, __PK_MOF_relaxed)
#define try_cmpxchg_relaxed(p, po, n)                                          \
	__pk_try_cmpxchg(p, po, n, __PK_MO_relaxed, __PK_MOF_relaxed)
#define cmpxchg64_relaxed(p, o, n) cmpxchg_relaxed(p, o, n)
#define try_cmpxchg64_relaxed(p, po, n) try_cmpxchg_relaxed(p, po, n)
#define cmpxchg_local(p, o, n) cmpxchg(p, o, n)
#define cmpxchg64_local(p, o, n) cmpxchg(p, o, n)
#define try_cmpxchg_local(p, po, n) try_cmpxchg(p, po, n)
#define sync_cmpxchg(p, o, n) cmpxchg(p, o, n)

/*
 * Every atomic operation is a simulation point before it (docs/sim.md):
 * the counter's address, reached through the hook.  atomic_read() decides
 * after its load, so its point comes after.
 */
#define __pk_ctr(v) (pk_sim_hook_expr(PK_SIM_ACCESS), &(v)->counter)

/* ---- atomic_t ---- */

static __always_inline int atomic_read(const atomic_t *v)
{
	int val = __atomic_load_n(&v->counter, __ATOMIC_RELAXED);

	pk_sim_hook(PK_SIM_ACCESS);
	return val;
}
static __always_inline int atomic_read_acquire(const atomic_t *v)
{
	return __atomic_load_n(__pk_ctr(v), __ATOMIC_ACQUIRE);
}
static __always_inline void atomic_set(atomic_t *v, int i)
{
	pk_sim_hook(PK_SIM_ACCESS);
	__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_set_release(atomic_t *v, int i)
{
	__atomic_store_n(__pk_ctr(v), i, __ATOMIC_RELEASE);
}
static __always_inline void atomic_add(int i, atomic_t *v)
{
	__atomic_fetch_add(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_sub(int i, atomic_t *v)
{
	__atomic_fetch_sub(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_and(int i, atomic_t *v)
{
	__atomic_fetch_and(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_or(int i, atomic_t *v)
{
	__atomic_fetch_or(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_xor(int i, atomic_t *v)
{
	__atomic_fetch_xor(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_andnot(int i, atomic_t *v)
{
	__atomic_fetch_and(__pk_ctr(v), ~i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_inc(atomic_t *v)
{
	atomic_add(1, v);
}
static __always_inline void atomic_dec(atomic_t *v)
{
	atomic_sub(1, v);
}
static __always_inline int atomic_fetch_add(int i, atomic_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_fetch_sub(int i, atomic_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_fetch_and(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_fetch_or(int i, atomic_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_fetch_xor(int i, atomic_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_fetch_andnot(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_full);
}
static __always_inline int atomic_fetch_inc(atomic_t *v)
{
	return atomic_fetch_add(1, v);
}
static __always_inline int atomic_fetch_dec(atomic_t *v)
{
	return atomic_fetch_sub(1, v);
}
static __always_inline int atomic_add_return(int i, atomic_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_sub_return(int i, atomic_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline int atomic_inc_return(atomic_t *v)
{
	return atomic_add_return(1, v);
}
static __always_inline int atomic_dec_return(atomic_t *v)
{
	return atomic_sub_return(1, v);
}
static __always_inline int atomic_xchg(atomic_t *v, int n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_full);
}
static __always_inline int atomic_cmpxchg(atomic_t *v, int o, int n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_full,
				    __PK_MOF_full);
	return o;
}
static __always_inline bool atomic_try_cmpxchg(atomic_t *v, int *o, int n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_full, __PK_MOF_full);
}
static __always_inline bool atomic_add_negative(int i, atomic_t *v)
{
	return atomic_add_return(i, v) < 0;
}
static __always_inline int atomic_fetch_add_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_fetch_sub_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_fetch_and_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_fetch_or_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_fetch_xor_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_fetch_andnot_acquire(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_acquire);
}
static __always_inline int atomic_fetch_inc_acquire(atomic_t *v)
{
	return atomic_fetch_add_acquire(1, v);
}
static __always_inline int atomic_fetch_dec_acquire(atomic_t *v)
{
	return atomic_fetch_sub_acquire(1, v);
}
static __always_inline int atomic_add_return_acquire(int i, atomic_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_sub_return_acquire(int i, atomic_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline int atomic_inc_return_acquire(atomic_t *v)
{
	return atomic_add_return_acquire(1, v);
}
static __always_inline int atomic_dec_return_acquire(atomic_t *v)
{
	return atomic_sub_return_acquire(1, v);
}
static __always_inline int atomic_xchg_acquire(atomic_t *v, int n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_acquire);
}
static __always_inline int atomic_cmpxchg_acquire(atomic_t *v, int o, int n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_acquire,
				    __PK_MOF_acquire);
	return o;
}
static __always_inline bool atomic_try_cmpxchg_acquire(atomic_t *v, int *o,
						       int n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_acquire, __PK_MOF_acquire);
}
static __always_inline bool atomic_add_negative_acquire(int i, atomic_t *v)
{
	return atomic_add_return_acquire(i, v) < 0;
}
static __always_inline int atomic_fetch_add_release(int i, atomic_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_fetch_sub_release(int i, atomic_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_fetch_and_release(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_fetch_or_release(int i, atomic_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_fetch_xor_release(int i, atomic_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_fetch_andnot_release(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_release);
}
static __always_inline int atomic_fetch_inc_release(atomic_t *v)
{
	return atomic_fetch_add_release(1, v);
}
static __always_inline int atomic_fetch_dec_release(atomic_t *v)
{
	return atomic_fetch_sub_release(1, v);
}
static __always_inline int atomic_add_return_release(int i, atomic_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_sub_return_release(int i, atomic_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline int atomic_inc_return_release(atomic_t *v)
{
	return atomic_add_return_release(1, v);
}
static __always_inline int atomic_dec_return_release(atomic_t *v)
{
	return atomic_sub_return_release(1, v);
}
static __always_inline int atomic_xchg_release(atomic_t *v, int n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_release);
}
static __always_inline int atomic_cmpxchg_release(atomic_t *v, int o, int n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_release,
				    __PK_MOF_release);
	return o;
}
static __always_inline bool atomic_try_cmpxchg_release(atomic_t *v, int *o,
						       int n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_release, __PK_MOF_release);
}
static __always_inline bool atomic_add_negative_release(int i, atomic_t *v)
{
	return atomic_add_return_release(i, v) < 0;
}
static __always_inline int atomic_fetch_add_relaxed(int i, atomic_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_fetch_sub_relaxed(int i, atomic_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_fetch_and_relaxed(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_fetch_or_relaxed(int i, atomic_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_fetch_xor_relaxed(int i, atomic_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_fetch_andnot_relaxed(int i, atomic_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_relaxed);
}
static __always_inline int atomic_fetch_inc_relaxed(atomic_t *v)
{
	return atomic_fetch_add_relaxed(1, v);
}
static __always_inline int atomic_fetch_dec_relaxed(atomic_t *v)
{
	return atomic_fetch_sub_relaxed(1, v);
}
static __always_inline int atomic_add_return_relaxed(int i, atomic_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_sub_return_relaxed(int i, atomic_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline int atomic_inc_return_relaxed(atomic_t *v)
{
	return atomic_add_return_relaxed(1, v);
}
static __always_inline int atomic_dec_return_relaxed(atomic_t *v)
{
	return atomic_sub_return_relaxed(1, v);
}
static __always_inline int atomic_xchg_relaxed(atomic_t *v, int n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_relaxed);
}
static __always_inline int atomic_cmpxchg_relaxed(atomic_t *v, int o, int n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_relaxed,
				    __PK_MOF_relaxed);
	return o;
}
static __always_inline bool atomic_try_cmpxchg_relaxed(atomic_t *v, int *o,
						       int n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_relaxed, __PK_MOF_relaxed);
}
static __always_inline bool atomic_add_negative_relaxed(int i, atomic_t *v)
{
	return atomic_add_return_relaxed(i, v) < 0;
}
static __always_inline bool atomic_sub_and_test(int i, atomic_t *v)
{
	return atomic_sub_return(i, v) == 0;
}
static __always_inline bool atomic_dec_and_test(atomic_t *v)
{
	return atomic_dec_return(v) == 0;
}
static __always_inline bool atomic_inc_and_test(atomic_t *v)
{
	return atomic_inc_return(v) == 0;
}
/* Add @a unless the value is @u; the value before.  Fully ordered when it adds.
 */
static __always_inline int atomic_fetch_add_unless(atomic_t *v, int a, int u)
{
	int c = atomic_read(v);

	do {
		if (unlikely(c == u))
			break;
	} while (!atomic_try_cmpxchg(v, &c, c + a));
	return c;
}
static __always_inline bool atomic_add_unless(atomic_t *v, int a, int u)
{
	return atomic_fetch_add_unless(v, a, u) != u;
}
static __always_inline bool atomic_inc_not_zero(atomic_t *v)
{
	return atomic_add_unless(v, 1, 0);
}
static __always_inline bool atomic_inc_unless_negative(atomic_t *v)
{
	int c = atomic_read(v);

	do {
		if (unlikely(c < 0))
			return false;
	} while (!atomic_try_cmpxchg(v, &c, c + 1));
	return true;
}
static __always_inline bool atomic_dec_unless_positive(atomic_t *v)
{
	int c = atomic_read(v);

	do {
		if (unlikely(c > 0))
			return false;
	} while (!atomic_try_cmpxchg(v, &c, c - 1));
	return true;
}
/* Decrement if the result stays >= 0; returns the result (negative: no change).
 */
static __always_inline int atomic_dec_if_positive(atomic_t *v)
{
	int c = atomic_read(v), d;

	do {
		d = c - 1;
		if (unlikely(d < 0))
			break;
	} while (!atomic_try_cmpxchg(v, &c, d));
	return d;
}

/* ---- atomic64_t ---- */

static __always_inline s64 atomic64_read(const atomic64_t *v)
{
	return __atomic_load_n(__pk_ctr(v), __ATOMIC_RELAXED);
}
static __always_inline s64 atomic64_read_acquire(const atomic64_t *v)
{
	return __atomic_load_n(__pk_ctr(v), __ATOMIC_ACQUIRE);
}
static __always_inline void atomic64_set(atomic64_t *v, s64 i)
{
	__atomic_store_n(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_set_release(atomic64_t *v, s64 i)
{
	__atomic_store_n(__pk_ctr(v), i, __ATOMIC_RELEASE);
}
static __always_inline void atomic64_add(s64 i, atomic64_t *v)
{
	__atomic_fetch_add(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_sub(s64 i, atomic64_t *v)
{
	__atomic_fetch_sub(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_and(s64 i, atomic64_t *v)
{
	__atomic_fetch_and(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_or(s64 i, atomic64_t *v)
{
	__atomic_fetch_or(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_xor(s64 i, atomic64_t *v)
{
	__atomic_fetch_xor(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_andnot(s64 i, atomic64_t *v)
{
	__atomic_fetch_and(__pk_ctr(v), ~i, __ATOMIC_RELAXED);
}
static __always_inline void atomic64_inc(atomic64_t *v)
{
	atomic64_add(1, v);
}
static __always_inline void atomic64_dec(atomic64_t *v)
{
	atomic64_sub(1, v);
}
static __always_inline s64 atomic64_fetch_add(s64 i, atomic64_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_fetch_sub(s64 i, atomic64_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_fetch_and(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_fetch_or(s64 i, atomic64_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_fetch_xor(s64 i, atomic64_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_fetch_andnot(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_full);
}
static __always_inline s64 atomic64_fetch_inc(atomic64_t *v)
{
	return atomic64_fetch_add(1, v);
}
static __always_inline s64 atomic64_fetch_dec(atomic64_t *v)
{
	return atomic64_fetch_sub(1, v);
}
static __always_inline s64 atomic64_add_return(s64 i, atomic64_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_sub_return(s64 i, atomic64_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline s64 atomic64_inc_return(atomic64_t *v)
{
	return atomic64_add_return(1, v);
}
static __always_inline s64 atomic64_dec_return(atomic64_t *v)
{
	return atomic64_sub_return(1, v);
}
static __always_inline s64 atomic64_xchg(atomic64_t *v, s64 n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_full);
}
static __always_inline s64 atomic64_cmpxchg(atomic64_t *v, s64 o, s64 n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_full,
				    __PK_MOF_full);
	return o;
}
static __always_inline bool atomic64_try_cmpxchg(atomic64_t *v, s64 *o, s64 n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_full, __PK_MOF_full);
}
static __always_inline bool atomic64_add_negative(s64 i, atomic64_t *v)
{
	return atomic64_add_return(i, v) < 0;
}
static __always_inline s64 atomic64_fetch_add_acquire(s64 i, atomic64_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_fetch_sub_acquire(s64 i, atomic64_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_fetch_and_acquire(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_fetch_or_acquire(s64 i, atomic64_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_fetch_xor_acquire(s64 i, atomic64_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_fetch_andnot_acquire(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_fetch_inc_acquire(atomic64_t *v)
{
	return atomic64_fetch_add_acquire(1, v);
}
static __always_inline s64 atomic64_fetch_dec_acquire(atomic64_t *v)
{
	return atomic64_fetch_sub_acquire(1, v);
}
static __always_inline s64 atomic64_add_return_acquire(s64 i, atomic64_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_sub_return_acquire(s64 i, atomic64_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline s64 atomic64_inc_return_acquire(atomic64_t *v)
{
	return atomic64_add_return_acquire(1, v);
}
static __always_inline s64 atomic64_dec_return_acquire(atomic64_t *v)
{
	return atomic64_sub_return_acquire(1, v);
}
static __always_inline s64 atomic64_xchg_acquire(atomic64_t *v, s64 n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_acquire);
}
static __always_inline s64 atomic64_cmpxchg_acquire(atomic64_t *v, s64 o, s64 n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_acquire,
				    __PK_MOF_acquire);
	return o;
}
static __always_inline bool atomic64_try_cmpxchg_acquire(atomic64_t *v, s64 *o,
							 s64 n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_acquire, __PK_MOF_acquire);
}
static __always_inline bool atomic64_add_negative_acquire(s64 i, atomic64_t *v)
{
	return atomic64_add_return_acquire(i, v) < 0;
}
static __always_inline s64 atomic64_fetch_add_release(s64 i, atomic64_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_fetch_sub_release(s64 i, atomic64_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_fetch_and_release(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_fetch_or_release(s64 i, atomic64_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_fetch_xor_release(s64 i, atomic64_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_fetch_andnot_release(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_release);
}
static __always_inline s64 atomic64_fetch_inc_release(atomic64_t *v)
{
	return atomic64_fetch_add_release(1, v);
}
static __always_inline s64 atomic64_fetch_dec_release(atomic64_t *v)
{
	return atomic64_fetch_sub_release(1, v);
}
static __always_inline s64 atomic64_add_return_release(s64 i, atomic64_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_sub_return_release(s64 i, atomic64_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline s64 atomic64_inc_return_release(atomic64_t *v)
{
	return atomic64_add_return_release(1, v);
}
static __always_inline s64 atomic64_dec_return_release(atomic64_t *v)
{
	return atomic64_sub_return_release(1, v);
}
static __always_inline s64 atomic64_xchg_release(atomic64_t *v, s64 n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_release);
}
static __always_inline s64 atomic64_cmpxchg_release(atomic64_t *v, s64 o, s64 n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_release,
				    __PK_MOF_release);
	return o;
}
static __always_inline bool atomic64_try_cmpxchg_release(atomic64_t *v, s64 *o,
							 s64 n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_release, __PK_MOF_release);
}
static __always_inline bool atomic64_add_negative_release(s64 i, atomic64_t *v)
{
	return atomic64_add_return_release(i, v) < 0;
}
static __always_inline s64 atomic64_fetch_add_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_fetch_sub_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_fetch_and_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_fetch_or_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_fetch_xor_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_fetch_andnot_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_fetch_inc_relaxed(atomic64_t *v)
{
	return atomic64_fetch_add_relaxed(1, v);
}
static __always_inline s64 atomic64_fetch_dec_relaxed(atomic64_t *v)
{
	return atomic64_fetch_sub_relaxed(1, v);
}
static __always_inline s64 atomic64_add_return_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_sub_return_relaxed(s64 i, atomic64_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_inc_return_relaxed(atomic64_t *v)
{
	return atomic64_add_return_relaxed(1, v);
}
static __always_inline s64 atomic64_dec_return_relaxed(atomic64_t *v)
{
	return atomic64_sub_return_relaxed(1, v);
}
static __always_inline s64 atomic64_xchg_relaxed(atomic64_t *v, s64 n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_relaxed);
}
static __always_inline s64 atomic64_cmpxchg_relaxed(atomic64_t *v, s64 o, s64 n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_relaxed,
				    __PK_MOF_relaxed);
	return o;
}
static __always_inline bool atomic64_try_cmpxchg_relaxed(atomic64_t *v, s64 *o,
							 s64 n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_relaxed, __PK_MOF_relaxed);
}
static __always_inline bool atomic64_add_negative_relaxed(s64 i, atomic64_t *v)
{
	return atomic64_add_return_relaxed(i, v) < 0;
}
static __always_inline bool atomic64_sub_and_test(s64 i, atomic64_t *v)
{
	return atomic64_sub_return(i, v) == 0;
}
static __always_inline bool atomic64_dec_and_test(atomic64_t *v)
{
	return atomic64_dec_return(v) == 0;
}
static __always_inline bool atomic64_inc_and_test(atomic64_t *v)
{
	return atomic64_inc_return(v) == 0;
}
/* Add @a unless the value is @u; the value before.  Fully ordered when it adds.
 */
static __always_inline s64 atomic64_fetch_add_unless(atomic64_t *v, s64 a,
						     s64 u)
{
	s64 c = atomic64_read(v);

	do {
		if (unlikely(c == u))
			break;
	} while (!atomic64_try_cmpxchg(v, &c, c + a));
	return c;
}
static __always_inline bool atomic64_add_unless(atomic64_t *v, s64 a, s64 u)
{
	return atomic64_fetch_add_unless(v, a, u) != u;
}
static __always_inline bool atomic64_inc_not_zero(atomic64_t *v)
{
	return atomic64_add_unless(v, 1, 0);
}
static __always_inline bool atomic64_inc_unless_negative(atomic64_t *v)
{
	s64 c = atomic64_read(v);

	do {
		if (unlikely(c < 0))
			return false;
	} while (!atomic64_try_cmpxchg(v, &c, c + 1));
	return true;
}
static __always_inline bool atomic64_dec_unless_positive(atomic64_t *v)
{
	s64 c = atomic64_read(v);

	do {
		if (unlikely(c > 0))
			return false;
	} while (!atomic64_try_cmpxchg(v, &c, c - 1));
	return true;
}
/* Decrement if the result stays >= 0; returns the result (negative: no change).
 */
static __always_inline s64 atomic64_dec_if_positive(atomic64_t *v)
{
	s64 c = atomic64_read(v), d;

	do {
		d = c - 1;
		if (unlikely(d < 0))
			break;
	} while (!atomic64_try_cmpxchg(v, &c, d));
	return d;
}

/* ---- atomic_long_t ---- */

static __always_inline long atomic_long_read(const atomic_long_t *v)
{
	return __atomic_load_n(__pk_ctr(v), __ATOMIC_RELAXED);
}
static __always_inline long atomic_long_read_acquire(const atomic_long_t *v)
{
	return __atomic_load_n(__pk_ctr(v), __ATOMIC_ACQUIRE);
}
static __always_inline void atomic_long_set(atomic_long_t *v, long i)
{
	__atomic_store_n(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_set_release(atomic_long_t *v, long i)
{
	__atomic_store_n(__pk_ctr(v), i, __ATOMIC_RELEASE);
}
static __always_inline void atomic_long_add(long i, atomic_long_t *v)
{
	__atomic_fetch_add(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_sub(long i, atomic_long_t *v)
{
	__atomic_fetch_sub(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_and(long i, atomic_long_t *v)
{
	__atomic_fetch_and(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_or(long i, atomic_long_t *v)
{
	__atomic_fetch_or(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_xor(long i, atomic_long_t *v)
{
	__atomic_fetch_xor(__pk_ctr(v), i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_andnot(long i, atomic_long_t *v)
{
	__atomic_fetch_and(__pk_ctr(v), ~i, __ATOMIC_RELAXED);
}
static __always_inline void atomic_long_inc(atomic_long_t *v)
{
	atomic_long_add(1, v);
}
static __always_inline void atomic_long_dec(atomic_long_t *v)
{
	atomic_long_sub(1, v);
}
static __always_inline long atomic_long_fetch_add(long i, atomic_long_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_fetch_sub(long i, atomic_long_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_fetch_and(long i, atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_fetch_or(long i, atomic_long_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_fetch_xor(long i, atomic_long_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_fetch_andnot(long i, atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_full);
}
static __always_inline long atomic_long_fetch_inc(atomic_long_t *v)
{
	return atomic_long_fetch_add(1, v);
}
static __always_inline long atomic_long_fetch_dec(atomic_long_t *v)
{
	return atomic_long_fetch_sub(1, v);
}
static __always_inline long atomic_long_add_return(long i, atomic_long_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_sub_return(long i, atomic_long_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_full);
}
static __always_inline long atomic_long_inc_return(atomic_long_t *v)
{
	return atomic_long_add_return(1, v);
}
static __always_inline long atomic_long_dec_return(atomic_long_t *v)
{
	return atomic_long_sub_return(1, v);
}
static __always_inline long atomic_long_xchg(atomic_long_t *v, long n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_full);
}
static __always_inline long atomic_long_cmpxchg(atomic_long_t *v, long o,
						long n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_full,
				    __PK_MOF_full);
	return o;
}
static __always_inline bool atomic_long_try_cmpxchg(atomic_long_t *v, long *o,
						    long n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_full, __PK_MOF_full);
}
static __always_inline bool atomic_long_add_negative(long i, atomic_long_t *v)
{
	return atomic_long_add_return(i, v) < 0;
}
static __always_inline long atomic_long_fetch_add_acquire(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_fetch_sub_acquire(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_fetch_and_acquire(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_fetch_or_acquire(long i,
							 atomic_long_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_fetch_xor_acquire(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_fetch_andnot_acquire(long i,
							     atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_acquire);
}
static __always_inline long atomic_long_fetch_inc_acquire(atomic_long_t *v)
{
	return atomic_long_fetch_add_acquire(1, v);
}
static __always_inline long atomic_long_fetch_dec_acquire(atomic_long_t *v)
{
	return atomic_long_fetch_sub_acquire(1, v);
}
static __always_inline long atomic_long_add_return_acquire(long i,
							   atomic_long_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_sub_return_acquire(long i,
							   atomic_long_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_acquire);
}
static __always_inline long atomic_long_inc_return_acquire(atomic_long_t *v)
{
	return atomic_long_add_return_acquire(1, v);
}
static __always_inline long atomic_long_dec_return_acquire(atomic_long_t *v)
{
	return atomic_long_sub_return_acquire(1, v);
}
static __always_inline long atomic_long_xchg_acquire(atomic_long_t *v, long n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_acquire);
}
static __always_inline long atomic_long_cmpxchg_acquire(atomic_long_t *v,
							long o, long n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_acquire,
				    __PK_MOF_acquire);
	return o;
}
static __always_inline bool atomic_long_try_cmpxchg_acquire(atomic_long_t *v,
							    long *o, long n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_acquire, __PK_MOF_acquire);
}
static __always_inline bool atomic_long_add_negative_acquire(long i,
							     atomic_long_t *v)
{
	return atomic_long_add_return_acquire(i, v) < 0;
}
static __always_inline long atomic_long_fetch_add_release(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_fetch_sub_release(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_fetch_and_release(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_fetch_or_release(long i,
							 atomic_long_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_fetch_xor_release(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_fetch_andnot_release(long i,
							     atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_release);
}
static __always_inline long atomic_long_fetch_inc_release(atomic_long_t *v)
{
	return atomic_long_fetch_add_release(1, v);
}
static __always_inline long atomic_long_fetch_dec_release(atomic_long_t *v)
{
	return atomic_long_fetch_sub_release(1, v);
}
static __always_inline long atomic_long_add_return_release(long i,
							   atomic_long_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_sub_return_release(long i,
							   atomic_long_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_release);
}
static __always_inline long atomic_long_inc_return_release(atomic_long_t *v)
{
	return atomic_long_add_return_release(1, v);
}
static __always_inline long atomic_long_dec_return_release(atomic_long_t *v)
{
	return atomic_long_sub_return_release(1, v);
}
static __always_inline long atomic_long_xchg_release(atomic_long_t *v, long n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_release);
}
static __always_inline long atomic_long_cmpxchg_release(atomic_long_t *v,
							long o, long n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_release,
				    __PK_MOF_release);
	return o;
}
static __always_inline bool atomic_long_try_cmpxchg_release(atomic_long_t *v,
							    long *o, long n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_release, __PK_MOF_release);
}
static __always_inline bool atomic_long_add_negative_release(long i,
							     atomic_long_t *v)
{
	return atomic_long_add_return_release(i, v) < 0;
}
static __always_inline long atomic_long_fetch_add_relaxed(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_add(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_fetch_sub_relaxed(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_sub(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_fetch_and_relaxed(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_fetch_or_relaxed(long i,
							 atomic_long_t *v)
{
	return __atomic_fetch_or(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_fetch_xor_relaxed(long i,
							  atomic_long_t *v)
{
	return __atomic_fetch_xor(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_fetch_andnot_relaxed(long i,
							     atomic_long_t *v)
{
	return __atomic_fetch_and(__pk_ctr(v), ~i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_fetch_inc_relaxed(atomic_long_t *v)
{
	return atomic_long_fetch_add_relaxed(1, v);
}
static __always_inline long atomic_long_fetch_dec_relaxed(atomic_long_t *v)
{
	return atomic_long_fetch_sub_relaxed(1, v);
}
static __always_inline long atomic_long_add_return_relaxed(long i,
							   atomic_long_t *v)
{
	return __atomic_add_fetch(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_sub_return_relaxed(long i,
							   atomic_long_t *v)
{
	return __atomic_sub_fetch(__pk_ctr(v), i, __PK_MO_relaxed);
}
static __always_inline long atomic_long_inc_return_relaxed(atomic_long_t *v)
{
	return atomic_long_add_return_relaxed(1, v);
}
static __always_inline long atomic_long_dec_return_relaxed(atomic_long_t *v)
{
	return atomic_long_sub_return_relaxed(1, v);
}
static __always_inline long atomic_long_xchg_relaxed(atomic_long_t *v, long n)
{
	return __atomic_exchange_n(__pk_ctr(v), n, __PK_MO_relaxed);
}
static __always_inline long atomic_long_cmpxchg_relaxed(atomic_long_t *v,
							long o, long n)
{
	__atomic_compare_exchange_n(__pk_ctr(v), &o, n, false, __PK_MO_relaxed,
				    __PK_MOF_relaxed);
	return o;
}
static __always_inline bool atomic_long_try_cmpxchg_relaxed(atomic_long_t *v,
							    long *o, long n)
{
	return __atomic_compare_exchange_n(__pk_ctr(v), o, n, false,
					   __PK_MO_relaxed, __PK_MOF_relaxed);
}
static __always_inline bool atomic_long_add_negative_relaxed(long i,
							     atomic_long_t *v)
{
	return atomic_long_add_return_relaxed(i, v) < 0;
}
static __always_inline bool atomic_long_sub_and_test(long i, atomic_long_t *v)
{
	return atomic_long_sub_return(i, v) == 0;
}
static __always_inline bool atomic_long_dec_and_test(atomic_long_t *v)
{
	return atomic_long_dec_return(v) == 0;
}
static __always_inline bool atomic_long_inc_and_test(atomic_long_t *v)
{
	return atomic_long_inc_return(v) == 0;
}
/* Add @a unless the value is @u; the value before.  Fully ordered when it adds.
 */
static __always_inline long atomic_long_fetch_add_unless(atomic_long_t *v,
							 long a, long u)
{
	long c = atomic_long_read(v);

	do {
		if (unlikely(c == u))
			break;
	} while (!atomic_long_try_cmpxchg(v, &c, c + a));
	return c;
}
static __always_inline bool atomic_long_add_unless(atomic_long_t *v, long a,
						   long u)
{
	return atomic_long_fetch_add_unless(v, a, u) != u;
}
static __always_inline bool atomic_long_inc_not_zero(atomic_long_t *v)
{
	return atomic_long_add_unless(v, 1, 0);
}
static __always_inline bool atomic_long_inc_unless_negative(atomic_long_t *v)
{
	long c = atomic_long_read(v);

	do {
		if (unlikely(c < 0))
			return false;
	} while (!atomic_long_try_cmpxchg(v, &c, c + 1));
	return true;
}
static __always_inline bool atomic_long_dec_unless_positive(atomic_long_t *v)
{
	long c = atomic_long_read(v);

	do {
		if (unlikely(c > 0))
			return false;
	} while (!atomic_long_try_cmpxchg(v, &c, c - 1));
	return true;
}
/* Decrement if the result stays >= 0; returns the result (negative: no change).
 */
static __always_inline long atomic_long_dec_if_positive(atomic_long_t *v)
{
	long c = atomic_long_read(v), d;

	do {
		d = c - 1;
		if (unlikely(d < 0))
			break;
	} while (!atomic_long_try_cmpxchg(v, &c, d));
	return d;
}

#define atomic_cond_read_relaxed(v, c) smp_cond_load_relaxed(&(v)->counter, (c))
#define atomic_cond_read_acquire(v, c) smp_cond_load_acquire(&(v)->counter, (c))
#define atomic64_cond_read_relaxed(v, c)                                       \
	smp_cond_load_relaxed(&(v)->counter, (c))
#define atomic64_cond_read_acquire(v, c)                                       \
	smp_cond_load_acquire(&(v)->counter, (c))

#endif /* _LINUX_ATOMIC_H */
