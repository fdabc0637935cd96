/* SPDX-License-Identifier: MIT */
#ifndef _ASM_BARRIER_H
#define _ASM_BARRIER_H

/*
 * Memory barriers as C11 fences: the machine's vCPUs are host threads on
 * real CPUs, so SMP ordering is the host's.  mb()/rmb()/wmb() order device
 * accesses in Linux; here there are no devices and they equal the smp_
 * versions.
 */

#include <linux/compiler.h>

#define mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#define rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define dma_rmb() rmb()
#define dma_wmb() wmb()
#define smp_mb() mb()
#define smp_rmb() rmb()
#define smp_wmb() wmb()
#define __smp_mb() mb()
#define virt_mb() mb()
#define smp_store_mb(var, value)                                               \
	do {                                                                   \
		WRITE_ONCE(var, value);                                        \
		smp_mb();                                                      \
	} while (0)
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()
#define smp_mb__after_spinlock() smp_mb()
#define smp_mb__after_unlock_lock() smp_mb()
#define smp_acquire__after_ctrl_dep() smp_rmb()
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v)                                                \
	do {                                                                   \
		__typeof__(*(p)) __pk_v = (v);                                 \
		__atomic_store((p), &__pk_v, __ATOMIC_RELEASE);                \
	} while (0)
#define smp_cond_load_relaxed(ptr, cond_expr)                                  \
	({                                                                     \
		__typeof__(ptr) __PTR = (ptr);                                 \
		__unqual_scalar_typeof(*ptr) VAL;                              \
		for (;;) {                                                     \
			VAL = READ_ONCE(*__PTR);                               \
			if (cond_expr)                                         \
				break;                                         \
			__builtin_ia32_pause_or_nop();                         \
		}                                                              \
		(__typeof__(*ptr))VAL;                                         \
	})
#define smp_cond_load_acquire(ptr, cond_expr)                                  \
	({                                                                     \
		__unqual_scalar_typeof(*ptr) __pk_c =                          \
			smp_cond_load_relaxed(ptr, cond_expr);                 \
		smp_acquire__after_ctrl_dep();                                 \
		(__typeof__(*ptr))__pk_c;                                      \
	})
#if defined(__x86_64__)
#define __builtin_ia32_pause_or_nop() __builtin_ia32_pause()
#define cpu_relax() __builtin_ia32_pause()
#elif defined(__aarch64__)
#define __builtin_ia32_pause_or_nop() __asm__ __volatile__("yield" ::: "memory")
#define cpu_relax() __asm__ __volatile__("yield" ::: "memory")
#else
#define __builtin_ia32_pause_or_nop() barrier()
#define cpu_relax() barrier()
#endif

#endif /* _ASM_BARRIER_H */
