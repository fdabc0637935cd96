/* SPDX-License-Identifier: MIT */
/*
 * What bench_count and bench_switch share: the clock, calibration to a
 * target time, the median and range of the rounds, and the parsing of
 * their common options.  @prog names the program in its messages.
 */
#ifndef BENCH_UTIL_H
#define BENCH_UTIL_H

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define BENCH_MAX_REPS 31

static inline double bench_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/*
 * Iterations that take about @target_ns: @elapsed(@c, iters) is the time
 * @iters take, in ns.  Tries @start, then 4 times as many, and so on until
 * a tenth of the target; returns at least @min.
 */
static inline long bench_calibrate(double (*elapsed)(const void *c, long iters),
				   const void *c, long start, long min,
				   double target_ns)
{
	long iters = start;
	double t;

	for (;;) {
		t = elapsed(c, iters);
		if (t >= target_ns / 10 || iters > LONG_MAX / 16)
			break;
		iters *= 4;
	}
	if (t <= 0)
		return iters;
	t = (double)iters * target_ns / t;
	if (t < (double)min)
		return min;
	if (t > (double)(LONG_MAX / 2))
		return LONG_MAX / 2;
	return (long)t;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* Median of @v[0..@n), @n <= BENCH_MAX_REPS. */
static inline double bench_median(const double *v, int n)
{
	double s[BENCH_MAX_REPS];

	memcpy(s, v, sizeof(*v) * (size_t)n);
	qsort(s, (size_t)n, sizeof(*s), bench_cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Smallest and largest of @v[0..@n), @n >= 1. */
static inline void bench_range(const double *v, int n, double *lo, double *hi)
{
	*lo = *hi = v[0];
	for (int r = 1; r < n; r++) {
		*lo = v[r] < *lo ? v[r] : *lo;
		*hi = v[r] > *hi ? v[r] : *hi;
	}
}

/* A positive number, or "@prog: bad @what '@s'" and exit status 2. */
static inline long bench_parse_long(const char *prog, const char *s,
				    const char *what)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || *end || v <= 0) {
		fprintf(stderr, "%s: bad %s '%s'\n", prog, what, s);
		exit(2);
	}
	return v;
}

/*
 * [--ms N] [--reps N] in @argv[1..@argc) into *@ms and *@reps (left as
 * they are when not given; reps at most BENCH_MAX_REPS).  -1 on anything
 * else: the caller prints its usage.
 */
static inline int bench_timing_args(const char *prog, int argc, char **argv,
				    long *ms, int *reps)
{
	long r = *reps;

	for (int i = 1; i < argc; i++) {
		if (i + 1 < argc && !strcmp(argv[i], "--ms"))
			*ms = bench_parse_long(prog, argv[++i], "--ms");
		else if (i + 1 < argc && !strcmp(argv[i], "--reps"))
			r = bench_parse_long(prog, argv[++i], "--reps");
		else
			return -1;
	}
	*reps = r > BENCH_MAX_REPS ? BENCH_MAX_REPS : (int)r;
	return 0;
}

#endif /* BENCH_UTIL_H */
