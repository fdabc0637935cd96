// SPDX-License-Identifier: MIT
/*
 * 01: a lost wake-up from a bad prepare_to_wait() loop.
 *
 * A consumer kthread (vCPU 0) waits for requests that a producer kthread
 * (vCPU 1) posts, one at a time, each acknowledged before the next.  The
 * buggy wait tests the condition *before* it puts itself on the wait
 * queue and sets its state:
 *
 *	while (!READ_ONCE(req)) {              // (1) sees 0
 *		prepare_to_wait(&wq, &w, TASK_UNINTERRUPTIBLE);   // (3)
 *		schedule();
 *	}
 *
 * If the producer sets req and calls wake_up() between (1) and (3), the
 * wake-up finds the queue empty and is lost; the consumer sleeps with
 * req set and the producer waits for an acknowledgement that never
 * comes: every task is blocked.
 *
 * Detected by: a hang (main waits in kthread_stop() while both tasks
 * sleep; the simulator reports it as a deadlock).
 * Fix (-DFIXED): prepare_to_wait() first, then test the condition, then
 * schedule(): a wake-up after the test finds the task on the queue, and
 * one before it sets the condition the test sees.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include "catalogue.h"

#define NAME "01_lost_wakeup"
#define ROUNDS 200

static DECLARE_WAIT_QUEUE_HEAD(req_wq);
static DECLARE_WAIT_QUEUE_HEAD(ack_wq);
static int req, ack;

static void wait_for_request(void)
{
	DEFINE_WAIT(wait);

#ifndef FIXED
	while (!READ_ONCE(req)) {
		prepare_to_wait(&req_wq, &wait, TASK_UNINTERRUPTIBLE);
		schedule();
	}
#else
	for (;;) {
		prepare_to_wait(&req_wq, &wait, TASK_UNINTERRUPTIBLE);
		if (READ_ONCE(req))
			break;
		schedule();
	}
#endif
	finish_wait(&req_wq, &wait);
}

static int consumer(void *data)
{
	for (int i = 0; i < ROUNDS; i++) {
		wait_for_request();
		WRITE_ONCE(req, 0);
		WRITE_ONCE(ack, 1);
		wake_up(&ack_wq);
	}
	return 0;
}

static int producer(void *data)
{
	for (int i = 0; i < ROUNDS; i++) {
		WRITE_ONCE(req, 1);
		wake_up(&req_wq);
		wait_event(ack_wq, READ_ONCE(ack));
		WRITE_ONCE(ack, 0);
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
	printf("catalogue: %s (%s): no bug observed in %d rounds\n", NAME,
	       CAT_BUILD, ROUNDS);
	return 0;
}
