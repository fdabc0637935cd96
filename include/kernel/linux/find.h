/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_FIND_H
#define _LINUX_FIND_H

/*
 * Searching bitmaps: each returns the bit found, or @size when there is
 * none.  Plain reads: the caller keeps the bitmap stable.  Any context.
 */

#include <linux/types.h>

unsigned long find_next_bit(const unsigned long *addr, unsigned long size,
			    unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset);
unsigned long find_next_and_bit(const unsigned long *addr1,
				const unsigned long *addr2, unsigned long size,
				unsigned long offset);
unsigned long find_last_bit(const unsigned long *addr, unsigned long size);
unsigned long find_nth_bit(const unsigned long *addr, unsigned long size,
			   unsigned long n);

static inline unsigned long find_first_bit(const unsigned long *addr,
					   unsigned long size)
{
	return find_next_bit(addr, size, 0);
}
static inline unsigned long find_first_zero_bit(const unsigned long *addr,
						unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}
static inline unsigned long find_first_and_bit(const unsigned long *addr1,
					       const unsigned long *addr2,
					       unsigned long size)
{
	return find_next_and_bit(addr1, addr2, size, 0);
}

#endif /* _LINUX_FIND_H */
