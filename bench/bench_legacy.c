// SPDX-License-Identifier: MIT
/*
 * bench_legacy: what the unconditional count costs (issue 5, Linus's
 * objection to the seed series).  The same spinlock-heavy and
 * preempt-disable-heavy workloads, compiled with the count
 * (CONFIG_PREEMPT_COUNT=1, the library) and with the legacy build that
 * reproduces PREEMPT_COUNT=n (=0), timed side by side in one run.
 *
 *   bench_legacy [--ms N] [--reps N]   checks, then the timing table
 *                                      (default 100 ms, 5 reps)
 *   bench_legacy --callgrind N [SYM..] run every single-thread case of
 *                                      both builds (or those whose loop
 *                                      functions are named) once, N
 *                                      iterations, for valgrind
 *   bench_legacy --list                symbol, id, build, threads and
 *                                      name of every case
 *
 * Each case is calibrated to about --ms milliseconds; then in every round
 * each workload runs in both builds back to back, the order alternating
 * from round to round, --reps rounds, and the medians are compared.
 */
#define _GNU_SOURCE
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/preempt.h>
#include <preempt/spinlock.h>

#include "bench_util.h"
#include "legacy_cases.h"

#define MAX_PAIRS 16
#define CHECK_ITERS 100000L

enum { COUNT, LEGACY };
static const char *const build_name[] = {"count", "legacy"};

struct pair {
	const struct legacy_case *c[2]; /* [COUNT], [LEGACY] */
	long iters[2];
	double ns[2][BENCH_MAX_REPS];
	double median[2];
	double mean, ci; /* of the per-round count/legacy ratios */
};

/* Where the contended case's second thread runs; -1: anywhere. */
static int other_cpu = -1;

struct worker_arg {
	void (*worker)(uint64_t seed, long iters);
	uint64_t seed;
	long iters;
};

static void *worker_main(void *p)
{
	const struct worker_arg *a = p;

	a->worker(a->seed, a->iters);
	return NULL;
}

void bench_legacy_run_pair(void (*worker)(uint64_t seed, long iters),
			   long iters)
{
	struct worker_arg a = {worker, 0x2545f4914f6cdd1dULL, iters};
	pthread_attr_t attr;
	pthread_t t;

	pthread_attr_init(&attr);
	if (other_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(other_cpu, &set);
		pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	}
	if (pthread_create(&t, &attr, worker_main, &a)) {
		fprintf(stderr, "bench_legacy: pthread_create failed\n");
		exit(1);
	}
	worker(0x9e3779b97f4a7c15ULL, iters);
	pthread_join(t, NULL);
	pthread_attr_destroy(&attr);
}

/* Pins the calling thread to its CPU and picks another for the second. */
static const char *pin_cpus(void)
{
	static char where[96];
	cpu_set_t allowed, set;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(allowed), &allowed))
		return "not pinned (sched_getcpu/getaffinity failed)";
	for (int i = 0; i < CPU_SETSIZE && other_cpu < 0; i++)
		if (i != cpu && CPU_ISSET(i, &allowed))
			other_cpu = i;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return "not pinned (sched_setaffinity failed)";
	if (other_cpu >= 0)
		snprintf(where, sizeof(where),
			 "pinned to CPU %d (contended case: second thread on "
			 "CPU %d)",
			 cpu, other_cpu);
	else
		snprintf(where, sizeof(where),
			 "pinned to CPU %d (one CPU: both contended threads "
			 "on it)",
			 cpu);
	return where;
}

static int collect(struct pair *pairs)
{
	int n = 0;

	for (; bench_legacy_cases_count[n].id; n++) {
		const struct legacy_case *c = &bench_legacy_cases_count[n];
		const struct legacy_case *l = &bench_legacy_cases_legacy[n];

		if (n == MAX_PAIRS || !l->id || strcmp(c->id, l->id)) {
			fprintf(stderr,
				"bench_legacy: the two tables differ\n");
			exit(1);
		}
		pairs[n].c[COUNT] = c;
		pairs[n].c[LEGACY] = l;
	}
	return n;
}

