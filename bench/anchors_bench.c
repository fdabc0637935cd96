// SPDX-License-Identifier: MIT
/*
 * bench_anchors: the host's own primitives that issue 19's targets are
 * measured against, and that no other bench times (the TLS pair and the
 * pthread_sigmask pair are bench_count's, the switches bench_switch's):
 *
 *   futex wake, no waiter       FUTEX_WAKE on a word nobody waits on: the
 *                               cheapest host call a waker makes
 *   futex hand-off, 2 CPUs      two threads passing a turn through a futex
 *                               word (wait until it is mine, give it,
 *                               wake): one wake-up of a sleeping thread on
 *                               another CPU per hand-off
 *   pthread_mutex, uncontended  lock+unlock on one thread
 *   pthread_mutex, contended    two threads on two CPUs, each lock, a
 *                               counter increment, unlock; ns per lock pair
 *                               of either thread (the throughput's inverse)
 *
 *   bench_anchors [--ms N] [--reps N]   the table (median of the rounds)
 *   bench_anchors --callgrind N CASE    N iterations of CASE (wake, mutex)
 */
#define _GNU_SOURCE
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "bench_util.h"

static int other_cpu = -1;

static long futex(int *uaddr, int op, int val)
{
	return syscall(SYS_futex, uaddr, op, val, NULL, NULL, 0);
}

static void pin_to(pthread_t t, int cpu)
{
	cpu_set_t set;

	if (cpu < 0)
		return;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_setaffinity_np(t, sizeof(set), &set);
}

/* --- futex wake, nobody waiting ------------------------------------------- */

static int wake_word;

static void __attribute__((noinline)) bench_futex_wake(long n)
{
	for (long i = 0; i < n; i++)
		futex(&wake_word, FUTEX_WAKE_PRIVATE, 1);
}

/* --- futex hand-off ------------------------------------------------------- */

static int turn; /* 0: the caller's, 1: the partner's, 2: stop */

static void wait_turn(int me)
{
	int t;

	while ((t = __atomic_load_n(&turn, __ATOMIC_ACQUIRE)) != me && t != 2)
		futex(&turn, FUTEX_WAIT_PRIVATE, t);
}

static void give_turn(int to)
{
	__atomic_store_n(&turn, to, __ATOMIC_RELEASE);
	futex(&turn, FUTEX_WAKE_PRIVATE, 1);
}

static void *handoff_partner(void *arg)
{
	(void)arg;
	for (;;) {
		wait_turn(1);
		if (__atomic_load_n(&turn, __ATOMIC_ACQUIRE) == 2)
			return NULL;
		give_turn(0);
	}
}

/* @n round trips: 2n hand-offs. */
static void __attribute__((noinline)) bench_futex_handoff(long n)
{
	pthread_t t;

	turn = 0;
	if (pthread_create(&t, NULL, handoff_partner, NULL)) {
		perror("bench_anchors: pthread_create");
		exit(1);
	}
	pin_to(t, other_cpu);
	for (long i = 0; i < n; i++) {
		give_turn(1);
		wait_turn(0);
	}
	give_turn(2);
	pthread_join(t, NULL);
}

/* --- pthread_mutex ---------------------------------------------------------
 */

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile long counter;

static void __attribute__((noinline)) bench_mutex(long n)
{
	for (long i = 0; i < n; i++) {
		pthread_mutex_lock(&mutex);
		counter++;
		pthread_mutex_unlock(&mutex);
	}
}

static void *mutex_partner(void *arg)
{
	bench_mutex((long)arg);
	return NULL;
}

/* @n lock pairs on each of two threads. */
static void __attribute__((noinline)) bench_mutex_contended(long n)
{
	pthread_t t;

	if (pthread_create(&t, NULL, mutex_partner, (void *)n)) {
		perror("bench_anchors: pthread_create");
		exit(1);
	}
	pin_to(t, other_cpu);
	bench_mutex(n);
	pthread_join(t, NULL);
}

