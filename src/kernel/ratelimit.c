// SPDX-License-Identifier: MIT
/*
 * ___ratelimit(), in an object of its own: a program that brings the
 * kernel's lib/ratelimit.c links its own and this member stays out of the
 * link (printk.c is always in).
 */

#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/printk.h>
#include <linux/ratelimit.h>
#include <linux/spinlock.h>

int ___ratelimit(struct ratelimit_state *rs, const char *func)
{
	unsigned long flags, now;
	int ok;

	if (!rs->interval)
		return 1;
	/* Contended (another CPU, or an interrupt of the holder): refuse. */
	local_irq_save(flags);
	if (!raw_spin_trylock(&rs->lock)) {
		local_irq_restore(flags);
		return 0;
	}
	/* The clock's jiffies: a machine's tick need not be running. */
	now = jiffies_now();
	if (!rs->begin)
		rs->begin = now;
	if (time_after(now, rs->begin + (unsigned long)rs->interval)) {
		if (rs->missed && !(rs->flags & RATELIMIT_MSG_ON_RELEASE))
			printk(KERN_WARNING "%s: %d callbacks suppressed\n",
			       func, rs->missed);
		rs->begin = now;
		rs->printed = 0;
		rs->missed = 0;
	}
	if (rs->burst && rs->burst > rs->printed) {
		rs->printed++;
		ok = 1;
	} else {
		rs->missed++;
		ok = 0;
	}
	raw_spin_unlock(&rs->lock);
	local_irq_restore(flags);
	return ok;
}
