/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_GFP_TYPES_H
#define _LINUX_GFP_TYPES_H
#include <preempt/gfp.h>
#ifndef __GFP_ACCOUNT
#define __GFP_ACCOUNT 0U /* no memory cgroups: accepted, ignored */
#endif
#ifndef __GFP_NOMEMALLOC
#define __GFP_NOMEMALLOC 0U
#endif
#ifndef __GFP_MEMALLOC
#define __GFP_MEMALLOC 0U
#endif
#ifndef __GFP_MOVABLE
#define __GFP_MOVABLE 0U
#endif
#ifndef __GFP_DMA
#define __GFP_DMA 0U
#endif
#ifndef __GFP_DMA32
#define __GFP_DMA32 0U
#endif
#ifndef __GFP_NOLOCKDEP
#define __GFP_NOLOCKDEP 0U
#endif
#define GFP_KERNEL_ACCOUNT GFP_KERNEL
#define GFP_DMA __GFP_DMA
#define GFP_DMA32 __GFP_DMA32
#ifndef GFP_HIGHUSER_MOVABLE
#define GFP_HIGHUSER_MOVABLE GFP_HIGHUSER
#endif
#endif /* _LINUX_GFP_TYPES_H */
