/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MINMAX_H
#define _LINUX_MINMAX_H

/*
 * min()/max() evaluate each argument once; like the kernel's they refuse
 * operands of different types (use min_t()), checked at compile time.
 */

#include <linux/compiler.h>

#define __pk_cmp_check(x, y)                                                   \
	_Static_assert(__same_type(x, y) || (__builtin_constant_p(x) ||        \
					     __builtin_constant_p(y)),         \
		       "min()/max() of different types: use min_t()/max_t()")
#define __pk_cmp(op, x, y)                                                     \
	({                                                                     \
		__typeof__(x) __pk_x = (x);                                    \
		__typeof__(y) __pk_y = (y);                                    \
		__pk_cmp_check(__pk_x, __pk_y);                                \
		__pk_x op __pk_y ? __pk_x : __pk_y;                            \
	})
#define min(x, y) __pk_cmp(<, x, y)
#define max(x, y) __pk_cmp(>, x, y)
#define min3(x, y, z) min((__typeof__(x))min(x, y), z)
#define max3(x, y, z) max((__typeof__(x))max(x, y), z)
#define min_t(type, x, y)                                                      \
	({                                                                     \
		type __pk_a = (x), __pk_b = (y);                               \
		__pk_a < __pk_b ? __pk_a : __pk_b;                             \
	})
#define max_t(type, x, y)                                                      \
	({                                                                     \
		type __pk_a = (x), __pk_b = (y);                               \
		__pk_a > __pk_b ? __pk_a : __pk_b;                             \
	})
#define umin(x, y) min_t(unsigned long long, x, y)
#define umax(x, y) max_t(unsigned long long, x, y)
#define min_not_zero(x, y)                                                     \
	({                                                                     \
		__typeof__(x) __pk_x = (x);                                    \
		__typeof__(y) __pk_y = (y);                                    \
		__pk_x == 0 ? __pk_y                                           \
			    : ((__pk_y == 0) ? __pk_x : min(__pk_x, __pk_y));  \
	})
#define clamp(val, lo, hi) min((__typeof__(val))max(val, lo), hi)
#define clamp_t(type, val, lo, hi) min_t(type, max_t(type, val, lo), hi)
#define clamp_val(val, lo, hi) clamp_t(__typeof__(val), val, lo, hi)
#define swap(a, b)                                                             \
	do {                                                                   \
		__typeof__(a) __pk_tmp = (a);                                  \
		(a) = (b);                                                     \
		(b) = __pk_tmp;                                                \
	} while (0)

#endif /* _LINUX_MINMAX_H */
