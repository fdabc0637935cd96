/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RCUWAIT_H_
#define _LINUX_RCUWAIT_H_

/*
 * rcuwait: one task waits for a condition, a waker in any context but NMI
 * wakes it without a lock.  The waiter publishes itself in @task; the
 * waker reads it inside an RCU reader.
 */

#include <linux/rcupdate.h>
#include <linux/sched.h>

struct rcuwait {
	struct task_struct __rcu *task;
};

#define __RCUWAIT_INITIALIZER(name)                                            \
	{                                                                      \
		.task = NULL                                                   \
	}

/** rcuwait_init() - no waiter.  Any context. */
static inline void rcuwait_init(struct rcuwait *w)
{
	w->task = NULL;
}

/** rcuwait_active() - is a task waiting?  Any context. */
static inline int rcuwait_active(struct rcuwait *w)
{
	return !!rcu_access_pointer(w->task);
}

/**
 * rcuwait_wake_up() - wake the waiter, if any: 1 if one was woken.  Any
 * context but NMI; order the condition's update before it.
 */
static inline int rcuwait_wake_up(struct rcuwait *w)
{
	struct task_struct *task;
	int ret = 0;

	/* Pairs with the waiter's barrier between publishing and testing. */
	smp_mb();
	rcu_read_lock();
	task = rcu_dereference(w->task);
	if (task)
		ret = wake_up_process(task);
	rcu_read_unlock();
	return ret;
}

static inline void prepare_to_rcuwait(struct rcuwait *w)
{
	rcu_assign_pointer(w->task, current);
}

static inline void finish_rcuwait(struct rcuwait *w)
{
	rcu_assign_pointer(w->task, NULL);
	__set_current_state(TASK_RUNNING);
}

/**
 * rcuwait_wait_event() - sleep in @state until @condition; 0, or
 * -EINTR when a signal @state admits is pending.  Task context; one
 * waiter per rcuwait.
 */
#define rcuwait_wait_event(w, condition, state)                                \
	({                                                                     \
		int __ret = 0;                                                 \
		prepare_to_rcuwait(w);                                         \
		for (;;) {                                                     \
			set_current_state(state);                              \
			if (condition)                                         \
				break;                                         \
			if (signal_pending_state(state, current)) {            \
				__ret = -EINTR;                                \
				break;                                         \
			}                                                      \
			schedule();                                            \
		}                                                              \
		finish_rcuwait(w);                                             \
		__ret;                                                         \
	})

#endif
