/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KMEMLEAK_H
#define _LINUX_KMEMLEAK_H
/* No kmemleak (LeakSanitizer does the job under ASan). */
#define kmemleak_update_trace(p) ((void)(p))
#define kmemleak_not_leak(p) ((void)(p))
#define kmemleak_ignore(p) ((void)(p))
#define kmemleak_alloc(p, size, min, gfp) ((void)(p))
#define kmemleak_free(p) ((void)(p))
#endif
