/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_CLOCK_H
#define _LINUX_SCHED_CLOCK_H

/*
 * Nanosecond clocks for timestamps: all three are the machine's monotonic
 * clock (ktime_get()), so they agree across CPUs.  Any context.
 */

#include <linux/ktime.h>

#define running_clock() sched_clock()
#define cpu_clock(cpu) ((void)(cpu), sched_clock())

#endif /* _LINUX_SCHED_CLOCK_H */
