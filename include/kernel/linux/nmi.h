/* SPDX-License-Identifier: MIT */
#ifndef LINUX_NMI_H
#define LINUX_NMI_H

/*
 * The lockup detectors: the machine has none (RCU's stall detector aside),
 * so touching the watchdogs does nothing.
 */

#include <linux/sched.h>

static inline void touch_nmi_watchdog(void)
{
}

static inline void touch_softlockup_watchdog(void)
{
}

static inline void touch_all_softlockup_watchdogs(void)
{
}

/** trigger_all_cpu_backtrace() - no NMI backtraces on request: false. */
static inline bool trigger_all_cpu_backtrace(void)
{
	return false;
}

static inline bool trigger_single_cpu_backtrace(int cpu)
{
	(void)cpu;
	return false;
}

#endif
