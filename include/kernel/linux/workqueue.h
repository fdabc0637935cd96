/* SPDX-License-Identifier: MIT */
/* <linux/workqueue.h> for kernel code: the library's own header. */
#ifndef _LINUX_WORKQUEUE_H
#define _LINUX_WORKQUEUE_H

#include <linux/numa.h>
#include <preempt/workqueue.h>

/* The length of a worker's description (kernel/workqueue_internal.h). */
#define WORKER_DESC_LEN 32

/**
 * queue_work_node() - queue @work on @wq near NUMA node @node: one node
 * here, so queue_work().  Any context.
 */
static inline bool queue_work_node(int node, struct workqueue_struct *wq,
				   struct work_struct *work)
{
	(void)node;
	return queue_work(wq, work);
}

/**
 * workqueue_set_min_active() - the items of an unbound @wq guaranteed to
 * run at once on each node (6.9 on).  Accepted: an unbound queue here
 * runs up to its max_active items at once, with no per-node share below
 * that.  Task context.
 */
static inline void workqueue_set_min_active(struct workqueue_struct *wq,
					    int min_active)
{
	(void)wq;
	(void)min_active;
}

#endif
