/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SCHED_H
#define PREEMPT_SCHED_H

/*
 * Scheduler entry points that the count and the models need.  Until a
 * machine is booted every thread is a task alone on its own CPU: a
 * reschedule picks the same task again, so it only settles need-resched
 * and is counted in pk_sched_stats.
 */

#include <stdbool.h>
#include <preempt/debug.h>
#include <preempt/preempt.h>

/**
 * need_resched() - is a reschedule owed to this CPU?
 *
 * Any context.
 */
static __always_inline bool need_resched(void)
{
	return unlikely(test_preempt_need_resched());
}

int _cond_resched(void);

/**
 * cond_resched() - preemption point of the none and voluntary models
 *
 * Task context, may sleep (checked).  Reschedules when owed under none and
 * voluntary and returns 1 if it did; a no-op under full, lazy and rt,
 * where preemption happens by itself.
 */
#if CONFIG_DEBUG_ATOMIC_SLEEP
#define cond_resched()                                                         \
	({                                                                     \
		__might_resched(__FILE__, __LINE__, 0);                        \
		_cond_resched();                                               \
	})
#else
#define cond_resched() _cond_resched()
#endif

/**
 * migrate_disable() - keep the current task on this CPU, preemptible
 *
 * Task context; nests.
 */
static __always_inline void migrate_disable(void)
{
	pk_migrate_disable_count++;
	barrier();
}

/**
 * migrate_enable() - undo migrate_disable()
 *
 * Task context, paired with migrate_disable().
 */
static __always_inline void migrate_enable(void)
{
	barrier();
	if (!WARN_ON_ONCE(pk_migrate_disable_count <= 0))
		pk_migrate_disable_count--;
}

/** is_migration_disabled() - is the current task pinned? */
#define is_migration_disabled() pk_migration_disabled()

enum pk_resched_kind {
	PK_RESCHED_PREEMPT_ENABLE, /* preempt_enable() reached zero */
	PK_RESCHED_IRQ_RETURN,	   /* return from interrupt */
	PK_RESCHED_COND_RESCHED,   /* cond_resched() / might_resched() */
	PK_RESCHED_NR,
};

/**
 * struct pk_sched_stats - how this CPU got rescheduled, per kind
 * @resched: reschedules taken, by enum pk_resched_kind
 */
struct pk_sched_stats {
	unsigned long resched[PK_RESCHED_NR];
};

/** pk_sched_stats() - the current CPU's counters.  Any context. */
struct pk_sched_stats pk_sched_stats(void);

#endif /* PREEMPT_SCHED_H */
