/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_TIMER_H
#define _LINUX_TIMER_H

/*
 * Timers on the machine's tick, the library's (preempt/timer.h): the
 * function runs in softirq context (TIMER_SOFTIRQ; in ktimers/N under
 * PREEMPT_RT) at the first tick at or after expires.  The timer flags are
 * accepted: TIMER_DEFERRABLE and TIMER_PINNED change nothing (timers run
 * where armed); a TIMER_IRQSAFE timer's function runs with interrupts off,
 * and del_timer_sync() may wait for it with them off.
 */

#include <linux/jiffies.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/stddef.h>
#include <preempt/timer.h>

#define TIMER_CPUMASK 0x0003FFFF
#define TIMER_MIGRATING 0x00040000
#define TIMER_DEFERRABLE 0x00080000
#define TIMER_PINNED 0x00100000
#define TIMER_IRQSAFE 0x00200000
#define TIMER_INIT_FLAGS (TIMER_DEFERRABLE | TIMER_PINNED | TIMER_IRQSAFE)

#define __TIMER_INITIALIZER(_function, _flags)                                 \
	{                                                                      \
		.entry = {NULL, NULL}, .function = (_function), .cpu = -1,     \
		.flags = (_flags)&TIMER_IRQSAFE,                               \
	}
/** DEFINE_TIMER() - a timer @_name calling @_function, not armed. */
#define DEFINE_TIMER(_name, _function)                                         \
	struct timer_list _name = __TIMER_INITIALIZER(_function, 0)

#define timer_container_of(var, timer, field) from_timer(var, timer, field)
/** timer_delete() - del_timer(): disarm, 1 if it was pending.  Any context. */
#define timer_delete(t) del_timer(t)
/** timer_delete_sync() - del_timer_sync().  Task context. */
#define timer_delete_sync(t) del_timer_sync(t)
#define timer_shutdown(t) del_timer(t)
#define timer_shutdown_sync(t) del_timer_sync(t)
#define try_to_del_timer_sync(t) del_timer(t)
#define destroy_timer_on_stack(t) ((void)(t))
#define timer_setup_on_stack(t, fn, flags) timer_setup(t, fn, flags)
#define add_timer_global(t) add_timer(t)

/** mod_timer_pending() - mod_timer() only if @t is pending. */
static inline int mod_timer_pending(struct timer_list *t, unsigned long expires)
{
	return timer_pending(t) ? mod_timer(t, expires) : 0;
}
/** timer_reduce() - arm @t for @expires unless it would fire earlier. */
static inline int timer_reduce(struct timer_list *t, unsigned long expires)
{
	if (timer_pending(t) && time_before_eq(t->expires, expires))
		return 1;
	return mod_timer(t, expires);
}

#endif /* _LINUX_TIMER_H */
