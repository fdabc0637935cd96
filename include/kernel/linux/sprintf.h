/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SPRINTF_H
#define _LINUX_SPRINTF_H

/*
 * The kernel's string formatting: the C conversions plus the %p
 * extensions of Documentation/core-api/printk-formats.rst (%pS, %ps, %pB,
 * %pe, %ph, %pM, %pI4, %pI6, %pU, %pa, %pV, ...), src/kernel/vsprintf.c.
 * Any context: no allocation, no lock (kasprintf() allocates with @gfp).
 * In interrupt context a symbol (%pS) prints as its bare address.
 *
 * snprintf() and friends carry asm labels: in kernel code they are the
 * kernel's, also in a file that includes the C library's <stdio.h>, and
 * the C library's remain what everything else calls.
 */

#include <stdarg.h>
#include <stddef.h>
#include <linux/compiler_types.h>
#include <linux/gfp_types.h>
#include <linux/types.h>

/*
 * The kernel's names for the C library's functions; src/kernel/vsprintf.c
 * defines them under the labels and calls the C library's.
 */
#ifndef PK_KERNEL_SPRINTF_IMPL
__printf(3, 4) int snprintf(char *buf, size_t size, const char *fmt,
			    ...) __asm__("pk_kernel_snprintf");
__printf(3, 0) int vsnprintf(char *buf, size_t size, const char *fmt,
			     va_list args) __asm__("pk_kernel_vsnprintf");
__printf(2, 3) int sprintf(char *buf, const char *fmt,
			   ...) __asm__("pk_kernel_sprintf");
__printf(2, 0) int vsprintf(char *buf, const char *fmt,
			    va_list args) __asm__("pk_kernel_vsprintf");
#else
__printf(3, 4) int pk_kernel_snprintf(char *buf, size_t size, const char *fmt,
				      ...);
__printf(3, 0) int pk_kernel_vsnprintf(char *buf, size_t size, const char *fmt,
				       va_list args);
__printf(2, 3) int pk_kernel_sprintf(char *buf, const char *fmt, ...);
__printf(2, 0) int pk_kernel_vsprintf(char *buf, const char *fmt, va_list args);
#endif

/** scnprintf() - snprintf() returning what was written, not what would be. */
__printf(3, 4) int scnprintf(char *buf, size_t size, const char *fmt, ...);
__printf(3, 0) int vscnprintf(char *buf, size_t size, const char *fmt,
			      va_list args);
/** kasprintf() - a formatted string in memory from kmalloc(@gfp), or NULL. */
__printf(2, 3) __malloc char *kasprintf(gfp_t gfp, const char *fmt, ...);
__printf(2, 0) __malloc
	char *kvasprintf(gfp_t gfp, const char *fmt, va_list args);

/*
 * pk_kernel_vsnprintf_markers() - vsnprintf() for printk()'s line: in
 * interrupt context a symbol becomes a marker the deferred console
 * expands (src/debug/report.c) instead of a bare address.
 */
int pk_kernel_vsnprintf_markers(char *buf, size_t size, bool markers,
				const char *fmt, va_list args);

#endif /* _LINUX_SPRINTF_H */
