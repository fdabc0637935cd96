/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_COMPILER_H
#define _LINUX_COMPILER_H

/* Branch hints, the compiler barrier and single-copy accesses. */

#include <linux/compiler_types.h>
#include <preempt/sim.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define likely_notrace(x) likely(x)
#define unlikely_notrace(x) unlikely(x)
#define barrier() __asm__ __volatile__("" ::: "memory")
#define barrier_data(p) __asm__ __volatile__("" : : "r"(p) : "memory")
#define OPTIMIZER_HIDE_VAR(var) __asm__("" : "=r"(var) : "0"(var))
#define RELOC_HIDE(ptr, off)                                                   \
	({                                                                     \
		unsigned long __pk_ptr = (unsigned long)(ptr);                 \
		(__typeof__(ptr))(__pk_ptr + (off));                           \
	})
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__UNIQUE_ID_, prefix), __COUNTER__)
#define ___PASTE(a, b) a##b
#define __PASTE(a, b) ___PASTE(a, b)
#define unreachable() __builtin_unreachable()
#define __stringify_1(x...) #x
#define __stringify(x...) __stringify_1(x)

/*
 * READ_ONCE()/WRITE_ONCE(): one access the compiler may neither tear, fuse
 * nor repeat (a volatile access of a native word).
 */
#define __READ_ONCE(x) (*(const volatile __unqual_scalar_typeof(x) *)&(x))
#define READ_ONCE(x)                                                           \
	({                                                                     \
		_Static_assert(__native_word(x) || sizeof(x) == 8,             \
			       "READ_ONCE() of a non-word");                   \
		__typeof__(x) __pk_v = (__typeof__(x))__READ_ONCE(x);          \
		/* After the load: what the value decides comes later. */      \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		__pk_v;                                                        \
	})
#define __WRITE_ONCE(x, val)                                                   \
	do {                                                                   \
		*(volatile __typeof__(x) *)&(x) = (val);                       \
	} while (0)
#define WRITE_ONCE(x, val)                                                     \
	do {                                                                   \
		_Static_assert(__native_word(x) || sizeof(x) == 8,             \
			       "WRITE_ONCE() of a non-word");                  \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		__WRITE_ONCE(x, val);                                          \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
	} while (0)
#define READ_ONCE_NOCHECK(x) READ_ONCE(x)
#define data_race(expr) (expr)

#define is_signed_type(type) (((type)(-1)) < (type)1)
#define is_unsigned_type(type) (!is_signed_type(type))

#endif /* _LINUX_COMPILER_H */
