/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MATH_H
#define _LINUX_MATH_H

#include <stdlib.h> /* abs() is a macro below: the C library's declaration first */
#include <linux/types.h>
#include <linux/math64.h> /* div_u64() & co. and do_div(), as before */

#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))
#define DIV_ROUND_UP_ULL(ll, d) DIV_ROUND_UP((unsigned long long)(ll), d)
#define DIV_ROUND_DOWN_ULL(ll, d) ((unsigned long long)(ll) / (d))
#define DIV_ROUND_CLOSEST(x, d) (((x) + ((d) / 2)) / (d))
#define DIV_ROUND_CLOSEST_ULL(x, d)                                            \
	DIV_ROUND_CLOSEST((unsigned long long)(x), d)
/* round_up()/round_down(): @y a power of two. */
#define __round_mask(x, y) ((__typeof__(x))((y)-1))
#define round_up(x, y) ((((x)-1) | __round_mask(x, y)) + 1)
#define round_down(x, y) ((x) & ~__round_mask(x, y))
/* roundup()/rounddown(): any @y. */
#define roundup(x, y) ((((x) + ((y)-1)) / (y)) * (y))
#define rounddown(x, y) ((x) - ((x) % (y)))
#define ALIGN(x, a) round_up(x, (__typeof__(x))(a))
#define ALIGN_DOWN(x, a) round_down(x, (__typeof__(x))(a))
#define PTR_ALIGN(p, a) ((__typeof__(p))ALIGN((unsigned long)(p), (a)))
#define PTR_ALIGN_DOWN(p, a)                                                   \
	((__typeof__(p))ALIGN_DOWN((unsigned long)(p), (a)))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define abs(x)                                                                 \
	({                                                                     \
		__typeof__(x) __pk_abs = (x);                                  \
		__pk_abs < 0 ? -__pk_abs : __pk_abs;                           \
	})
#define mult_frac(x, n, d)                                                     \
	({                                                                     \
		__typeof__(x) __pk_q = (x) / (d), __pk_r = (x) % (d);          \
		__pk_q *(n) + __pk_r *(n) / (d);                               \
	})

/* int_sqrt(): the floor of the square root; lib/math/int_sqrt.c. */
unsigned long int_sqrt(unsigned long x);
/* 64-bit longs: int_sqrt() serves (lib/math/int_sqrt.c defines it only
 * for 32-bit ones). */
static inline u32 int_sqrt64(u64 x)
{
	return (u32)int_sqrt((unsigned long)x);
}
/* int_pow(): @base to the @exp, modulo 2^64; lib/math/int_pow.c. */
u64 int_pow(u64 base, unsigned int exp);

#endif /* _LINUX_MATH_H */
