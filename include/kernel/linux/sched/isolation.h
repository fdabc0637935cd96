/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_ISOLATION_H
#define _LINUX_SCHED_ISOLATION_H

/*
 * CPU isolation (isolcpus=, nohz_full=): no CPU is isolated here, so every
 * CPU does housekeeping of every type.
 */

#include <linux/cpumask.h>
#include <linux/smp.h>

enum hk_type {
	HK_TYPE_TIMER,
	HK_TYPE_RCU,
	HK_TYPE_MISC,
	HK_TYPE_SCHED,
	HK_TYPE_TICK,
	HK_TYPE_DOMAIN,
	HK_TYPE_WQ,
	HK_TYPE_MANAGED_IRQ,
	HK_TYPE_KTHREAD,
	HK_TYPE_MAX
};

/** housekeeping_any_cpu() - a CPU for @type's work: this one. */
static inline int housekeeping_any_cpu(enum hk_type type)
{
	(void)type;
	return raw_smp_processor_id();
}

/** housekeeping_cpumask() - the CPUs doing @type: all possible CPUs. */
static inline const struct cpumask *housekeeping_cpumask(enum hk_type type)
{
	(void)type;
	return cpu_possible_mask;
}

static inline bool housekeeping_enabled(enum hk_type type)
{
	(void)type;
	return false;
}

static inline bool housekeeping_test_cpu(int cpu, enum hk_type type)
{
	(void)cpu;
	(void)type;
	return true;
}

static inline void housekeeping_affine(struct task_struct *t, enum hk_type type)
{
	(void)t;
	(void)type;
}

static inline bool housekeeping_cpu(int cpu, enum hk_type type)
{
	return housekeeping_test_cpu(cpu, type);
}

#endif
