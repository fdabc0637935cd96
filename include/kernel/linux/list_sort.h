/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LIST_SORT_H
#define _LINUX_LIST_SORT_H

/*
 * list_sort(): a stable merge sort of a list_head list; @cmp returns > 0
 * when @a must come after @b.  A program brings lib/list_sort.c.
 */

#include <linux/types.h>

struct list_head;

typedef int __attribute__((nonnull(2, 3))) (*list_cmp_func_t)(
	void *priv, const struct list_head *a, const struct list_head *b);

__attribute__((nonnull(2, 3))) void
list_sort(void *priv, struct list_head *head, list_cmp_func_t cmp);

#endif /* _LINUX_LIST_SORT_H */
