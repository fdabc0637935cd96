/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_FIND_H
#define _LINUX_FIND_H

/*
 * Searching bitmaps: each returns the bit found, or @size when there is
 * none (find_nth_bit(): @size or more).  Plain reads: the caller keeps the
 * bitmap stable.  Any context.  As in the kernel, the find_*() inlines
 * call out-of-line _find_*() (lib/find_bit.c's names: a program's copy of
 * the file replaces the library's src/kernel/find_bit.c whole).
 */

#include <linux/types.h>

unsigned long _find_first_bit(const unsigned long *addr, unsigned long size);
unsigned long _find_first_and_bit(const unsigned long *addr1,
				  const unsigned long *addr2,
				  unsigned long size);
unsigned long _find_first_zero_bit(const unsigned long *addr,
				   unsigned long size);
unsigned long _find_next_bit(const unsigned long *addr, unsigned long nbits,
			     unsigned long start);
unsigned long _find_next_and_bit(const unsigned long *addr1,
				 const unsigned long *addr2,
				 unsigned long nbits, unsigned long start);
unsigned long _find_next_andnot_bit(const unsigned long *addr1,
				    const unsigned long *addr2,
				    unsigned long nbits, unsigned long start);
unsigned long _find_next_zero_bit(const unsigned long *addr,
				  unsigned long nbits, unsigned long start);
unsigned long _find_last_bit(const unsigned long *addr, unsigned long size);
unsigned long __find_nth_bit(const unsigned long *addr, unsigned long size,
			     unsigned long n);

static inline unsigned long find_next_bit(const unsigned long *addr,
					  unsigned long size,
					  unsigned long offset)
{
	return offset < size ? _find_next_bit(addr, size, offset) : size;
}
static inline unsigned long find_next_zero_bit(const unsigned long *addr,
					       unsigned long size,
					       unsigned long offset)
{
	return offset < size ? _find_next_zero_bit(addr, size, offset) : size;
}
static inline unsigned long find_next_and_bit(const unsigned long *addr1,
					      const unsigned long *addr2,
					      unsigned long size,
					      unsigned long offset)
{
	return offset < size ? _find_next_and_bit(addr1, addr2, size, offset)
			     : size;
}
static inline unsigned long find_next_andnot_bit(const unsigned long *addr1,
						 const unsigned long *addr2,
						 unsigned long size,
						 unsigned long offset)
{
	return offset < size ? _find_next_andnot_bit(addr1, addr2, size, offset)
			     : size;
}
static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return _find_first_bit(addr, size);
}
static inline unsigned long find_first_zero_bit(const unsigned long *addr,
						unsigned long size)
{
	return _find_first_zero_bit(addr, size);
}
static inline unsigned long find_first_and_bit(const unsigned long *addr1,
					       const unsigned long *addr2,
					       unsigned long size)
{
	return _find_first_and_bit(addr1, addr2, size);
}
static inline unsigned long find_last_bit(const unsigned long *addr,
					  unsigned long size)
{
	return _find_last_bit(addr, size);
}
/* The index of the @n-th (from 0) set bit; @size or more if fewer. */
static inline unsigned long find_nth_bit(const unsigned long *addr,
					 unsigned long size, unsigned long n)
{
	return n < size ? __find_nth_bit(addr, size, n) : size;
}

#endif /* _LINUX_FIND_H */
