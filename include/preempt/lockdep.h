/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_LOCKDEP_H
#define PREEMPT_LOCKDEP_H

/*
 * Context assertions.  Because the count is unconditional and the
 * interrupt-disable depth lives in it, they work under every model and
 * need no lockdep state.
 */

#include <preempt/bug.h>
#include <preempt/debug.h>

#if CONFIG_DEBUG_ATOMIC_SLEEP
/** lockdep_assert_irqs_enabled() - warn once if interrupts are off. */
#define lockdep_assert_irqs_enabled()                                          \
	do {                                                                   \
		WARN_ON_ONCE(irqs_disabled());                                 \
	} while (0)
/** lockdep_assert_irqs_disabled() - warn once if interrupts are on. */
#define lockdep_assert_irqs_disabled()                                         \
	do {                                                                   \
		WARN_ON_ONCE(!irqs_disabled());                                \
	} while (0)
/** lockdep_assert_preemption_enabled() - warn once unless preemptible. */
#define lockdep_assert_preemption_enabled()                                    \
	do {                                                                   \
		WARN_ON_ONCE(preempt_count() != 0 || irqs_disabled());         \
	} while (0)
/** lockdep_assert_preemption_disabled() - warn once if preemptible. */
#define lockdep_assert_preemption_disabled()                                   \
	do {                                                                   \
		WARN_ON_ONCE(preempt_count() == 0 && !irqs_disabled());        \
	} while (0)
/** lockdep_assert_in_softirq() - warn once unless in softirq context. */
#define lockdep_assert_in_softirq()                                            \
	do {                                                                   \
		WARN_ON_ONCE(!in_softirq() || in_hardirq() || in_nmi());       \
	} while (0)
#else
#define lockdep_assert_irqs_enabled()                                          \
	do {                                                                   \
	} while (0)
#define lockdep_assert_irqs_disabled()                                         \
	do {                                                                   \
	} while (0)
#define lockdep_assert_preemption_enabled()                                    \
	do {                                                                   \
	} while (0)
#define lockdep_assert_preemption_disabled()                                   \
	do {                                                                   \
	} while (0)
#define lockdep_assert_in_softirq()                                            \
	do {                                                                   \
	} while (0)
#endif

#endif /* PREEMPT_LOCKDEP_H */
