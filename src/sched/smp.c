// SPDX-License-Identifier: MIT
/*
 * Cross-CPU calls (kernel/smp.c's model) and irq_work_queue_on(): a
 * lock-free queue of call descriptors per vCPU and the call-function IPI
 * (PK_CALL_FUNC_IRQ), whose handler runs what it finds in hardirq
 * context.  A descriptor is locked (CSD_FLAG_LOCK) from queueing until its
 * function returns; a waiting caller spins on that, and an async caller
 * reuses a descriptor of its own only once it is unlocked.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <preempt/bug.h>
#include <preempt/irq_work.h>
#include <preempt/irqflags.h>
#include <preempt/smp.h>

#include "../irq/irq.h"
#include "sched_internal.h"
#include "../port/sim.h"

static call_single_data_t *call_queue[PK_NR_CPUS];
/* Async calls: one descriptor per (caller slot, target). */
static call_single_data_t async_csd[PK_NR_CPUS][PK_NR_CPUS];

static void csd_unlock(call_single_data_t *csd)
{
	__atomic_and_fetch(&csd->flags, ~CSD_FLAG_LOCK, __ATOMIC_RELEASE);
}

static bool csd_locked(call_single_data_t *csd)
{
	return __atomic_load_n(&csd->flags, __ATOMIC_ACQUIRE) & CSD_FLAG_LOCK;
}

/* Run what @cpu was sent, oldest first.  Interrupts disabled. */
static void flush_call_queue(int cpu)
{
	call_single_data_t *c =
		__atomic_exchange_n(&call_queue[cpu], NULL, __ATOMIC_ACQUIRE);
	call_single_data_t *fifo = NULL;

	while (c) {
		call_single_data_t *next = c->pk_next;

		c->pk_next = fifo;
		fifo = c;
		c = next;
	}
	while (fifo) {
		call_single_data_t *next = fifo->pk_next;

		fifo->func(fifo->info);
		csd_unlock(fifo); /* the caller may reuse it from here */
		fifo = next;
	}
}

void pk_smp_call_ipi(void)
{
	if (pk_this_rq)
		flush_call_queue(pk_this_rq->cpu);
}

static void csd_wait(call_single_data_t *csd)
{
	struct rq *rq = pk_this_rq;

	for (int spins = 0; csd_locked(csd); spins++) {
		/* Interrupts off (reported): take our own calls, or two
		 * CPUs calling each other would wait forever. */
		if (rq && irqs_disabled())
			flush_call_queue(rq->cpu);
		/* The target's host thread may be off the host CPU. */
		if (spins > 100)
			pk_host_yield();
		else
			pk_cpu_relax();
	}
}

/* Queue a locked @csd on @cpu and send the IPI if the queue was empty. */
static void send_csd(int cpu, call_single_data_t *csd)
{
	call_single_data_t *old =
		__atomic_load_n(&call_queue[cpu], __ATOMIC_RELAXED);

	do {
		csd->pk_next = old;
	} while (!__atomic_compare_exchange_n(&call_queue[cpu], &old, csd, true,
					      __ATOMIC_RELEASE,
					      __ATOMIC_RELAXED));
	if (!old)
		irq_raise(PK_CALL_FUNC_IRQ, pk_cpu_rq(cpu)->irq_cpu);
}

static int this_vcpu(void)
{
	return pk_this_rq ? pk_this_rq->cpu : -1;
}

static void call_here(smp_call_func_t func, void *info)
{
	unsigned long flags;

	local_irq_save(flags);
	func(info);
	local_irq_restore(flags);
}

static void warn_irqs_disabled(void)
{
	/* kernel/smp.c: "Can deadlock when called with interrupts disabled." */
	WARN_ON_ONCE(irqs_disabled());
}

/* Lock the caller's async descriptor for @cpu, waiting for its last use. */
static call_single_data_t *async_slot(int cpu, smp_call_func_t func, void *info)
{
	call_single_data_t *csd =
		&async_csd[raw_smp_processor_id() % PK_NR_CPUS][cpu];

	for (;;) {
		csd_wait(csd);
		if (!(__atomic_fetch_or(&csd->flags, CSD_FLAG_LOCK,
					__ATOMIC_ACQUIRE) &
		      CSD_FLAG_LOCK))
			break;
	}
	csd->func = func;
	csd->info = info;
	return csd;
}

