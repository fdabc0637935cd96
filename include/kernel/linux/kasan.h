/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KASAN_H
#define _LINUX_KASAN_H
/*
 * KASAN's hooks do nothing: build with the library's ASan configuration
 * (-fsanitize=address) to check kernel code's memory accesses instead.
 */
#include <linux/types.h>
#define kasan_slab_free_mempool(ptr) ((void)(ptr))
#define kasan_poison_pages(p, order, init) ((void)(p))
#define kasan_unpoison_pages(p, order, init) ((void)(p))
#define kasan_unpoison_range(p, size) ((void)(p))
#define kasan_mempool_poison_object(p) ((void)(p), true)
#define kasan_mempool_unpoison_object(p, size) ((void)(p))
#define kasan_mempool_poison_pages(p, order) ((void)(p), true)
#define kasan_mempool_unpoison_pages(p, order) ((void)(p))
#define kasan_check_read(p, size) ((void)(p), true)
#define kasan_check_write(p, size) ((void)(p), true)
#define __ksize(p) ksize(p)
#define kasan_record_aux_stack(p) ((void)(p))
#define kasan_record_aux_stack_noalloc(p) ((void)(p))
#endif
