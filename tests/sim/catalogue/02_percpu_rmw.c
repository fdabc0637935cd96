// SPDX-License-Identifier: MIT
/*
 * 02: a this_cpu read-modify-write without preemption disabled.
 *
 * Two kthreads share vCPU 0 and count the events they handle in a
 * per-CPU counter.  Each this_cpu_read() and this_cpu_write() is safe on
 * its own (interrupts are off around the access), but the pair is not:
 *
 *	n = this_cpu_read(nr_events);      // 5
 *	                                   // <- preempted: the other task
 *	                                   //    counts 5 -> 6 -> 7
 *	this_cpu_write(nr_events, n + 1);  // 6: two events lost
 *
 * Detected by: the program's own count: at the end the per-CPU counters
 * must add up to the events handled (exit 1 otherwise).
 * Fix (-DFIXED): preemption disabled around the pair (the __this_cpu_*()
 * forms, which check it); this_cpu_inc() would be one atomic step too.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/percpu.h>

#include "catalogue.h"

#define NAME "02_percpu_rmw"
#define EVENTS 2000 /* per task */
#define WORK 2500   /* the rest of handling an event: ~2.5 us */

static DEFINE_PER_CPU(unsigned long, nr_events);

static void count_event(void)
{
#ifndef FIXED
	unsigned long n = this_cpu_read(nr_events);

	this_cpu_write(nr_events, n + 1);
#else
	preempt_disable();
	__this_cpu_write(nr_events, __this_cpu_read(nr_events) + 1);
	preempt_enable();
#endif
}

static int handler(void *data)
{
	unsigned long *sink = data;

	for (int i = 0; i < EVENTS; i++) {
		*sink += cat_work(WORK);
		count_event();
	}
	return 0;
}

int main(void)
{
	static unsigned long sink[2];
	struct task_struct *a, *b;
	unsigned long total = 0;
	int cpu;

	cat_boot();
	a = cat_start(handler, &sink[0], "handler/a", 0);
	b = cat_start(handler, &sink[1], "handler/b", 0);
	kthread_stop(a);
	kthread_stop(b);
	machine_shutdown();
	for_each_possible_cpu(cpu)
		total += per_cpu(nr_events, cpu);
	if (total != 2 * EVENTS)
		cat_found(NAME, "%lu events counted, %d handled", total,
			  2 * EVENTS);
	printf("catalogue: %s (%s): no bug observed, %lu events\n", NAME,
	       CAT_BUILD, total);
	return 0;
}
