/* SPDX-License-Identifier: MIT */
#ifndef __LINUX_NODEMASK_H
#define __LINUX_NODEMASK_H

/* NUMA nodes: the machine has one, node 0, holding every CPU. */

#include <linux/bitmap.h>
#include <linux/cpumask.h>
#include <linux/topology.h>
#include <linux/types.h>

#define MAX_NUMNODES 1
#define NODES_SHIFT 0

typedef struct {
	DECLARE_BITMAP(bits, MAX_NUMNODES);
} nodemask_t;

#define NODE_MASK_ALL ((nodemask_t){.bits = {1UL}})
#define NODE_MASK_NONE ((nodemask_t){.bits = {0UL}})

#define node_online(node) ((node) == 0)
#define node_possible(node) ((node) == 0)
#define node_state(node, state) node_online(node)
#define num_online_nodes() 1
#define num_possible_nodes() 1
#define for_each_node(node) for ((node) = 0; (node) < 1; (node)++)
#define for_each_online_node(node) for_each_node(node)
#define for_each_node_state(node, state) for_each_node(node)
#define first_node(mask) 0
#define next_online_node(node) MAX_NUMNODES
#define node_set(node, mask) ((void)(node), (mask).bits[0] = 1UL)
#define node_isset(node, mask) ((node) == 0 && ((mask).bits[0] & 1UL))

/** cpumask_of_node() - the CPUs of @node: every possible CPU. */
#define cpumask_of_node(node) ((void)(node), cpu_possible_mask)

#endif
