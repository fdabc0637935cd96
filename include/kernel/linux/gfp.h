/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_GFP_H
#define _LINUX_GFP_H

#include <linux/gfp_types.h>
#include <linux/mmzone.h>
#include <linux/topology.h>
#include <preempt/mm.h>

#define alloc_pages_node(nid, gfp, order) alloc_pages(gfp, order)
#define alloc_pages_noprof(gfp, order) alloc_pages(gfp, order)
#define __alloc_pages_node(nid, gfp, order) alloc_pages(gfp, order)
#define __get_dma_pages(gfp, order) __get_free_pages(gfp, order)

#endif /* _LINUX_GFP_H */
