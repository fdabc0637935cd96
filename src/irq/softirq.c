// SPDX-License-Identifier: MIT
/*
 * Bottom-half disabling.  The softirq vectors and their processing at
 * local_bh_enable() build on this in the irq layer.
 */
#include <preempt/bottom_half.h>
#include <preempt/bug.h>
#include <preempt/debug.h>
#include <preempt/irqflags.h>

void __local_bh_disable_ip(unsigned long ip, unsigned int cnt)
{
	/* 127 levels fill the softirq byte; one more would spill into hardirq.
	 */
	if (WARN_ONCE(softirq_count() + cnt > SOFTIRQ_MASK,
		      "local_bh_disable() nested too deep"))
		return;
	__preempt_count_add(cnt);
	if (CONFIG_DEBUG_PREEMPT && (unsigned int)preempt_count() == cnt)
		pk_preempt_disable_ip = ip;
}

void __local_bh_enable_ip(unsigned long ip, unsigned int cnt)
{
	(void)ip;
	WARN_ON_ONCE(in_hardirq());
	WARN_ON_ONCE(irqs_disabled());
	/* The bh-disabled part is the even part of the softirq byte. */
	if (WARN_ONCE((softirq_count() & ~SOFTIRQ_OFFSET) < cnt,
		      "local_bh_enable() without local_bh_disable()"))
		return;
	/* Keep preemption off until pending softirqs would have run. */
	__preempt_count_sub(cnt - 1);
	preempt_count_dec();
	preempt_check_resched();
}
