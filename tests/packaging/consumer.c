// SPDX-License-Identifier: MIT
/*
 * A program of someone else's: built against an installed libpreempt
 * through pkg-config and through CMake, statically and dynamically.
 */
#include <stdio.h>
#include <string.h>

#include <preempt/interrupt.h>
#include <preempt/preempt.h>
#include <preempt/version.h>

static unsigned int seen;

static irqreturn_t handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	seen = hardirq_count();
	return IRQ_HANDLED;
}

int main(int argc, char **argv)
{
	int cpu = pk_irq_cpu_register();

	if (request_irq(3, handler, 0, "consumer", NULL) || cpu < 0)
		return 1;
	irq_raise(3, cpu);
	printf("libpreempt %s: hardirq_count() %#x in a handler\n",
	       pk_version(), seen);
	/* The version the build says it links against, when given. */
	if (argc > 1 && strcmp(argv[1], pk_version()))
		return 1;
	return seen == HARDIRQ_OFFSET ? 0 : 1;
}
