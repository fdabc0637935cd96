/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_H
#define _LINUX_SCHED_H

/* Tasks and the scheduler: the library's (preempt/sched.h). */

#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <preempt/sched.h>

#ifndef TASK_WAKEKILL
#define TASK_WAKEKILL 0x0100
#endif
#ifndef TASK_NOLOAD
#define TASK_NOLOAD 0x0400
#endif
#ifndef TASK_KILLABLE
#define TASK_KILLABLE (TASK_WAKEKILL | TASK_UNINTERRUPTIBLE)
#endif
#ifndef TASK_IDLE
#define TASK_IDLE (TASK_UNINTERRUPTIBLE | TASK_NOLOAD)
#endif
#ifndef MAX_SCHEDULE_TIMEOUT
#define MAX_SCHEDULE_TIMEOUT LONG_MAX
#endif

/**
 * set_cpus_allowed_ptr() - where @p may run, as a struct cpumask (the
 * library's takes a word: the kernel's name is an asm label here).
 * Task context.  0, or -EINVAL for a mask with no CPU of the machine.
 */
int set_cpus_allowed_ptr(
	struct task_struct *p,
	const struct cpumask
		*new_mask) __asm__("pk_kernel_set_cpus_allowed_ptr");

#ifndef MAX_NICE
#define MAX_NICE 19
#define MIN_NICE -20
#endif

/**
 * set_user_nice() - @p's nice value.  Accepted: normal tasks here share
 * their CPU round-robin, with no weights.  Task context.
 */
static inline void set_user_nice(struct task_struct *p, long nice)
{
	(void)p;
	(void)nice;
}

/* No I/O accounting: io_schedule*() are schedule*(). */
#define io_schedule_timeout(t) schedule_timeout(t)
#define io_schedule() schedule()
#define schedule_timeout_interruptible(t) schedule_timeout_uninterruptible(t)
#define schedule_timeout_killable(t) schedule_timeout_uninterruptible(t)
#define schedule_timeout_idle(t) schedule_timeout_uninterruptible(t)

/**
 * cond_resched_rcu() - cond_resched() from inside an RCU reader, which it
 * leaves and re-enters around the preemption point (the caller's
 * pointers into the reader are gone after it).  Task context.
 */
#define cond_resched_rcu()                                                     \
	do {                                                                   \
		rcu_read_unlock();                                             \
		cond_resched();                                                \
		rcu_read_lock();                                               \
	} while (0)

#endif /* _LINUX_SCHED_H */
