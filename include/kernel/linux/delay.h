/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_DELAY_H
#define _LINUX_DELAY_H

/* Busy-waits (any context) and sleeps (task context): the library's. */

#include <linux/jiffies.h>
#include <preempt/delay.h>
#include <preempt/sched.h>

/*
 * The boot's delay-loop calibration: a nominal 8000 BogoMIPS at HZ 1000
 * (src/kernel/time.c).  udelay() here sleeps or spins on the clock, no
 * loop count, so only code that scales a threshold by it reads it.
 */
extern unsigned long loops_per_jiffy;

/** ssleep() - sleep @seconds.  Task context. */
static inline void ssleep(unsigned int seconds)
{
	msleep(seconds * 1000);
}
/** fsleep() - sleep about @usecs, busy-waiting for very short ones. */
static inline void fsleep(unsigned long usecs)
{
	if (usecs <= 10)
		udelay(usecs);
	else if (usecs <= 20000)
		usleep_range(usecs, 2 * usecs);
	else
		msleep((unsigned int)DIV_ROUND_UP(usecs, 1000));
}
/** msleep_interruptible() - msleep(); no signals here: returns 0. */
static inline unsigned long msleep_interruptible(unsigned int msecs)
{
	msleep(msecs);
	return 0;
}
#define usleep_range_state(min, max, state) usleep_range(min, max)

#endif /* _LINUX_DELAY_H */
