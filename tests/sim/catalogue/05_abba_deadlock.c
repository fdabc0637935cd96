// SPDX-License-Identifier: MIT
/*
 * 05: an ABBA deadlock that needs a rare interleaving.
 *
 * Two mutexes: cfg_lock (A) and stats_lock (B).  The reconfiguring
 * kthread (vCPU 0) always takes A then B, and marks the device as
 * reconfiguring while it holds A.  The statistics kthread (vCPU 1) takes
 * only B, except on a rare path: if it sees a reconfiguration in
 * progress, it waits for it by taking A, still holding B:
 *
 *	reconfig:                          stats:
 *	mutex_lock(&cfg_lock);             mutex_lock(&stats_lock);
 *	WRITE_ONCE(dev.reconfiguring, 1);
 *	                                   if (READ_ONCE(dev.reconfiguring))
 *	                                           mutex_lock(&cfg_lock);  B->A
 *	mutex_lock(&stats_lock);   A->B
 *
 * The stats side sees the flag only if it takes B in the moment between
 * the flag's store and the other side's mutex_lock(B), and then each
 * task sleeps on the lock the other holds.
 *
 * Detected by: lockdep ("possible circular locking dependency", a
 * report: abort) when the rare path runs, since A->B is known by then;
 * with the debug checks compiled out, a hang (both tasks asleep on a
 * mutex, main in kthread_stop()).  Lockdep needs the rare path too.
 * Fix (-DFIXED): the rare path drops B before it waits on A, then takes
 * B again: the locks are only ever nested A->B.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/mutex.h>

#include "catalogue.h"

#define NAME "05_abba_deadlock"
#define ROUNDS 250
#define WORK 10000 /* between rounds: 10-30 us */

static DEFINE_MUTEX(cfg_lock);	 /* A */
static DEFINE_MUTEX(stats_lock); /* B */

static struct {
	int reconfiguring;
	unsigned long generation; /* cfg_lock */
	unsigned long samples;	  /* stats_lock */
	unsigned long waited;	  /* the rare path's count */
} dev;

struct actor {
	unsigned long seed; /* the times between rounds, per task */
	unsigned long sink;
};

static void pause_between_rounds(struct actor *a)
{
	a->sink += cat_work(WORK + cat_next(&a->seed) % (2 * WORK));
}

static int reconfig(void *data)
{
	for (int i = 0; i < ROUNDS; i++) {
		mutex_lock(&cfg_lock);
		WRITE_ONCE(dev.reconfiguring, 1);
		mutex_lock(&stats_lock);
		dev.samples = 0; /* a new configuration, new statistics */
		mutex_unlock(&stats_lock);
		dev.generation++;
		WRITE_ONCE(dev.reconfiguring, 0);
		mutex_unlock(&cfg_lock);
		pause_between_rounds(data);
	}
	return 0;
}

static int stats(void *data)
{
	for (int i = 0; i < ROUNDS; i++) {
		mutex_lock(&stats_lock);
#ifndef FIXED
		if (READ_ONCE(dev.reconfiguring)) {
			/* Let the reconfiguration finish first. */
			mutex_lock(&cfg_lock);
			dev.waited++;
			mutex_unlock(&cfg_lock);
		}
#else
		while (READ_ONCE(dev.reconfiguring)) {
			mutex_unlock(&stats_lock);
			mutex_lock(&cfg_lock);
			dev.waited++;
			mutex_unlock(&cfg_lock);
			mutex_lock(&stats_lock);
		}
#endif
		dev.samples++;
		mutex_unlock(&stats_lock);
		pause_between_rounds(data);
	}
	return 0;
}

int main(void)
{
	static struct actor act[2] = {{.seed = 1}, {.seed = 2}};
	struct task_struct *r, *s;

	cat_boot();
	r = cat_start(reconfig, &act[0], "reconfig", 0);
	s = cat_start(stats, &act[1], "stats", 1);
	kthread_stop(r);
	kthread_stop(s);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %lu waits\n", NAME,
	       CAT_BUILD, dev.waited);
	return 0;
}
