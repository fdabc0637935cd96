/* SPDX-License-Identifier: MIT */
#ifndef PK_DEBUG_BLOCKING_H
#define PK_DEBUG_BLOCKING_H

/*
 * The blocking-call detector (docs/blocking.md): the host functions the
 * library interposes, and the check each wrapper makes before calling the
 * real one.
 *
 * PK_BLOCKING_FUNCS is the one list: the enum below, the report's names,
 * the static-link recipe (CMakeLists.txt reads the X(...) and A(...)
 * entries of this file for -Wl,--wrap=) all come from it.  X: may sleep
 * (reported wherever might_sleep() would be); L: takes a host lock, and
 * A: allocates, both reported in hardirq, NMI and softirq context, where
 * a signal handler may have interrupted the lock's or allocator's holder.
 * A host lock held with preemption disabled is what docs/guide.md asks
 * for (the safe-point rule), so L is not a sleeper.
 */

#include <stdbool.h>
#include <preempt/debug.h>
#include <preempt/preempt.h>

/* clang-format off */
#define PK_BLOCKING_FUNCS(X, L, A)                                             \
	X(read) X(write) X(nanosleep) X(clock_nanosleep) X(usleep) X(sleep)    \
	X(poll) X(select) X(epoll_wait)                                        \
	X(pthread_cond_wait) X(pthread_cond_timedwait)                         \
	X(sem_wait) X(sem_timedwait)                                           \
	X(fopen) X(fclose) X(fflush) X(fwrite) X(fputs) X(puts)                \
	X(printf) X(fprintf) X(vprintf) X(vfprintf)                            \
	X(putchar) X(putc) X(fputc) X(recv) X(accept) X(open) X(__open_2)      \
	X(__read_chk) X(__printf_chk) X(__fprintf_chk) X(__vprintf_chk)        \
	X(__vfprintf_chk)                                                      \
	L(pthread_mutex_lock)                                                  \
	A(malloc) A(calloc) A(realloc) A(free)
/* clang-format on */

#define PK_BLK_ENUM(name) PK_BLK_##name,
enum pk_blocking_fn {
	PK_BLOCKING_FUNCS(PK_BLK_ENUM, PK_BLK_ENUM, PK_BLK_ENUM) PK_BLK_NR
};
#undef PK_BLK_ENUM

/*
 * ASan replaces the allocator: its malloc is not ours to wrap, so under
 * it the allocating family is left alone (and out of the --wrap recipe).
 */
#if defined(__SANITIZE_ADDRESS__)
#define PK_BLOCKING_ALLOC 0
#else
#define PK_BLOCKING_ALLOC 1
#endif

/* The first function that is no sleeper: L and A. */
#define PK_BLK_INTERRUPT_RULE PK_BLK_pthread_mutex_lock

/*
 * The silent case, inline in every wrapper: nothing held, no interrupt
 * being served.  A sleeper is fine where might_sleep() is, and not in a
 * softirq handler, which under rt runs with the word at zero; a host lock
 * or an allocator anywhere but hardirq, NMI and a softirq that may run at
 * interrupt exit, in the signal handler (not under rt: threaded).
 */
static inline bool pk_blocking_quiet(enum pk_blocking_fn fn)
{
	int count = preempt_count();

	if (fn >= PK_BLK_INTERRUPT_RULE)
		return !(count & (NMI_MASK | HARDIRQ_MASK | SOFTIRQ_OFFSET));
	return __builtin_expect(count == 0, 1) &&
	       !pk_task_tls(pk_non_block_count) && !pk_rcu_preempt_depth() &&
	       !(pk_task_tls(pk_softirq_disable_cnt) & SOFTIRQ_OFFSET);
}

#define __pk_hidden __attribute__((visibility("hidden")))

/* The rest of the check, out of line: @ip is the wrapper's return address. */
__pk_hidden void pk_blocking_slow(enum pk_blocking_fn fn, unsigned long ip);

/* The real @fn (libc's, or the next interposer's); aborts if none. */
__pk_hidden void *pk_blocking_resolve(enum pk_blocking_fn fn);
extern __pk_hidden void *pk_blocking_real_fn[PK_BLK_NR];

static inline void *pk_blocking_real(enum pk_blocking_fn fn)
{
	void *p = __atomic_load_n(&pk_blocking_real_fn[fn], __ATOMIC_ACQUIRE);

	return __builtin_expect(p != NULL, 1) ? p : pk_blocking_resolve(fn);
}

/* Waits on the host's clock: a simulated run cannot replay them. */
static inline bool pk_blocking_host_timed(enum pk_blocking_fn fn)
{
	switch (fn) {
	case PK_BLK_nanosleep:
	case PK_BLK_clock_nanosleep:
	case PK_BLK_usleep:
	case PK_BLK_sleep:
	case PK_BLK_poll:
	case PK_BLK_select:
	case PK_BLK_epoll_wait:
	case PK_BLK_pthread_cond_timedwait:
	case PK_BLK_sem_timedwait:
		return true;
	default:
		return false;
	}
}

/* A program's host-timed call in a simulation: noted (docs/sim.md). */
__pk_hidden void pk_blocking_sim_note(enum pk_blocking_fn fn, unsigned long ip);

static inline __attribute__((always_inline)) void
pk_blocking_check(enum pk_blocking_fn fn, unsigned long ip)
{
	if (__builtin_expect(__atomic_load_n(&pk_sim_on, __ATOMIC_RELAXED),
			     0) &&
	    pk_blocking_host_timed(fn))
		pk_blocking_sim_note(fn, ip);
	if (__builtin_expect(!pk_blocking_quiet(fn), 0))
		pk_blocking_slow(fn, ip);
}

#define PK_RET_IP ((unsigned long)__builtin_return_address(0))

#endif /* PK_DEBUG_BLOCKING_H */
