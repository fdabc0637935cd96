// SPDX-License-Identifier: MIT
/*
 * 11: a timer callback racing with del_timer() and the free after it.
 *
 * Each request carries a timeout timer.  An issuer kthread (vCPU 0)
 * allocates the request, arms its timer (so it runs on vCPU 0) and hands
 * the request to a completer kthread (vCPU 1), which finishes it a little
 * later, about when the timeout is due, and frees it:
 *
 *	completer (vCPU 1):                timer softirq (vCPU 0):
 *	                                   req_timeout():
 *	del_timer(&req->timer);  // 0: not pending, it is running
 *	kfree(req);
 *	                                   spin_lock(&req->lock);  // freed
 *
 * del_timer() only takes a pending timer off the list; it does not wait
 * for a callback that is already running on another CPU.  Freeing
 * poisons the request (CAT_POISON bytes).
 *
 * Detected by: BUG_ON() in the callback, which checks the request's magic
 * before and after it uses the request (a report in softirq context:
 * abort).  A free between the first check and the lock meets the
 * spinlock debug check ("spinlock bad magic"), whose report reads the
 * poisoned owner and crashes (SIGSEGV): found, as an oops.
 * Fix (-DFIXED): del_timer_sync(), which also waits for a running
 * callback to return.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/spinlock.h>
#include <linux/timer.h>

#include "catalogue.h"

#define NAME "11_timer_del_race"
#define REQ_MAGIC 0x7e9e57ed7e9e57edUL
#define REQUESTS 15
#define NR_WORDS 32
#define COMPLETE_WORK 500000 /* until completion: 0.5-1.5 ms */

struct request {
	unsigned long magic;
	spinlock_t lock; /* timed_out */
	bool timed_out;
	struct timer_list timer;
	unsigned long words[NR_WORDS];
};

static struct request *handed;
static DECLARE_WAIT_QUEUE_HEAD(hand_wq);
static DECLARE_WAIT_QUEUE_HEAD(done_wq);
static unsigned long timeouts, checksum;

/* Softirq context: look at the request that timed out. */
static void req_timeout(struct timer_list *t)
{
	struct request *req = from_timer(req, t, timer);
	unsigned long sum = 0;

	BUG_ON(READ_ONCE(req->magic) != REQ_MAGIC);
	spin_lock(&req->lock);
	req->timed_out = true;
	spin_unlock(&req->lock);
	for (int i = 0; i < NR_WORDS; i++)
		sum += READ_ONCE(req->words[i]);
	BUG_ON(READ_ONCE(req->magic) != REQ_MAGIC);
	WRITE_ONCE(checksum, checksum + sum);
	WRITE_ONCE(timeouts, timeouts + 1);
}

static int issuer(void *data)
{
	for (int i = 0; i < REQUESTS; i++) {
		struct request *req = kzalloc(sizeof(*req), GFP_KERNEL);

		BUG_ON(!req);
		req->magic = REQ_MAGIC;
		spin_lock_init(&req->lock);
		for (int j = 0; j < NR_WORDS; j++)
			req->words[j] = i + j;
		timer_setup(&req->timer, req_timeout, 0);
		mod_timer(&req->timer, jiffies + 1);
		WRITE_ONCE(handed, req);
		wake_up(&hand_wq);
		wait_event(done_wq, !READ_ONCE(handed));
	}
	return 0;
}

struct actor {
	unsigned long seed;
	unsigned long sink;
};

static int completer(void *data)
{
	struct actor *a = data;

	for (int i = 0; i < REQUESTS; i++) {
		struct request *req;

		wait_event(hand_wq, READ_ONCE(handed));
		req = READ_ONCE(handed);
		a->sink += cat_work(COMPLETE_WORK +
				    cat_next(&a->seed) % (2 * COMPLETE_WORK));
#ifndef FIXED
		del_timer(&req->timer);
#else
		del_timer_sync(&req->timer);
#endif
		cat_free_poisoned(req, sizeof(*req));
		WRITE_ONCE(handed, NULL);
		wake_up(&done_wq);
	}
	return 0;
}

int main(void)
{
	static struct actor act = {.seed = 1};
	struct task_struct *i, *c;

	cat_boot();
	c = cat_start(completer, &act, "completer", 1);
	i = cat_start(issuer, NULL, "issuer", 0);
	kthread_stop(i);
	kthread_stop(c);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %lu of %d timed out\n",
	       NAME, CAT_BUILD, timeouts, REQUESTS);
	return 0;
}
