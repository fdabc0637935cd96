// SPDX-License-Identifier: MIT
/*
 * The read side's loops, compiled as a user compiles them: the headers
 * inlined into the caller.  bench/CMakeLists.txt builds this file twice:
 * with CONFIG_DEBUG_PREEMPT, CONFIG_DEBUG_ATOMIC_SLEEP and CONFIG_LOCKDEP
 * all 0 (checks off: what a production build runs) and all 1 (checks on:
 * the library's default, where rcu_read_lock() records the reader with
 * the lock validator out of line).  Functions and the table get an _off
 * or _on suffix.
 *
 * The same loop is compiled once per place it runs (a task on a machine
 * booted none, one booted full, a thread that is not a vCPU): the flavour
 * is chosen at run time, so the code is the same, but each copy is a
 * function of its own for callgrind.  A compiler barrier between lock and
 * unlock keeps the pair from being merged; it emits no instruction.
 */
#if !defined(CONFIG_DEBUG_PREEMPT) || !defined(CONFIG_DEBUG_ATOMIC_SLEEP) ||   \
	!defined(CONFIG_LOCKDEP)
#define BENCH_UNCONFIGURED 1
#else
#define BENCH_UNCONFIGURED 0
#endif
_Static_assert(!BENCH_UNCONFIGURED,
	       "compile with -DCONFIG_DEBUG_PREEMPT=0|1 "
	       "-DCONFIG_DEBUG_ATOMIC_SLEEP=0|1 -DCONFIG_LOCKDEP=0|1 "
	       "(see bench/CMakeLists.txt)");
_Static_assert(CONFIG_DEBUG_PREEMPT == CONFIG_DEBUG_ATOMIC_SLEEP &&
		       CONFIG_DEBUG_PREEMPT == CONFIG_LOCKDEP,
	       "checks all off or all on");

#include <preempt/preempt.h>
#include <preempt/rcupdate.h>

#include "rcu_cases.h"

#define BENCH_CAT_(a, b) a##b
#define BENCH_CAT(a, b) BENCH_CAT_(a, b)
#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)

#if CONFIG_DEBUG_PREEMPT
#define BENCH_SUFFIX _on
#else
#define BENCH_SUFFIX _off
#endif

/* rcu_bench_<case>_on or rcu_bench_<case>_off. */
#define CASE(name) BENCH_CAT(BENCH_CAT(rcu_bench_, name), BENCH_SUFFIX)
#if defined(__has_attribute) && __has_attribute(__noclone__)
#define BENCH_LOOP static __attribute__((__noinline__, __noclone__)) void
#else
#define BENCH_LOOP static __attribute__((__noinline__)) void
#endif

#define RCU_PAIRS(id)                                                          \
	BENCH_LOOP CASE(id)(long iters)                                        \
	{                                                                      \
		for (long i = 0; i < iters; i++) {                             \
			rcu_read_lock();                                       \
			barrier();                                             \
			rcu_read_unlock();                                     \
		}                                                              \
	}

RCU_PAIRS(rcu_sched)
RCU_PAIRS(rcu_preempt)
RCU_PAIRS(rcu_host)

/* The anchor of target 14.1, in the same task as rcu_sched. */
BENCH_LOOP CASE(preempt)(long iters)
{
	for (long i = 0; i < iters; i++) {
		preempt_disable();
		barrier();
		preempt_enable();
	}
}

#if !CONFIG_DEBUG_PREEMPT
/* The loop alone: counter, compare, branch. */
BENCH_LOOP CASE(empty)(long iters)
{
	for (long i = 0; i < iters; i++)
		barrier();
}
#endif

#define ENTRY(label, id, w)                                                    \
	{                                                                      \
		.name = label, .checks = CONFIG_DEBUG_PREEMPT,                 \
		.symbol = BENCH_STR(CASE(id)), .fn = CASE(id), .where = w,     \
	}

const struct rcu_case BENCH_CAT(rcu_cases, BENCH_SUFFIX)[] = {
#if !CONFIG_DEBUG_PREEMPT
	ENTRY("empty loop", empty, RCU_CASE_SCHED),
#endif
	ENTRY("preempt_disable+enable", preempt, RCU_CASE_SCHED),
	ENTRY("rcu_read_lock+unlock non-preemptible", rcu_sched,
	      RCU_CASE_SCHED),
	ENTRY("rcu_read_lock+unlock PREEMPT_RCU", rcu_preempt,
	      RCU_CASE_PREEMPT),
	ENTRY("rcu_read_lock+unlock slow path", rcu_host, RCU_CASE_HOST),
	{0},
};
