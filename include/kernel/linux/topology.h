/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_TOPOLOGY_H
#define _LINUX_TOPOLOGY_H
#include <linux/types.h>
/* One NUMA node, 0, holding every CPU. */
#define numa_node_id() 0
#define numa_mem_id() 0
#define cpu_to_node(cpu) ((void)(cpu), 0)
#define dev_to_node(dev) ((void)(dev), 0)
#define first_online_node 0
#define nr_node_ids 1
/* One last-level cache for the machine's vCPUs, as one node. */
static inline bool cpus_share_cache(int this_cpu, int that_cpu)
{
	(void)this_cpu;
	(void)that_cpu;
	return true;
}
#endif
