// SPDX-License-Identifier: MIT
/*
 * 08: a kthread's data used after kthread_stop().
 *
 * A device gets a worker kthread with its own state (struct worker: a
 * wait queue the worker sleeps on, a kick flag).  A kicker kthread
 * (vCPU 1) finds the current worker through dev.worker and kicks it.
 * The owner (vCPU 0) replaces the worker round after round; its buggy
 * teardown stops the worker and frees its state while the state is still
 * published, and unpublishes it only afterwards:
 *
 *	owner:                             kicker:
 *	                                   w = READ_ONCE(dev.worker);
 *	kthread_stop(w->task);
 *	kfree(w);
 *	                                   w->kicked = true;    // stopped,
 *	                                   wake_up(&w->wq);     // then freed
 *	WRITE_ONCE(dev.worker, NULL);
 *
 * Freeing poisons the state (CAT_POISON bytes); the worker marks its
 * state "exited" as it returns from its thread function.
 *
 * Detected by: BUG_ON() in the kicker, which checks the state it is about
 * to use: a worker that has exited (used after kthread_stop()) or a
 * poisoned one (used after the free) is a report (abort); the poisoned
 * wait queue's spinlock would also fail the spinlock debug check ("bad
 * magic").
 * Fix (-DFIXED): the kicker looks up and kicks under dev.lock; the owner
 * unpublishes the worker under dev.lock first, then stops and frees it,
 * so no kicker can hold it any more.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/spinlock.h>

#include "catalogue.h"

#define NAME "08_kthread_stop_uaf"
#define WORKER_MAGIC 0x3070cafe3070cafeUL
#define ROUNDS 30
#define OWNER_WORK 100000 /* a worker's life: 100-300 us */
#define KICK_WORK 3000	  /* between kicks: 3-9 us */

struct worker {
	unsigned long magic;
	struct task_struct *task;
	wait_queue_head_t wq;
	bool kicked;
	bool exited;
	unsigned long kicks;
};

static struct {
	spinlock_t lock; /* the fixed build: dev.worker's lookups */
	struct worker *worker;
	bool done;
} dev = {.lock = __SPIN_LOCK_UNLOCKED(dev.lock)};

static int worker_fn(void *data)
{
	struct worker *w = data;

	while (!kthread_should_stop()) {
		wait_event_interruptible(w->wq, READ_ONCE(w->kicked) ||
							kthread_should_stop());
		if (READ_ONCE(w->kicked)) {
			WRITE_ONCE(w->kicked, false);
			w->kicks++;
		}
	}
	WRITE_ONCE(w->exited, true);
	return 0;
}

static void kick(struct worker *w)
{
	BUG_ON(READ_ONCE(w->magic) != WORKER_MAGIC); /* freed */
	BUG_ON(READ_ONCE(w->exited));		     /* stopped */
	WRITE_ONCE(w->kicked, true);
	wake_up(&w->wq);
}

struct actor {
	unsigned long seed;
	unsigned long sink;
};

static int kicker(void *data)
{
	struct actor *a = data;

	while (!READ_ONCE(dev.done)) {
		struct worker *w;

#ifndef FIXED
		w = READ_ONCE(dev.worker);
		if (w)
			kick(w);
#else
		spin_lock(&dev.lock);
		w = dev.worker;
		if (w)
			kick(w);
		spin_unlock(&dev.lock);
#endif
		a->sink += cat_work(KICK_WORK +
				    cat_next(&a->seed) % (2 * KICK_WORK));
	}
	return 0;
}

static void worker_teardown(struct worker *w)
{
#ifndef FIXED
	kthread_stop(w->task);
	cat_free_poisoned(w, sizeof(*w));
	WRITE_ONCE(dev.worker, NULL);
#else
	spin_lock(&dev.lock);
	dev.worker = NULL;
	spin_unlock(&dev.lock);
	kthread_stop(w->task);
	cat_free_poisoned(w, sizeof(*w));
#endif
}

static int owner(void *data)
{
	struct actor *a = data;

	for (int i = 0; i < ROUNDS; i++) {
		struct worker *w = kzalloc(sizeof(*w), GFP_KERNEL);

		BUG_ON(!w);
		w->magic = WORKER_MAGIC;
		init_waitqueue_head(&w->wq);
		w->task = kthread_run(worker_fn, w, "worker/%d", i);
		BUG_ON(!w->task);
		spin_lock(&dev.lock);
		dev.worker = w;
		spin_unlock(&dev.lock);
		a->sink += cat_work(OWNER_WORK +
				    cat_next(&a->seed) % (2 * OWNER_WORK));
		worker_teardown(w);
	}
	WRITE_ONCE(dev.done, true);
	return 0;
}

int main(void)
{
	static struct actor act[2] = {{.seed = 1}, {.seed = 2}};
	struct task_struct *o, *k;

	cat_boot();
	o = cat_start(owner, &act[0], "owner", 0);
	k = cat_start(kicker, &act[1], "kicker", 1);
	kthread_stop(o);
	kthread_stop(k);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %d workers\n", NAME,
	       CAT_BUILD, ROUNDS);
	return 0;
}
