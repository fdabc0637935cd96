/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_LOCAL_LOCK_H
#define PREEMPT_LOCAL_LOCK_H

/*
 * local_lock_t: protects per-CPU data.  Non-rt it is preempt_disable()
 * (or interrupts off); under rt a per-CPU spinlock_t, so the section stays
 * preemptible, with migrate_disable() keeping the task on its CPU.
 *
 * Define one per CPU and pass its address: DEFINE_PER_CPU(local_lock_t,
 * mylock); local_lock(&mylock).  Call local_lock_init(&mylock) once.
 */

#include <preempt/sched.h>
#include <preempt/spinlock.h>

typedef struct {
	spinlock_t sl;
} local_lock_t;

/*
 * Under rt local_lock_t is a sleeping lock: an interrupt handler that takes
 * it gets the kernel's "sleeping function called from invalid context"
 * (and, as the kernel cannot, we go on with preemption off).
 */
static inline void pk_local_lock_atomic(void)
{
	if (pk_machine_rt() && in_hardirq())
		might_sleep();
}

/** local_lock_init() - initialize every CPU's instance.  Task context. */
#define local_lock_init(pcpu)                                                  \
	do {                                                                   \
		for (int __i = 0; __i < PK_PERCPU_SLOTS; __i++)                \
			spin_lock_init(&per_cpu_ptr(pcpu, __i)->sl);           \
	} while (0)

/*
 * Both halves of every variant: under rt (a task of a machine booted rt)
 * this CPU's spinlock_t, the CPU looked up once migration is off;
 * otherwise @atomic, what the variant does to the word.
 */
#define __pk_local_lock(pcpu, atomic)                                          \
	do {                                                                   \
		if (pk_spinlocks_sleep()) {                                    \
			migrate_disable();                                     \
			spin_lock(&this_cpu_ptr(pcpu)->sl);                    \
		} else {                                                       \
			pk_local_lock_atomic();                                \
			atomic;                                                \
		}                                                              \
	} while (0)

#define __pk_local_unlock(pcpu, atomic)                                        \
	do {                                                                   \
		if (pk_spinlocks_sleep()) {                                    \
			spin_unlock(&this_cpu_ptr(pcpu)->sl);                  \
			migrate_enable();                                      \
		} else {                                                       \
			atomic;                                                \
		}                                                              \
	} while (0)

/** local_lock() - this CPU's lock.  Task or softirq context. */
#define local_lock(pcpu) __pk_local_lock(pcpu, preempt_disable())
/** local_unlock() - release this CPU's lock. */
#define local_unlock(pcpu) __pk_local_unlock(pcpu, preempt_enable())

/** local_lock_irq() - non-rt: interrupts off; rt: as local_lock(). */
#define local_lock_irq(pcpu) __pk_local_lock(pcpu, local_irq_disable())
#define local_unlock_irq(pcpu) __pk_local_unlock(pcpu, local_irq_enable())

/** local_lock_irqsave() - non-rt: local_irq_save(); rt: local_lock(). */
#define local_lock_irqsave(pcpu, flags)                                        \
	do {                                                                   \
		local_save_flags(flags);                                       \
		__pk_local_lock(pcpu, local_irq_save(flags));                  \
	} while (0)
#define local_unlock_irqrestore(pcpu, flags)                                   \
	__pk_local_unlock(pcpu, local_irq_restore(flags))

#endif /* PREEMPT_LOCAL_LOCK_H */
