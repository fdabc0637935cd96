// SPDX-License-Identifier: MIT
/*
 * The machine's side of kernel code's irq_work (linux/irq_work.h): the
 * self-IPI (arch_irq_work_raise()) and the cross-call queue
 * (__smp_call_single_queue()), both on the library's irq_work interrupt
 * line, whose handler calls pk_kernel_irq_work_interrupt() here.  An
 * object of its own: kernel/irq_work.c defines a weak
 * arch_irq_work_raise() and needs __smp_call_single_queue(), so linking a
 * program's copy of that file pulls this member in and its strong
 * arch_irq_work_raise() wins, as an architecture's does in the kernel.
 */

#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/smp.h>

/* <preempt/irq_work.h>'s, whose struct irq_work is the library's. */
int pk_irq_work_raise(int cpu);

/* Nodes other CPUs queued for this one. */
static DEFINE_PER_CPU(struct llist_head, call_single_queue);

void arch_irq_work_raise(void)
{
	pk_irq_work_raise(-1);
}

void __smp_call_single_queue(int cpu, struct llist_node *node)
{
	/* Only the first node into an empty queue needs to interrupt. */
	if (llist_add(node, &per_cpu(call_single_queue, cpu)))
		pk_irq_work_raise(cpu);
}

/* From the irq_work line's handler: hardirq context, interrupts off. */
void pk_kernel_irq_work_interrupt(void);
void pk_kernel_irq_work_interrupt(void)
{
	struct llist_node *list =
		llist_del_all(this_cpu_ptr(&call_single_queue));

	/* Taken newest first: run in queueing order. */
	list = llist_reverse_order(list);
	while (list) {
		struct llist_node *next = list->next;

		irq_work_single(
			container_of(list, struct irq_work, node.llist));
		list = next;
	}
	irq_work_run();
}
