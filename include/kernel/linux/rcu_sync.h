/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RCU_SYNC_H_
#define _LINUX_RCU_SYNC_H_

/*
 * rcu_sync: lets readers take a fast path until an updater asks them onto
 * the slow one, and back after a grace period (kernel/rcu/sync.c, which a
 * program brings; Documentation/RCU: "rcu_sync").  @gp_state is 0 (idle)
 * while readers may take their fast path; @gp_wait's lock guards both
 * counts.
 */

#include <linux/rcupdate.h>
#include <linux/wait.h>

struct rcu_sync {
	int gp_state;
	int gp_count;
	wait_queue_head_t gp_wait;
	struct rcu_head cb_head;
};

/**
 * rcu_sync_is_idle() - may readers use their fast path?  Inside an RCU
 * reader of any kind.
 */
static inline bool rcu_sync_is_idle(struct rcu_sync *rsp)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_any_held(),
			 "suspicious rcu_sync_is_idle() usage");
	return READ_ONCE(rsp->gp_state) == 0;
}

/** rcu_sync_init() - idle, no updater.  Any context. */
void rcu_sync_init(struct rcu_sync *rsp);
/** rcu_sync_enter() - readers onto the slow path; may wait a grace period. */
void rcu_sync_enter(struct rcu_sync *rsp);
/** rcu_sync_exit() - readers back to the fast path a grace period later. */
void rcu_sync_exit(struct rcu_sync *rsp);
/** rcu_sync_dtor() - wait for the callback still queued, if any. */
void rcu_sync_dtor(struct rcu_sync *rsp);

#define __RCU_SYNC_INITIALIZER(name)                                           \
	{                                                                      \
		.gp_state = 0, .gp_count = 0,                                  \
		.gp_wait = __WAIT_QUEUE_HEAD_INITIALIZER(name.gp_wait),        \
	}
#define DEFINE_RCU_SYNC(name)                                                  \
	struct rcu_sync name = __RCU_SYNC_INITIALIZER(name)

#endif
