// SPDX-License-Identifier: MIT
/*
 * bench_host_irqload: the host's counterpart of `preempt latency --load N`,
 * for the anchor of target 8 under interrupt load (bench/latency_run.sh).
 *
 *   bench_host_irqload N PERIOD_US SECONDS
 *
 * N threads spin, as N busy processes load the host for its cyclictest;
 * one more thread signals them in turn, each once per PERIOD_US on
 * average, with the gaps of the tool's source (irq_source_gap()), and each
 * signal's handler does the work of the tool's interrupt handler (2000 steps of
 * a linear congruential generator).  The machine's interrupt line is such a
 * signal to a vCPU thread, so this is the same load in host terms.  Prints the
 * signals sent when SECONDS are over.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "irqsource.h"

#define MAX_BUSY 64
#define HANDLER_STEPS 2000

static volatile unsigned long sink;
static volatile int stop;

static void handler(int sig)
{
	unsigned long x = sink;

	(void)sig;
	for (int i = 0; i < HANDLER_STEPS; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ __volatile__("" : "+r"(x));
	}
	sink = x;
}

static void *busy(void *arg)
{
	unsigned long x = (unsigned long)arg | 1;

	while (!stop) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ __volatile__("" : "+r"(x));
	}
	sink = x;
	return NULL;
}

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

static struct timespec to_ts(long ns)
{
	return (struct timespec){.tv_sec = ns / 1000000000L,
				 .tv_nsec = ns % 1000000000L};
}

static unsigned long signal_in_turn(pthread_t *t, int n, long step, long end)
{
	unsigned long rng = (unsigned long)now_ns() | 1, sent = 0;
	long next = now_ns();

	for (int i = 0;; i = (i + 1) % n) {
		struct timespec ts;

		next += irq_source_gap(step, &rng);
		if (next >= end)
			return sent;
		ts = to_ts(next);
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		/* Missed raises dropped, as irqsource.c's skip_missed(). */
		if (now_ns() - next > step)
			next = now_ns();
		if (!pthread_kill(t[i], SIGUSR1))
			sent++;
	}
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = handler};
	pthread_t t[MAX_BUSY];
	long n, period_us, secs;
	unsigned long sent;

	if (argc != 4 || (n = atol(argv[1])) < 1 || n > MAX_BUSY ||
	    (period_us = atol(argv[2])) < 1 || (secs = atol(argv[3])) < 1) {
		fprintf(stderr, "usage: %s N PERIOD_US SECONDS\n", argv[0]);
		return 2;
	}
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	for (long i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, busy, (void *)i)) {
			fprintf(stderr, "%s: pthread_create failed\n", argv[0]);
			return 1;
		}
	sent = signal_in_turn(t, (int)n, period_us * 1000L / n,
			      now_ns() + secs * 1000000000L);
	stop = 1;
	for (long i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	printf("host interrupt load: %ld busy threads, %lu signals\n", n, sent);
	return 0;
}
