/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_VMALLOC_H
#define _LINUX_VMALLOC_H

/*
 * Virtually contiguous memory, page-aligned and of any size, mapped from
 * the host (mmap) rather than taken from the machine's page pool.  Task
 * context (may sleep: might_sleep()); vfree() any context but NMI.
 */

#include <linux/gfp_types.h>
#include <linux/types.h>

void *vmalloc(unsigned long size) __malloc;
void *vzalloc(unsigned long size) __malloc;
void *__vmalloc(unsigned long size, gfp_t gfp) __malloc;
void *vmalloc_array(size_t n, size_t size) __malloc;
void *vcalloc(size_t n, size_t size) __malloc;
void vfree(const void *addr);
/** is_vmalloc_addr() - did @addr come from vmalloc()?  Any context. */
bool is_vmalloc_addr(const void *addr);
#define vmalloc_node(size, node) vmalloc(size)
#define vzalloc_node(size, node) vzalloc(size)
#define vmalloc_user(size) vzalloc(size)
#define vmalloc_32(size) vmalloc(size)
#define vfree_atomic(addr) vfree(addr)

#endif /* _LINUX_VMALLOC_H */
