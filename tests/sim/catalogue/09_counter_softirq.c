// SPDX-License-Identifier: MIT
/*
 * 09: a counter updated non-atomically from a task and a softirq.
 *
 * Packets get sequence numbers from dev.next_seq.  A kthread on vCPU 0
 * sends packets; a timer on the same vCPU (TIMER_SOFTIRQ) sends
 * retransmissions, and takes its numbers from the same counter.  The
 * task reads the counter, queues the packet (under the queue's lock,
 * which it rightly takes with bottom halves off), and only then stores
 * the counter back, with bottom halves on again:
 *
 *	seq = READ_ONCE(dev.next_seq);          // 41
 *	spin_lock_bh(&dev.queue_lock);
 *	queue(seq);
 *	spin_unlock_bh(&dev.queue_lock);        // <- the timer runs here (or
 *	                                        //    at the next tick) and
 *	                                        //    takes 41 too
 *	WRITE_ONCE(dev.next_seq, seq + 1);      // 42: one number lost
 *
 * A timer that became due while bottom halves were off runs at
 * spin_unlock_bh(); one due at a tick anywhere else in the window runs
 * at that tick's interrupt exit.
 *
 * Detected by: the program's own count: at the end every packet, sent or
 * retransmitted, must have had its own number (exit 1 otherwise).
 * Fix (-DFIXED): the number is taken and advanced under the queue lock
 * too, with bottom halves off, as the timer does it.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/bottom_half.h>
#include <linux/spinlock.h>
#include <linux/timer.h>

#include "catalogue.h"

#define NAME "09_counter_softirq"
#define PACKETS 2000
#define WORK 4000 /* building a packet: ~4 us */
#define RETRANSMIT_JIFFIES 3

static struct {
	unsigned long next_seq;	   /* the shared counter */
	spinlock_t queue_lock;	   /* the queue */
	unsigned long queued;	   /* the queue's length, say */
	unsigned long sent;	   /* the task's own count */
	unsigned long retransmits; /* the timer's own count */
	bool stopping;
	struct timer_list timer;
} dev = {.queue_lock = __SPIN_LOCK_UNLOCKED(dev.queue_lock)};

/* Softirq context: nothing else on this CPU runs until it returns. */
static void retransmit_timer(struct timer_list *t)
{
	spin_lock(&dev.queue_lock);
	dev.next_seq++;
	dev.queued++;
	spin_unlock(&dev.queue_lock);
	dev.retransmits++;
	if (!READ_ONCE(dev.stopping))
		mod_timer(t, jiffies + RETRANSMIT_JIFFIES);
}

static void send_packet(void)
{
#ifndef FIXED
	unsigned long seq = READ_ONCE(dev.next_seq);

	spin_lock_bh(&dev.queue_lock);
	dev.queued++;
	spin_unlock_bh(&dev.queue_lock);
	WRITE_ONCE(dev.next_seq, seq + 1);
#else
	spin_lock_bh(&dev.queue_lock);
	dev.next_seq++;
	dev.queued++;
	spin_unlock_bh(&dev.queue_lock);
#endif
}

static int sender(void *sink)
{
	/* Armed here, the timer runs on this vCPU. */
	mod_timer(&dev.timer, jiffies + RETRANSMIT_JIFFIES);
	for (int i = 0; i < PACKETS; i++) {
		*(unsigned long *)sink += cat_work(WORK);
		send_packet();
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
	if (dev.next_seq != dev.sent + dev.retransmits)
		cat_found(NAME,
			  "%lu sequence numbers for %lu sent + %lu resent",
			  dev.next_seq, dev.sent, dev.retransmits);
	printf("catalogue: %s (%s): no bug observed, %lu + %lu packets\n", NAME,
	       CAT_BUILD, dev.sent, dev.retransmits);
	return 0;
}
