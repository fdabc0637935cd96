// SPDX-License-Identifier: MIT
/*
 * 07: a missed smp_store_release()/smp_load_acquire() pairing: a flag
 * published before the data it announces.
 *
 * A producer kthread (vCPU 1) hands messages to a consumer kthread
 * (vCPU 0) through a one-slot mailbox.  The buggy producer raises the
 * "full" flag first and attaches the message after it, in program order:
 *
 *	producer:                          consumer:
 *	WRITE_ONCE(box.full, 1);
 *	m = kmalloc(...);
 *	                                   wait_event(wq, READ_ONCE(box.full));
 *	                                   m = READ_ONCE(box.msg);   // NULL
 *	m->seq = seq;
 *	WRITE_ONCE(box.msg, m);
 *
 * (The same bug on a weakly ordered CPU needs no bad program order:
 * data-then-flag with plain stores may become visible flag-first.  Here
 * the order is wrong in the program itself, so any interleaving that
 * lets the consumer run between the two stores shows it.)
 *
 * Detected by: BUG_ON() in the consumer: the flag must come with a
 * message, and the message with the next sequence number (a report:
 * abort).
 * Fix (-DFIXED): the message first, then smp_store_release() of the
 * flag; the consumer reads the flag with smp_load_acquire(), which
 * orders its read of the message after it.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include "catalogue.h"

#define NAME "07_publish_order"
#define MESSAGES 300

static DECLARE_WAIT_QUEUE_HEAD(full_wq);
static DECLARE_WAIT_QUEUE_HEAD(empty_wq);
struct message {
	unsigned long seq;
};

static struct {
	int full;
	struct message *msg;
} box;

static struct message *message_new(unsigned long seq)
{
	struct message *m = kmalloc(sizeof(*m), GFP_KERNEL);

	BUG_ON(!m);
	m->seq = seq;
	return m;
}

static void post(unsigned long seq)
{
#ifndef FIXED
	WRITE_ONCE(box.full, 1);
	WRITE_ONCE(box.msg, message_new(seq));
#else
	WRITE_ONCE(box.msg, message_new(seq));
	smp_store_release(&box.full, 1);
#endif
	wake_up(&full_wq);
}

static bool box_full(void)
{
#ifndef FIXED
	return READ_ONCE(box.full);
#else
	return smp_load_acquire(&box.full);
#endif
}

static int producer(void *data)
{
	for (unsigned long seq = 1; seq <= MESSAGES; seq++) {
		/* The slot is free once the consumer is done with it. */
		wait_event(empty_wq, !smp_load_acquire(&box.full));
		post(seq);
	}
	return 0;
}

static int consumer(void *data)
{
	for (unsigned long seq = 1; seq <= MESSAGES; seq++) {
		struct message *m;

		wait_event(full_wq, box_full());
		m = READ_ONCE(box.msg);
		BUG_ON(!m || m->seq != seq);
		WRITE_ONCE(box.msg, NULL);
		kfree(m);
		smp_store_release(&box.full, 0); /* box.msg is free */
		wake_up(&empty_wq);
	}
	return 0;
}

int main(void)
{
	struct task_struct *c, *p;

	cat_boot();
	c = cat_start(consumer, NULL, "consumer", 0);
	p = cat_start(producer, NULL, "producer", 1);
	kthread_stop(p);
	kthread_stop(c);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %d messages\n", NAME,
	       CAT_BUILD, MESSAGES);
	return 0;
}
