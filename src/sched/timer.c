// SPDX-License-Identifier: MIT
/*
 * Timers and sleeping: a sorted list per vCPU, expired from TIMER_SOFTIRQ
 * (which the tick raises when the first entry is due), schedule_timeout()
 * and msleep() on top.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include <preempt/bottom_half.h>
#include <preempt/bug.h>
#include <preempt/delay.h>
#include <preempt/hrtimer.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>
#include <preempt/timer.h>

#include "sched_internal.h"
#include "../port/sim.h"

void timer_setup(struct timer_list *t, void (*fn)(struct timer_list *),
		 unsigned int flags)
{
	INIT_LIST_HEAD(&t->entry);
	t->function = fn;
	t->cpu = -1;
	t->expires = 0;
	t->flags = flags & TIMER_IRQSAFE; /* the only flag with a meaning */
}

bool timer_pending(const struct timer_list *t)
{
	return __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE) >= 0;
}

/* Lock the rq that holds @t, or return NULL when it is not pending. */
static struct rq *lock_timer_rq(struct timer_list *t)
{
	for (;;) {
		int cpu = __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE);
		struct rq *rq = pk_cpu_rq(cpu);

		if (!rq)
			return NULL;
		pk_raw_lock(&rq->timer_lock);
		if (t->cpu == cpu)
			return rq;
		pk_raw_unlock(&rq->timer_lock);
	}
}

static int detach_timer(struct timer_list *t)
{
	struct rq *rq = lock_timer_rq(t);

	if (!rq)
		return 0;
	list_del_init(&t->entry);
	__atomic_store_n(&t->cpu, -1, __ATOMIC_RELEASE);
	pk_raw_unlock(&rq->timer_lock);
	return 1;
}

int del_timer(struct timer_list *t)
{
	unsigned long flags;
	int was;

	local_irq_save(flags);
	was = detach_timer(t);
	local_irq_restore(flags);
	return was;
}

/*
 * Interrupts off, @t detached: arm it on @rq.  A CPU whose tick is stopped
 * and aimed later (or nowhere) is kicked to aim it again, as the kernel's
 * wake_up_nohz_cpu().
 */
#define PK_MAX_JIFFY_OFFSET ((long)(~0UL >> 2) - 1)

static void enqueue_timer(struct rq *rq, struct timer_list *t,
			  unsigned long expires)
{
	struct timer_list *pos, *n;
	bool kick;

	/*
	 * The list is sorted by wrapping differences: two expiries more
	 * than LONG_MAX apart would compare backwards, and a far one would
	 * block every timer queued behind it.  As the kernel, no timer is
	 * further away than MAX_JIFFY_OFFSET.
	 */
	if ((long)(expires - pk_jiffies()) > PK_MAX_JIFFY_OFFSET)
		expires = pk_jiffies() + PK_MAX_JIFFY_OFFSET;
	pk_raw_lock(&rq->timer_lock);
	kick = rq->tick_stopped &&
	       (!rq->nohz_next_set || (long)(expires - rq->nohz_next) < 0);
	t->expires = expires;
	list_for_each_entry_safe(pos, n, &rq->timers,
				 entry) if ((long)(expires - pos->expires) <
					    0) break;
	list_add_tail(&t->entry, &pos->entry);
	__atomic_store_n(&t->cpu, rq->cpu, __ATOMIC_RELEASE);
	pk_raw_unlock(&rq->timer_lock);
	if (kick)
		pk_nohz_kick(rq);
}

int mod_timer(struct timer_list *t, unsigned long expires)
{
	unsigned long flags;
	int was;

	if (WARN_ON_ONCE(!pk_this_rq))
		return 0;
	local_irq_save(flags);
	was = detach_timer(t);
	/* Interrupts are off: we stay on this vCPU. */
	enqueue_timer(pk_this_rq, t, expires);
	local_irq_restore(flags);
	return was;
}

