/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_DELAY_H
#define PREEMPT_DELAY_H

/* Sleeping for a while (the kernel's linux/delay.h), on the machine's tick. */

/** msleep() - sleep at least @msecs milliseconds.  Task context. */
void msleep(unsigned int msecs);

/** usleep_range() - sleep between @min and @max microseconds.  Task. */
void usleep_range(unsigned long min, unsigned long max);

/**
 * ndelay() - busy-wait at least @nsecs nanoseconds.  Any context: it never
 * sleeps.  An interrupt does not preempt the caller inside it (library
 * code is no safe point); a reschedule owed is taken after it returns.
 */
void ndelay(unsigned long nsecs);
/** udelay() - busy-wait at least @usecs microseconds.  Any context. */
#define udelay(usecs) ndelay((unsigned long)(usecs)*1000UL)
/** mdelay() - busy-wait at least @msecs milliseconds.  Any context. */
#define mdelay(msecs) ndelay((unsigned long)(msecs)*1000000UL)

/** msecs_to_jiffies() - ticks covering @m milliseconds, rounded up. */
unsigned long msecs_to_jiffies(unsigned int m);

/**
 * jiffies_now() - the jiffies count now, from the machine's clock.  Any
 * context.  It starts at boot where the kernel's does, INITIAL_JIFFIES:
 * (unsigned int)(-300 * HZ), five minutes before the 32-bit count wraps.
 */
unsigned long jiffies_now(void);

/*
 * jiffies - ticks, from INITIAL_JIFFIES at boot, a variable the tick
 * advances (as in the kernel: code may take its address).  Stands still while
 * no vCPU takes a tick; jiffies_now() reads the clock instead.
 */
extern volatile unsigned long jiffies;

#endif /* PREEMPT_DELAY_H */
