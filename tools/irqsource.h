/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TOOLS_IRQSOURCE_H
#define PREEMPT_TOOLS_IRQSOURCE_H

/*
 * The tools' interrupt load: a host thread, outside the machine as a
 * device would be, that raises one line on the vCPUs of the booted machine
 * at a mean period, on all of them at once or on one after the other.
 * The gaps vary around the period (irq_source_gap() says why).
 */

#include <pthread.h>
#include <stdbool.h>

struct irq_source {
	unsigned int irq;
	long period_ns;	  /* mean, between two rounds over the vCPUs */
	bool round_robin; /* one vCPU per period/nr_cpus, not all at once */
	/* the source's own */
	pthread_t thread;
	int nr_cpus, stop, running;
	unsigned long raised;
};

/*
 * irq_source_gap() - the gap to the next raise: @step on average, drawn
 * uniformly from half to one and a half of it (@rng: a nonzero xorshift
 * state).  A source at a fixed period that divides the period of a
 * measurement (a 100 us step against cyclictest's 1000 us) keeps one phase
 * against it for the whole run: a raise lands just before every measured
 * wake-up or before none, and the run measures all the collisions or none
 * of them, decided by the phase the process drew.  bench_host_irqload
 * loads the host with the same gaps.
 */
static inline long irq_source_gap(long step, unsigned long *rng)
{
	*rng ^= *rng << 13;
	*rng ^= *rng >> 7;
	*rng ^= *rng << 17;
	return step / 2 + (long)(*rng % (unsigned long)step);
}

/*
 * irq_source_start() - start raising @src->irq, already requested, on the
 * booted machine's vCPUs.  Returns 0 or -EAGAIN (no thread).
 */
int irq_source_start(struct irq_source *src);

/* irq_source_stop() - stop and join the thread; nothing if not running. */
void irq_source_stop(struct irq_source *src);

/* irq_source_raised() - raises the controller accepted so far. */
unsigned long irq_source_raised(const struct irq_source *src);

#endif /* PREEMPT_TOOLS_IRQSOURCE_H */
