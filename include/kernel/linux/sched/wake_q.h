/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_WAKE_Q_H
#define _LINUX_SCHED_WAKE_Q_H

/*
 * Wake-up queues: collect tasks to wake under a lock, wake them after it
 * is released.  Here a queue holds a few tasks in itself (task_struct has
 * no wake_q node); one more than fits is woken at once, which is only
 * earlier, never lost.  Any context.
 */

#include <linux/sched.h>

#define PK_WAKE_Q_SLOTS 8
struct wake_q_head {
	unsigned int nr;
	struct task_struct *tasks[PK_WAKE_Q_SLOTS];
};
#define DEFINE_WAKE_Q(name) struct wake_q_head name = {0, {NULL}}

static inline void wake_q_init(struct wake_q_head *head)
{
	head->nr = 0;
}
static inline bool wake_q_empty(struct wake_q_head *head)
{
	return head->nr == 0;
}
/** wake_q_add() - queue @task (a reference is held until woken). */
static inline void wake_q_add(struct wake_q_head *head,
			      struct task_struct *task)
{
	for (unsigned int i = 0; i < head->nr; i++)
		if (head->tasks[i] == task)
			return;
	if (head->nr == PK_WAKE_Q_SLOTS) {
		wake_up_process(task);
		return;
	}
	get_task_struct(task);
	head->tasks[head->nr++] = task;
}
static inline void wake_q_add_safe(struct wake_q_head *head,
				   struct task_struct *task)
{
	wake_q_add(head, task);
	put_task_struct(task);
}
/** wake_up_q() - wake every queued task and empty @head. */
static inline void wake_up_q(struct wake_q_head *head)
{
	for (unsigned int i = 0; i < head->nr; i++) {
		wake_up_process(head->tasks[i]);
		put_task_struct(head->tasks[i]);
	}
	head->nr = 0;
}

#endif /* _LINUX_SCHED_WAKE_Q_H */