void add_timer_on(struct timer_list *t, int cpu)
{
	struct rq *rq = pk_cpu_rq(cpu);
	unsigned long flags;

	if (WARN_ON_ONCE(!rq))
		return;
	local_irq_save(flags);
	detach_timer(t);
	enqueue_timer(rq, t, t->expires);
	local_irq_restore(flags);
}

void add_timer(struct timer_list *t)
{
	mod_timer(t, t->expires);
}

/*
 * Wait until @t's callback is no longer running on @rq's CPU.  On our own
 * CPU only an rt softirq that we preempted can be running it: waiting for
 * the CPU's bh lock lets it finish, and lends it our priority, as
 * PREEMPT_RT's timer expiry lock does.
 */
static void wait_running_timer(struct rq *rq, struct timer_list *t)
{
	while (__atomic_load_n(&rq->running_timer, __ATOMIC_ACQUIRE) == t) {
		if (rq != pk_this_rq) {
			pk_host_yield();
			continue;
		}
		/*
		 * Running on our own CPU, where we can only wait for it if we
		 * preempted it: from the callback itself (an IRQSAFE one runs
		 * with interrupts off), from a handler that interrupted it, or
		 * with interrupts off, it would never finish.
		 */
		if (WARN_ONCE(in_serving_softirq() || in_hardirq() ||
				      irqs_disabled(),
			      "del_timer_sync() from its own callback"))
			return;
		local_bh_disable();
		local_bh_enable();
	}
}

int del_timer_sync(struct timer_list *t)
{
	int was;

	/* An IRQSAFE timer's callback cannot be preempted: waiting for it
	 * is a short spin, allowed with interrupts off (the kernel's
	 * flush_delayed_work() does so). */
	if (!(t->flags & TIMER_IRQSAFE))
		might_sleep();
	was = del_timer(t);
	for (int i = 0; i < num_online_cpus(); i++)
		wait_running_timer(pk_cpu_rq(i), t);
	return was;
}

/* The first timer's expiry into @expires, if any.  timer_lock held. */
bool pk_timers_next(struct rq *rq, unsigned long *expires)
{
	if (list_empty(&rq->timers))
		return false;
	*expires = list_first_entry(&rq->timers, struct timer_list, entry)
			   ->expires;
	return true;
}

/* From the tick, hardirq context. */
bool pk_timers_due(struct rq *rq)
{
	struct timer_list *first;
	bool due = false;

	pk_raw_lock(&rq->timer_lock);
	if (!list_empty(&rq->timers)) {
		first = list_first_entry(&rq->timers, struct timer_list, entry);
		due = (long)(pk_jiffies() - first->expires) >= 0;
	}
	pk_raw_unlock(&rq->timer_lock);
	return due;
}

/* TIMER_SOFTIRQ: run what is due on this CPU. */
void pk_timers_run(struct rq *rq)
{
	unsigned long now = pk_jiffies();

	for (;;) {
		struct timer_list *t = NULL;
		unsigned long flags;
		bool t_irqsafe;

		local_irq_save(flags);
		pk_raw_lock(&rq->timer_lock);
		if (!list_empty(&rq->timers)) {
			t = list_first_entry(&rq->timers, struct timer_list,
					     entry);
			if ((long)(now - t->expires) < 0)
				t = NULL;
		}
		if (t) {
			list_del_init(&t->entry);
			/* running first: del_timer_sync() that sees the timer
			 * gone must also see it running. */
			__atomic_store_n(&rq->running_timer, t,
					 __ATOMIC_RELEASE);
			__atomic_store_n(&t->cpu, -1, __ATOMIC_RELEASE);
		}
		pk_raw_unlock(&rq->timer_lock);
		if (!t) {
			local_irq_restore(flags);
			return;
		}
		/* IRQSAFE: the callback and its running mark with interrupts
		 * off, so a waiter spinning with them off never waits on a
		 * preempted callback. */
		/* Read before the call: the callback may free @t. */
		t_irqsafe = t->flags & TIMER_IRQSAFE;
		if (!t_irqsafe)
			local_irq_restore(flags);
		t->function(t);
		__atomic_store_n(&rq->running_timer, NULL, __ATOMIC_RELEASE);
		if (t_irqsafe)
			local_irq_restore(flags);
	}
}

