/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_DMA_MAPPING_H
#define _LINUX_DMA_MAPPING_H

/*
 * DMA mapping, for code that only names it: the machine has no devices
 * that do DMA, so nothing maps; an address is valid unless it is
 * DMA_MAPPING_ERROR.  (6.12's lib/kfifo.c includes this.)
 */

#include <linux/errno.h>
#include <linux/types.h>

#define DMA_MAPPING_ERROR (~(dma_addr_t)0)

enum dma_data_direction {
	DMA_BIDIRECTIONAL = 0,
	DMA_TO_DEVICE = 1,
	DMA_FROM_DEVICE = 2,
	DMA_NONE = 3,
};

struct device;

static inline int dma_mapping_error(struct device *dev, dma_addr_t dma_addr)
{
	(void)dev;
	return dma_addr == DMA_MAPPING_ERROR ? -ENOMEM : 0;
}

#endif /* _LINUX_DMA_MAPPING_H */
