/* SPDX-License-Identifier: MIT */
#ifndef FREEZER_H_INCLUDED
#define FREEZER_H_INCLUDED

/*
 * The system freezer: the machine never suspends, so no task is ever
 * asked to freeze; freezable tasks and workqueues are accepted.
 */

#include <linux/sched.h>

#define pm_freezing false
#define pm_nosig_freezing false

/** freezing() - is @p asked to freeze?  Never here. */
static inline bool freezing(struct task_struct *p)
{
	(void)p;
	return false;
}

/** frozen() - is @p frozen?  Never here. */
static inline bool frozen(struct task_struct *p)
{
	(void)p;
	return false;
}

/** try_to_freeze() - freeze if asked: never asked, false.  Task context. */
static inline bool try_to_freeze(void)
{
	might_sleep();
	return false;
}

/** set_freezable() - accepted: the task would freeze if asked. */
static inline void set_freezable(void)
{
}

#define freezer_active false
#define wait_event_freezable(wq, cond) wait_event_interruptible(wq, cond)
#define wait_event_freezable_timeout(wq, cond, timeout)                        \
	wait_event_interruptible_timeout(wq, cond, timeout)

#endif
