/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RATELIMIT_TYPES_H
#define _LINUX_RATELIMIT_TYPES_H

#include <linux/types.h>
#include <preempt/spinlock.h>

#define DEFAULT_RATELIMIT_INTERVAL (5 * 1000) /* jiffies at HZ 1000 */
#define DEFAULT_RATELIMIT_BURST 10
#define RATELIMIT_MSG_ON_RELEASE 1

/*
 * At most @burst events per @interval jiffies; @missed counts the refused
 * ones, reported ("callbacks suppressed") when the next interval opens.
 */
struct ratelimit_state {
	raw_spinlock_t lock;
	int interval;
	int burst;
	int printed;
	int missed;
	unsigned long begin;
	unsigned long flags;
};

#define RATELIMIT_STATE_INIT(name, interval_init, burst_init)                  \
	{                                                                      \
		.lock = __RAW_SPIN_LOCK_UNLOCKED((name).lock),                 \
		.interval = (interval_init), .burst = (burst_init),            \
	}
#define DEFINE_RATELIMIT_STATE(name, interval_init, burst_init)                \
	struct ratelimit_state name =                                          \
		RATELIMIT_STATE_INIT(name, interval_init, burst_init)

/**
 * ___ratelimit() - may one more event happen now?  Any context (a
 * trylock: a state busy on another CPU refuses).  @func names the caller
 * in the "callbacks suppressed" line.
 */
int ___ratelimit(struct ratelimit_state *rs, const char *func);
#define __ratelimit(state) ___ratelimit(state, __func__)

#endif /* _LINUX_RATELIMIT_TYPES_H */
