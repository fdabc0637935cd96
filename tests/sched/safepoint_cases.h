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
 */

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/sched.h>

struct witness {
	volatile int region;	   /* the task under test is inside it */
	volatile long runs;	   /* witness wake-ups */
	volatile long runs_inside; /* ... that happened while region */
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

/* Spins in our own code until @ticks jiffies have passed. */
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
};

static int compare_slowly(const void *a, const void *b)
{
	extern struct case_ctx *sp_ctx;

	sp_ctx->w.region = 1;
	/* Long enough for several ticks to land here, in our own code. */
	spin_ticks(5);
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
	long before;

	spin_ticks(3);
	c->w.region = 1;
	memset(c->libc_buf, (int)c->w.runs, c->libc_bytes); /* many ticks */
	keep(c->libc_buf);
	c->w.region = 0;
	before = c->w.runs;
	c->error = witness_runs_after(c, before);
	return 0;
}

static int library_task(void *arg)
{
	struct case_ctx *c = arg;
	long before;

	spin_ticks(3);
	c->w.region = 1;
	mdelay(8); /* the library's own busy loop, many ticks */
	c->w.region = 0;
	before = c->w.runs;
	c->error = witness_runs_after(c, before);
	return 0;
}

/*
 * A buffer whose memset() takes at least 8 ms (8 ticks), measured with
 * its pages already touched, so the time is libc's, not page faults'.
 */
static void libc_region_buffer(struct case_ctx *c)
{
	for (size_t bytes = 16 << 20; bytes <= (size_t)1 << 30; bytes *= 2) {
		char *buf = malloc(bytes);
		long t0;

		if (!buf)
			return;
		memset(buf, 1, bytes);
		keep(buf);
		t0 = sp_now_ns();
		memset(buf, 2, bytes);
		keep(buf);
		if (sp_now_ns() - t0 >= 8000000L || bytes == (size_t)1 << 30) {
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
static const char *run_case(int (*fn)(void *), struct case_ctx *c)
{
	struct machine_config cfg = {
		.nr_cpus = 1, .hz = 1000, .model = PREEMPT_MODEL_FULL};
	struct task_struct *witness, *t;
	static char msg[128];

	sp_ctx = c;
	if (machine_boot(&cfg))
		return "machine_boot failed";
	witness = kthread_create(witness_fn, &c->w, "witness");
	sched_set_fifo(witness);
	wake_up_process(witness);
	t = kthread_run(fn, c, "region");
	kthread_stop(t);
	kthread_stop(witness);
	machine_shutdown();
	if (c->w.runs_inside) {
		snprintf(msg, sizeof(msg),
			 "preempted inside host code or a callback from it "
			 "(%ld of %ld witness runs)",
			 c->w.runs_inside, c->w.runs);
		return msg;
	}
	return c->error;
}

/* A qsort() comparator is our code, but libc is below it on the stack. */
static const char *case_callback_from_libc(void)
{
	struct case_ctx c = {0};

	return run_case(qsort_task, &c);
}

/* Inside libc itself: memset() of a buffer that takes many ticks. */
static const char *case_inside_libc(void)
{
	struct case_ctx c = {0};
	const char *error;

	libc_region_buffer(&c);
	if (!c.libc_buf)
		return "no memory for the libc region";
	error = run_case(libc_task, &c);
	free(c.libc_buf);
	return error;
}

/* Inside the library: linked statically, its code is in the program. */
static const char *case_inside_library(void)
{
	struct case_ctx c = {0};

	return run_case(library_task, &c);
}

/* ---- the soak: tasks in malloc/free/snprintf loops, preempted ---- */

static volatile unsigned long soak_sink;

static int soak_task(void *arg)
{
	volatile long *rounds = arg;
	unsigned int seed = (unsigned int)(uintptr_t)current;
	char line[128];

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
 * ticker; returns NULL or the failure.  Where the model preempts at
 * interrupt return the run goes on until it has (the rule defers, it does
 * not forbid), for at most a minute more, since a loaded host may give
 * the vCPUs few ticks; *@irq_preemptions says how many.
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
	       (model >= PREEMPT_MODEL_FULL && !irq_return_preemptions(2) &&
		sp_now_ns() < cap))
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
