// SPDX-License-Identifier: MIT
/*
 * mempool_create(): a function in Linux 6.1's mm/mempool.c, a macro over
 * mempool_create_node() in 6.12's.  The tree declares the function, so a
 * program with a 6.12 mm/mempool.c links this one; a 6.1 file defines it
 * and this member stays out.
 */

#include <linux/mempool.h>
#include <linux/mmzone.h>

mempool_t *mempool_create(int min_nr, mempool_alloc_t *alloc_fn,
			  mempool_free_t *free_fn, void *pool_data)
{
	return mempool_create_node(min_nr, alloc_fn, free_fn, pool_data,
				   GFP_KERNEL, NUMA_NO_NODE);
}
