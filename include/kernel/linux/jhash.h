/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_JHASH_H
#define _LINUX_JHASH_H

/*
 * Bob Jenkins' lookup3 hash (public domain, 2006), as the kernel uses it:
 * jhash() over bytes (little-endian, it equals lookup3's hashlittle()),
 * jhash2() over 32-bit words, and the one-to-three-word forms.  Not
 * cryptographic: for hash tables.
 */

#include <linux/bitops.h>
#include <linux/types.h>
#include <linux/unaligned.h>

/* An arbitrary start, lookup3's. */
#define JHASH_INITVAL 0xdeadbeef

/* Mix three words reversibly (lookup3's mix()). */
#define __jhash_mix(a, b, c)                                                   \
	do {                                                                   \
		a -= c;                                                        \
		a ^= rol32(c, 4);                                              \
		c += b;                                                        \
		b -= a;                                                        \
		b ^= rol32(a, 6);                                              \
		a += c;                                                        \
		c -= b;                                                        \
		c ^= rol32(b, 8);                                              \
		b += a;                                                        \
		a -= c;                                                        \
		a ^= rol32(c, 16);                                             \
		c += b;                                                        \
		b -= a;                                                        \
		b ^= rol32(a, 19);                                             \
		a += c;                                                        \
		c -= b;                                                        \
		c ^= rol32(b, 4);                                              \
		b += a;                                                        \
	} while (0)

/* Final mixing of three words into @c (lookup3's final()). */
#define __jhash_final(a, b, c)                                                 \
	do {                                                                   \
		c ^= b;                                                        \
		c -= rol32(b, 14);                                             \
		a ^= c;                                                        \
		a -= rol32(c, 11);                                             \
		b ^= a;                                                        \
		b -= rol32(a, 25);                                             \
		c ^= b;                                                        \
		c -= rol32(b, 16);                                             \
		a ^= c;                                                        \
		a -= rol32(c, 4);                                              \
		b ^= a;                                                        \
		b -= rol32(a, 14);                                             \
		c ^= b;                                                        \
		c -= rol32(b, 24);                                             \
	} while (0)

/** jhash() - hash @length bytes at @key, seeded with @initval. */
static inline u32 jhash(const void *key, u32 length, u32 initval)
{
	const u8 *k = key;
	u32 a, b, c;

	a = b = c = JHASH_INITVAL + length + initval;
	for (; length > 12; length -= 12, k += 12) {
		a += get_unaligned_le32(k);
		b += get_unaligned_le32(k + 4);
		c += get_unaligned_le32(k + 8);
		__jhash_mix(a, b, c);
	}
	if (!length)
		return c;
	/* The last 1..12 bytes, little-endian, zero-padded. */
	for (u32 i = 0; i < length; i++) {
		u32 v = (u32)k[i] << (8 * (i % 4));

		if (i < 4)
			a += v;
		else if (i < 8)
			b += v;
		else
			c += v;
	}
	__jhash_final(a, b, c);
	return c;
}

/** jhash2() - hash @length 32-bit words at @k, seeded with @initval. */
static inline u32 jhash2(const u32 *k, u32 length, u32 initval)
{
	u32 a, b, c;

	a = b = c = JHASH_INITVAL + (length << 2) + initval;
	for (; length > 3; length -= 3, k += 3) {
		a += k[0];
		b += k[1];
		c += k[2];
		__jhash_mix(a, b, c);
	}
	if (!length)
		return c;
	a += k[0];
	if (length > 1)
		b += k[1];
	if (length > 2)
		c += k[2];
	__jhash_final(a, b, c);
	return c;
}

static inline u32 __jhash_nwords(u32 a, u32 b, u32 c, u32 initval)
{
	a += initval;
	b += initval;
	c += initval;
	__jhash_final(a, b, c);
	return c;
}

/** jhash_3words() - hash three words with @initval. */
static inline u32 jhash_3words(u32 a, u32 b, u32 c, u32 initval)
{
	return __jhash_nwords(a, b, c, initval + JHASH_INITVAL + (3 << 2));
}

/** jhash_2words() - hash two words with @initval. */
static inline u32 jhash_2words(u32 a, u32 b, u32 initval)
{
	return __jhash_nwords(a, b, 0, initval + JHASH_INITVAL + (2 << 2));
}

/** jhash_1word() - hash one word with @initval. */
static inline u32 jhash_1word(u32 a, u32 initval)
{
	return __jhash_nwords(a, 0, 0, initval + JHASH_INITVAL + (1 << 2));
}

#endif
