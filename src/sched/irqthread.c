// SPDX-License-Identifier: MIT
/*
 * Interrupt threads: the tasks that run threaded handlers' thread_fn.
 *
 * The irq layer sits below the scheduler and cannot make tasks, so, as
 * with ksoftirqd, it calls through ops the machine installs at boot: make
 * a thread "irq/<irq>-<name>" (SCHED_FIFO 50, the kernel's choice, so a
 * device's bottom half beats normal tasks but not every rt one), wake it
 * from a primary handler, stop it at free_irq().  The body below waits
 * for the action's request and runs it, in task context.
 */
#define _GNU_SOURCE
#include <errno.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "sched_internal.h"

/*
 * The kernel's irq_thread().  The state is set before the checks, so a
 * wake-up from a primary or from kthread_stop() that lands after a check
 * finds the task asleep-to-be and makes schedule() return.
 */
static int irq_thread(void *action)
{
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		if (!pk_irq_thread_pending(action)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		pk_irq_thread_run(action);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static int irq_thread_create(void *action, unsigned int irq, const char *name,
			     void **thread)
{
	struct task_struct *k;

	if (!pk_machine_running())
		return -ENODEV;
	k = kthread_create(irq_thread, action, "irq/%u-%s", irq,
			   name ? name : "");
	if (!k)
		return pk_machine_running() ? -ENOMEM : -ENODEV;
	sched_set_fifo(k);
	wake_up_process(k);
	*thread = k;
	return 0;
}

static void irq_thread_wake(void *thread)
{
	wake_up_process(thread);
}

static void irq_thread_stop(void *thread)
{
	kthread_stop(thread);
}

static const struct pk_irq_thread_ops irq_thread_ops = {
	.create = irq_thread_create,
	.wake = irq_thread_wake,
	.stop = irq_thread_stop,
};

void pk_irq_threads_start(void)
{
	pk_irq_set_thread_ops(&irq_thread_ops);
}

void pk_irq_threads_stop(void)
{
	pk_irq_set_thread_ops(NULL);
}

int pk_vcpu_irq_cpu(int cpu)
{
	const struct rq *rq = pk_machine_running() ? pk_cpu_rq(cpu) : NULL;

	return rq ? __atomic_load_n(&rq->irq_cpu, __ATOMIC_ACQUIRE) : -ENODEV;
}
