/* SPDX-License-Identifier: MIT */
#ifndef __LINUX_DEBUG_LOCKING_H
#define __LINUX_DEBUG_LOCKING_H

/*
 * The lock debugging switch: the library's lockdep keeps its own
 * (debug_locks in <preempt/lockdep.h>).
 */

#include <linux/lockdep.h>

struct task_struct;

/** debug_show_held_locks() - @task's held locks: printed by lockdep's
 * reports here, not on request; accepted. */
static inline void debug_show_held_locks(struct task_struct *task)
{
	(void)task;
}

/** debug_show_all_locks() - accepted, prints nothing. */
static inline void debug_show_all_locks(void)
{
}

/** debug_check_no_locks_freed() - accepted. */
#define debug_check_no_locks_freed(from, len) ((void)(from), (void)(len))

#endif
