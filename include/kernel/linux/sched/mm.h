/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SCHED_MM_H
#define _LINUX_SCHED_MM_H
#include <linux/gfp_types.h>
#include <linux/sched.h>
/** might_alloc() - as an allocation with @gfp would: might_sleep() if it may
 * block. */
#define might_alloc(gfp) might_sleep_if(gfpflags_allow_blocking(gfp))
#define memalloc_noio_save() 0U
#define memalloc_noio_restore(flags) ((void)(flags))
#define memalloc_nofs_save() 0U
#define memalloc_nofs_restore(flags) ((void)(flags))
#define memalloc_noreclaim_save() 0U
#define memalloc_noreclaim_restore(flags) ((void)(flags))
#endif
