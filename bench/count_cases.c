// SPDX-License-Identifier: MIT
/*
 * The count layer's hot paths in loops, compiled as a user compiles them:
 * the header inlined into the caller.  bench/CMakeLists.txt builds this file
 * twice, with CONFIG_DEBUG_PREEMPT and CONFIG_DEBUG_ATOMIC_SLEEP both 0 and
 * both 1; the functions and the table get a _nodebug or _debug suffix.
 *
 * Each loop is the operation and nothing else: the loop counter, the
 * compare and the branch are the same in every case, and the "empty loop"
 * case measures them.  Where the operation would otherwise be hoisted out
 * of the loop (the predicates read the word through a non-volatile asm), a
 * compiler barrier per iteration forces one read per iteration; it emits no
 * instruction.
 */
#if !defined(CONFIG_DEBUG_PREEMPT) || !defined(CONFIG_DEBUG_ATOMIC_SLEEP)
#define BENCH_UNCONFIGURED 1
#else
#define BENCH_UNCONFIGURED 0
#endif
_Static_assert(!BENCH_UNCONFIGURED,
	       "compile with -DCONFIG_DEBUG_PREEMPT=0|1 "
	       "-DCONFIG_DEBUG_ATOMIC_SLEEP=0|1 (see bench/CMakeLists.txt)");

#define BENCH_CAT_(a, b) a##b
#define BENCH_CAT(a, b) BENCH_CAT_(a, b)

#include <preempt/debug.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>

#include "count_cases.h"

#define BENCH_STR_(x) #x
#define BENCH_STR(x) BENCH_STR_(x)

#if CONFIG_DEBUG_PREEMPT
#define BENCH_SUFFIX _debug
#else
#define BENCH_SUFFIX _nodebug
#endif

/* bench_<case>_debug or bench_<case>_nodebug. */
#define CASE(name) BENCH_CAT(BENCH_CAT(bench_, name), BENCH_SUFFIX)
#if defined(__has_attribute) && __has_attribute(__noclone__)
#define BENCH_LOOP static __attribute__((__noinline__, __noclone__)) void
#else
#define BENCH_LOOP static __attribute__((__noinline__)) void
#endif

#define ENTRY(label, id)                                                       \
	{                                                                      \
		.name = label, .debug = CONFIG_DEBUG_PREEMPT,                  \
		.symbol = BENCH_STR(CASE(id)), .fn = CASE(id),                 \
	}

#if !CONFIG_DEBUG_PREEMPT
/* The loop alone: counter, compare, branch. */
BENCH_LOOP CASE(empty)(long iters)
{
	for (long i = 0; i < iters; i++)
		barrier();
}

/*
 * The baseline: one TLS increment and one decrement, written exactly as
 * preempt.h writes the word (a memory-operand asm with a memory clobber, on
 * an extern initial-exec variable), so only what preempt_disable() and
 * preempt_enable() add on top shows in the ratio.
 */
BENCH_LOOP CASE(tls_baseline)(long iters)
{
	for (long i = 0; i < iters; i++) {
		__asm__ __volatile__("incl %0"
				     : "+m"(bench_tls_word)::"memory");
		__asm__ __volatile__("decl %0"
				     : "+m"(bench_tls_word)::"memory");
	}
}

/* One loop per predicate, and all five together as a caller would. */
#define PREDICATE_LOOP(name, expr)                                             \
	BENCH_LOOP CASE(name)(long iters)                                      \
	{                                                                      \
		unsigned long sum = 0;                                         \
                                                                               \
		for (long i = 0; i < iters; i++) {                             \
			barrier();                                             \
			sum += (expr);                                         \
		}                                                              \
		bench_sink = sum;                                              \
	}

PREDICATE_LOOP(in_atomic, in_atomic())
PREDICATE_LOOP(preemptible, preemptible())
PREDICATE_LOOP(in_task, in_task())
PREDICATE_LOOP(in_interrupt, in_interrupt())
PREDICATE_LOOP(irqs_disabled, irqs_disabled())
PREDICATE_LOOP(predicates_all, in_atomic() + preemptible() + in_task() +
				       in_interrupt() + irqs_disabled())
#endif /* !CONFIG_DEBUG_PREEMPT */

BENCH_LOOP CASE(preempt_pair)(long iters)
{
	for (long i = 0; i < iters; i++) {
		preempt_disable();
		preempt_enable();
	}
}

BENCH_LOOP CASE(irq_save_restore)(long iters)
{
	for (long i = 0; i < iters; i++) {
		unsigned long flags;

		local_irq_save(flags);
		local_irq_restore(flags);
	}
}

/* In a preemptible task: the check passes silently every time. */
BENCH_LOOP CASE(might_sleep)(long iters)
{
	for (long i = 0; i < iters; i++)
		might_sleep();
}

const struct bench_case BENCH_CAT(bench_cases, BENCH_SUFFIX)[] = {
#if !CONFIG_DEBUG_PREEMPT
	ENTRY("empty loop (reference)", empty),
	ENTRY("TLS incl+decl (baseline)", tls_baseline),
#endif
	ENTRY("preempt_disable+enable", preempt_pair),
#if !CONFIG_DEBUG_PREEMPT
	ENTRY("in_atomic()", in_atomic),
	ENTRY("preemptible()", preemptible),
	ENTRY("in_task()", in_task),
	ENTRY("in_interrupt()", in_interrupt),
	ENTRY("irqs_disabled()", irqs_disabled),
	ENTRY("all five predicates", predicates_all),
#endif
	ENTRY("local_irq_save+restore", irq_save_restore),
	ENTRY("might_sleep()", might_sleep),
	{.name = NULL},
};
