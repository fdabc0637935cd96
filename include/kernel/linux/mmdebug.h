/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_MMDEBUG_H
#define _LINUX_MMDEBUG_H

/*
 * CONFIG_DEBUG_VM is off: the VM_* assertions compile to nothing, not even
 * a type check (their arguments may name structures private to mm/).
 */

#include <linux/bug.h>

#define VM_BUG_ON(cond) ((void)0)
#define VM_BUG_ON_PAGE(cond, page) ((void)0)
#define VM_BUG_ON_FOLIO(cond, folio) ((void)0)
#define VM_BUG_ON_VMA(cond, vma) ((void)0)
#define VM_BUG_ON_MM(cond, mm) ((void)0)
#define VM_WARN_ON(cond) ((void)0)
#define VM_WARN_ON_ONCE(cond) ((void)0)
#define VM_WARN_ON_ONCE_PAGE(cond, page) ((void)0)
#define VM_WARN_ONCE(cond, format...) ((void)0)
#define VM_WARN(cond, format...) ((void)0)

#endif /* _LINUX_MMDEBUG_H */
