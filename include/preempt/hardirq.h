/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_HARDIRQ_H
#define PREEMPT_HARDIRQ_H

/*
 * Interrupt and NMI entry and exit: what the signal handlers of the irq
 * layer do around a handler, exported for code that emulates its own
 * interrupt sources.  The predicates (in_hardirq(), in_nmi(), ...) are in
 * preempt.h.
 */

#include <preempt/bug.h>
#include <preempt/preempt.h>

/**
 * irq_enter() - enter hardirq context
 *
 * With interrupts disabled, from the interrupt entry path.
 */
void irq_enter(void);

/**
 * irq_exit() - leave hardirq context; runs pending softirqs when that
 * leaves no interrupt context (never under the rt model)
 *
 * With interrupts disabled, paired with irq_enter().
 */
void irq_exit(void);

/**
 * nmi_enter() - enter NMI context (adds NMI_OFFSET + HARDIRQ_OFFSET)
 *
 * From the NMI entry path; nests up to 15 deep (BUG beyond).
 */
static __always_inline void nmi_enter(void)
{
	BUG_ON(in_nmi() == NMI_MASK);
	__preempt_count_add(NMI_OFFSET + HARDIRQ_OFFSET);
}

/**
 * nmi_exit() - leave NMI context
 *
 * Paired with nmi_enter().
 */
static __always_inline void nmi_exit(void)
{
	BUG_ON(!in_nmi());
	__preempt_count_sub(NMI_OFFSET + HARDIRQ_OFFSET);
}

#endif /* PREEMPT_HARDIRQ_H */
