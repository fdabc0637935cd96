// SPDX-License-Identifier: MIT
/*
 * The bitmap searches behind linux/find.h's inlines.  This object defines
 * only names lib/find_bit.c defines (6.1 and 6.12 alike), so a program
 * that brings the kernel's file replaces it whole instead of clashing
 * with it.  Plain reads: any context, the caller keeps the bitmap stable.
 */

#include <linux/bitmap.h>
#include <linux/bitops.h>
#include <linux/find.h>
#include <linux/kernel.h>

/*
 * The first bit at or after @start where (a[w] & b[w]) ^ invert is set;
 * with @negate_b, a[w] & ~b[w].  @size if there is none.
 */
static unsigned long find_bit(const unsigned long *a, const unsigned long *b,
			      bool negate_b, unsigned long size,
			      unsigned long start, unsigned long invert)
{
	unsigned long w, k;

	if (start >= size)
		return size;
	for (k = BIT_WORD(start);; k++) {
		w = a[k] & (b ? (negate_b ? ~b[k] : b[k]) : ~0UL);
		w ^= invert;
		if (k == BIT_WORD(start))
			w &= BITMAP_FIRST_WORD_MASK(start);
		if (w)
			return min(k * BITS_PER_LONG + __ffs(w), size);
		if ((k + 1) * BITS_PER_LONG >= size)
			return size;
	}
}

unsigned long _find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_bit(addr, NULL, false, size, 0, 0UL);
}

unsigned long _find_first_and_bit(const unsigned long *addr1,
				  const unsigned long *addr2,
				  unsigned long size)
{
	return find_bit(addr1, addr2, false, size, 0, 0UL);
}

unsigned long _find_first_zero_bit(const unsigned long *addr,
				   unsigned long size)
{
	return find_bit(addr, NULL, false, size, 0, ~0UL);
}

unsigned long _find_next_bit(const unsigned long *addr, unsigned long nbits,
			     unsigned long start)
{
	return find_bit(addr, NULL, false, nbits, start, 0UL);
}

unsigned long _find_next_and_bit(const unsigned long *addr1,
				 const unsigned long *addr2,
				 unsigned long nbits, unsigned long start)
{
	return find_bit(addr1, addr2, false, nbits, start, 0UL);
}

unsigned long _find_next_andnot_bit(const unsigned long *addr1,
				    const unsigned long *addr2,
				    unsigned long nbits, unsigned long start)
{
	return find_bit(addr1, addr2, true, nbits, start, 0UL);
}

unsigned long _find_next_zero_bit(const unsigned long *addr,
				  unsigned long nbits, unsigned long start)
{
	return find_bit(addr, NULL, false, nbits, start, ~0UL);
}

unsigned long _find_last_bit(const unsigned long *addr, unsigned long size)
{
	for (unsigned long i = size; i-- > 0;)
		if (test_bit((long)i, addr))
			return i;
	return size;
}

unsigned long __find_nth_bit(const unsigned long *addr, unsigned long size,
			     unsigned long n)
{
	unsigned long bit;

	for_each_set_bit(bit, addr, size)
	{
		if (n-- == 0)
			return bit;
	}
	return size;
}
