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

#include <preempt/lockdep.h>
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

/*
 * The validator sees one class per local_lock_init() site, named by its
 * argument, whichever way the lock is held: the spinlock_t under rt, an
 * acquisition of the same map otherwise (as the kernel's local_lock_t,
 * a per-CPU lock type of its own).
 */
#define __pk_local_lock_map(pcpu) (&this_cpu_ptr(pcpu)->sl.dep_map)

/** local_lock_init() - initialize every CPU's instance.  Task context. */
#define local_lock_init(pcpu)                                                  \
	do {                                                                   \
		PK_LOCKDEP_KEY(__llkey);                                       \
		for (int __i = 0; __i < PK_PERCPU_SLOTS; __i++) {              \
			spin_lock_init(&per_cpu_ptr(pcpu, __i)->sl);           \
			lockdep_init_map_type(                                 \
				&per_cpu_ptr(pcpu, __i)->sl.dep_map,           \
				PK_LOCKDEP_NAME(#pcpu),                        \
				PK_LOCKDEP_KEYP(__llkey), 0, LD_WAIT_CONFIG,   \
				LD_WAIT_INV, LD_LOCK_PERCPU);                  \
		}                                                              \
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
			lock_acquire(__pk_local_lock_map(pcpu), 0, 0, 0, 1,    \
				     NULL, _THIS_IP_);                         \
		}                                                              \
	} while (0)

#define __pk_local_unlock(pcpu, atomic)                                        \
	do {                                                                   \
		if (pk_spinlocks_sleep()) {                                    \
			spin_unlock(&this_cpu_ptr(pcpu)->sl);                  \
			migrate_enable();                                      \
		} else {                                                       \
			lock_release(__pk_local_lock_map(pcpu), _THIS_IP_);    \
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
