// SPDX-License-Identifier: MIT
/*
 * liburcu's urcu-memb doing what bench/rcu_bench.c measures of ours.
 * _LGPL_SOURCE: its read side inlined, as its documentation recommends
 * for speed.
 */
#define _LGPL_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <time.h>

#include <urcu/urcu-memb.h>

#include "rcu_urcu.h"

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* A function of its own, for callgrind; inlines liburcu's pair. */
__attribute__((noinline)) void urcu_memb_read_pairs(long iters)
{
	for (long i = 0; i < iters; i++) {
		urcu_memb_read_lock();
		__asm__ __volatile__("" ::: "memory");
		urcu_memb_read_unlock();
	}
}

double urcu_memb_read_pair_ns(long iters)
{
	double t0, t1;

	urcu_memb_register_thread();
	t0 = now_ns();
	urcu_memb_read_pairs(iters);
	t1 = now_ns();
	urcu_memb_unregister_thread();
	return (t1 - t0) / (double)iters;
}

static int stop, running;

static void *busy_reader(void *arg)
{
	(void)arg;
	urcu_memb_register_thread();
	__atomic_add_fetch(&running, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		for (int i = 0; i < 100; i++) {
			urcu_memb_read_lock();
			__asm__ __volatile__("" ::: "memory");
			urcu_memb_read_unlock();
		}
	}
	urcu_memb_unregister_thread();
	return NULL;
}

double urcu_memb_sync_us(int rounds, int busy)
{
	pthread_t t[8];
	double t0, t1;

	stop = 0;
	running = 0;
	for (int i = 0; i < busy && i < 8; i++)
		pthread_create(&t[i], NULL, busy_reader, NULL);
	/* Registered and reading before the first grace period. */
	while (__atomic_load_n(&running, __ATOMIC_SEQ_CST) < busy)
		sched_yield();
	t0 = now_ns();
	for (int i = 0; i < rounds; i++)
		urcu_memb_synchronize_rcu();
	t1 = now_ns();
	__atomic_store_n(&stop, 1, __ATOMIC_RELAXED);
	for (int i = 0; i < busy && i < 8; i++)
		pthread_join(t[i], NULL);
	return (t1 - t0) / rounds / 1e3;
}

static void free_cb(struct rcu_head *head)
{
	(void)head;
}

double urcu_memb_call_rate(long n)
{
	struct rcu_head *heads = calloc((size_t)n, sizeof(*heads));
	double t0, t1;

	if (!heads)
		return 0;
	urcu_memb_register_thread();
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		urcu_memb_call_rcu(&heads[i], free_cb);

	urcu_memb_barrier();

	t1 = now_ns();
	urcu_memb_unregister_thread();
	free(heads);
	return n / ((t1 - t0) / 1e9);
}
