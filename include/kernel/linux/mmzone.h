/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MMZONE_H
#define _LINUX_MMZONE_H
#define MAX_NUMNODES 1
#define NUMA_NO_NODE (-1)
#ifndef MAX_ORDER
#define MAX_ORDER 10
#endif
#endif
