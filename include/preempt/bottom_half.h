/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_BOTTOM_HALF_H
#define PREEMPT_BOTTOM_HALF_H

/*
 * Disabling bottom halves adds SOFTIRQ_DISABLE_OFFSET (0x200) to the word;
 * serving a softirq adds SOFTIRQ_OFFSET (0x100).  Softirq vectors and
 * their processing at local_bh_enable() belong to the irq layer.
 */

#include <preempt/preempt.h>

void __local_bh_disable_ip(unsigned long ip, unsigned int cnt);
void __local_bh_enable_ip(unsigned long ip, unsigned int cnt);

/**
 * local_bh_disable() - keep softirqs from running on this CPU
 *
 * Task or softirq context; nests.  Also disables preemption.
 */
static __always_inline void local_bh_disable(void)
{
	__local_bh_disable_ip(_THIS_IP_, SOFTIRQ_DISABLE_OFFSET);
}

/**
 * local_bh_enable() - undo local_bh_disable()
 *
 * Task or softirq context, never hardirq (reported).  A preemption point.
 */
static __always_inline void local_bh_enable(void)
{
	__local_bh_enable_ip(_THIS_IP_, SOFTIRQ_DISABLE_OFFSET);
}

#endif /* PREEMPT_BOTTOM_HALF_H */
