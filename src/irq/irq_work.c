// SPDX-License-Identifier: MIT
/*
 * irq_work (kernel/irq_work.c's model): per CPU a list raised through a
 * self-IPI and a lazy list the tick runs.  Lists are lock-free stacks
 * (push by compare-and-swap, taken whole by exchange), so queueing from an
 * NMI or any signal handler is safe; the CPU reverses what it takes and
 * runs it in queueing order.
 *
 * An item's flags: PENDING from the claim until its callback starts (a
 * second claim fails), BUSY until it returns (irq_work_sync() waits on it).
 */
#define _GNU_SOURCE
#include <sched.h>

#include <preempt/bug.h>
#include <preempt/hardirq.h>
#include <preempt/irq_work.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>

#include "irq.h"
#include "../port/sim.h"

static struct irq_work *raised_list[PK_NR_CPUS];
static struct irq_work *lazy_list[PK_NR_CPUS];
static int irq_work_line_up; /* the machine took PK_IRQ_WORK_IRQ */

void pk_irq_work_online(bool up)
{
	__atomic_store_n(&irq_work_line_up, up, __ATOMIC_RELEASE);
}

/* Returns true if the list was empty (the CPU must be told). */
static bool push(struct irq_work **list, struct irq_work *work)
{
	struct irq_work *old = __atomic_load_n(list, __ATOMIC_RELAXED);

	do {
		work->pk_next = old;
	} while (!__atomic_compare_exchange_n(
		list, &old, work, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return !old;
}

static bool claim(struct irq_work *work)
{
	unsigned int old = __atomic_fetch_or(&work->flags, IRQ_WORK_CLAIMED,
					     __ATOMIC_ACQ_REL);

	/* Pending: it runs soon anyway.  Busy only: queue it again. */
	return !(old & IRQ_WORK_PENDING);
}

/* A thread that is no CPU queues on the first one. */
static int queue_cpu(void)
{
	int cpu = pk_irq_this_cpu();

	for (int i = 0; cpu < 0 && i < PK_NR_CPUS; i++)
		if (__atomic_load_n(&pk_irq_cpu(i)->online, __ATOMIC_ACQUIRE))
			cpu = i;
	return cpu;
}

bool pk_irq_work_queue_cpu(struct irq_work *work, int cpu, bool remote)
{
	bool lazy;

	if (WARN_ONCE(!__atomic_load_n(&irq_work_line_up, __ATOMIC_ACQUIRE) ||
			      cpu < 0 || cpu >= PK_NR_CPUS,
		      "irq_work_queue() needs a booted machine"))
		return false;
	if (!claim(work))
		return false;
	lazy = !remote && (__atomic_load_n(&work->flags, __ATOMIC_RELAXED) &
			   IRQ_WORK_LAZY);
	if (lazy)
		push(&lazy_list[cpu], work);
	else if (push(&raised_list[cpu], work))
		irq_raise(PK_IRQ_WORK_IRQ, cpu);
	return true;
}

bool irq_work_queue(struct irq_work *work)
{
	return pk_irq_work_queue_cpu(work, queue_cpu(), false);
}

/* Take the whole list, oldest first. */
static struct irq_work *take(struct irq_work **list)
{
	struct irq_work *w = __atomic_exchange_n(list, NULL, __ATOMIC_ACQUIRE);
	struct irq_work *fifo = NULL;

	while (w) {
		struct irq_work *next = w->pk_next;

		w->pk_next = fifo;
		fifo = w;
		w = next;
	}
	return fifo;
}

static void run_one(struct irq_work *work)
{
	unsigned int flags;
	int outer;

	/* From here a claim succeeds and queues it anew. */
	flags = __atomic_and_fetch(&work->flags, ~IRQ_WORK_PENDING,
				   __ATOMIC_ACQ_REL);
	/* PREEMPT_RT runs only the hard items in hardirq. */
	outer = pk_hardirq_config_enter(!(flags & IRQ_WORK_HARD_IRQ));
	work->func(work);
	pk_hardirq_config = outer;
	/* Not busy, unless it was claimed again meanwhile. */
	__atomic_compare_exchange_n(&work->flags, &flags,
				    flags & ~IRQ_WORK_BUSY, false,
				    __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

static void run_list(struct irq_work **list)
{
	struct irq_work *w = take(list);

	while (w) {
		struct irq_work *next = w->pk_next;

		run_one(w);
		w = next;
	}
}

/* The kernel side's irq_work (src/kernel/irq_work_arch.c), if linked. */
extern void pk_kernel_irq_work_interrupt(void) __attribute__((weak));

irqreturn_t pk_irq_work_interrupt(int irq, void *dev)
{
	int cpu = pk_irq_this_cpu();

	(void)irq;
	(void)dev;
	if (cpu >= 0)
		run_list(&raised_list[cpu]);
	if (pk_kernel_irq_work_interrupt)
		pk_kernel_irq_work_interrupt();
	return IRQ_HANDLED;
}

void pk_irq_work_tick(void)
{
	int cpu = pk_irq_this_cpu();

	if (cpu < 0)
		return;
	run_list(&raised_list[cpu]);
	run_list(&lazy_list[cpu]);
}

void irq_work_run(void)
{
	unsigned long flags;

	/* The kernel BUG()s; the items still want hardirq-like calm. */
	if (WARN_ON_ONCE(!irqs_disabled())) {
		local_irq_save(flags);
		pk_irq_work_tick();
		local_irq_restore(flags);
		return;
	}
	pk_irq_work_tick();
}

bool irq_work_needs_cpu(void)
{
	int cpu = pk_irq_this_cpu();

	return cpu >= 0 &&
	       (__atomic_load_n(&raised_list[cpu], __ATOMIC_RELAXED) ||
		__atomic_load_n(&lazy_list[cpu], __ATOMIC_RELAXED));
}

void irq_work_sync(struct irq_work *work)
{
	lockdep_assert_irqs_enabled();
	might_sleep();
	for (int spins = 0; irq_work_is_busy(work); spins++) {
		if (spins > 100)
			pk_host_yield();
	}
}