/* Each copy's functions besides its cases, by build. */
static const struct build_api {
	void (*lock)(struct raw_spinlock *lock);
	void (*unlock)(struct raw_spinlock *lock);
	int (*preemptible_fn)(void);
	void (*reset)(void);
	uint64_t (*digest)(void);
	unsigned long (*contended_total)(void);
} api[2] = {
	[COUNT] = {probe_lock_count, probe_unlock_count,
		   bench_legacy_preemptible_count, bench_legacy_reset_count,
		   bench_legacy_digest_count,
		   bench_legacy_contended_total_count},
	[LEGACY] = {probe_lock_legacy, probe_unlock_legacy,
		    bench_legacy_preemptible_legacy, bench_legacy_reset_legacy,
		    bench_legacy_digest_legacy,
		    bench_legacy_contended_total_legacy},
};

static void reset(void)
{
	api[COUNT].reset();
	api[LEGACY].reset();
}

/*
 * The builds are what they say, and do the same work: the word inside a
 * lock and preemptible() per build, equal state after the same
 * iterations, and no lookup lost by the contended table.
 */
static int checks(const struct pair *pairs, int n)
{
	static const int want_pc[2] = {1, 0}, want_pre[2] = {1, 0};
	int pc[2], pr[2], bad = 0;
	uint64_t d[2];
	unsigned long t[2];
	DEFINE_RAW_SPINLOCK(l);

	for (int b = COUNT; b <= LEGACY; b++) {
		api[b].lock(&l);
		pc[b] = preempt_count();
		api[b].unlock(&l);
		pr[b] = api[b].preemptible_fn();
	}
	bad |= pc[0] != want_pc[0] || pc[1] != want_pc[1] ||
	       pr[0] != want_pre[0] || pr[1] != want_pre[1] ||
	       preempt_count() != 0;
	printf("check:    preempt_count() inside raw_spin_lock(): %d count, "
	       "%d legacy; preemptible(), nothing held: %d count, %d legacy "
	       "(PREEMPT_COUNT=n's answer)%s\n",
	       pc[0], pc[1], pr[0], pr[1], bad ? "  UNEXPECTED" : "");

	reset();
	for (int i = 0; i < n; i++)
		for (int b = COUNT; b <= LEGACY; b++)
			if (pairs[i].c[b]->threads == 1)
				pairs[i].c[b]->fn(CHECK_ITERS);
	for (int b = COUNT; b <= LEGACY; b++)
		d[b] = api[b].digest();
	printf("check:    state after %ld iterations of each single-thread "
	       "workload: count %016llx, legacy %016llx: %s\n",
	       CHECK_ITERS, (unsigned long long)d[0], (unsigned long long)d[1],
	       d[0] == d[1] ? "same" : "DIFFERENT");
	bad |= d[0] != d[1];

	reset();
	for (int i = 0; i < n; i++)
		for (int b = COUNT; b <= LEGACY; b++)
			if (pairs[i].c[b]->threads == 2)
				pairs[i].c[b]->fn(CHECK_ITERS);
	for (int b = COUNT; b <= LEGACY; b++)
		t[b] = api[b].contended_total();
	printf("check:    contended table, 2 threads x %ld iterations: %lu "
	       "lookups recorded (count), %lu (legacy)%s\n",
	       CHECK_ITERS, t[0], t[1],
	       t[0] == 2 * CHECK_ITERS && t[1] == 2 * CHECK_ITERS
		       ? ", none lost"
		       : "  LOST UPDATES");
	bad |= t[0] != 2 * CHECK_ITERS || t[1] != 2 * CHECK_ITERS;
	reset();
	return bad;
}

static double run_ns(const void *p, long iters)
{
	const struct legacy_case *c = p;
	double start = bench_now_ns();

	c->fn(iters);
	return bench_now_ns() - start;
}

/*
 * The mean of @v and the half-width of its 95% confidence interval
 * (Student's t, two-sided, n - 1 degrees of freedom; 0 when n < 2).
 */
static void mean_ci(const double *v, int n, double *mean, double *ci)
{
	static const double t975[] = {
		0,     12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365,
		2.306, 2.262,  2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
		2.120, 2.110,  2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
		2.064, 2.060,  2.056, 2.052, 2.048, 2.045, 2.042,
	};
	double sum = 0, sq = 0;

	for (int i = 0; i < n; i++)
		sum += v[i];
	*mean = sum / n;
	*ci = 0;
	if (n < 2)
		return;
	for (int i = 0; i < n; i++)
		sq += (v[i] - *mean) * (v[i] - *mean);
	*ci = t975[n - 1 < 30 ? n - 1 : 30] * sqrt(sq / (n - 1)) / sqrt(n);
}

