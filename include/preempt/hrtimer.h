/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_HRTIMER_H
#define PREEMPT_HRTIMER_H

/*
 * High-resolution timers, for precise wake-ups: each vCPU keeps its armed
 * hrtimers sorted and a one-shot POSIX timer (aimed at its thread) set to
 * the first; its expiry raises PK_HRTIMER_IRQ and the functions run in
 * hardirq context on that CPU, as the kernel's do by default.
 */

#include <stdint.h>
#include <time.h>

#include <preempt/list.h>

typedef int64_t ktime_t; /* nanoseconds on CLOCK_MONOTONIC */

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_ABS = 0, HRTIMER_MODE_REL = 1 };

struct hrtimer {
	struct list_head node;
	ktime_t expires;
	enum hrtimer_restart (*function)(struct hrtimer *timer);
	int cpu; /* -1 when not armed */
};

/** ktime_get() - CLOCK_MONOTONIC in nanoseconds.  Any context. */
ktime_t ktime_get(void);

/** hrtimer_setup() - initialize @timer to call @fn.  Any context. */
void hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*fn)(struct hrtimer *),
		   clockid_t clock, enum hrtimer_mode mode);

/**
 * hrtimer_start() - arm @timer on this CPU for @tim (absolute or relative)
 *
 * Any context on a vCPU.  Re-arming an armed timer moves it.
 */
void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode);

/**
 * hrtimer_cancel() - disarm @timer, waiting if its function runs
 *
 * Task context, not from the timer's own function.  Returns 1 if it was
 * armed.
 */
int hrtimer_cancel(struct hrtimer *timer);

/** hrtimer_active() - is @timer armed?  Any context. */
int hrtimer_active(const struct hrtimer *timer);

/** hrtimer_forward_now() - push expires by @interval until it is future. */
uint64_t hrtimer_forward_now(struct hrtimer *timer, ktime_t interval);

/**
 * schedule_hrtimeout() - sleep until @expires (or a wake-up)
 *
 * Task context; set the task state first.  Returns 0 when the time came,
 * -EINTR when woken earlier.
 */
int schedule_hrtimeout(ktime_t *expires, enum hrtimer_mode mode);

#endif /* PREEMPT_HRTIMER_H */
