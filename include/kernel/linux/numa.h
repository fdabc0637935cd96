/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_NUMA_H
#define _LINUX_NUMA_H
/* One NUMA node here (linux/topology.h). */
#include <linux/mmzone.h>
#include <linux/topology.h>
#define NODES_SHIFT 0
#define MAX_NUMNODES 1
#define numa_valid_node(node) ((node) == 0)
#endif
