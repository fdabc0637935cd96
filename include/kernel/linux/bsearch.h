/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_BSEARCH_H
#define _LINUX_BSEARCH_H

/*
 * bsearch(): the element of the sorted array @base equal to @key, or
 * NULL; @cmp(key, element) as for sort().  __inline_bsearch() is the
 * search itself, for callers that want it inlined; a program brings
 * lib/bsearch.c for the out-of-line bsearch().
 */

#include <linux/compiler_types.h>
#include <linux/types.h>

static __always_inline void *__inline_bsearch(const void *key, const void *base,
					      size_t num, size_t size,
					      cmp_func_t cmp)
{
	const char *lo = base;

	while (num) {
		const char *mid = lo + (num / 2) * size;
		int r = cmp(key, mid);

		if (!r)
			return (void *)mid;
		if (r > 0) { /* above the middle: the upper half */
			lo = mid + size;
			num -= num / 2 + 1;
		} else {
			num /= 2;
		}
	}
	return NULL;
}

extern void *bsearch(const void *key, const void *base, size_t num, size_t size,
		     cmp_func_t cmp);

#endif /* _LINUX_BSEARCH_H */
