// SPDX-License-Identifier: MIT
/*
 * The bitmap operations behind linux/bitmap.h's inlines, and bitmap
 * allocation.  This object defines only names lib/bitmap.c also defines
 * (6.12), so a program that brings the kernel's file replaces it whole
 * instead of clashing with it.  Plain accesses: any context, the caller
 * serializes; bitmap_alloc() as kmalloc() with its @flags.
 */

#include <linux/align.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/slab.h>

/* Operations on whole words, the last one masked to @nbits. */
#define BITMAP_FOR_WORDS(k, nbits)                                             \
	for (unsigned int k = 0; k < BITS_TO_LONGS(nbits); k++)
#define LAST_MASK(k, nbits)                                                    \
	((k) == BITS_TO_LONGS(nbits) - 1 ? BITMAP_LAST_WORD_MASK(nbits) : ~0UL)

bool __bitmap_and(unsigned long *dst, const unsigned long *a,
		  const unsigned long *b, unsigned int nbits)
{
	unsigned long any = 0;

	BITMAP_FOR_WORDS(k, nbits)
	any |= (dst[k] = a[k] & b[k]) & LAST_MASK(k, nbits);
	return any != 0;
}

void __bitmap_or(unsigned long *dst, const unsigned long *a,
		 const unsigned long *b, unsigned int nbits)
{
	BITMAP_FOR_WORDS(k, nbits)
	dst[k] = a[k] | b[k];
}

void __bitmap_xor(unsigned long *dst, const unsigned long *a,
		  const unsigned long *b, unsigned int nbits)
{
	BITMAP_FOR_WORDS(k, nbits)
	dst[k] = a[k] ^ b[k];
}

bool __bitmap_andnot(unsigned long *dst, const unsigned long *a,
		     const unsigned long *b, unsigned int nbits)
{
	unsigned long any = 0;

	BITMAP_FOR_WORDS(k, nbits)
	any |= (dst[k] = a[k] & ~b[k]) & LAST_MASK(k, nbits);
	return any != 0;
}

void __bitmap_complement(unsigned long *dst, const unsigned long *src,
			 unsigned int nbits)
{
	BITMAP_FOR_WORDS(k, nbits)
	dst[k] = ~src[k];
}

bool __bitmap_equal(const unsigned long *a, const unsigned long *b,
		    unsigned int nbits)
{
	BITMAP_FOR_WORDS(k, nbits)
	if ((a[k] ^ b[k]) & LAST_MASK(k, nbits))
		return false;
	return true;
}

bool __bitmap_intersects(const unsigned long *a, const unsigned long *b,
			 unsigned int nbits)
{
	BITMAP_FOR_WORDS(k, nbits)
	if (a[k] & b[k] & LAST_MASK(k, nbits))
		return true;
	return false;
}

bool __bitmap_subset(const unsigned long *a, const unsigned long *b,
		     unsigned int nbits)
{
	BITMAP_FOR_WORDS(k, nbits)
	if (a[k] & ~b[k] & LAST_MASK(k, nbits))
		return false;
	return true;
}

unsigned int __bitmap_weight(const unsigned long *src, unsigned int nbits)
{
	unsigned int w = 0;

	BITMAP_FOR_WORDS(k, nbits)
	w += (unsigned int)hweight_long(src[k] & LAST_MASK(k, nbits));
	return w;
}

unsigned int __bitmap_weight_and(const unsigned long *a, const unsigned long *b,
				 unsigned int nbits)
{
	unsigned int w = 0;

	BITMAP_FOR_WORDS(k, nbits)
	w += (unsigned int)hweight_long(a[k] & b[k] & LAST_MASK(k, nbits));
	return w;
}

void __bitmap_set(unsigned long *map, unsigned int start, int len)
{
	for (unsigned int i = start; i < start + (unsigned int)len; i++)
		__set_bit(i, map);
}

void __bitmap_clear(unsigned long *map, unsigned int start, int len)
{
	for (unsigned int i = start; i < start + (unsigned int)len; i++)
		__clear_bit(i, map);
}

void __bitmap_shift_right(unsigned long *dst, const unsigned long *src,
			  unsigned int shift, unsigned int nbits)
{
	for (unsigned int i = 0; i < nbits; i++) {
		if (i + shift < nbits && test_bit(i + shift, src))
			__set_bit(i, dst);
		else
			__clear_bit(i, dst);
	}
}

void __bitmap_shift_left(unsigned long *dst, const unsigned long *src,
			 unsigned int shift, unsigned int nbits)
{
	for (unsigned int i = nbits; i-- > 0;) {
		if (i >= shift && test_bit(i - shift, src))
			__set_bit(i, dst);
		else
			__clear_bit(i, dst);
	}
}

unsigned long bitmap_find_next_zero_area_off(
	unsigned long *map, unsigned long size, unsigned long start,
	unsigned int nr, unsigned long align_mask, unsigned long align_offset)
{
	unsigned long index, end, i;
again:
	index = find_next_zero_bit(map, size, start);
	/* Aligned relative to @align_offset, not to bit 0 of @map. */
	index = __ALIGN_MASK(index + align_offset, align_mask) - align_offset;
	end = index + nr;
	if (end > size)
		return end;
	i = find_next_bit(map, end, index);
	if (i < end) {
		start = i + 1;
		goto again;
	}
	return index;
}

unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags)
{
	return kmalloc_array(BITS_TO_LONGS(nbits), sizeof(unsigned long),
			     flags);
}

unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags)
{
	return bitmap_alloc(nbits, flags | __GFP_ZERO);
}

void bitmap_free(const unsigned long *bitmap)
{
	kfree(bitmap);
}
