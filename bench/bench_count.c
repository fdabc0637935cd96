// SPDX-License-Identifier: MIT
/*
 * bench_count: ns/op of the count layer's hot paths beside a bare TLS
 * increment+decrement, and of the irq layer's beside the signal calls they
 * stand in for, all in one run.
 *
 *   bench_count [--ms N] [--reps N]   timing tables (default 100 ms, 5 reps)
 *   bench_count --callgrind N [SYM..] run every case (or those whose loop
 *                                     functions are named) once, N
 *                                     iterations, for valgrind
 *   bench_count --list                symbol, checks, name, table,
 *                                     reference symbol and "sends
 *                                     signals" (0/1) of every case
 *
 * Each case is calibrated to about --ms milliseconds, then every case runs
 * once per round, --reps rounds, and the median is reported: interleaving
 * the rounds spreads frequency drift and noisy neighbours over all cases
 * alike, which is what a ratio needs.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/preempt.h>

#include "bench_util.h"
#include "count_cases.h"
#include "irq_cases.h"

__thread unsigned int bench_tls_word __attribute__((tls_model("initial-exec")));
volatile unsigned long bench_sink;

#define MAX_CASES 32
#define BASELINE_SYMBOL "bench_tls_baseline_nodebug"

struct row {
	const struct bench_case *c;
	int ref; /* index of the row it is compared with */
	long iters;
	double ns[BENCH_MAX_REPS];
	double median;
};

static double run_ns(const void *p, long iters)
{
	const struct bench_case *c = p;
	double start = bench_now_ns();

	c->fn(iters);
	return bench_now_ns() - start;
}

/* The cases in table order, each debug-on case right after its twin. */
static int add_case(const struct bench_case **out, int n,
		    const struct bench_case *c)
{
	if (n == MAX_CASES) {
		fprintf(stderr, "bench_count: more than %d cases\n", MAX_CASES);
		exit(1);
	}
	out[n] = c;
	return n + 1;
}

static int collect(const struct bench_case **out, int *n_count)
{
	int n = 0;

	for (const struct bench_case *c = bench_cases_nodebug; c->name; c++) {
		n = add_case(out, n, c);
		for (const struct bench_case *d = bench_cases_debug; d->name;
		     d++)
			if (!strcmp(d->name, c->name))
				n = add_case(out, n, d);
	}
	for (const struct bench_case *d = bench_cases_debug; d->name; d++) {
		int seen = 0;

		for (int i = 0; i < n; i++)
			seen |= out[i] == d;
		if (!seen)
			n = add_case(out, n, d);
	}
	*n_count = n;
	for (const struct bench_case *c = bench_cases_irq; c->name; c++)
		n = add_case(out, n, c);
	return n;
}

static const char *ref_symbol(const struct bench_case *c)
{
	return c->ref ? c->ref : BASELINE_SYMBOL;
}

static int find_symbol(const struct bench_case **cases, int n,
		       const char *symbol)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(cases[i]->symbol, symbol))
			return i;
	fprintf(stderr, "bench_count: no case %s\n", symbol);
	exit(1);
}

static const char *pin_to_this_cpu(void)
{
	static char where[32];
	cpu_set_t set;
	int cpu = sched_getcpu();

	if (cpu < 0)
		return "not pinned (sched_getcpu failed)";
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return "not pinned (sched_setaffinity failed)";
	snprintf(where, sizeof(where), "pinned to CPU %d", cpu);
	return where;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_count [--ms N] [--reps N] | "
			"--callgrind N [SYMBOL...] | --list\n");
	return 2;
}

/* @named: also name the reference; rows below @n_count are count cases. */
static void print_row(const struct row *rows, int i, int reps, int named,
		      int n_count)
{
	const struct row *w = &rows[i], *ref = &rows[w->ref];
	double lo, hi;

	bench_range(w->ns, reps, &lo, &hi);
	printf("%-33s %-6s %9.3f %9.3f %9.3f", w->c->name,
	       w->c->debug ? "on" : "off", w->median, lo, hi);
	if (ref->median > 0)
		printf(" %9.2fx", w->median / ref->median);
	else
		printf(" %10s", "-");
	if (named && w->ref == i)
		printf("  (reference)");
	else if (named)
		printf("  %s%s", ref->c->name,
		       w->ref >= n_count ? ""
		       : ref->c->debug	 ? ", checks on"
					 : ", checks off");
	printf("\n");
}

static int timing(const struct bench_case **cases, int n, int n_count, long ms,
		  int reps)
{
	static struct row rows[MAX_CASES];
	const char *pinned = pin_to_this_cpu();

	for (int i = 0; i < n; i++) {
		rows[i].c = cases[i];
		rows[i].ref = find_symbol(cases, n, ref_symbol(cases[i]));
		rows[i].iters = bench_calibrate(run_ns, cases[i], 1024, 1000,
						(double)ms * 1e6);
	}
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < n; i++)
			rows[i].ns[r] = run_ns(rows[i].c, rows[i].iters) /
					(double)rows[i].iters;
	for (int i = 0; i < n; i++)
		rows[i].median = bench_median(rows[i].ns, reps);

	printf("ns/op: median of %d rounds, ~%ld ms per case per round, %s, "
	       "CLOCK_MONOTONIC; preemption model %s\n\n",
	       reps, ms, pinned, preempt_model_str(preempt_model()));
	printf("%-33s %-6s %9s %9s %9s %10s\n", "count layer", "checks",
	       "ns/op", "min", "max", "vs base");
	for (int i = 0; i < n_count; i++)
		print_row(rows, i, reps, 0, n_count);
	printf("\n%-33s %-6s %9s %9s %9s %10s  %s\n", "irq layer", "checks",
	       "ns/op", "min", "max", "vs", "reference");
	for (int i = n_count; i < n; i++)
		print_row(rows, i, reps, 1, n_count);
	printf("\n");
	return bench_irq_verify(stdout) ? 1 : 0;
}

int main(int argc, char **argv)
{
	const struct bench_case *cases[MAX_CASES];
	int n_count, n = collect(cases, &n_count);
	long ms = 100;
	int reps = 5;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (int i = 0; i < n; i++)
			printf("%s\t%s\t%s\t%s\t%s\t%d\n", cases[i]->symbol,
			       cases[i]->debug ? "on" : "off", cases[i]->name,
			       i < n_count ? "count" : "irq",
			       ref_symbol(cases[i]), cases[i]->signals);
		return 0;
	}
	/* The thread becomes a CPU: the count cases do not mind. */
	if (bench_irq_setup())
		return 1;
	if (argc >= 3 && !strcmp(argv[1], "--callgrind")) {
		long iters = bench_parse_long("bench_count", argv[2],
					      "iteration count");

		if (argc == 3)
			for (int i = 0; i < n; i++)
				cases[i]->fn(iters);
		for (int a = 3; a < argc; a++)
			cases[find_symbol(cases, n, argv[a])]->fn(iters);
		return bench_irq_verify(stdout) ? 1 : 0;
	}
	if (bench_timing_args("bench_count", argc, argv, &ms, &reps))
		return usage();
	return timing(cases, n, n_count, ms, reps);
}