/* --- the table ------------------------------------------------------------ */

struct anchor {
	const char *name;
	const char *key;
	void (*fn)(long n);
	double per; /* operations per iteration */
	int two_cpus;
	long iters;
	double ns[BENCH_MAX_REPS];
};

#define ANCHOR(name_, key_, fn_, per_, two_)                                   \
	{                                                                      \
		.name = name_, .key = key_, .fn = fn_, .per = per_,            \
		.two_cpus = two_,                                              \
	}

static struct anchor anchors[] = {
	ANCHOR("futex wake, no waiter", "futex_wake", bench_futex_wake, 1, 0),
	ANCHOR("pthread_mutex, uncontended", "mutex", bench_mutex, 1, 0),
	ANCHOR("futex hand-off, 2 CPUs", "futex_handoff", bench_futex_handoff,
	       2, 1),
	ANCHOR("pthread_mutex, contended, 2 CPUs", "mutex_contended",
	       bench_mutex_contended, 2, 1),
};
#define NR_ANCHORS (int)(sizeof(anchors) / sizeof(anchors[0]))

static double run_ns(const void *p, long n)
{
	const struct anchor *a = p;
	double t0 = bench_now_ns();

	a->fn(n);
	return bench_now_ns() - t0;
}

static const char *pin(void)
{
	cpu_set_t allowed, set;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(allowed), &allowed))
		return "not pinned";
	for (int c = 0; c < CPU_SETSIZE && other_cpu < 0; c++)
		if (c != cpu && CPU_ISSET(c, &allowed))
			other_cpu = c;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return "not pinned";
	return other_cpu >= 0 ? "pinned, partner on another CPU"
			      : "pinned, no second CPU";
}

static int timing(long ms, int reps)
{
	const char *pinned = pin();

	for (int i = 0; i < NR_ANCHORS; i++)
		anchors[i].iters = bench_calibrate(run_ns, &anchors[i], 256,
						   256, (double)ms * 1e6);
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < NR_ANCHORS; i++) {
			struct anchor *a = &anchors[i];

			if (a->two_cpus && other_cpu < 0)
				continue;
			a->ns[r] = run_ns(a, a->iters) /
				   ((double)a->iters * a->per);
		}
	printf("ns per operation: median of %d rounds, ~%ld ms per case per "
	       "round, %s, CLOCK_MONOTONIC\n\n",
	       reps, ms, pinned);
	printf("%-36s %10s %10s %10s\n", "anchor", "ns/op", "min", "max");
	for (int i = 0; i < NR_ANCHORS; i++) {
		struct anchor *a = &anchors[i];
		double lo, hi;

		if (a->two_cpus && other_cpu < 0) {
			printf("%-36s %10s\n", a->name, "(1 CPU)");
			continue;
		}
		bench_range(a->ns, reps, &lo, &hi);
		printf("%-36s %10.2f %10.2f %10.2f\n", a->name,
		       bench_median(a->ns, reps), lo, hi);
	}
	printf("\n");
	for (int i = 0; i < NR_ANCHORS; i++)
		if (!anchors[i].two_cpus || other_cpu >= 0)
			printf("@value anchor.%s.ns=%.2f\n", anchors[i].key,
			       bench_median(anchors[i].ns, reps));
	return 0;
}

int main(int argc, char **argv)
{
	long ms = 100;
	int reps = 5;

	if (argc == 4 && !strcmp(argv[1], "--callgrind")) {
		long n = bench_parse_long("bench_anchors", argv[2],
					  "iteration count");

		for (int i = 0; i < NR_ANCHORS; i++)
			if (!strcmp(argv[3], anchors[i].key)) {
				anchors[i].fn(n);
				return 0;
			}
		return 2;
	}
	if (bench_timing_args("bench_anchors", argc, argv, &ms, &reps)) {
		fprintf(stderr, "usage: bench_anchors [--ms N] [--reps N] | "
				"--callgrind N CASE\n");
		return 2;
	}
	return timing(ms, reps);
}
