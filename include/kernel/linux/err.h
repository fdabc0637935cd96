/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_ERR_H
#define _LINUX_ERR_H

/*
 * An error number carried in a pointer: the top page of the address
 * space, -MAX_ERRNO..-1, is never a valid object.
 */

#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/types.h>

#define MAX_ERRNO 4095
#define IS_ERR_VALUE(x)                                                        \
	unlikely((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)

/** ERR_PTR() - @error (negative errno) as a pointer.  Any context. */
static inline void *__must_check ERR_PTR(long error)
{
	return (void *)error;
}

/** PTR_ERR() - the errno in @ptr.  Any context. */
static inline long __must_check PTR_ERR(const void *ptr)
{
	return (long)ptr;
}

/** IS_ERR() - does @ptr carry an errno?  Any context. */
static inline bool __must_check IS_ERR(const void *ptr)
{
	return IS_ERR_VALUE((unsigned long)ptr);
}

/** IS_ERR_OR_NULL() - IS_ERR() or NULL.  Any context. */
static inline bool __must_check IS_ERR_OR_NULL(const void *ptr)
{
	return unlikely(!ptr) || IS_ERR_VALUE((unsigned long)ptr);
}

/** ERR_CAST() - an error pointer as another pointer type. */
static inline void *__must_check ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

/** PTR_ERR_OR_ZERO() - the errno in @ptr, or 0 for a valid pointer. */
static inline int __must_check PTR_ERR_OR_ZERO(const void *ptr)
{
	return IS_ERR(ptr) ? (int)PTR_ERR(ptr) : 0;
}

#endif /* _LINUX_ERR_H */
