// SPDX-License-Identifier: MIT
/*
 * bitmap_print_to_pagebuf(), which lib/bitmap-str.c defines in 6.12 and
 * lib/bitmap.c in 6.1: an object of its own, so a program's copy of
 * either file replaces it instead of clashing with it.  Any context.
 */

#include <linux/bitmap.h>
#include <linux/kernel.h>
#include <linux/sprintf.h>
#include <asm/page.h>

int bitmap_print_to_pagebuf(bool list, char *buf, const unsigned long *maskp,
			    int nmaskbits)
{
	/* @buf is a page, as sysfs gives a show() method. */
	return scnprintf(buf, PAGE_SIZE, list ? "%*pbl\n" : "%*pb\n", nmaskbits,
			 maskp);
}
