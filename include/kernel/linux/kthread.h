/* SPDX-License-Identifier: MIT */
/* <linux/kthread.h> for kernel code: the library's own header. */
#ifndef _LINUX_KTHREAD_H
#define _LINUX_KTHREAD_H

#include <linux/cpumask.h>
#include <linux/sched.h>
#include <preempt/kthread.h>

/** kthread_create_on_node() - kthread_create(): one node.  As it. */
#define kthread_create_on_node(fn, data, node, namefmt, ...)                   \
	((void)(node), kthread_create(fn, data, namefmt, ##__VA_ARGS__))

/**
 * kthread_bind_mask() - where a not yet started kthread @p may run.
 * Task context.
 */
static inline void kthread_bind_mask(struct task_struct *p,
				     const struct cpumask *mask)
{
	set_cpus_allowed_ptr(p, mask);
}

/**
 * kthread_set_per_cpu() - mark @p as @cpu's own kthread (-1: no more).
 * Accepted: the mark tells CPU hotplug what to unbind, and no CPU goes
 * offline here.  Any context.
 */
static inline void kthread_set_per_cpu(struct task_struct *p, int cpu)
{
	(void)p;
	(void)cpu;
}

/**
 * kthread_probe_data() - kthread_data() of @p if it is a kthread, else
 * NULL.  Any context.
 */
static inline void *kthread_probe_data(struct task_struct *p)
{
	return (p->flags & PF_KTHREAD) ? kthread_data(p) : NULL;
}

/**
 * kthread_stop_put() - kthread_stop(), then drop the caller's
 * get_task_struct() reference.  Task context.
 */
static inline int kthread_stop_put(struct task_struct *k)
{
	int ret = kthread_stop(k);

	put_task_struct(k);
	return ret;
}

#endif
