// SPDX-License-Identifier: MIT
/*
 * 04: a check-then-act race on a flag: two openers both "win".
 *
 * A device may be open once.  Two kthreads (vCPU 0 and 1) open it now
 * and then; the buggy open tests the flag and sets it in two steps, with
 * the session's allocation between them:
 *
 *	if (READ_ONCE(dev.open))           // both see 0 ...
 *		return NULL;
 *	s = kzalloc(sizeof(*s), GFP_KERNEL);
 *	WRITE_ONCE(dev.open, 1);           // ... both set 1: two sessions
 *
 * Detected by: BUG_ON() in the session: it counts the sessions inside
 * with an atomic and expects to be alone (a report: abort).
 * Fix (-DFIXED): test_and_set_bit(): the test and the set are one atomic
 * step, so exactly one opener sees the bit clear.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/atomic.h>
#include <linux/bitops.h>

#include "catalogue.h"

#define NAME "04_check_then_act"
#define OPENS 20	  /* attempts per task */
#define SESSION_WORK 2000 /* inside a session: ~2 us */
#define IDLE_WORK 80000	  /* between attempts: 80-240 us */

struct session {
	unsigned long id;
};

static struct {
#ifndef FIXED
	int open;
#else
	unsigned long flags; /* bit 0: open */
#endif
	atomic_t inside;
	atomic_t sessions;
} dev;

static struct session *dev_open(void)
{
	struct session *s;

#ifndef FIXED
	if (READ_ONCE(dev.open))
		return NULL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	WRITE_ONCE(dev.open, 1);
#else
	if (test_and_set_bit(0, &dev.flags))
		return NULL;
	s = kzalloc(sizeof(*s), GFP_KERNEL);
#endif
	BUG_ON(!s);
	s->id = atomic_inc_return(&dev.sessions);
	return s;
}

static void dev_release(struct session *s)
{
	kfree(s);
#ifndef FIXED
	WRITE_ONCE(dev.open, 0);
#else
	clear_bit(0, &dev.flags);
#endif
}

struct opener {
	unsigned long seed; /* the idle times, different per task */
	unsigned long sink;
};

static int opener(void *data)
{
	struct opener *o = data;
	unsigned long *sink = &o->sink;

	for (int i = 0; i < OPENS; i++) {
		struct session *s = dev_open();

		if (s) {
			/* Exclusive by contract: nobody else may be here. */
			BUG_ON(atomic_inc_return(&dev.inside) != 1);
			*sink += cat_work(SESSION_WORK);
			atomic_dec(&dev.inside);
			dev_release(s);
		}
		*sink += cat_work(IDLE_WORK +
				  cat_next(&o->seed) % (2 * IDLE_WORK));
	}
	return 0;
}

int main(void)
{
	static struct opener o[2] = {{.seed = 1}, {.seed = 2}};
	struct task_struct *a, *b;

	cat_boot();
	a = cat_start(opener, &o[0], "opener/a", 0);
	b = cat_start(opener, &o[1], "opener/b", 1);
	kthread_stop(a);
	kthread_stop(b);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %d sessions\n", NAME,
	       CAT_BUILD, atomic_read(&dev.sessions));
	return 0;
}
