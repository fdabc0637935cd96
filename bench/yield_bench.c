// SPDX-License-Identifier: MIT
/*
 * bench_yield: the scheduler's real task switch (issue 19, target 1), beside
 * the bare register switch in the same process:
 *
 *   yield()             two tasks on one vCPU, each calling yield() in a
 *                       loop: every call goes through schedule() to the
 *                       other task (run queue, accounting, the tick's
 *                       interrupts and all)
 *   pk_context_switch   two contexts on one thread, ping-pong (the port
 *                       layer alone, as bench_switch's first row)
 *
 *   bench_yield [--ms N] [--reps N]   the table (default 100 ms, 5 reps)
 *   bench_yield --callgrind N         boot, N yields by each task, shut
 *                                     down: switch_run.sh subtracts a run
 *                                     of N from one of 2N
 *
 * Per switch: one yield() is one switch, A's n yields and B's n are 2n.
 * The two cases alternate in each round; the ratio is taken per round.
 * Lines starting "@value " are key=value results for the verdict table
 * (bench/run.sh's header).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/preempt.h>
#include <preempt/sched.h>

#include "../src/port/switch.h"
#include "bench_util.h"

#define TASK_STACK (64 * 1024)

/* --- the bare switch ------------------------------------------------------ */

static struct pk_context pk_main, pk_task;
static struct pk_stack pk_stack;

static void pk_partner(void *arg)
{
	(void)arg;
	for (;;)
		pk_context_switch(&pk_task, &pk_main);
}

static void __attribute__((noinline)) bench_pk_switch(long n)
{
	for (long i = 0; i < n; i++)
		pk_context_switch(&pk_main, &pk_task);
}

static double bare_ns(const void *unused, long n)
{
	double t0 = bench_now_ns();

	(void)unused;
	bench_pk_switch(n);
	return bench_now_ns() - t0;
}

/* --- yield() between two tasks -------------------------------------------- */

static long yield_iters;
static int yield_started;
static double yield_t0, yield_t1;

/* Both tasks loop; the first to start takes the time over both loops. */
static int __attribute__((noinline)) bench_yield_task(void *arg)
{
	int first = arg != NULL;

	__atomic_add_fetch(&yield_started, 1, __ATOMIC_ACQ_REL);
	while (__atomic_load_n(&yield_started, __ATOMIC_ACQUIRE) < 2)
		yield();
	if (first)
		yield_t0 = bench_now_ns();
	for (long i = 0; i < yield_iters; i++)
		yield();
	if (first)
		yield_t1 = bench_now_ns();
	return 0;
}

/* kthread_create()'s ERR_PTR(-errno), as the kernel's IS_ERR() tests it. */
static int bad_task(const struct task_struct *p)
{
	return (unsigned long)p >= (unsigned long)-4095;
}

/* Total ns of @n yields by each of two tasks (2n switches). */
static double yield_ns(const void *unused, long n)
{
	struct task_struct *a, *b;

	(void)unused;
	yield_iters = n;
	yield_started = 0;
	a = kthread_create(bench_yield_task, (void *)1, "yield-a");
	b = kthread_create(bench_yield_task, NULL, "yield-b");
	if (bad_task(a) || bad_task(b)) {
		fprintf(stderr, "bench_yield: kthread_create failed\n");
		exit(1);
	}
	wake_up_process(a);
	wake_up_process(b);
	if (kthread_stop(a) || kthread_stop(b)) {
		fprintf(stderr, "bench_yield: a task failed\n");
		exit(1);
	}
	return yield_t1 - yield_t0;
}

static void boot(void)
{
	struct machine_config cfg = {.nr_cpus = 1,
				     .model = PREEMPT_MODEL_VOLUNTARY};
	int err = machine_boot(&cfg);

	if (err) {
		fprintf(stderr, "bench_yield: machine_boot: %s\n",
			strerror(-err));
		exit(1);
	}
}

static int timing(long ms, int reps)
{
	double y[BENCH_MAX_REPS] = {0}, p[BENCH_MAX_REPS] = {0};
	double ratio[BENCH_MAX_REPS] = {0};
	long ny, np;
	double lo, hi;

	boot();
	ny = bench_calibrate(yield_ns, NULL, 1024, 1024, (double)ms * 1e6);
	np = bench_calibrate(bare_ns, NULL, 1024, 1024, (double)ms * 1e6);
	for (int r = 0; r < reps; r++) {
		y[r] = yield_ns(NULL, ny) / (2.0 * (double)ny);
		p[r] = bare_ns(NULL, np) / (2.0 * (double)np);
		ratio[r] = y[r] / p[r];
	}
	printf("ns per switch: median of %d rounds, ~%ld ms per case per "
	       "round, both cases in each round; 1 vCPU, model %s, HZ %d "
	       "(the tick's interrupts included)\n\n",
	       reps, ms, preempt_model_str(preempt_model()), pk_machine_hz());
	printf("%-34s %10s %10s %10s\n", "case", "ns/switch", "min", "max");
	bench_range(y, reps, &lo, &hi);
	printf("%-34s %10.2f %10.2f %10.2f\n", "yield(), 2 tasks on 1 vCPU",
	       bench_median(y, reps), lo, hi);
	bench_range(p, reps, &lo, &hi);
	printf("%-34s %10.2f %10.2f %10.2f\n", "pk_context_switch (bare)",
	       bench_median(p, reps), lo, hi);
	bench_range(ratio, reps, &lo, &hi);
	printf("%-34s %9.2fx %9.2fx %9.2fx\n", "ratio, per round",
	       bench_median(ratio, reps), lo, hi);
	printf("@value yield.ns=%.2f\n@value yield.bare_ns=%.2f\n"
	       "@value yield.ratio=%.3f\n",
	       bench_median(y, reps), bench_median(p, reps),
	       bench_median(ratio, reps));
	machine_shutdown();
	return 0;
}

int main(int argc, char **argv)
{
	long ms = 100;
	int reps = 5;

	if (pk_stack_alloc(&pk_stack, TASK_STACK)) {
		fprintf(stderr, "bench_yield: cannot map the task stack\n");
		return 1;
	}
	pk_context_init(&pk_task, &pk_stack, pk_partner, NULL);
	if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
		long n = bench_parse_long("bench_yield", argv[2],
					  "iteration count");

		boot();
		yield_ns(NULL, n);
		machine_shutdown();
		return 0;
	}
	if (bench_timing_args("bench_yield", argc, argv, &ms, &reps)) {
		fprintf(stderr, "usage: bench_yield [--ms N] [--reps N] | "
				"--callgrind N\n");
		return 2;
	}
	return timing(ms, reps);
}
