/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MEMPOLICY_H
#define _LINUX_MEMPOLICY_H
/* Memory policies: one node, so every allocation's policy is node 0. */
#include <linux/nodemask.h>
#include <linux/slab.h>
#endif