static int timing(struct pair *pairs, int n, long ms, int reps)
{
	const char *pinned = pin_cpus();

	if (checks(pairs, n))
		return 1;
	for (int i = 0; i < n; i++)
		for (int b = COUNT; b <= LEGACY; b++)
			pairs[i].iters[b] =
				bench_calibrate(run_ns, pairs[i].c[b], 1024,
						1000, (double)ms * 1e6);
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < n; i++)
			for (int k = 0; k < 2; k++) {
				int b = (r + k) % 2; /* order alternates */
				struct pair *p = &pairs[i];

				p->ns[b][r] = run_ns(p->c[b], p->iters[b]) /
					      (double)p->iters[b];
			}

	printf("\nns/iteration: median of %d rounds, ~%ld ms per case per "
	       "round, both builds of a workload back to back in each round "
	       "(order alternating), %s, CLOCK_MONOTONIC; preemption model "
	       "%s\n\n",
	       reps, ms, pinned, preempt_model_str(preempt_model()));
	printf("%-42s %9s %9s %9s  %-14s %s\n", "workload", "count", "legacy",
	       "overhead", "per-round", "mean +- 95% CI");
	for (int i = 0; i < n; i++) {
		struct pair *p = &pairs[i];
		double ratio[BENCH_MAX_REPS] = {0}, lo, hi, mean, ci;

		for (int b = COUNT; b <= LEGACY; b++)
			p->median[b] = bench_median(p->ns[b], reps);
		for (int r = 0; r < reps; r++)
			ratio[r] = p->ns[COUNT][r] / p->ns[LEGACY][r];
		bench_range(ratio, reps, &lo, &hi);
		mean_ci(ratio, reps, &mean, &ci);
		printf("%-42s %9.3f %9.3f %+8.2f%%  %+.1f%%..%+.1f%%  "
		       "%+6.2f%% +- %.2f%%\n",
		       p->c[COUNT]->name, p->median[COUNT], p->median[LEGACY],
		       (p->median[COUNT] / p->median[LEGACY] - 1) * 100,
		       (lo - 1) * 100, (hi - 1) * 100, (mean - 1) * 100,
		       ci * 100);
		p->mean = mean;
		p->ci = ci;
	}
	printf("\n");
	for (int i = 0; i < n; i++)
		printf("@value legacy.wall.%s.%s=%.3f +- %.3f %%\n",
		       preempt_model_str(preempt_model()),
		       pairs[i].c[COUNT]->id, (pairs[i].mean - 1) * 100,
		       pairs[i].ci * 100);
	printf("\noverhead: count median / legacy median - 1; per-round "
	       "ratio: the smallest and largest count/legacy of one round; "
	       "mean +- 95%% CI: of the %d per-round ratios, Student's t\n",
	       reps);
	return 0;
}

static const struct legacy_case *find_symbol(const struct pair *pairs, int n,
					     const char *symbol)
{
	for (int i = 0; i < n; i++)
		for (int b = COUNT; b <= LEGACY; b++)
			if (!strcmp(pairs[i].c[b]->symbol, symbol))
				return pairs[i].c[b];
	fprintf(stderr, "bench_legacy: no case %s\n", symbol);
	exit(1);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_legacy [--ms N] [--reps N] | "
			"--callgrind N [SYMBOL...] | --list\n");
	return 2;
}

int main(int argc, char **argv)
{
	static struct pair pairs[MAX_PAIRS];
	int n = collect(pairs);
	long ms = 100;
	int reps = 5;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (int i = 0; i < n; i++)
			for (int b = COUNT; b <= LEGACY; b++)
				printf("%s\t%s\t%s\t%d\t%s\n",
				       pairs[i].c[b]->symbol, pairs[i].c[b]->id,
				       build_name[b], pairs[i].c[b]->threads,
				       pairs[i].c[b]->name);
		return 0;
	}
	if (argc >= 3 && !strcmp(argv[1], "--callgrind")) {
		long iters = bench_parse_long("bench_legacy", argv[2],
					      "iteration count");

		reset();
		if (argc == 3)
			for (int i = 0; i < n; i++)
				for (int b = COUNT; b <= LEGACY; b++)
					if (pairs[i].c[b]->threads == 1)
						pairs[i].c[b]->fn(iters);
		for (int a = 3; a < argc; a++)
			find_symbol(pairs, n, argv[a])->fn(iters);
		return 0;
	}
	if (bench_timing_args("bench_legacy", argc, argv, &ms, &reps))
		return usage();
	return timing(pairs, n, ms, reps);
}
