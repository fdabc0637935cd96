/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCATTERLIST_H
#define _LINUX_SCATTERLIST_H

/*
 * Scatter-gather lists, as far as code that builds them for a device
 * needs: there are no devices and no DMA mapping here; a list is an array
 * of entries, the last marked.
 */

#include <string.h>
#include <linux/mm.h>
#include <linux/types.h>

struct scatterlist {
	unsigned long page_link; /* the page, bit 1: last entry */
	unsigned int offset;
	unsigned int length;
	dma_addr_t dma_address;
	unsigned int dma_length;
};

#define SG_END 0x02UL
static inline struct page *sg_page(struct scatterlist *sg)
{
	return (struct page *)(sg->page_link & ~3UL);
}
static inline bool sg_is_last(struct scatterlist *sg)
{
	return sg->page_link & SG_END;
}
static inline void sg_mark_end(struct scatterlist *sg)
{
	sg->page_link |= SG_END;
}
static inline void sg_set_page(struct scatterlist *sg, struct page *page,
			       unsigned int len, unsigned int offset)
{
	sg->page_link = (unsigned long)page | (sg->page_link & SG_END);
	sg->offset = offset;
	sg->length = len;
}
static inline void sg_set_buf(struct scatterlist *sg, const void *buf,
			      unsigned int buflen)
{
	sg_set_page(sg, virt_to_page(buf), buflen,
		    (unsigned int)((unsigned long)buf & ~PAGE_MASK));
}
static inline void *sg_virt(struct scatterlist *sg)
{
	return (char *)page_address(sg_page(sg)) + sg->offset;
}
static inline void sg_init_table(struct scatterlist *sgl, unsigned int nents)
{
	memset(sgl, 0, sizeof(*sgl) * nents);
	sg_mark_end(&sgl[nents - 1]);
}
static inline struct scatterlist *sg_next(struct scatterlist *sg)
{
	return sg_is_last(sg) ? NULL : sg + 1;
}
#define sg_dma_address(sg) ((sg)->dma_address)
#define sg_dma_len(sg) ((sg)->dma_length)
#define for_each_sg(sglist, sg, nr, i)                                         \
	for ((i) = 0, (sg) = (sglist); (i) < (nr); (i)++, (sg) = sg_next(sg))

#endif /* _LINUX_SCATTERLIST_H */
