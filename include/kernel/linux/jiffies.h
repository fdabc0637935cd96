/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_JIFFIES_H
#define _LINUX_JIFFIES_H

/*
 * jiffies: ticks since the machine booted, real variables the tick
 * advances (kernel code may take their address).  HZ is CONFIG_HZ, a
 * constant as in the kernel; the machine must tick at that rate (the
 * default; booting at another $PREEMPT_HZ with kernel code linked is
 * reported at boot).  The time_*() comparisons are safe across wrap.
 */

#include <limits.h>
#include <linux/math.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <preempt/delay.h>

#define HZ CONFIG_HZ
#define USER_HZ 100
#define TICK_NSEC (NSEC_PER_SEC / HZ)
/* A tick in microseconds, rounded to the nearest. */
#define TICK_USEC ((USEC_PER_SEC + HZ / 2) / HZ)
#define MAX_JIFFY_OFFSET ((LONG_MAX >> 1) - 1)
/* Where jiffies start at boot (on a machine ticking at HZ). */
#define INITIAL_JIFFIES ((unsigned long)(unsigned int)(-300 * HZ))

extern u64 jiffies_64;
/* jiffies is declared by preempt/delay.h: volatile unsigned long. */

/** get_jiffies_64() - jiffies_64, read whole.  Any context. */
static inline u64 get_jiffies_64(void)
{
	return __atomic_load_n(&jiffies_64, __ATOMIC_RELAXED);
}

#define time_after(a, b) ((long)((b) - (a)) < 0)
#define time_before(a, b) time_after(b, a)
#define time_after_eq(a, b) ((long)((a) - (b)) >= 0)
#define time_before_eq(a, b) time_after_eq(b, a)
#define time_in_range(a, b, c) (time_after_eq(a, b) && time_before_eq(a, c))
#define time_in_range_open(a, b, c) (time_after_eq(a, b) && time_before(a, c))
#define time_after64(a, b) ((s64)((b) - (a)) < 0)
#define time_before64(a, b) time_after64(b, a)
#define time_after_eq64(a, b) ((s64)((a) - (b)) >= 0)
#define time_before_eq64(a, b) time_after_eq64(b, a)
#define time_is_before_jiffies(a) time_after(jiffies, a)
#define time_is_after_jiffies(a) time_before(jiffies, a)
#define time_is_before_eq_jiffies(a) time_after_eq(jiffies, a)
#define time_is_after_eq_jiffies(a) time_before_eq(jiffies, a)

/* Conversions round up to whole ticks; negative inputs give the maximum. */
static inline unsigned long __pk_to_jiffies(u64 v, u64 per_sec)
{
	u64 j = (v * HZ + per_sec - 1) / per_sec;

	return j > MAX_JIFFY_OFFSET ? MAX_JIFFY_OFFSET : (unsigned long)j;
}
static inline unsigned long __msecs_to_jiffies(const unsigned int m)
{
	if ((int)m < 0)
		return MAX_JIFFY_OFFSET;
	return __pk_to_jiffies(m, MSEC_PER_SEC);
}
/* msecs_to_jiffies() is the library's function (preempt/delay.h). */
static inline unsigned long usecs_to_jiffies(const unsigned int u)
{
	if ((int)u < 0)
		return MAX_JIFFY_OFFSET;
	return __pk_to_jiffies(u, USEC_PER_SEC);
}
static inline unsigned long nsecs_to_jiffies(u64 n)
{
	return __pk_to_jiffies(n, NSEC_PER_SEC);
}
static inline u64 nsecs_to_jiffies64(u64 n)
{
	return n / (NSEC_PER_SEC / HZ);
}
static inline unsigned int jiffies_to_msecs(const unsigned long j)
{
	return (unsigned int)(j * (MSEC_PER_SEC / HZ));
}
static inline unsigned int jiffies_to_usecs(const unsigned long j)
{
	return (unsigned int)(j * (USEC_PER_SEC / HZ));
}
static inline u64 jiffies_to_nsecs(const unsigned long j)
{
	return (u64)j * (NSEC_PER_SEC / HZ);
}
static inline u64 jiffies64_to_nsecs(u64 j)
{
	return j * (NSEC_PER_SEC / HZ);
}
static inline u64 jiffies64_to_msecs(u64 j)
{
	return j * (MSEC_PER_SEC / HZ);
}
static inline unsigned long timespec64_to_jiffies(const struct timespec64 *ts)
{
	return nsecs_to_jiffies((u64)ts->tv_sec * NSEC_PER_SEC +
				(u64)ts->tv_nsec);
}
#define secs_to_jiffies(s) ((unsigned long)(s)*HZ)
/** round_jiffies() - @j rounded to a whole second (timers batch there). */
static inline unsigned long round_jiffies(unsigned long j)
{
	return roundup(j, HZ);
}
#define round_jiffies_relative(j) round_jiffies(j)
#define round_jiffies_up(j) round_jiffies(j)
#define round_jiffies_up_relative(j) round_jiffies(j)

#endif /* _LINUX_JIFFIES_H */
