/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_IRQ_WORK_H
#define _LINUX_IRQ_WORK_H

/*
 * irq_work in the kernel's layout: a callback run soon in hardirq context
 * on a CPU, queued from any context, NMI included.  The item is a
 * cross-call node (linux/smp_types.h) whose flags hold PENDING from the
 * claim until the callback starts and BUSY until it returns; @irqwait is
 * where irq_work_sync() sleeps for items that do not run in hardirq.
 *
 * The library's own irq_work (<preempt/irq_work.h>) has another layout,
 * so kernel code's names are asm labels (pk_kernel_irq_work_queue, ...):
 * the kernel side's implementation (src/kernel/irq_work.c) and a
 * program's own kernel/irq_work.c define those, and the library's
 * irq_work_queue() is never reached from kernel code.  The machine drives
 * either: its irq_work interrupt line runs the raised items
 * (arch_irq_work_raise()), its tick calls irq_work_tick().
 */

#include <linux/rcuwait.h>
#include <linux/smp_types.h>
#include <linux/types.h>
#include <asm/irq_work.h>

struct irq_work {
	struct __call_single_node node;
	void (*func)(struct irq_work *);
	struct rcuwait irqwait;
};

#define __IRQ_WORK_INIT(_func, _flags)                                         \
	(struct irq_work)                                                      \
	{                                                                      \
		.node = {.u_flags = (_flags)}, .func = (_func),                \
		.irqwait = __RCUWAIT_INITIALIZER(irqwait),                     \
	}
#define IRQ_WORK_INIT(_func) __IRQ_WORK_INIT(_func, 0)
#define IRQ_WORK_INIT_LAZY(_func) __IRQ_WORK_INIT(_func, IRQ_WORK_LAZY)
#define IRQ_WORK_INIT_HARD(_func) __IRQ_WORK_INIT(_func, IRQ_WORK_HARD_IRQ)
#define DEFINE_IRQ_WORK(name, _f) struct irq_work name = IRQ_WORK_INIT(_f)

/** init_irq_work() - @work runs @func.  Any context, while not queued. */
static inline void init_irq_work(struct irq_work *work,
				 void (*func)(struct irq_work *))
{
	*work = IRQ_WORK_INIT(func);
}

/** irq_work_is_pending() - queued, callback not started.  Any context. */
static inline bool irq_work_is_pending(struct irq_work *work)
{
	return atomic_read(&work->node.a_flags) & IRQ_WORK_PENDING;
}

/** irq_work_is_busy() - queued or running.  Any context. */
static inline bool irq_work_is_busy(struct irq_work *work)
{
	return atomic_read(&work->node.a_flags) & IRQ_WORK_BUSY;
}

/** irq_work_is_hard() - runs in hardirq context even under PREEMPT_RT. */
static inline bool irq_work_is_hard(struct irq_work *work)
{
	return atomic_read(&work->node.a_flags) & IRQ_WORK_HARD_IRQ;
}

/**
 * irq_work_queue() - run @work on this CPU soon; false if it was already
 * pending.  Any context, NMI included.
 */
bool irq_work_queue(struct irq_work *work) __asm__("pk_kernel_irq_work_queue");
/**
 * irq_work_queue_on() - run @work on CPU @cpu; false if already pending.
 * Any context but NMI for another CPU.
 */
bool irq_work_queue_on(struct irq_work *work,
		       int cpu) __asm__("pk_kernel_irq_work_queue_on");
/** irq_work_run() - run this CPU's raised items.  Interrupts disabled. */
void irq_work_run(void) __asm__("pk_kernel_irq_work_run");
/** irq_work_tick() - the tick's share: lazy items.  Interrupts disabled. */
void irq_work_tick(void) __asm__("pk_kernel_irq_work_tick");
/** irq_work_sync() - wait until @work is not running.  Task context. */
void irq_work_sync(struct irq_work *work) __asm__("pk_kernel_irq_work_sync");
/** irq_work_needs_cpu() - does this CPU hold items for its tick? */
bool irq_work_needs_cpu(void) __asm__("pk_kernel_irq_work_needs_cpu");
/** irq_work_single() - run one claimed item (the cross-call handler). */
void irq_work_single(void *arg) __asm__("pk_kernel_irq_work_single");
/**
 * arch_irq_work_raise() - interrupt this CPU on the irq_work line.  Any
 * context.
 */
void arch_irq_work_raise(void);

#endif
