/* SPDX-License-Identifier: MIT */
#ifndef PK_SIM_CATALOGUE_H
#define PK_SIM_CATALOGUE_H

/*
 * The bug catalogue (docs/sim.md, "The catalogue"): classic kernel
 * concurrency bugs, one small kernel-style program each, built twice:
 * sim_NN_name has the bug, sim_NN_name_fixed (-DFIXED) the fix.
 *
 * Exit contract, the same for every program:
 *   0              no bug observed in this run;
 *   1              the program's own check found the bug (one line
 *                  "catalogue: NN_name: BUG FOUND: ..." on stderr);
 *   killed by SIGABRT (134 in a shell)
 *                  a kernel-style report found it: BUG_ON(), a WARN
 *                  (panic_on_warn is set: any report is fatal), lockdep,
 *                  a spinlock debug check;
 *   no exit        a hang: the bug is a deadlock or a lost wake-up
 *                  (scripts/sim-normal-mode.sh runs under timeout(1));
 *   2              setup failed (boot, a kthread, an irq line): no verdict.
 *
 * Apart from scheduling the programs are deterministic: no host clock
 * reads of their own, no host threads but main, no unseeded randomness.
 * Bugs are not made likelier: no sleeps widen a race window, so in the
 * normal (real-thread) mode most runs pass; finding them is the
 * simulator's job (issue 20).
 */

#include <linux/completion.h>
#include <linux/kernel.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <preempt/debug.h>
#include <preempt/sched.h>

#ifdef FIXED
#define CAT_BUILD "fixed"
#else
#define CAT_BUILD "buggy"
#endif

/* Written over an object when it is freed; never a valid magic. */
#define CAT_POISON 0x6b
#define CAT_POISON_WORD 0x6b6b6b6b6b6b6b6bUL

/*
 * A fixed-seed generator for the programs' own choices (which branch a
 * round takes): xorshift64, so runs differ only by scheduling.
 */
static inline unsigned long cat_next(unsigned long *state)
{
	unsigned long x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

/*
 * Work outside any race window: about a nanosecond an iteration (a
 * multiply the next one waits for), whatever the optimization level; it
 * stands for what real code does between the operations the bug is
 * about.  Any context.
 */
static inline unsigned long cat_work(unsigned long n)
{
	unsigned long acc = n;

	for (unsigned long i = 0; i < n; i++) {
		acc = acc * 2862933555777941757UL + i;
		barrier(); /* keep every iteration */
	}
	return acc;
}

/* Setup failed: no verdict either way (status 2). */
#define cat_die(fmt, ...)                                                      \
	do {                                                                   \
		fprintf(stderr, "catalogue: setup: " fmt "\n", ##__VA_ARGS__); \
		fflush(stderr);                                                \
		_exit(2);                                                      \
	} while (0)

/* Boot the machine every program uses: 2 vCPUs, model from $PREEMPT_MODEL. */
static inline void cat_boot(void)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = -1};

	pk_set_panic_on_warn(true); /* a report is a found bug: exit at once */
	if (machine_boot(&cfg)) {
		cat_die("machine_boot failed");
	}
}

/* Start @fn(@data) as a kthread bound to vCPU @cpu (-1: anywhere). */
static inline struct task_struct *cat_start(int (*fn)(void *), void *data,
					    const char *name, int cpu)
{
	struct task_struct *t = kthread_create(fn, data, "%s", name);

	if (!t)
		cat_die("kthread_create(%s) failed", name);
	if (cpu >= 0)
		kthread_bind(t, cpu);
	wake_up_process(t);
	return t;
}

/*
 * The program's own check failed: say so and leave with status 1 at once
 * (_exit(): the vCPUs are still running, no destructor should race them).
 * Task or thread context.
 */
#define cat_found(name, fmt, ...)                                              \
	do {                                                                   \
		fprintf(stderr, "catalogue: %s (%s): BUG FOUND: " fmt "\n",    \
			name, CAT_BUILD, ##__VA_ARGS__);                       \
		fflush(stderr);                                                \
		/* Simulated (the other vCPUs wait for the baton) or shut      \
		 * down, exit() is safe and prints a simulated run's seed and  \
		 * trace. */                                                   \
		if (pk_sim_on || !num_online_cpus())                           \
			exit(1);                                               \
		_exit(1);                                                      \
	} while (0)

/* Free @p after poisoning it, so a late user sees CAT_POISON bytes. */
static inline void cat_free_poisoned(void *p, size_t size)
{
	memset(p, CAT_POISON, size);
	kfree(p);
}

/*
 * A reusable rendezvous of @n tasks (a generation count): every task
 * calls cat_barrier_wait() and all leave together, so the tasks enter
 * each round of a race at about the same time.
 */
struct cat_barrier {
	int n;
	int arrived;
	unsigned long gen;
	spinlock_t lock;
	wait_queue_head_t wq;
};

static inline void cat_barrier_init(struct cat_barrier *b, int n)
{
	b->n = n;
	b->arrived = 0;
	b->gen = 0;
	spin_lock_init(&b->lock);
	init_waitqueue_head(&b->wq);
}

static inline void cat_barrier_wait(struct cat_barrier *b)
{
	unsigned long gen;

	spin_lock(&b->lock);
	gen = b->gen;
	if (++b->arrived == b->n) {
		b->arrived = 0;
		WRITE_ONCE(b->gen, gen + 1);
		spin_unlock(&b->lock);
		wake_up_all(&b->wq);
		return;
	}
	spin_unlock(&b->lock);
	wait_event(b->wq, READ_ONCE(b->gen) != gen);
}

#endif /* PK_SIM_CATALOGUE_H */
