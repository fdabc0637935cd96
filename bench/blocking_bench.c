// SPDX-License-Identifier: MIT
/*
 * bench_blocking: what the blocking-call detector costs when it reports
 * nothing (docs/blocking.md).  Each host function called through
 * libpreempt.so's interposer (the program's plain call) beside the same
 * libc function called directly (its address taken from libc.so.6), side
 * by side in every round: task context, detector on.
 *
 * Usage: bench_blocking [--ms N] [--reps N]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <preempt/debug.h>

#include "bench_util.h"

static ssize_t (*libc_write)(int, const void *, size_t);
static void *(*libc_malloc)(size_t);
static void (*libc_free)(void *);
static int (*libc_mutex_lock)(pthread_mutex_t *);

static int null_fd;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void keep(void *p)
{
	__asm__ __volatile__("" : : "r"(p) : "memory");
}

static double write_wrapped(const void *c, long iters)
{
	double t0 = bench_now_ns();

	(void)c;
	for (long i = 0; i < iters; i++)
		(void)!write(null_fd, "x", 1);
	return bench_now_ns() - t0;
}

static double write_direct(const void *c, long iters)
{
	double t0 = bench_now_ns();

	(void)c;
	for (long i = 0; i < iters; i++)
		(void)!libc_write(null_fd, "x", 1);
	return bench_now_ns() - t0;
}

static double malloc_wrapped(const void *c, long iters)
{
	double t0 = bench_now_ns();

	(void)c;
	for (long i = 0; i < iters; i++) {
		void *p = malloc(32);

		keep(p);
		free(p);
	}
	return bench_now_ns() - t0;
}

static double malloc_direct(const void *c, long iters)
{
	double t0 = bench_now_ns();

	(void)c;
	for (long i = 0; i < iters; i++) {
		void *p = libc_malloc(32);

		keep(p);
		libc_free(p);
	}
	return bench_now_ns() - t0;
}

static double mutex_wrapped(const void *c, long iters)
{
	double t0 = bench_now_ns();

	(void)c;
	for (long i = 0; i < iters; i++) {
		pthread_mutex_lock(&mutex);
		pthread_mutex_unlock(&mutex);
	}
	return bench_now_ns() - t0;
}

static double mutex_direct(const void *c, long iters)
{
	double t0 = bench_now_ns();

	(void)c;
	for (long i = 0; i < iters; i++) {
		libc_mutex_lock(&mutex);
		pthread_mutex_unlock(&mutex);
	}
	return bench_now_ns() - t0;
}

struct pair {
	const char *name;
	double (*wrapped)(const void *c, long iters);
	double (*direct)(const void *c, long iters);
};

static const struct pair pairs[] = {
	{"write(/dev/null, 1 byte)", write_wrapped, write_direct},
	{"malloc(32) + free()", malloc_wrapped, malloc_direct},
	{"pthread_mutex_lock() + unlock()", mutex_wrapped, mutex_direct},
};

static void run_pair(const struct pair *p, long ms, int reps)
{
	double w[BENCH_MAX_REPS] = {0}, d[BENCH_MAX_REPS] = {0};
	double lo, hi, dlo, dhi;
	long iters = bench_calibrate(p->direct, NULL, 1000, 1000, ms * 1e6);

	for (int r = 0; r < reps; r++) {
		w[r] = p->wrapped(NULL, iters) / (double)iters;
		d[r] = p->direct(NULL, iters) / (double)iters;
	}
	bench_range(w, reps, &lo, &hi);
	bench_range(d, reps, &dlo, &dhi);
	printf("%-34s %8.1f ns [%5.1f-%5.1f] %8.1f ns [%5.1f-%5.1f] %+7.1f "
	       "ns\n",
	       p->name, bench_median(d, reps), dlo, dhi, bench_median(w, reps),
	       lo, hi, bench_median(w, reps) - bench_median(d, reps));
}

int main(int argc, char **argv)
{
	void *libc = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
	long ms = 100;
	int reps = 5;

	if (bench_timing_args("bench_blocking", argc, argv, &ms, &reps) < 0) {
		fprintf(stderr, "usage: bench_blocking [--ms N] [--reps N]\n");
		return 2;
	}
	null_fd = open("/dev/null", O_WRONLY);
	if (!libc || null_fd < 0)
		return 1;
	libc_write =
		(ssize_t(*)(int, const void *, size_t))dlsym(libc, "write");
	libc_malloc = (void *(*)(size_t))dlsym(libc, "malloc");
	libc_free = (void (*)(void *))dlsym(libc, "free");
	libc_mutex_lock =
		(int (*)(pthread_mutex_t *))dlsym(libc, "pthread_mutex_lock");
	if (!libc_write || !libc_malloc || !libc_free || !libc_mutex_lock)
		return 1;
	pk_blocking_set_enabled(true);
	printf("-- the detector's cost when it reports nothing: median of %d "
	       "rounds of ~%ld ms, task context --\n",
	       reps, ms);
	printf("%-34s %8s %13s %8s %13s %10s\n", "call", "direct", "[range]",
	       "wrapped", "[range]", "cost");
	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++)
		run_pair(&pairs[i], ms, reps);
	return 0;
}
