/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MM_H
#define _LINUX_MM_H

#include <linux/gfp.h>
#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/mm_types.h>
#include <linux/mmdebug.h>
#include <linux/sched/mm.h>
#include <linux/overflow.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/uaccess.h>
#include <preempt/highmem.h>
#include <preempt/mm.h>

#define PAGE_ALIGN(addr) ALIGN(addr, PAGE_SIZE)
#define PAGE_ALIGNED(addr) IS_ALIGNED((unsigned long)(addr), PAGE_SIZE)
#define offset_in_page(p) ((unsigned long)(p) & ~PAGE_MASK)
#define lowmem_page_address(page) page_address(page)
#define virt_to_head_page(addr) virt_to_page(addr)
#define totalram_pages() (PK_MM_DEFAULT_LOWMEM >> PAGE_SHIFT)

#ifndef page_to_phys
#define page_to_phys(page) ((phys_addr_t)page_to_pfn(page) << PAGE_SHIFT)
#endif

/**
 * memory_read_from_buffer() - a read() from a buffer of @available bytes:
 * up to @count bytes from offset *@ppos into @to, *@ppos advanced; the
 * bytes copied, 0 at the end, -EINVAL for a negative offset.  Any context.
 */
ssize_t memory_read_from_buffer(void *to, size_t count, loff_t *ppos,
				const void *from, size_t available);

#endif /* _LINUX_MM_H */
