// SPDX-License-Identifier: MIT
/*
 * 09: a counter updated non-atomically from a task and a softirq.
 *
 * A kthread on vCPU 0 sends packets and counts them in dev.packets; a
 * timer on the same vCPU (TIMER_SOFTIRQ, at the tick's interrupt exit)
 * counts the packets it retransmits in the same counter.  The task's
 * update is a plain read-modify-write, with bottom halves enabled:
 *
 *	n = READ_ONCE(dev.packets);        // 41
 *	                                   // <- tick: the timer runs and
 *	                                   //    stores 42
 *	WRITE_ONCE(dev.packets, n + 1);    // 42: the timer's packet is lost
 *
 * (READ_ONCE()/WRITE_ONCE() keep the load and the store two
 * instructions, as a ++ is on most CPUs and at -O0 on x86; an optimizing
 * x86 compiler may turn a plain ++ into one memory add, which an
 * interrupt on the same CPU cannot split, though another CPU could.)
 *
 * Detected by: the program's own count: at the end dev.packets must be
 * what the task and the timer each say they counted (exit 1 otherwise).
 * Fix (-DFIXED): local_bh_disable() around the task's update, so the
 * softirq waits for it (an atomic_t or a per-CPU counter would do too).
 *
 * Exit status: see catalogue.h.
 */

#include <linux/bottom_half.h>
#include <linux/timer.h>

#include "catalogue.h"

#define NAME "09_counter_softirq"
#define PACKETS 2000
#define WORK 4000 /* building a packet: ~4 us */

static struct {
	unsigned long packets;	   /* the shared, buggy counter */
	unsigned long sent;	   /* the task's own count */
	unsigned long retransmits; /* the timer's own count */
	bool stopping;
	struct timer_list timer;
} dev;

static void retransmit_timer(struct timer_list *t)
{
	dev.packets++; /* softirq: nothing on this CPU interrupts it */
	dev.retransmits++;
	if (!READ_ONCE(dev.stopping))
		mod_timer(t, jiffies + 1);
}

static void count_sent(void)
{
#ifndef FIXED
	unsigned long n = READ_ONCE(dev.packets);

	WRITE_ONCE(dev.packets, n + 1);
#else
	local_bh_disable();
	WRITE_ONCE(dev.packets, READ_ONCE(dev.packets) + 1);
	local_bh_enable();
#endif
}

static int sender(void *sink)
{
	/* Armed here, the timer runs on this vCPU. */
	mod_timer(&dev.timer, jiffies + 1);
	for (int i = 0; i < PACKETS; i++) {
		*(unsigned long *)sink += cat_work(WORK);
		count_sent();
		dev.sent++;
	}
	WRITE_ONCE(dev.stopping, true);
	del_timer_sync(&dev.timer);
	return 0;
}

int main(void)
{
	static unsigned long sink;
	struct task_struct *s;

	cat_boot();
	timer_setup(&dev.timer, retransmit_timer, 0);
	s = cat_start(sender, &sink, "sender", 0);
	kthread_stop(s);
	machine_shutdown();
	if (dev.packets != dev.sent + dev.retransmits)
		cat_found(NAME, "%lu packets counted, %lu sent + %lu resent",
			  dev.packets, dev.sent, dev.retransmits);
	printf("catalogue: %s (%s): no bug observed, %lu + %lu packets\n", NAME,
	       CAT_BUILD, dev.sent, dev.retransmits);
	return 0;
}
