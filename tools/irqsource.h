/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_TOOLS_IRQSOURCE_H
#define PREEMPT_TOOLS_IRQSOURCE_H

/*
 * The tools' interrupt load: a host thread, outside the machine as a
 * device would be, that raises one line on the vCPUs of the booted machine
 * at a mean period, on all of them at once or on one after the other.
 * The gaps vary around the period (irqsource.c says why).
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
 * irq_source_start() - start raising @src->irq, already requested, on the
 * booted machine's vCPUs.  Returns 0 or -EAGAIN (no thread).
 */
int irq_source_start(struct irq_source *src);

/* irq_source_stop() - stop and join the thread; nothing if not running. */
void irq_source_stop(struct irq_source *src);

/* irq_source_raised() - raises the controller accepted so far. */
unsigned long irq_source_raised(const struct irq_source *src);

#endif /* PREEMPT_TOOLS_IRQSOURCE_H */
