/* SPDX-License-Identifier: MIT */
#ifndef _ASM_PAGE_H
#define _ASM_PAGE_H

/* PAGE_SIZE and PAGE_SHIFT: the library's 4 KiB pages (<preempt/mm.h>). */

#include <preempt/mm.h>

#ifndef PAGE_MASK
#define PAGE_MASK (~(PAGE_SIZE - 1))
#endif

#endif /* _ASM_PAGE_H */
