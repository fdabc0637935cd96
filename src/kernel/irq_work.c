// SPDX-License-Identifier: MIT
/*
 * irq_work in the kernel's layout, for kernel code that does not bring
 * kernel/irq_work.c: per CPU a raised list, run from the irq_work line's
 * interrupt (irq_work_arch.c), and a lazy list the tick runs.  This object
 * defines exactly the names kernel/irq_work.c defines, so a program's copy
 * of that file replaces it whole.  Every item runs in hardirq context, in
 * the rt model too (PREEMPT_RT would run the items not marked
 * IRQ_WORK_HARD_IRQ in a per-CPU thread; the kernel's file does).
 */

#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/smp.h>
#include <asm/processor.h>

static DEFINE_PER_CPU(struct llist_head, raised_list);
static DEFINE_PER_CPU(struct llist_head, lazy_list);

/* PENDING and BUSY set; false if it was pending already. */
static bool claim(struct irq_work *work)
{
	int old = atomic_fetch_or(IRQ_WORK_CLAIMED | CSD_TYPE_IRQ_WORK,
				  &work->node.a_flags);

	return !(old & IRQ_WORK_PENDING);
}

/* Claimed, preemption off. */
static void queue_here(struct irq_work *work)
{
	if (atomic_read(&work->node.a_flags) & IRQ_WORK_LAZY) {
		/* The tick runs it: a CPU running code has its tick. */
		llist_add(&work->node.llist, this_cpu_ptr(&lazy_list));
		return;
	}
	if (llist_add(&work->node.llist, this_cpu_ptr(&raised_list)))
		arch_irq_work_raise();
}

bool irq_work_queue(struct irq_work *work)
{
	if (!claim(work))
		return false;
	preempt_disable();
	queue_here(work);
	preempt_enable();
	return true;
}

bool irq_work_queue_on(struct irq_work *work, int cpu)
{
	WARN_ON_ONCE(cpu_is_offline(cpu));
	if (!claim(work))
		return false;
	preempt_disable();
	if (cpu != smp_processor_id()) {
		WARN_ON_ONCE(in_nmi());
		__smp_call_single_queue(cpu, &work->node.llist);
	} else {
		queue_here(work);
	}
	preempt_enable();
	return true;
}

bool irq_work_needs_cpu(void)
{
	return !llist_empty(this_cpu_ptr(&raised_list)) ||
	       !llist_empty(this_cpu_ptr(&lazy_list));
}

void irq_work_single(void *arg)
{
	struct irq_work *work = arg;
	int flags = atomic_read(&work->node.a_flags) & ~IRQ_WORK_PENDING;

	/* From here a claim succeeds and queues it anew. */
	atomic_set(&work->node.a_flags, flags);
	smp_mb();
	work->func(work);
	/* Not busy, unless it was claimed again meanwhile. */
	(void)atomic_cmpxchg(&work->node.a_flags, flags,
			     flags & ~IRQ_WORK_BUSY);
}

static void run_list(struct llist_head *list)
{
	struct llist_node *chain;

	if (WARN_ON_ONCE(!irqs_disabled()) || llist_empty(list))
		return;
	chain = llist_reverse_order(llist_del_all(list));
	while (chain) {
		struct llist_node *next = chain->next;

		irq_work_single(
			container_of(chain, struct irq_work, node.llist));
		chain = next;
	}
}

void irq_work_run(void)
{
	run_list(this_cpu_ptr(&raised_list));
	run_list(this_cpu_ptr(&lazy_list));
}

void irq_work_tick(void)
{
	run_list(this_cpu_ptr(&lazy_list));
}

void irq_work_sync(struct irq_work *work)
{
	lockdep_assert_irqs_enabled();
	might_sleep();
	while (irq_work_is_busy(work))
		cpu_relax();
}
