/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_TICK_H
#define _LINUX_TICK_H

/*
 * The tick's NO_HZ interface.  The machine stops an idle vCPU's tick
 * itself (NO_HZ_IDLE) and has no nohz_full CPUs, so: no CPU is a
 * nohz_full one, tick dependencies need not be set, and kernel code —
 * which runs only on a busy CPU or in an interrupt that restarted the
 * tick — never finds its tick stopped.
 */

#include <linux/cpumask.h>
#include <linux/types.h>

#define tick_nohz_full_enabled() false
#define tick_nohz_full_cpu(cpu) ((void)(cpu), false)
#define tick_nohz_full_mask cpu_none_mask
#define tick_nohz_tick_stopped() false
#define tick_nohz_tick_stopped_cpu(cpu) ((void)(cpu), false)
#define tick_nohz_enabled true

enum tick_dep_bits {
	TICK_DEP_BIT_POSIX_TIMER = 0,
	TICK_DEP_BIT_PERF_EVENTS = 1,
	TICK_DEP_BIT_SCHED = 2,
	TICK_DEP_BIT_CLOCK_UNSTABLE = 3,
	TICK_DEP_BIT_RCU = 4,
	TICK_DEP_BIT_RCU_EXP = 5,
};

static inline void tick_dep_set(enum tick_dep_bits bit)
{
	(void)bit;
}
static inline void tick_dep_clear(enum tick_dep_bits bit)
{
	(void)bit;
}
static inline void tick_dep_set_cpu(int cpu, enum tick_dep_bits bit)
{
	(void)cpu;
	(void)bit;
}
static inline void tick_dep_clear_cpu(int cpu, enum tick_dep_bits bit)
{
	(void)cpu;
	(void)bit;
}
static inline void tick_nohz_full_kick_cpu(int cpu)
{
	(void)cpu;
}
static inline void tick_nohz_dep_set_cpu(int cpu, enum tick_dep_bits bit)
{
	(void)cpu;
	(void)bit;
}

#endif /* _LINUX_TICK_H */
