/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KTIME_H
#define _LINUX_KTIME_H

/* ktime_t: nanoseconds, signed 64 bits; ktime_get() is CLOCK_MONOTONIC. */

#include <linux/jiffies.h>
#include <linux/time64.h>
#include <linux/types.h>
#include <preempt/hrtimer.h>

static inline ktime_t ktime_set(const s64 secs, const unsigned long nsecs)
{
	if (unlikely(secs >= KTIME_SEC_MAX))
		return KTIME_MAX;
	return secs * NSEC_PER_SEC + (s64)nsecs;
}
#define ktime_add(a, b) ((a) + (b))
#define ktime_sub(a, b) ((a) - (b))
#define ktime_add_ns(kt, nsval) ((kt) + (nsval))
#define ktime_sub_ns(kt, nsval) ((kt) - (nsval))
#define ktime_add_us(kt, us) ktime_add_ns(kt, (u64)(us)*NSEC_PER_USEC)
#define ktime_add_ms(kt, ms) ktime_add_ns(kt, (u64)(ms)*NSEC_PER_MSEC)
#define ktime_to_ns(kt) ((s64)(kt))
#define ns_to_ktime(ns) ((ktime_t)(ns))
#define ms_to_ktime(ms) ((ktime_t)(ms)*NSEC_PER_MSEC)
#define us_to_ktime(us) ((ktime_t)(us)*NSEC_PER_USEC)
#define ktime_to_us(kt) ((s64)(kt) / NSEC_PER_USEC)
#define ktime_to_ms(kt) ((s64)(kt) / NSEC_PER_MSEC)
#define ktime_us_delta(later, earlier) ktime_to_us(ktime_sub(later, earlier))
#define ktime_ms_delta(later, earlier) ktime_to_ms(ktime_sub(later, earlier))
#define ktime_to_timespec64(kt) ns_to_timespec64(kt)
#define ktime_compare(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)
#define ktime_after(a, b) ((a) > (b))
#define ktime_before(a, b) ((a) < (b))
#define ktime_divns(kt, div) ((s64)(kt) / (div))
#define ktime_get_ns() ktime_to_ns(ktime_get())
#define ktime_get_raw() ktime_get()
#define ktime_get_raw_ns() ktime_get_ns()
#define ktime_get_mono_fast_ns() ktime_get_ns()
#define ktime_get_boottime() ktime_get()
#define ktime_get_boottime_ns() ktime_get_ns()
/** ktime_get_real() - CLOCK_REALTIME in ns.  Any context. */
ktime_t ktime_get_real(void);
#define ktime_get_real_ns() ktime_to_ns(ktime_get_real())
#define ktime_get_real_seconds() (ktime_get_real() / NSEC_PER_SEC)
#define ktime_get_seconds() (ktime_get() / NSEC_PER_SEC)
#define ktime_get_ts64(ts) (*(ts) = ns_to_timespec64(ktime_get()))
#define ktime_get_real_ts64(ts) (*(ts) = ns_to_timespec64(ktime_get_real()))
#define local_clock() ((u64)ktime_get())
#define sched_clock() ((u64)ktime_get())

#endif /* _LINUX_KTIME_H */
