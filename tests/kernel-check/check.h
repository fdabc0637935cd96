/* SPDX-License-Identifier: MIT */
#ifndef PK_KERNEL_CHECK_H
#define PK_KERNEL_CHECK_H

/*
 * make kernel-check's behaviour tests: each links one real kernel file
 * (compiled with the documented flags) and runs on a machine in the model
 * $PREEMPT_MODEL names.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/atomic.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/sched.h>

static inline void check_boot(int cpus)
{
	struct machine_config cfg = {.nr_cpus = cpus, .hz = HZ, .model = -1};

	assert_int_equal(machine_boot(&cfg), 0);
}

static inline int check_run(int (*fn)(void *), void *arg)
{
	struct task_struct *k = kthread_run(fn, arg, "check");

	assert_false(IS_ERR_OR_NULL(k));
	return kthread_stop(k);
}

/* What check_in_every_context() runs: wrong answers for a seed. */
typedef int (*check_fn)(unsigned long seed);

static check_fn check_ctx_fn;
static unsigned long check_ctx_irq_seed;
static atomic_t check_ctx_irq_bad = ATOMIC_INIT(-100);

static inline int check_ctx_task(void *seed)
{
	return check_ctx_fn((unsigned long)seed) ? -1 : 0;
}

static inline irqreturn_t check_ctx_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_set(&check_ctx_irq_bad, check_ctx_fn(check_ctx_irq_seed));
	return IRQ_HANDLED;
}

/*
 * Kernel code must answer alike in every context: boots two vCPUs and runs
 * @fn with seeds 1 and 2 in two kthreads and with @irq_seed in a hardirq
 * handler on vCPU 1, all at once; then shuts the machine down. Any wrong
 * answer, or a handler that never ran (5 s), fails the test.
 */
static inline void check_in_every_context(check_fn fn, unsigned long irq_seed)
{
	struct task_struct *t0, *t1;

	check_ctx_fn = fn;
	check_ctx_irq_seed = irq_seed;
	check_boot(2);
	t0 = kthread_run(check_ctx_task, (void *)1UL, "check-a");
	t1 = kthread_run(check_ctx_task, (void *)2UL, "check-b");
	assert_int_equal(request_irq(8, check_ctx_handler, IRQF_NO_THREAD,
				     "check", NULL),
			 0);
	assert_int_equal(irq_raise(8, pk_vcpu_irq_cpu(1)), 0);
	assert_int_equal(kthread_stop(t0), 0);
	assert_int_equal(kthread_stop(t1), 0);
	for (int i = 0; i < 5000 && atomic_read(&check_ctx_irq_bad) == -100;
	     i++)
		usleep(1000);
	free_irq(8, NULL);
	machine_shutdown();
	assert_int_equal(atomic_read(&check_ctx_irq_bad), 0);
}

#endif /* PK_KERNEL_CHECK_H */
