/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SMP_H
#define PREEMPT_SMP_H

/*
 * Cross-CPU function calls over inter-processor interrupts (kernel/smp.c):
 * the function runs in hardirq context on the target vCPU, interrupts
 * disabled; on the caller's own CPU it runs in place with interrupts
 * disabled, as the kernel does.  With @wait the caller spins until every
 * target has returned.
 *
 * A cpumask is read as the kernel lays it out: a bitmap of PK_NR_CPUS
 * (64) bits in unsigned longs, so any struct cpumask whose first member is
 * that bitmap can be passed.  Calls with interrupts disabled are reported
 * (they can deadlock: two CPUs waiting for each other); the waiting CPU
 * then serves its own incoming calls while it spins, so the machine goes on.
 */

#include <stdbool.h>
#include <preempt/sched.h>

struct cpumask;
typedef void (*smp_call_func_t)(void *info);

/* A call's descriptor: the kernel's call_single_data_t. */
struct __call_single_data {
	struct __call_single_data *pk_next;
	unsigned int flags; /* CSD_FLAG_LOCK while queued or running */
	smp_call_func_t func;
	void *info;
};
typedef struct __call_single_data call_single_data_t;

#define CSD_FLAG_LOCK 0x01U

#define CSD_INIT(_func, _info)                                                 \
	(struct __call_single_data)                                            \
	{                                                                      \
		.pk_next = 0, .flags = 0, .func = (_func), .info = (_info)     \
	}
#define INIT_CSD(_csd, _func, _info)                                           \
	do {                                                                   \
		*(_csd) = CSD_INIT(_func, _info);                              \
	} while (0)

/**
 * smp_call_function_single() - run @func(@info) on vCPU @cpu
 *
 * Task or thread context, interrupts enabled (reported otherwise).
 * Returns 0, or -ENXIO if @cpu is not online.
 */
int smp_call_function_single(int cpu, smp_call_func_t func, void *info,
			     int wait);

/**
 * smp_call_function_single_async() - run @csd's function on vCPU @cpu,
 * never waiting; @csd (INIT_CSD()) must stay alive until it has run
 *
 * Any context but NMI.  Returns 0, -EBUSY if @csd is still in use, or
 * -ENXIO.
 */
int smp_call_function_single_async(int cpu, call_single_data_t *csd);

/**
 * smp_call_function() - run @func(@info) on every other online vCPU
 *
 * Task or thread context, interrupts enabled.
 */
void smp_call_function(smp_call_func_t func, void *info, int wait);

/**
 * smp_call_function_many() - run @func(@info) on the vCPUs of @mask,
 * except the caller's.  Task or thread context, interrupts enabled.
 */
void smp_call_function_many(const struct cpumask *mask, smp_call_func_t func,
			    void *info, bool wait);

/** on_each_cpu() - smp_call_function(), and on this CPU too. */
void on_each_cpu(smp_call_func_t func, void *info, int wait);

/**
 * on_each_cpu_mask() - run @func(@info) on the vCPUs of @mask, the
 * caller's included if it is in @mask.  Task or thread context.
 */
void on_each_cpu_mask(const struct cpumask *mask, smp_call_func_t func,
		      void *info, bool wait);

#endif /* PREEMPT_SMP_H */
