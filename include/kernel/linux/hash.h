/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_HASH_H
#define _LINUX_HASH_H

/*
 * Multiplicative hashing (Knuth): multiply by a constant near 2^w/phi and
 * keep the top @bits bits.  The constants are the kernel's, so hashes
 * (and so hash-table iteration orders) come out as there.
 */

#include <linux/types.h>

#define GOLDEN_RATIO_32 0x61C88647U
#define GOLDEN_RATIO_64 0x61C8864680B583EBULL

/** __hash_32() - @val times the 32-bit golden ratio, all 32 bits. */
static inline u32 __hash_32(u32 val)
{
	return val * GOLDEN_RATIO_32;
}

/** hash_32() - @val hashed to @bits bits (1..32).  Any context. */
static inline u32 hash_32(u32 val, unsigned int bits)
{
	return __hash_32(val) >> (32 - bits);
}

/** hash_64() - @val hashed to @bits bits (1..64).  Any context. */
static inline u32 hash_64(u64 val, unsigned int bits)
{
	return (u32)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

#define hash_long(val, bits) hash_64((u64)(val), bits)

/** hash_ptr() - a pointer hashed to @bits bits. */
static inline u32 hash_ptr(const void *ptr, unsigned int bits)
{
	return hash_long((unsigned long)ptr, bits);
}

/** hash32_ptr() - a pointer folded to 32 bits, not reduced. */
static inline u32 hash32_ptr(const void *ptr)
{
	unsigned long val = (unsigned long)ptr;

	return (u32)(val ^ (val >> 32));
}

#endif
