/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_IRQ_WORK_H
#define PREEMPT_IRQ_WORK_H

/*
 * irq_work: a callback run soon in hardirq context on a CPU, queued from
 * any context, NMI included (include/linux/irq_work.h).  Queueing is a
 * lock-free push and a self-IPI (an interrupt line of the machine), so it
 * is async-signal-safe; lazy items wait for the CPU's next tick instead.
 * An item is queued at most once: queueing a pending item returns false;
 * once its callback starts it may be queued again.
 *
 * Needs a booted machine (its vCPUs take the IPI and run the tick).  Under
 * the rt model every item runs in hardirq context, as IRQ_WORK_HARD_IRQ
 * items do in PREEMPT_RT (which runs the others in a per-CPU thread).
 */

#include <stdbool.h>

#define IRQ_WORK_PENDING 0x01U
#define IRQ_WORK_BUSY 0x02U
#define IRQ_WORK_LAZY 0x04U	/* run from the tick, no IPI */
#define IRQ_WORK_HARD_IRQ 0x08U /* accepted: all run in hardirq here */
#define IRQ_WORK_CLAIMED (IRQ_WORK_PENDING | IRQ_WORK_BUSY)

struct irq_work {
	struct irq_work *pk_next; /* on a CPU's lock-free list */
	unsigned int flags;
	void (*func)(struct irq_work *work);
};

#define IRQ_WORK_INIT_FLAGS(_func, _flags)                                     \
	{                                                                      \
		.pk_next = 0, .flags = (_flags), .func = (_func)               \
	}
#define IRQ_WORK_INIT(_func) IRQ_WORK_INIT_FLAGS(_func, 0)
#define IRQ_WORK_INIT_LAZY(_func) IRQ_WORK_INIT_FLAGS(_func, IRQ_WORK_LAZY)
#define IRQ_WORK_INIT_HARD(_func) IRQ_WORK_INIT_FLAGS(_func, IRQ_WORK_HARD_IRQ)
#define DEFINE_IRQ_WORK(name, _f) struct irq_work name = IRQ_WORK_INIT(_f)

/** init_irq_work() - @work runs @func.  Any context, while not queued. */
static inline void init_irq_work(struct irq_work *work,
				 void (*func)(struct irq_work *))
{
	work->pk_next = 0;
	work->flags = 0;
	work->func = func;
}

/** irq_work_is_pending() - queued, callback not started.  Any context. */
static inline bool irq_work_is_pending(struct irq_work *work)
{
	return __atomic_load_n(&work->flags, __ATOMIC_ACQUIRE) &
	       IRQ_WORK_PENDING;
}

/** irq_work_is_busy() - queued or running.  Any context. */
static inline bool irq_work_is_busy(struct irq_work *work)
{
	return __atomic_load_n(&work->flags, __ATOMIC_ACQUIRE) & IRQ_WORK_BUSY;
}

/**
 * irq_work_queue() - run @work in hardirq context on this CPU (a thread
 * that is no vCPU: on vCPU 0)
 *
 * Any context, NMI and signal handlers included.  Returns false if it was
 * already pending (or, with a warning, if no machine runs).
 */
bool irq_work_queue(struct irq_work *work);

/**
 * irq_work_queue_on() - run @work in hardirq context on vCPU @cpu (lazy
 * or not: a remote item is always sent at once, as the kernel does)
 *
 * Any context but NMI for another CPU.  Returns false if it was pending.
 */
bool irq_work_queue_on(struct irq_work *work, int cpu);

/**
 * irq_work_sync() - wait until @work's callback is not running
 *
 * Task context, interrupts enabled.
 */
void irq_work_sync(struct irq_work *work);

/**
 * irq_work_run() - run this CPU's queued items now (lazy ones included)
 *
 * Interrupts disabled, on a vCPU.
 */
void irq_work_run(void);

/** irq_work_needs_cpu() - does this CPU hold items for its tick? */
bool irq_work_needs_cpu(void);

/**
 * pk_irq_work_raise() - interrupt vCPU @cpu (-1: this CPU) on the
 * irq_work line, for the kernel side's irq_work in the kernel's layout
 * (include/kernel/linux/irq_work.h): the line's handler runs the
 * library's items, then the kernel side's.  Any context, NMI included
 * for this CPU.  0, or -ENODEV when @cpu is not running.
 */
int pk_irq_work_raise(int cpu);

#endif /* PREEMPT_IRQ_WORK_H */
