// SPDX-License-Identifier: MIT
/*
 * High-resolution timers: per vCPU, a sorted list and a one-shot POSIX
 * timer programmed to its first entry.  The expiry raises PK_HRTIMER_IRQ;
 * its handler runs what is due in hardirq context and programs the next.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include <preempt/bug.h>
#include <preempt/hrtimer.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>

#include "../irq/irq.h"
#include "sched_internal.h"
#include "../port/sim.h"

ktime_t ktime_get(void)
{
	return pk_clock_ns();
}

void hrtimer_setup(struct hrtimer *timer,
		   enum hrtimer_restart (*fn)(struct hrtimer *),
		   clockid_t clock, enum hrtimer_mode mode)
{
	(void)clock; /* CLOCK_MONOTONIC only */
	(void)mode;
	INIT_LIST_HEAD(&timer->node);
	timer->function = fn;
	timer->expires = 0;
	timer->cpu = -1;
}

int hrtimer_active(const struct hrtimer *timer)
{
	return __atomic_load_n(&timer->cpu, __ATOMIC_ACQUIRE) >= 0;
}

/* Program the CPU's POSIX timer for its first hrtimer.  rq->hr_lock held. */
static void program_next(struct rq *rq)
{
	ktime_t next;

	if (list_empty(&rq->hrtimers))
		return; /* an early expiry finds nothing due: harmless */
	next = list_first_entry(&rq->hrtimers, struct hrtimer, node)->expires;
	if (next <= 0)
		next = 1;
	pk_irq_timer_arm(rq->hr_timer, next, 0, true);
}

static struct rq *lock_hrtimer_rq(struct hrtimer *timer)
{
	for (;;) {
		int cpu = __atomic_load_n(&timer->cpu, __ATOMIC_ACQUIRE);
		struct rq *rq = pk_cpu_rq(cpu);

		if (!rq)
			return NULL;
		pk_raw_lock(&rq->hr_lock);
		if (timer->cpu == cpu)
			return rq;
		pk_raw_unlock(&rq->hr_lock);
	}
}

static int detach(struct hrtimer *timer)
{
	struct rq *rq = lock_hrtimer_rq(timer);

	if (!rq)
		return 0;
	list_del_init(&timer->node);
	__atomic_store_n(&timer->cpu, -1, __ATOMIC_RELEASE);
	pk_raw_unlock(&rq->hr_lock);
	return 1;
}

static void enqueue(struct rq *rq, struct hrtimer *timer)
{
	struct hrtimer *pos, *n;

	list_for_each_entry_safe(pos, n, &rq->hrtimers,
				 node) if (timer->expires < pos->expires) break;
	list_add_tail(&timer->node, &pos->node);
	__atomic_store_n(&timer->cpu, rq->cpu, __ATOMIC_RELEASE);
	if (rq->hrtimers.next == &timer->node)
		program_next(rq);
}

void hrtimer_start(struct hrtimer *timer, ktime_t tim, enum hrtimer_mode mode)
{
	struct rq *rq;
	unsigned long flags;

	if (WARN_ON_ONCE(!pk_this_rq))
		return;
	local_irq_save(flags);
	detach(timer);
	rq = pk_this_rq; /* interrupts are off: we stay on this vCPU */
	timer->expires = mode == HRTIMER_MODE_REL ? ktime_get() + tim : tim;
	pk_raw_lock(&rq->hr_lock);
	enqueue(rq, timer);
	pk_raw_unlock(&rq->hr_lock);
	local_irq_restore(flags);
}

int hrtimer_cancel(struct hrtimer *timer)
{
	unsigned long flags;
	int was;

	might_sleep();
	local_irq_save(flags);
	was = detach(timer);
	local_irq_restore(flags);
	for (int i = 0; i < num_online_cpus(); i++)
		while (__atomic_load_n(&pk_cpu_rq(i)->running_hrtimer,
				       __ATOMIC_ACQUIRE) == timer)
			pk_host_yield();
	return was;
}

uint64_t hrtimer_forward_now(struct hrtimer *timer, ktime_t interval)
{
	ktime_t now = ktime_get();
	uint64_t n = 0;

	if (interval <= 0)
		return 0;
	while (timer->expires <= now) {
		timer->expires += interval;
		n++;
	}
	return n;
}

/* PK_HRTIMER_IRQ on this CPU: hardirq context, interrupts disabled. */
void pk_hrtimers_run(struct rq *rq)
{
	ktime_t now = ktime_get();
	int outer;

	pk_raw_lock(&rq->hr_lock);
	while (!list_empty(&rq->hrtimers)) {
		struct hrtimer *t =
			list_first_entry(&rq->hrtimers, struct hrtimer, node);
		enum hrtimer_restart restart;

		if (t->expires > now)
			break;
		list_del_init(&t->node);
		/* running first: hrtimer_cancel() must not miss it. */
		__atomic_store_n(&rq->running_hrtimer, t, __ATOMIC_RELEASE);
		__atomic_store_n(&t->cpu, -1, __ATOMIC_RELEASE);
		pk_raw_unlock(&rq->hr_lock);
		/* No _HARD mode: PREEMPT_RT expires them all in softirq. */
		outer = pk_hardirq_config_enter(1);
		restart = t->function(t);
		pk_hardirq_config = outer;
		pk_raw_lock(&rq->hr_lock);
		__atomic_store_n(&rq->running_hrtimer, NULL, __ATOMIC_RELEASE);
		/* A periodic timer moved its expiry on: back in the list. */
		if (restart == HRTIMER_RESTART && !hrtimer_active(t))
			enqueue(rq, t);
	}
	program_next(rq);
	pk_raw_unlock(&rq->hr_lock);
}

struct hrtimer_sleeper {
	struct hrtimer timer;
	struct task_struct *task;
};

static enum hrtimer_restart wake_sleeper(struct hrtimer *timer)
{
	struct hrtimer_sleeper *s = (struct hrtimer_sleeper *)timer;
	struct task_struct *task = s->task;

	s->task = NULL;
	wake_up_process(task);
	return HRTIMER_NORESTART;
}

int schedule_hrtimeout(ktime_t *expires, enum hrtimer_mode mode)
{
	struct hrtimer_sleeper s;

	if (!pk_this_rq) {
		ktime_t until = mode == HRTIMER_MODE_REL
					? ktime_get() + *expires
					: *expires;

		/* A host thread's task: parked, so a wake-up ends it early. */
		return pk_host_park(until > 0 ? until : 1) ? -EINTR : 0;
	}
	hrtimer_setup(&s.timer, wake_sleeper, CLOCK_MONOTONIC, mode);
	s.task = current;
	hrtimer_start(&s.timer, *expires, mode);
	schedule();
	hrtimer_cancel(&s.timer);
	return s.task ? -EINTR : 0;
}
