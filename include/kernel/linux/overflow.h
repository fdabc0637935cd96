/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_OVERFLOW_H
#define _LINUX_OVERFLOW_H

/*
 * Arithmetic that reports overflow (true) instead of wrapping silently,
 * and allocation sizes that saturate at SIZE_MAX so an allocator refuses
 * them.
 */

#include <stddef.h>
#include <stdint.h>
#include <linux/compiler.h>
#include <linux/limits.h>

#define check_add_overflow(a, b, d) __builtin_add_overflow(a, b, d)
#define check_sub_overflow(a, b, d) __builtin_sub_overflow(a, b, d)
#define check_mul_overflow(a, b, d) __builtin_mul_overflow(a, b, d)
#define overflows_type(n, T)                                                   \
	({                                                                     \
		__typeof__(T) __pk_v;                                          \
		__builtin_add_overflow(n, 0, &__pk_v);                         \
	})

static inline size_t __must_check size_mul(size_t a, size_t b)
{
	size_t r;

	return __builtin_mul_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t __must_check size_add(size_t a, size_t b)
{
	size_t r;

	return __builtin_add_overflow(a, b, &r) ? SIZE_MAX : r;
}

static inline size_t __must_check size_sub(size_t a, size_t b)
{
	size_t r;

	if (a == SIZE_MAX || b == SIZE_MAX || __builtin_sub_overflow(a, b, &r))
		return SIZE_MAX;
	return r;
}

#define array_size(a, b) size_mul(a, b)
#define array3_size(a, b, c) size_mul(size_mul(a, b), c)
/* Bytes for *@p with @count elements of its flexible array @member. */
#define struct_size(p, member, count)                                          \
	size_add(sizeof(*(p)), size_mul(sizeof(*(p)->member), count))
#define struct_size_t(type, member, count)                                     \
	struct_size((type *)NULL, member, count)
#define flex_array_size(p, member, count) size_mul(count, sizeof(*(p)->member))

#endif /* _LINUX_OVERFLOW_H */