static void run_timer_softirq(void)
{
	/* On the vCPU, or in its ksoftirqd (always so under rt). */
	struct rq *rq = pk_this_rq ? pk_this_rq : pk_irq_cpu_owner();

	if (rq)
		pk_timers_run(rq);
}

__attribute__((constructor)) static void timer_softirq_init(void)
{
	open_softirq(TIMER_SOFTIRQ, run_timer_softirq);
}

/* ---- sleeping ---- */

struct process_timer {
	struct timer_list timer;
	struct task_struct *task;
};

static void process_timeout(struct timer_list *t)
{
	struct process_timer *pt = from_timer(pt, t, timer);

	wake_up_process(pt->task);
}

/* A host thread's task parks until woken or the timeout passes. */
static long host_schedule_timeout(long timeout)
{
	long long tick_ns = 1000000000LL / pk_machine_hz();
	long long now = pk_clock_ns(), deadline;

	/* Beyond a century: no deadline (MAX_SCHEDULE_TIMEOUT and such). */
	deadline = timeout < 3155760000LL * pk_machine_hz()
			   ? now + timeout * tick_ns
			   : 0;
	if (!pk_host_park(deadline))
		return 0;
	now = pk_clock_ns();
	if (!deadline)
		return timeout;
	return deadline > now ? (long)((deadline - now + tick_ns - 1) / tick_ns)
			      : 0;
}

long schedule_timeout(long timeout)
{
	struct process_timer pt;
	unsigned long expire;
	long left;

	if (!pk_this_rq)
		return host_schedule_timeout(timeout);
	/* No deadline: no timer (one at jiffies + LONG_MAX would sort wrong).
	 */
	if (timeout == MAX_SCHEDULE_TIMEOUT) {
		schedule();
		return timeout;
	}
	if (timeout < 0) {
		__set_current_state(TASK_RUNNING);
		return 0;
	}
	expire = pk_jiffies() + (unsigned long)timeout;
	pt.task = current;
	timer_setup(&pt.timer, process_timeout, 0);
	mod_timer(&pt.timer, expire);
	schedule();
	del_timer_sync(&pt.timer);
	left = (long)(expire - pk_jiffies());
	return left < 0 ? 0 : left;
}

long schedule_timeout_uninterruptible(long timeout)
{
	__set_current_state(TASK_UNINTERRUPTIBLE);
	return schedule_timeout(timeout);
}

unsigned long msecs_to_jiffies(unsigned int m)
{
	unsigned long hz = (unsigned long)pk_machine_hz();

	return ((unsigned long)m * hz + 999) / 1000;
}

void ndelay(unsigned long nsecs)
{
	long end = pk_now_ns() + (long)nsecs;

	/* Simulated time passes by itself: the delay is a point. */
	if (pk_sim_active()) {
		pk_clock_advance((long long)nsecs);
		pk_sim_point(PK_SIM_SPIN);
		return;
	}
	/* Mostly relaxing, not reading the clock: a busy CPU, not a
	 * syscall-bound one. */
	do {
		for (int i = 0; i < 64; i++)
			pk_cpu_relax();
	} while (pk_now_ns() < end);
}

void msleep(unsigned int msecs)
{
	/* One more tick: the current one is already partly over. */
	long timeout = (long)msecs_to_jiffies(msecs) + 1;

	while (timeout)
		timeout = schedule_timeout_uninterruptible(timeout);
}

/* On a high-resolution timer: microseconds, not ticks. */
void usleep_range(unsigned long min, unsigned long max)
{
	ktime_t until = ktime_get() + (ktime_t)min * 1000;

	(void)max; /* the kernel uses the slack to batch wake-ups */
	do {
		__set_current_state(TASK_UNINTERRUPTIBLE);
	} while (schedule_hrtimeout(&until, HRTIMER_MODE_ABS));
}
