/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_UACCESS_H
#define _LINUX_UACCESS_H
#include <linux/kernel.h>
#include <preempt/uaccess.h>

/**
 * copy_from_kernel_nofault() - copy_from_user_nofault(): kernel and user
 * memory are one address space here, and a fault is caught the same way.
 * Any context.  0, or -EFAULT.
 */
static inline long copy_from_kernel_nofault(void *dst, const void *src,
					    size_t size)
{
	return copy_from_user_nofault(dst, (const void __user *)src, size);
}
#endif
