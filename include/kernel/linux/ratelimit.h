/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RATELIMIT_H
#define _LINUX_RATELIMIT_H
#include <linux/ratelimit_types.h>
#include <linux/sched.h>
#include <linux/spinlock.h>

/** ratelimit_state_init() - a limit of @burst per @interval jiffies. */
static inline void ratelimit_state_init(struct ratelimit_state *rs,
					int interval, int burst)
{
	*rs = (struct ratelimit_state)RATELIMIT_STATE_INIT(*rs, interval,
							   burst);
}
static inline void ratelimit_set_flags(struct ratelimit_state *rs,
				       unsigned long flags)
{
	rs->flags = flags;
}
#endif /* _LINUX_RATELIMIT_H */
