// SPDX-License-Identifier: MIT
/*
 * bitmap_print_to_pagebuf(), which lib/bitmap-str.c defines in 6.12 and
 * lib/bitmap.c in 6.1: an object of its own, so a program's copy of
 * either file replaces it instead of clashing with it.  Any context.
 */

#include <stdio.h>
#include <linux/bitmap.h>
#include <linux/kernel.h>

/*
 * The kernel's "%*pb": 32-bit chunks, most significant first, separated
 * by commas, each zero-padded to its hex width (the first one to that of
 * the bits it holds).
 */
static int pk_bitmap_print_mask(char *buf, const unsigned long *maskp,
				int nmaskbits)
{
	int n = 0, chunk = nmaskbits % 32 ? nmaskbits % 32 : 32;

	for (int i = (int)round_up(nmaskbits, 32) - 32; i >= 0; i -= 32) {
		unsigned long v =
			maskp[i / BITS_PER_LONG] >> (i % BITS_PER_LONG);

		v &= (chunk == 32 ? 0xffffffffUL : (1UL << chunk) - 1);
		n += sprintf(buf + n, "%s%0*lx", n ? "," : "",
			     DIV_ROUND_UP(chunk, 4), v);
		chunk = 32;
	}
	return n + sprintf(buf + n, "\n");
}

int bitmap_print_to_pagebuf(bool list, char *buf, const unsigned long *maskp,
			    int nmaskbits)
{
	int n = 0;
	unsigned long bit, end;

	if (!list)
		return pk_bitmap_print_mask(buf, maskp, nmaskbits);
	for_each_set_bit(bit, maskp, (unsigned long)nmaskbits)
	{
		end = find_next_zero_bit(maskp, (unsigned long)nmaskbits, bit);
		n += sprintf(buf + n, n ? ",%lu" : "%lu", bit);
		if (end - 1 > bit)
			n += sprintf(buf + n, "-%lu", end - 1);
		bit = end;
	}
	return n + sprintf(buf + n, "\n");
}
