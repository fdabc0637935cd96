/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RCUPDATE_H
#define _LINUX_RCUPDATE_H

/* RCU readers and updaters: the library's (<preempt/rcupdate.h>). */

#include <linux/types.h>
#include <linux/compiler.h>
#include <linux/cleanup.h>
#include <preempt/rcupdate.h>

/* guard(rcu)(): an RCU reader to the end of the scope. */
DEFINE_LOCK_GUARD_0(rcu, rcu_read_lock(), rcu_read_unlock())

/*
 * rcu_is_watching() - whether RCU sees this CPU as able to read.  Kernel
 * code here runs in tasks and in interrupt handlers, which RCU always
 * watches (a handler on an idle vCPU leaves the idle quiescent state);
 * only the library's idle loop is unwatched, and it runs no kernel code.
 */
static inline bool rcu_is_watching(void)
{
	return true;
}

/*
 * call_rcu_hurry() - call_rcu(): there is no lazy RCU here
 * (CONFIG_RCU_LAZY), so every callback is already in a hurry.  Same
 * contexts as call_rcu().
 */
static inline void call_rcu_hurry(struct rcu_head *head, rcu_callback_t func)
{
	call_rcu(head, func);
}

#endif /* _LINUX_RCUPDATE_H */
