// SPDX-License-Identifier: MIT
/*
 * 10: a completion re-initialized after the request that completes it.
 *
 * A submitter kthread (vCPU 0) sends commands to a device kthread
 * (vCPU 1) one at a time and waits for each on one reused completion.
 * The buggy submitter re-arms the completion after it has sent the
 * command:
 *
 *	submitter:                         device:
 *	WRITE_ONCE(cmd, 1);
 *	wake_up(&dev_wq);
 *	                                   cmd = 0; complete(&done);
 *	reinit_completion(&done);          // the completion is erased
 *	wait_for_completion(&done);        // forever
 *
 * Detected by: a hang (the submitter waits for a completion that came
 * and went, the device for a command; main in kthread_stop(); the
 * simulator reports every task blocked as a deadlock).
 * Fix (-DFIXED): reinit_completion() before the command is sent, so no
 * complete() can come before it.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/completion.h>

#include "catalogue.h"

#define NAME "10_completion_reinit"
#define COMMANDS 300

static DECLARE_COMPLETION(done);
static DECLARE_WAIT_QUEUE_HEAD(dev_wq);
static int cmd;
static unsigned long executed;

static void send_and_wait(void)
{
#ifndef FIXED
	WRITE_ONCE(cmd, 1);
	wake_up(&dev_wq);
	reinit_completion(&done);
#else
	reinit_completion(&done);
	WRITE_ONCE(cmd, 1);
	wake_up(&dev_wq);
#endif
	wait_for_completion(&done);
}

static int submitter(void *data)
{
	for (int i = 0; i < COMMANDS; i++)
		send_and_wait();
	return 0;
}

static int device(void *data)
{
	for (;;) {
		wait_event_interruptible(dev_wq, READ_ONCE(cmd) ||
							 kthread_should_stop());
		if (kthread_should_stop())
			break;
		if (!READ_ONCE(cmd))
			continue;
		WRITE_ONCE(cmd, 0);
		executed++;
		complete(&done);
	}
	return 0;
}

int main(void)
{
	struct task_struct *s, *d;

	cat_boot();
	d = cat_start(device, NULL, "device", 1);
	s = cat_start(submitter, NULL, "submitter", 0);
	kthread_stop(s);
	kthread_stop(d);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %lu commands\n", NAME,
	       CAT_BUILD, executed);
	return 0;
}
