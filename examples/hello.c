// SPDX-License-Identifier: MIT
/* The README's example: an interrupt raising a softirq, and might_sleep(). */
#include <stdio.h>

#include <preempt/debug.h>
#include <preempt/interrupt.h>

static unsigned int softirq_count_seen;

static void net_rx_action(void) /* softirq context */
{
	softirq_count_seen = preempt_count(); /* 0x100: serving a softirq */
}

static const char *gfp(void) /* right in every model: the seed's point */
{
	return preemptible() ? "GFP_KERNEL" : "GFP_ATOMIC";
}

static irqreturn_t nic_interrupt(int irq, void *dev) /* hardirq context */
{
	raise_softirq(NET_RX_SOFTIRQ); /* runs at irq exit */
	return IRQ_HANDLED;
}

int main(void)
{
	int cpu = pk_irq_cpu_register(); /* this thread becomes a CPU */
	unsigned long flags;

	open_softirq(NET_RX_SOFTIRQ, net_rx_action);
	request_irq(3, nic_interrupt, 0, "nic", NULL);

	local_irq_save(flags); /* lazy: no syscall, just the word */
	irq_raise(3, cpu);     /* arrives, is noted pending... */
	unsigned int seen_off = softirq_count_seen; /* no printf() here */
	local_irq_restore(flags); /* ...and replayed right here */
	printf("irqs off:  softirq saw %#x\n", seen_off);
	printf("restored:  softirq saw %#x\n", softirq_count_seen);
	preempt_model_set(PREEMPT_MODEL_NONE); /* no kernel preemption... */
	printf("task:      %s\n", gfp());
	preempt_disable();	    /* ...but the count is kept all the same */
	const char *atomic = gfp(); /* printf() here: a BUG of its own */
	might_sleep(); /* BUG: sleeping function called from invalid context */
	preempt_enable();
	printf("atomic:    %s\n", atomic);
	return 0;
}
