// SPDX-License-Identifier: MIT
/*
 * The storm: several threads raise hundreds of thousands of interrupts at
 * CPUs that disable and enable interrupts in a tight loop.  Nothing may be
 * lost (the raises the handlers account equal the raises made) and no
 * handler may run while the code it interrupted had interrupts disabled.
 * Correctness only: how the signals interleave differs run to run, the
 * assertions do not depend on it.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

#include <preempt/interrupt.h>
#include <preempt/irqflags.h>

#include "pk_test.h"

#define NR_CPUS 2
#define NR_RAISERS 3
#define RAISES_PER_RAISER 100000
#define TOTAL_RAISES ((long)NR_RAISERS * RAISES_PER_RAISER)

static int cpus[NR_CPUS];
static int cpus_ready, stop;
static long accounted, violations, bad_context, softirq_runs;
static __thread volatile int irqs_off_here; /* set by the interrupted code */

static void storm_softirq(void)
{
	__atomic_add_fetch(&softirq_runs, 1, __ATOMIC_RELAXED);
}

static irqreturn_t storm_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	if (irqs_off_here)
		__atomic_add_fetch(&violations, 1, __ATOMIC_RELAXED);
	if (!in_hardirq() || !irqs_disabled() || in_task())
		__atomic_add_fetch(&bad_context, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&accounted, pk_irq_coalesced(), __ATOMIC_RELAXED);
	raise_softirq(TIMER_SOFTIRQ);
	return IRQ_HANDLED;
}

static void spin(int n)
{
	for (volatile int i = 0; i < n; i++)
		;
}

static void *cpu_thread(void *arg)
{
	int *slot = arg;
	unsigned long flags;

	*slot = pk_irq_cpu_register();
	__atomic_add_fetch(&cpus_ready, 1, __ATOMIC_SEQ_CST);
	for (unsigned int i = 0; !__atomic_load_n(&stop, __ATOMIC_RELAXED);
	     i++) {
		/* Mostly disabled, both ways of disabling, nested too. */
		if (i & 1) {
			local_irq_disable();
			irqs_off_here = 1;
			spin(40);
			irqs_off_here = 0;
			local_irq_enable();
		} else {
			local_irq_save(flags);
			local_irq_disable();
			irqs_off_here = 1;
			spin(40);
			irqs_off_here = 0;
			local_irq_restore(flags);
		}
		spin(5);
	}
	/* Interrupts on: whatever is still in flight lands here. */
	while (__atomic_load_n(&accounted, __ATOMIC_SEQ_CST) < TOTAL_RAISES &&
	       __atomic_load_n(&stop, __ATOMIC_SEQ_CST) == 1)
		sched_yield();
	pk_irq_cpu_unregister();
	return NULL;
}

static void *raiser_thread(void *arg)
{
	unsigned int line = 20 + (unsigned int)(long)arg;

	for (long i = 0; i < RAISES_PER_RAISER; i++)
		if (irq_raise(line, cpus[i % NR_CPUS]) != 0)
			return (void *)1;
	return NULL;
}

static void nothing_is_lost_and_nothing_runs_disabled(void **state)
{
	pthread_t cpu_threads[NR_CPUS], raisers[NR_RAISERS];
	struct timespec start, now;
	void *failed;

	(void)state;
	open_softirq(TIMER_SOFTIRQ, storm_softirq);
	for (long l = 0; l < NR_RAISERS; l++)
		assert_int_equal(request_irq(20 + (unsigned int)l,
					     storm_handler, 0, "storm",
					     (void *)l),
				 0);
	for (int c = 0; c < NR_CPUS; c++)
		pthread_create(&cpu_threads[c], NULL, cpu_thread, &cpus[c]);
	while (__atomic_load_n(&cpus_ready, __ATOMIC_SEQ_CST) < NR_CPUS)
		sched_yield();
	for (int c = 0; c < NR_CPUS; c++)
		assert_true(cpus[c] >= 0);

	for (long r = 0; r < NR_RAISERS; r++)
		pthread_create(&raisers[r], NULL, raiser_thread, (void *)r);
	for (int r = 0; r < NR_RAISERS; r++) {
		pthread_join(raisers[r], &failed);
		assert_null(failed);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		sched_yield();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (__atomic_load_n(&accounted, __ATOMIC_SEQ_CST) < TOTAL_RAISES &&
		 now.tv_sec - start.tv_sec < 60);
	__atomic_store_n(&stop, 2, __ATOMIC_SEQ_CST); /* release the CPUs */

	for (int c = 0; c < NR_CPUS; c++) {
		struct pk_irq_stats s = pk_irq_stats(cpus[c]);

		printf("cpu %d: %lu calls covered %lu raises; %lu signals "
		       "found irqs off, %lu replays\n",
		       cpus[c], s.handled, s.raised, s.deferred, s.replayed);
	}
	for (int c = 0; c < NR_CPUS; c++)
		pthread_join(cpu_threads[c], NULL);
	printf("raised %ld, accounted %ld; softirq runs %ld\n", TOTAL_RAISES,
	       accounted, softirq_runs);

	assert_int_equal(accounted, TOTAL_RAISES);
	assert_int_equal(violations, 0);
	assert_int_equal(bad_context, 0);
	assert_true(softirq_runs > 0);
	assert_int_equal(captured.nr, 0);
	for (long l = 0; l < NR_RAISERS; l++)
		free_irq(20 + (unsigned int)l, (void *)l);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nothing_is_lost_and_nothing_runs_disabled),
	};

	capture_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
