// SPDX-License-Identifier: MIT
/* The tools' interrupt load (irqsource.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <time.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "irqsource.h"

static void advance(struct timespec *ts, long ns)
{
	ts->tv_nsec += ns;
	while (ts->tv_nsec >= 1000000000L) {
		ts->tv_nsec -= 1000000000L;
		ts->tv_sec++;
	}
}

static void raise_on(struct irq_source *src, int cpu)
{
	int irq_cpu = pk_vcpu_irq_cpu(cpu);

	if (irq_cpu >= 0 && !irq_raise(src->irq, irq_cpu))
		__atomic_add_fetch(&src->raised, 1, __ATOMIC_RELAXED);
}

/*
 * Raises the host kept this thread from making are dropped, as a periodic
 * hrtimer forwards past the periods it missed: catching up would raise
 * back to back, a burst that holds a host CPU (a vCPU's) for as long as
 * the delay was.
 */
static void skip_missed(struct timespec *next, long step)
{
	struct timespec now;
	long late;

	clock_gettime(CLOCK_MONOTONIC, &now);
	late = (now.tv_sec - next->tv_sec) * 1000000000L +
	       (now.tv_nsec - next->tv_nsec);
	if (late > step)
		*next = now;
}

static void *source_thread(void *arg)
{
	struct irq_source *src = arg;
	long step = src->round_robin ? src->period_ns / src->nr_cpus
				     : src->period_ns;
	struct timespec next;
	unsigned long rng;
	int cpu = 0;

	clock_gettime(CLOCK_MONOTONIC, &next);
	rng = (unsigned long)next.tv_nsec | 1;
	while (!__atomic_load_n(&src->stop, __ATOMIC_ACQUIRE)) {
		advance(&next, irq_source_gap(step, &rng));
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
		skip_missed(&next, step);
		if (src->round_robin) {
			raise_on(src, cpu);
			cpu = (cpu + 1) % src->nr_cpus;
			continue;
		}
		for (int i = 0; i < src->nr_cpus; i++)
			raise_on(src, i);
	}
	return NULL;
}

int irq_source_start(struct irq_source *src)
{
	src->nr_cpus = num_online_cpus();
	src->stop = 0;
	src->raised = 0;
	src->running = src->nr_cpus > 0 &&
		       !pthread_create(&src->thread, NULL, source_thread, src);
	/* Named in host profiles (bench/vcpu_waits.py), apart from main. */
	if (src->running)
		pthread_setname_np(src->thread, "irqsource");
	return src->running ? 0 : -EAGAIN;
}

void irq_source_stop(struct irq_source *src)
{
	if (!src->running)
		return;
	__atomic_store_n(&src->stop, 1, __ATOMIC_RELEASE);
	pthread_join(src->thread, NULL);
	src->running = 0;
}

unsigned long irq_source_raised(const struct irq_source *src)
{
	return __atomic_load_n(&src->raised, __ATOMIC_RELAXED);
}
