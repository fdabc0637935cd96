/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BITMAP_H
#define _LINUX_BITMAP_H

/*
 * Bitmaps of @nbits bits in arrays of unsigned long.  The bits beyond
 * @nbits in the last word are ignored by the queries and may be changed
 * by the operations (as in the kernel).  Plain accesses: the caller
 * serializes.  Any context.
 */

#include <string.h>
#include <linux/bitops.h>
#include <linux/find.h>
#include <linux/gfp_types.h>
#include <linux/limits.h>
#include <linux/types.h>

#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

unsigned long *bitmap_alloc(unsigned int nbits, gfp_t flags);
unsigned long *bitmap_zalloc(unsigned int nbits, gfp_t flags);
void bitmap_free(const unsigned long *bitmap);

static inline size_t __pk_bitmap_bytes(unsigned int nbits)
{
	return BITS_TO_LONGS(nbits) * sizeof(unsigned long);
}
static inline void bitmap_zero(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0, __pk_bitmap_bytes(nbits));
}
static inline void bitmap_fill(unsigned long *dst, unsigned int nbits)
{
	memset(dst, 0xff, __pk_bitmap_bytes(nbits));
}
static inline void bitmap_copy(unsigned long *dst, const unsigned long *src,
			       unsigned int nbits)
{
	memcpy(dst, src, __pk_bitmap_bytes(nbits));
}

bool __bitmap_and(unsigned long *dst, const unsigned long *a,
		  const unsigned long *b, unsigned int nbits);
void __bitmap_or(unsigned long *dst, const unsigned long *a,
		 const unsigned long *b, unsigned int nbits);
void __bitmap_xor(unsigned long *dst, const unsigned long *a,
		  const unsigned long *b, unsigned int nbits);
bool __bitmap_andnot(unsigned long *dst, const unsigned long *a,
		     const unsigned long *b, unsigned int nbits);
void __bitmap_complement(unsigned long *dst, const unsigned long *src,
			 unsigned int nbits);
bool __bitmap_equal(const unsigned long *a, const unsigned long *b,
		    unsigned int nbits);
bool __bitmap_intersects(const unsigned long *a, const unsigned long *b,
			 unsigned int nbits);
bool __bitmap_subset(const unsigned long *a, const unsigned long *b,
		     unsigned int nbits);
unsigned int __bitmap_weight(const unsigned long *src, unsigned int nbits);
unsigned int __bitmap_weight_and(const unsigned long *a, const unsigned long *b,
				 unsigned int nbits);
void __bitmap_set(unsigned long *map, unsigned int start, int len);
void __bitmap_clear(unsigned long *map, unsigned int start, int len);
void __bitmap_shift_right(unsigned long *dst, const unsigned long *src,
			  unsigned int shift, unsigned int nbits);
void __bitmap_shift_left(unsigned long *dst, const unsigned long *src,
			 unsigned int shift, unsigned int nbits);
/**
 * bitmap_find_next_zero_area_off() - the first run of @nr clear bits at or
 * after @start whose index plus @align_offset is a multiple of
 * @align_mask + 1; a value past @size when there is none.  Any context.
 */
unsigned long bitmap_find_next_zero_area_off(
	unsigned long *map, unsigned long size, unsigned long start,
	unsigned int nr, unsigned long align_mask, unsigned long align_offset);
/** bitmap_find_next_zero_area() - the same, aligned to bit 0. Any context. */
static inline unsigned long bitmap_find_next_zero_area(unsigned long *map,
						       unsigned long size,
						       unsigned long start,
						       unsigned int nr,
						       unsigned long align_mask)
{
	return bitmap_find_next_zero_area_off(map, size, start, nr, align_mask,
					      0);
}
/**
 * bitmap_parselist() - @maskp from a list "0-3,7,16-31:2/4" (a range, of
 * which the first @used of every @group bits; N: the last bit); 0, or
 * -EINVAL (syntax), -ERANGE (a bit past @nmaskbits), -EOVERFLOW.  Any
 * context.
 */
int bitmap_parselist(const char *buf, unsigned long *maskp, int nmaskbits);
/**
 * bitmap_parse() - @maskp from at most @buflen bytes of hex, 32-bit
 * chunks separated by commas, most significant first; 0, -EINVAL,
 * -EOVERFLOW (a bit past @nmaskbits).  Any context.
 */
int bitmap_parse(const char *buf, unsigned int buflen, unsigned long *maskp,
		 int nmaskbits);
/** bitmap_print_to_pagebuf() - "0-3,7" (list) or hex words into @buf. */
int bitmap_print_to_pagebuf(bool list, char *buf, const unsigned long *maskp,
			    int nmaskbits);

#define bitmap_and(d, a, b, n) __bitmap_and(d, a, b, n)
#define bitmap_or(d, a, b, n) __bitmap_or(d, a, b, n)
#define bitmap_xor(d, a, b, n) __bitmap_xor(d, a, b, n)
#define bitmap_andnot(d, a, b, n) __bitmap_andnot(d, a, b, n)
#define bitmap_complement(d, s, n) __bitmap_complement(d, s, n)
#define bitmap_equal(a, b, n) __bitmap_equal(a, b, n)
#define bitmap_intersects(a, b, n) __bitmap_intersects(a, b, n)
#define bitmap_subset(a, b, n) __bitmap_subset(a, b, n)
#define bitmap_weight(s, n) __bitmap_weight(s, n)
#define bitmap_weight_and(a, b, n) __bitmap_weight_and(a, b, n)
#define bitmap_set(m, s, n) __bitmap_set(m, s, n)
#define bitmap_clear(m, s, n) __bitmap_clear(m, s, n)
#define bitmap_shift_right(d, s, sh, n) __bitmap_shift_right(d, s, sh, n)
#define bitmap_shift_left(d, s, sh, n) __bitmap_shift_left(d, s, sh, n)

/* The 8 bits at @start, a multiple of 8. Plain read. */
static inline unsigned long bitmap_get_value8(const unsigned long *map,
					      unsigned long start)
{
	return (map[BIT_WORD(start)] >> (start % BITS_PER_LONG)) & 0xff;
}
/* Sets the 8 bits at @start, a multiple of 8, to @value. Plain write. */
static inline void bitmap_set_value8(unsigned long *map, unsigned long value,
				     unsigned long start)
{
	map[BIT_WORD(start)] &= ~(0xffUL << (start % BITS_PER_LONG));
	map[BIT_WORD(start)] |= value << (start % BITS_PER_LONG);
}

static inline bool bitmap_empty(const unsigned long *src, unsigned int nbits)
{
	return find_first_bit(src, nbits) == nbits;
}
static inline bool bitmap_full(const unsigned long *src, unsigned int nbits)
{
	return find_first_zero_bit(src, nbits) == nbits;
}

#endif /* _LINUX_BITMAP_H */
