/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BITS_H
#define _LINUX_BITS_H

#include <linux/types.h>

#define BIT(nr) (1UL << (nr))
#define BIT_ULL(nr) (1ULL << (nr))
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_ULL_MASK(nr) (1ULL << ((nr) % BITS_PER_LONG_LONG))
#define BIT_ULL_WORD(nr) ((nr) / BITS_PER_LONG_LONG)
#define BITS_PER_BYTE 8
#define BITS_PER_TYPE(type) (sizeof(type) * BITS_PER_BYTE)

/* Bits @l..@h set (h >= l), as unsigned long / unsigned long long. */
#define GENMASK(h, l) ((~0UL << (l)) & (~0UL >> (BITS_PER_LONG - 1 - (h))))
#define GENMASK_ULL(h, l)                                                      \
	((~0ULL << (l)) & (~0ULL >> (BITS_PER_LONG_LONG - 1 - (h))))

#endif /* _LINUX_BITS_H */
