/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SWAB_H
#define _LINUX_SWAB_H

/*
 * Byte swaps: of a value (swab16() ... swab64(), swab() of an unsigned
 * long), of a value behind a pointer (swab32p()) and in place
 * (swab32s()).  The compiler's builtins.  Any context.
 */

#include <linux/types.h>

#define __swab16(x) ((__u16)__builtin_bswap16((__u16)(x)))
#define __swab32(x) ((__u32)__builtin_bswap32((__u32)(x)))
#define __swab64(x) ((__u64)__builtin_bswap64((__u64)(x)))
#define swab16 __swab16
#define swab32 __swab32
#define swab64 __swab64

static __always_inline unsigned long __swab(const unsigned long y)
{
	return (unsigned long)__builtin_bswap64(y);
}
#define swab(x) __swab(x)

/* The two 16-bit halves of a 32-bit word exchanged. */
#define swahw32(x) ((__u32)((((__u32)(x)) << 16) | (((__u32)(x)) >> 16)))

static inline __u16 __swab16p(const __u16 *p)
{
	return __swab16(*p);
}
static inline __u32 __swab32p(const __u32 *p)
{
	return __swab32(*p);
}
static inline __u64 __swab64p(const __u64 *p)
{
	return __swab64(*p);
}
static inline void __swab16s(__u16 *p)
{
	*p = __swab16(*p);
}
static inline void __swab32s(__u32 *p)
{
	*p = __swab32(*p);
}
static inline void __swab64s(__u64 *p)
{
	*p = __swab64(*p);
}
#define swab16p __swab16p
#define swab32p __swab32p
#define swab64p __swab64p
#define swab16s __swab16s
#define swab32s __swab32s
#define swab64s __swab64s

#endif /* _LINUX_SWAB_H */
