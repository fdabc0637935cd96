/* SPDX-License-Identifier: MIT */
#ifndef SAFEPOINT_CASES_H
#define SAFEPOINT_CASES_H

/*
 * The safe-point rule, case by case, shared by the cmocka test (linked
 * with libpreempt.so and with libpreempt.a) and the static soak program
 * (everything, libc included, in one executable): each case boots its own
 * machine and returns NULL, or what went wrong.
 *
 * The witness is a SCHED_FIFO task that sleeps one tick at a time: every
 * tick wakes it from the timer softirq, and the reschedule it asks for is
 * taken at that interrupt's return -- unless the interrupted task is in
 * host code or called back from it.  The witness notes whether it ever ran
 * while the other task was inside such a region.
 *
 * Where the region is a call into host code, its flag is set and cleared
 * in our own code around the call: a tick landing on those few
 * instructions (or the PLT stub) may preempt, rightly, with the flag set.
 * That can happen at most once an edge, while a broken rule preempts at
 * every tick of the region; so such a case allows two witness runs inside
 * and makes sure its region spans at least REGION_MIN_TICKS ticks.  Under
 * qemu-user, which takes a signal only where a translated block starts,
 * an edge is hit about once in fifteen runs.  A callback sets its flag
 * inside the callback, where no preemption is right: no allowance.
 */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/sched.h>

#define REGION_MIN_TICKS 6
#define EDGE_ALLOWANCE 2

struct witness {
	volatile int region;	    /* the task under test is inside it */
	volatile long region_ticks; /* jiffies from its start to its end */
	volatile long runs;	    /* witness wake-ups */
	volatile long runs_inside;  /* ... that happened while region */
};

static int witness_fn(void *arg)
{
	struct witness *w = arg;

	while (!kthread_should_stop()) {
		msleep(1);
		w->runs++;
		if (w->region)
			w->runs_inside++;
	}
	return 0;
}

static long sp_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/*
 * Busy for about @ms milliseconds in our own code only: reading a clock
 * would spend most of the time in the library or the vDSO, where a tick is
 * deferred anyway, and leave a broken rule few chances to show.
 */
static unsigned long spins_per_ms;

static void spin_own(unsigned long n)
{
	for (volatile unsigned long i = 0; i < n; i++)
		;
}

