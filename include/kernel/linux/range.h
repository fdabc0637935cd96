/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RANGE_H
#define _LINUX_RANGE_H

/*
 * Arrays of inclusive [start, end] ranges: add (merging overlaps),
 * subtract, sort and compact.  kernel/range.c, which a program brings.
 * No locking, no allocation: the caller's array of @az entries.
 */

#include <linux/types.h>

struct range {
	u64 start;
	u64 end;
};

static inline u64 range_len(const struct range *range)
{
	return range->end - range->start + 1;
}

/* Both return the new number of used entries. */
int add_range(struct range *range, int az, int nr_range, u64 start, u64 end);
int add_range_with_merge(struct range *range, int az, int nr_range, u64 start,
			 u64 end);
void subtract_range(struct range *range, int az, u64 start, u64 end);
/* Sorts, drops the empty entries; returns how many remain. */
int clean_sort_range(struct range *range, int az);
void sort_range(struct range *range, int nr_range);

#define MAX_RESOURCE ((resource_size_t)~0)
static inline resource_size_t cap_resource(u64 val)
{
	return val > MAX_RESOURCE ? MAX_RESOURCE : (resource_size_t)val;
}

#endif /* _LINUX_RANGE_H */
