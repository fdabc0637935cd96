/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LINKAGE_H
#define _LINUX_LINKAGE_H

/*
 * Linkage markers, and EXPORT_SYMBOL() with them: kernel files reach
 * <linux/export.h> through this header (spinlock.h and kernel.h include
 * it), so lib/refcount.c's exports compile as in the kernel.
 */

#include <linux/compiler_types.h>
#include <linux/export.h>

#ifndef asmlinkage
#define asmlinkage
#endif
#ifndef __visible
#define __visible __attribute__((__externally_visible__))
#endif

#endif /* _LINUX_LINKAGE_H */