static void calibrate_spin_own(void)
{
	const unsigned long n = 1000000;
	long best = -1;

	if (spins_per_ms)
		return;
	for (int i = 0; i < 3; i++) { /* the fastest: no host preemption */
		long t0 = sp_now_ns(), t;

		spin_own(n);
		t = sp_now_ns() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	spins_per_ms = n * 1000000UL / (unsigned long)(best > 0 ? best : 1);
}

static void spin_own_ms(unsigned long ms)
{
	spin_own(ms * spins_per_ms);
}

/* Spins until @ticks jiffies have passed (mostly in the library). */
static void spin_ticks(unsigned long ticks)
{
	unsigned long end = jiffies + ticks;

	while ((long)(jiffies - end) < 0)
		;
}

struct case_ctx {
	struct witness w;
	const char *error;
	char *libc_buf;
	size_t libc_bytes;
	int too_short; /* the region spanned too few ticks to judge */
};

static int compare_slowly(const void *a, const void *b)
{
	extern struct case_ctx *sp_ctx;

	sp_ctx->w.region = 1;
	/* Long enough for several ticks to land here, in our own code. */
	spin_own_ms(6);
	sp_ctx->w.region = 0;
	return *(const int *)a - *(const int *)b;
}

struct case_ctx *sp_ctx;

/* After the region: the deferred reschedule must be taken, in own code. */
static const char *witness_runs_after(struct case_ctx *c, long before)
{
	unsigned long end = jiffies + 10000; /* a wide cap for a loaded host */

	while (c->w.runs <= before + 1 && (long)(jiffies - end) < 0)
		;
	return c->w.runs > before + 1
		       ? NULL
		       : "the witness never ran after the region";
}

static int qsort_task(void *arg)
{
	struct case_ctx *c = arg;
	int v[2] = {2, 1};
	long before;

	spin_ticks(3); /* the witness is asleep on its tick timer */
	qsort(v, 2, sizeof(v[0]), compare_slowly);
	before = c->w.runs;
	c->error = witness_runs_after(c, before);
	return 0;
}

/* The compiler must not drop a memset() whose result nobody reads. */
static void keep(void *buf)
{
	__asm__ volatile("" : : "r"(buf) : "memory");
}

static int libc_task(void *arg)
{
	struct case_ctx *c = arg;
	unsigned long start;
	long before;

	spin_ticks(3);
	start = jiffies;

	c->w.region = 1;
	memset(c->libc_buf, (int)c->w.runs, c->libc_bytes); /* many ticks */
	keep(c->libc_buf);
	c->w.region = 0;
	c->w.region_ticks = (long)(jiffies - start);
	before = c->w.runs;
	c->error = witness_runs_after(c, before);
	return 0;
}

static int library_task(void *arg)
{
	struct case_ctx *c = arg;
	unsigned long start;
	long before;

	spin_ticks(3);
	start = jiffies;

	c->w.region = 1;
	mdelay(REGION_MIN_TICKS + 2); /* the library's own busy loop */
	c->w.region = 0;
	c->w.region_ticks = (long)(jiffies - start);
	before = c->w.runs;
	c->error = witness_runs_after(c, before);
	return 0;
}

/*
 * A buffer whose memset() takes at least 10 ms (10 ticks, more than
 * REGION_MIN_TICKS), measured with
 * its pages already touched, so the time is libc's, not page faults'.
 */
/* The fastest of three: a descheduled host thread only makes one slower. */
static long memset_ns(char *buf, size_t bytes)
{
	long best = -1;

	for (int i = 0; i < 3; i++) {
		long t0 = sp_now_ns(), t;

		memset(buf, 2 + i, bytes);
		keep(buf);
		t = sp_now_ns() - t0;
		if (best < 0 || t < best)
			best = t;
	}
	return best;
}

static void libc_region_buffer(struct case_ctx *c)
{
	for (size_t bytes = 16 << 20; bytes <= (size_t)1 << 30; bytes *= 2) {
		char *buf = malloc(bytes);

		if (!buf)
			return;
		memset(buf, 1, bytes);
		keep(buf);
		if (memset_ns(buf, bytes) >= 10000000L ||
		    bytes == (size_t)1 << 30) {
			c->libc_buf = buf;
			c->libc_bytes = bytes;
			return;
		}
		free(buf);
	}
}

/*
 * One vCPU, full preemption: @fn runs its region while the witness wakes
 * every tick.  The witness must not run inside the region and must run
 * after it.
 */
static const char *run_case(int (*fn)(void *), struct case_ctx *c,
			    long allowance)
{
	struct machine_config cfg = {
		.nr_cpus = 1, .hz = 1000, .model = PREEMPT_MODEL_FULL};
	struct task_struct *witness, *t;
	static char msg[128];

	sp_ctx = c;
	calibrate_spin_own();
	if (machine_boot(&cfg))
		return "machine_boot failed";
	witness = kthread_create(witness_fn, &c->w, "witness");
	sched_set_fifo(witness);
	wake_up_process(witness);
	t = kthread_run(fn, c, "region");
	kthread_stop(t);
	kthread_stop(witness);
	machine_shutdown();
	if (c->w.runs_inside > allowance) {
		snprintf(msg, sizeof(msg),
			 "preempted inside host code or a callback from it "
			 "(%ld of %ld witness runs, %ld allowed at the edges)",
			 c->w.runs_inside, c->w.runs, allowance);
		return msg;
	}
	if (allowance && c->w.region_ticks < REGION_MIN_TICKS) {
		c->too_short = 1;
		snprintf(msg, sizeof(msg),
			 "the region lasted %ld ticks, too few to judge (%d)",
			 c->w.region_ticks, REGION_MIN_TICKS);
		return msg;
	}
	return c->error;
}

/* A qsort() comparator is our code, but libc is below it on the stack. */
static const char *case_callback_from_libc(void)
{
	struct case_ctx c = {0};

	return run_case(qsort_task, &c, 0);
}

/*
 * Inside libc itself: memset() of a buffer that takes many ticks.  The
 * calibration is made before the machine runs; where the region still
 * spans too few ticks (a loaded host, or qemu-user, which delivers a
 * signal only between translated blocks), the buffer doubles and the case
 * runs again: the verdict never rests on the host's timing.
 */
static const char *case_inside_libc(void)
{
	struct case_ctx c = {0};
	const char *error;

	libc_region_buffer(&c);
	for (int attempt = 0;; attempt++) {
		struct case_ctx run = {.libc_buf = c.libc_buf,
				       .libc_bytes = c.libc_bytes};
		char *bigger;

		if (!run.libc_buf)
			return "no memory for the libc region";
		error = run_case(libc_task, &run, EDGE_ALLOWANCE);
		if (!run.too_short || attempt == 3)
			break;
		bigger = realloc(c.libc_buf, c.libc_bytes * 2);
		if (!bigger)
			break;
		c.libc_buf = bigger;
		c.libc_bytes *= 2;
		memset(c.libc_buf, 1, c.libc_bytes); /* pages touched first */
	}
	free(c.libc_buf);
	return error;
}

/* Inside the library: linked statically, its code is in the program. */
static const char *case_inside_library(void)
{
	struct case_ctx c = {0};

	return run_case(library_task, &c, EDGE_ALLOWANCE);
}

/* ---- the soak: tasks in malloc/free/snprintf loops, preempted ---- */

static volatile unsigned long soak_sink;

static int soak_task(void *arg)
{
	volatile long *rounds = arg;
	unsigned int seed = (unsigned int)(uintptr_t)current;
	char line[128];

	/*
	 * A user program's loop: returning from an interrupt to it preempts
	 * in every model, so the safe-point rule is what keeps the tick out
	 * of libc in none and voluntary too.  (As kernel code it would never
	 * be preempted there, and four of them on two vCPUs would starve the
	 * two that wait -- and kthread_stop() with them.)
	 */
	enter_user();
	while (!kthread_should_stop()) {
		size_t size = sizeof(line) + rand_r(&seed) % 8192;
		char *p = malloc(size);

		if (!p)
			return -1;
		snprintf(line, sizeof(line), "%s round %ld size %zu",
			 current->comm, *rounds, size);
		memcpy(p, line, strlen(line) + 1);
		for (int i = 0; i < 3000; i++) /* own code: preemptible */
			soak_sink += (unsigned long)p[i % 16] * (unsigned)i;
		if (memcmp(p, line, strlen(line) + 1))
			return -2; /* the heap handed this block out twice */
		free(p);
		__atomic_add_fetch(rounds, 1, __ATOMIC_RELAXED);
	}
	return 0;
}

static unsigned long irq_return_preemptions(int cpus)
{
	unsigned long n = 0;

	for (int c = 0; c < cpus; c++)
		n += pk_sched_cpu_stats(c).resched[PK_RESCHED_IRQ_RETURN];
	return n;
}

/*
 * @tasks tasks on 2 vCPUs in @model for @ms milliseconds, with a FIFO
 * ticker; returns NULL or the failure.  The tasks run as user code, which
 * interrupt return preempts in every model: the run goes on until it has
 * (the rule defers, it does not forbid), for at most a minute more, since a
 * loaded host may give the vCPUs few ticks; *@irq_preemptions says how many.
 */
static const char *case_soak(enum preempt_model model, int tasks, long ms,
			     unsigned long *irq_preemptions)
{
	struct machine_config cfg = {
		.nr_cpus = 2, .hz = 1000, .model = (int)model};
	struct task_struct *t[16], *tick;
	long start = sp_now_ns(), end = start + ms * 1000000L;
	long cap = end + 60 * 1000000000L;
	struct witness w = {0};
	const char *error = NULL;
	volatile long rounds = 0;

	if (tasks > 16 || machine_boot(&cfg))
		return "machine_boot failed";
	tick = kthread_create(witness_fn, &w, "ticker");
	sched_set_fifo(tick);
	wake_up_process(tick);
	for (int i = 0; i < tasks; i++)
		t[i] = kthread_run(soak_task, (void *)&rounds, "libc/%d", i);
	while (sp_now_ns() < end ||
	       (!irq_return_preemptions(2) && sp_now_ns() < cap))
		usleep(10000);
	for (int i = 0; i < tasks; i++)
		if (kthread_stop(t[i]) != 0)
			error = "a soak task saw a corrupt heap block";
	kthread_stop(tick);
	*irq_preemptions = irq_return_preemptions(2);
	machine_shutdown();
	if (!error && rounds == 0)
		error = "no soak task made progress";
	return error;
}

#endif /* SAFEPOINT_CASES_H */
