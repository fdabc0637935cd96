// SPDX-License-Identifier: MIT
/*
 * PREEMPT_RT's per-CPU bottom-half lock.  The irq layer keeps an rt task's
 * bh state in the task; what keeps two tasks' bh sections on one CPU apart
 * is this lock, an rt_mutex per CPU, so a task that waits for it lends its
 * priority to the holder.  The holder stays on its CPU until it drops it.
 */
#include <preempt/interrupt.h>
#include <preempt/rtmutex.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

static struct rt_mutex bh_locks[PK_NR_CPUS];

static void bh_lock(void)
{
	migrate_disable();
	rt_mutex_lock(&bh_locks[raw_smp_processor_id()]);
}

static void bh_unlock(void)
{
	rt_mutex_unlock(&bh_locks[raw_smp_processor_id()]);
	migrate_enable();
}

static const struct pk_bh_rt_ops bh_rt_ops = {
	.task = pk_spinlocks_sleep,
	.lock = bh_lock,
	.unlock = bh_unlock,
};

__attribute__((constructor)) static void bh_lock_init(void)
{
	for (int cpu = 0; cpu < PK_NR_CPUS; cpu++)
		rt_mutex_init(&bh_locks[cpu]);
	pk_softirq_set_rt_ops(&bh_rt_ops);
}
