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

#endif /* _LINUX_MM_H */
