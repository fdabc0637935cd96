// SPDX-License-Identifier: MIT
/*
 * bench_trace: what the trace layer's hooks cost, tracing off and on, side
 * by side in one run, per
 *
 *   preempt_disable+enable   one pair at depth 0 (an outermost section:
 *                            two preemption events when on)
 *   local_irq_save+restore   one pair at depth 0 (two interrupt events)
 *   interrupt                irq_raise() to this thread's own CPU: the
 *                            signal, the dispatch and the handler (four
 *                            events when on: irqs off, handler entry and
 *                            exit, irqs on)
 *
 * "off" is the library as shipped (tracing off: a load and a branch per
 * hook); "on" runs the preemptirqsoff tracer, which records every event
 * and times every section.  The cases are built with the library's own
 * settings: the preemption hooks exist only with CONFIG_DEBUG_PREEMPT
 * (the kernel's out-of-line preempt_count_add()), the interrupt-disable
 * ones with CONFIG_TRACE_IRQFLAGS.  Median of --reps rounds of about --ms
 * each; the rounds alternate off and on so drift hits both.
 *
 *   bench_trace [--ms N] [--reps N]   (default 100 ms, 5 reps)
 */
#define _GNU_SOURCE
#include <stdio.h>

#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/trace.h>

#include "bench_util.h"

#define BENCH_IRQ 21

static int irq_cpu;
static volatile unsigned long handled;

static void __attribute__((noinline)) bench_preempt_pair(long n)
{
	for (long i = 0; i < n; i++) {
		preempt_disable();
		preempt_enable();
	}
}

static void __attribute__((noinline)) bench_irq_pair(long n)
{
	unsigned long flags;

	for (long i = 0; i < n; i++) {
		local_irq_save(flags);
		local_irq_restore(flags);
	}
}

static irqreturn_t bench_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	handled++;
	return IRQ_HANDLED;
}

static void __attribute__((noinline)) bench_interrupt(long n)
{
	for (long i = 0; i < n; i++)
		irq_raise(BENCH_IRQ, irq_cpu);
}

struct trace_case {
	const char *name;
	void (*fn)(long n);
};

static const struct trace_case cases[] = {
	{"preempt_disable+enable", bench_preempt_pair},
	{"local_irq_save+restore", bench_irq_pair},
	{"interrupt (raise to self)", bench_interrupt},
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static double elapsed(const void *c, long iters)
{
	const struct trace_case *tc = c;
	double t0 = bench_now_ns();

	tc->fn(iters);
	return bench_now_ns() - t0;
}

static void set_tracing(bool on)
{
	struct pk_trace_config cfg = {.tracer = PK_TRACER_PREEMPTIRQSOFF,
				      .buffer_events = 4096};

	if (on) {
		if (pk_trace_start(&cfg)) {
			fprintf(stderr, "bench_trace: cannot start tracing\n");
			exit(1);
		}
	} else {
		pk_trace_stop();
	}
}

/*
 * For bench_calibrate() with tracing on: recording an edge costs far more
 * than the edge itself (a backtrace for its parent=), so the iterations
 * calibrated with tracing off would run for minutes.
 */
static double elapsed_on(const void *c, long iters)
{
	double t;

	set_tracing(true);
	t = elapsed(c, iters);
	set_tracing(false);
	return t;
}

/* ns per iteration of case @c, tracing @on, over @reps rounds. */
static double run_case(const struct trace_case *c, bool on, long iters)
{
	double t;

	set_tracing(on);
	t = elapsed(c, iters) / (double)iters;
	set_tracing(false);
	return t;
}

static void run_all(long ms, int reps)
{
	printf("%-27s %10s %10s %10s %9s\n", "case (ns per iteration)", "off",
	       "on", "on - off", "on / off");
	for (size_t i = 0; i < NR_CASES; i++) {
		double off[BENCH_MAX_REPS] = {0}, on[BENCH_MAX_REPS] = {0}, a,
		       b;
		long iters = bench_calibrate(elapsed, &cases[i], 1000, 1000,
					     (double)ms * 1e6);
		long iters_on = bench_calibrate(elapsed_on, &cases[i], 1000,
						1000, (double)ms * 1e6);

		for (int r = 0; r < reps; r++) {
			off[r] = run_case(&cases[i], false, iters);
			on[r] = run_case(&cases[i], true, iters_on);
		}
		a = bench_median(off, reps);
		b = bench_median(on, reps);
		printf("%-27s %10.1f %10.1f %10.1f %8.1fx\n", cases[i].name, a,
		       b, b - a, b / a);
	}
}

int main(int argc, char **argv)
{
	long ms = 100;
	int reps = 5;

	if (bench_timing_args("bench_trace", argc, argv, &ms, &reps)) {
		fprintf(stderr, "usage: bench_trace [--ms N] [--reps N]\n");
		return 2;
	}
	irq_cpu = pk_irq_cpu_register();
	if (irq_cpu < 0 ||
	    request_irq(BENCH_IRQ, bench_handler, 0, "bench", NULL)) {
		fprintf(stderr, "bench_trace: no interrupt line\n");
		return 1;
	}
	printf("build: CONFIG_DEBUG_PREEMPT=%d CONFIG_TRACE_IRQFLAGS=%d "
	       "(hooks without them are compiled out)\n",
	       CONFIG_DEBUG_PREEMPT, CONFIG_TRACE_IRQFLAGS);
	printf("on: the preemptirqsoff tracer, 4096-event rings\n\n");
	run_all(ms, reps);
	free_irq(BENCH_IRQ, NULL);
	return handled ? 0 : 1;
}
