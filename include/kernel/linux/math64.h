/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MATH64_H
#define _LINUX_MATH64_H

/*
 * 64-bit divisions and wide multiplications.  This is a 64-bit machine,
 * so the divisions are C's; the names exist because 32-bit kernels need
 * them.  Truncation toward zero, as C.  Any context.
 */

#include <linux/types.h>
#include <asm/div64.h>

static inline u64 div_u64_rem(u64 dividend, u32 divisor, u32 *remainder)
{
	*remainder = (u32)(dividend % divisor);
	return dividend / divisor;
}

static inline s64 div_s64_rem(s64 dividend, s32 divisor, s32 *remainder)
{
	*remainder = (s32)(dividend % divisor);
	return dividend / divisor;
}

static inline u64 div64_u64_rem(u64 dividend, u64 divisor, u64 *remainder)
{
	*remainder = dividend % divisor;
	return dividend / divisor;
}

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline s64 div_s64(s64 dividend, s32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

#define div64_ul(x, y) div64_u64((x), (y))
#define div64_long(x, y) div64_s64((x), (y))

static inline u64 mul_u32_u32(u32 a, u32 b)
{
	return (u64)a * b;
}

/* (a * mul) >> shift without losing the product's high bits. */
static inline u64 mul_u64_u32_shr(u64 a, u32 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

static inline u64 mul_u64_u64_shr(u64 a, u64 mul, unsigned int shift)
{
	return (u64)(((unsigned __int128)a * mul) >> shift);
}

/* a * mul / divisor with a 96-bit intermediate. */
static inline u64 mul_u64_u32_div(u64 a, u32 mul, u32 divisor)
{
	return (u64)(((unsigned __int128)a * mul) / divisor);
}

static inline u64 mul_u64_u64_div_u64(u64 a, u64 mul, u64 divisor)
{
	return (u64)(((unsigned __int128)a * mul) / divisor);
}

#define DIV64_U64_ROUND_UP(ll, d)                                              \
	({                                                                     \
		u64 __pk_d = (d);                                              \
		div64_u64((ll) + __pk_d - 1, __pk_d);                          \
	})
#define DIV_U64_ROUND_UP(ll, d)                                                \
	({                                                                     \
		u32 __pk_d = (d);                                              \
		div_u64((ll) + __pk_d - 1, __pk_d);                            \
	})
#define DIV64_U64_ROUND_CLOSEST(dividend, divisor)                             \
	({                                                                     \
		u64 __pk_d = (divisor);                                        \
		div64_u64((dividend) + __pk_d / 2, __pk_d);                    \
	})
#define DIV_U64_ROUND_CLOSEST(dividend, divisor)                               \
	({                                                                     \
		u32 __pk_d = (divisor);                                        \
		div_u64((u64)(dividend) + __pk_d / 2, __pk_d);                 \
	})
/* Rounds half away from zero, for either sign of @dividend. */
#define DIV_S64_ROUND_CLOSEST(dividend, divisor)                               \
	({                                                                     \
		s64 __pk_x = (dividend);                                       \
		s32 __pk_d = (divisor);                                        \
		(__pk_x > 0) == (__pk_d > 0)                                   \
			? div_s64(__pk_x + __pk_d / 2, __pk_d)                 \
			: div_s64(__pk_x - __pk_d / 2, __pk_d);                \
	})

#endif /* _LINUX_MATH64_H */
