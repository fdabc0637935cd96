/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TIMER_H
#define PREEMPT_TIMER_H

/*
 * Timers on the machine's tick (the kernel's timer wheel, as a sorted list
 * per vCPU): the function runs in softirq context (TIMER_SOFTIRQ) on the
 * CPU that armed the timer, at the first tick at or after expires.
 */

#include <stdbool.h>
#include <preempt/list.h>

struct timer_list {
	struct list_head entry;
	unsigned long expires; /* in jiffies */
	void (*function)(struct timer_list *t);
	int cpu;	    /* -1 when not pending */
	unsigned int flags; /* timer_setup()'s: TIMER_IRQSAFE is kept */
};

/* The callback runs with interrupts disabled; del_timer_sync() may be
 * called with them disabled (it spins then). */
#define TIMER_IRQSAFE 0x00200000

/** timer_setup() - initialize @t to call @fn.  Any context. */
void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *),
		 unsigned int flags);
/**
 * mod_timer() - (re)arm @t for @expires on this CPU
 *
 * Any context on a vCPU.  Returns 1 if it was pending, 0 if not.
 */
int mod_timer(struct timer_list *t, unsigned long expires);
/** add_timer() - arm a timer that is not pending. */
void add_timer(struct timer_list *t);
/**
 * add_timer_on() - arm @t for its expires on vCPU @cpu
 *
 * Any context, any thread, while a machine runs (its function runs on
 * @cpu).
 */
void add_timer_on(struct timer_list *t, int cpu);
/** timer_pending() - is @t armed?  Any context. */
bool timer_pending(const struct timer_list *t);
/** del_timer() - disarm @t; returns 1 if it was pending.  Any context. */
int del_timer(struct timer_list *t);
/**
 * del_timer_sync() - disarm @t and wait until its function is not running
 *
 * Task context, not from the timer's own function.
 */
int del_timer_sync(struct timer_list *t);

#define from_timer(var, timer, field)                                          \
	((__typeof__(var))((char *)(timer) -                                   \
			   __builtin_offsetof(__typeof__(*var), field)))

#endif /* PREEMPT_TIMER_H */
