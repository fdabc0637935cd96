/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SORT_H
#define _LINUX_SORT_H

/*
 * sort() and sort_r(): in-place, not stable, O(n log n), no allocation.
 * @swap_func NULL picks a swap by element size.  The library does not
 * implement them: a program brings lib/sort.c.
 */

#include <linux/types.h>

/* sort_r()'s swap takes @priv too (6.3 on; Debian's 6.1 has it) */
void sort_r(void *base, size_t num, size_t size, cmp_r_func_t cmp_func,
	    swap_r_func_t swap_func, const void *priv);
void sort(void *base, size_t num, size_t size, cmp_func_t cmp_func,
	  swap_func_t swap_func);

#endif /* _LINUX_SORT_H */
