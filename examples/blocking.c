// SPDX-License-Identifier: MIT
/*
 * docs/blocking.md's example: a host sleep under a spinlock and the host
 * allocator in an interrupt handler, each reported where it is called.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <preempt/interrupt.h>
#include <preempt/spinlock.h>

static DEFINE_SPINLOCK(stats_lock);
static char *last_packet;

static void log_stats(void)
{
	spin_lock(&stats_lock);
	usleep(100); /* BUG: sleeps holding a spinlock */
	spin_unlock(&stats_lock);
}

static irqreturn_t nic_interrupt(int irq, void *dev) /* hardirq context */
{
	char *copy = malloc(64); /* BUG: the host allocator in hardirq */

	if (copy)
		strcpy(copy, "packet");
	free(last_packet);
	last_packet = copy;
	return IRQ_HANDLED;
}

int main(void)
{
	int cpu = pk_irq_cpu_register(); /* this thread becomes a CPU */

	log_stats();
	request_irq(3, nic_interrupt, 0, "nic", NULL);
	irq_raise(3, cpu); /* the handler's reports wait for task context */
	pk_report_flush();
	free(last_packet);
	return 0;
}
