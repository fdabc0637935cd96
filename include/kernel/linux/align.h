/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_ALIGN_H
#define _LINUX_ALIGN_H
#include <linux/math.h>

/* @x rounded up to a multiple of @mask + 1, a power of two. */
#define __ALIGN_KERNEL_MASK(x, mask) (((x) + (mask)) & ~(mask))
#define __ALIGN_KERNEL(x, a) __ALIGN_KERNEL_MASK(x, (__typeof__(x))(a)-1)
#define __ALIGN_MASK(x, mask) __ALIGN_KERNEL_MASK((x), (mask))
#endif