int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     int wait)
{
	call_single_data_t onstack = CSD_INIT(func, info);
	call_single_data_t *csd = &onstack;

	if (cpu < 0 || cpu >= num_online_cpus())
		return -ENXIO;
	warn_irqs_disabled();
	preempt_disable();
	if (cpu == this_vcpu()) {
		call_here(func, info);
		preempt_enable();
		return 0;
	}
	if (wait)
		csd->flags = CSD_FLAG_LOCK;
	else
		csd = async_slot(cpu, func, info);
	send_csd(cpu, csd);
	if (wait)
		csd_wait(csd);
	preempt_enable();
	return 0;
}

int smp_call_function_single_async(int cpu, call_single_data_t *csd)
{
	int ret = 0;

	if (cpu < 0 || cpu >= num_online_cpus())
		return -ENXIO;
	preempt_disable();
	if (__atomic_fetch_or(&csd->flags, CSD_FLAG_LOCK, __ATOMIC_ACQUIRE) &
	    CSD_FLAG_LOCK) {
		ret = -EBUSY;
	} else if (cpu == this_vcpu()) {
		call_here(csd->func, csd->info);
		csd_unlock(csd);
	} else {
		send_csd(cpu, csd);
	}
	preempt_enable();
	return ret;
}

static bool mask_has(const struct cpumask *mask, int cpu)
{
	const unsigned long *bits = (const unsigned long *)mask;
	const int per = (int)(8 * sizeof(unsigned long));

	return !mask || (bits[cpu / per] >> (cpu % per)) & 1;
}

/* @mask NULL: every online vCPU.  @self: run on the caller's too. */
static void call_many(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait, bool self)
{
	call_single_data_t csds[PK_NR_CPUS];
	int n = num_online_cpus(), me;

	warn_irqs_disabled();
	preempt_disable();
	me = this_vcpu();
	for (int cpu = 0; cpu < n; cpu++) {
		if (cpu == me || !mask_has(mask, cpu))
			continue;
		if (wait) {
			csds[cpu] = CSD_INIT(func, info);
			csds[cpu].flags = CSD_FLAG_LOCK;
			send_csd(cpu, &csds[cpu]);
		} else {
			send_csd(cpu, async_slot(cpu, func, info));
		}
	}
	if (self && me >= 0 && mask_has(mask, me))
		call_here(func, info);
	if (wait)
		for (int cpu = 0; cpu < n; cpu++)
			if (cpu != me && mask_has(mask, cpu))
				csd_wait(&csds[cpu]);
	preempt_enable();
}

void smp_call_function(smp_call_func_t func, void *info, int wait)
{
	call_many(NULL, func, info, wait, false);
}

void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait)
{
	call_many(mask, func, info, wait, false);
}

void on_each_cpu(smp_call_func_t func, void *info, int wait)
{
	call_many(NULL, func, info, wait, true);
}

void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait)
{
	call_many(mask, func, info, wait, true);
}

/* ---- irq_work on another CPU: the irq layer's lists, our numbering ---- */

int pk_irq_work_raise(int cpu)
{
	int irq_cpu = cpu < 0 ? pk_irq_this_cpu() : pk_vcpu_irq_cpu(cpu);

	if (irq_cpu < 0)
		return -ENODEV;
	return irq_raise(PK_IRQ_WORK_IRQ, irq_cpu);
}

bool irq_work_queue_on(struct irq_work *work, int cpu)
{
	int irq_cpu = pk_vcpu_irq_cpu(cpu);

	if (WARN_ONCE(irq_cpu < 0, "irq_work_queue_on(): CPU %d is not online",
		      cpu))
		return false;
	/* The kernel's remote path is not NMI-safe either. */
	WARN_ON_ONCE(in_nmi() && cpu != this_vcpu());
	return pk_irq_work_queue_cpu(work, irq_cpu, cpu != this_vcpu());
}
