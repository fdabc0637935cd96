/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_XARRAY_H
#define _LINUX_XARRAY_H

/*
 * A basic xarray: a sparse array of pointers indexed by unsigned long,
 * kept as a sorted array of (index, entry) pairs.  The kernel's API for
 * storing, loading, erasing, allocating IDs and iterating, with its
 * locking rules: the xa_* functions take xa_lock themselves (xa_load
 * takes it briefly: callable in any context but NMI, a spin lock, so not
 * from hardirq context under PREEMPT_RT); the __xa_* ones expect the
 * caller to hold it.  Storing with a blocking @gfp may sleep to allocate,
 * dropping and retaking the lock as the kernel's does.  Value entries
 * (xa_mk_value) work; multi-index entries, marks beyond XA_MARK_0..2 and
 * the xas_* advanced API are not here.
 */

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/gfp_types.h>
#include <linux/kernel.h>
#include <linux/spinlock.h>
#include <linux/types.h>

struct pk_xa_slot {
	unsigned long index;
	void *entry;
	unsigned int marks;
};

struct xarray {
	spinlock_t xa_lock;
	gfp_t xa_flags;
	unsigned int pk_nr, pk_cap;
	unsigned int pk_seq; /* odd while slots move (xa_load() retries) */
	struct pk_xa_slot *pk_slots;
	unsigned long pk_next; /* xa_alloc_cyclic()'s next ID */
};

typedef unsigned int xa_mark_t;
#define XA_MARK_0 0U
#define XA_MARK_1 1U
#define XA_MARK_2 2U
#define XA_PRESENT 8U
#define XA_FREE_MARK XA_MARK_0

#define XA_FLAGS_LOCK_IRQ 0x1U
#define XA_FLAGS_LOCK_BH 0x2U
#define XA_FLAGS_TRACK_FREE 0x4U
#define XA_FLAGS_ZERO_BUSY 0x8U
#define XA_FLAGS_ALLOC_WRAPPED 0x10U
#define XA_FLAGS_ACCOUNT 0x20U
#define XA_FLAGS_ALLOC (XA_FLAGS_TRACK_FREE)
#define XA_FLAGS_ALLOC1 (XA_FLAGS_TRACK_FREE | XA_FLAGS_ZERO_BUSY)

#define XARRAY_INIT(name, flags)                                               \
	{                                                                      \
		.xa_lock = __SPIN_LOCK_UNLOCKED(name.xa_lock),                 \
		.xa_flags = (flags),                                           \
	}
#define DEFINE_XARRAY_FLAGS(name, flags)                                       \
	struct xarray name = XARRAY_INIT(name, flags)
#define DEFINE_XARRAY(name) DEFINE_XARRAY_FLAGS(name, 0)
#define DEFINE_XARRAY_ALLOC(name) DEFINE_XARRAY_FLAGS(name, XA_FLAGS_ALLOC)
#define DEFINE_XARRAY_ALLOC1(name) DEFINE_XARRAY_FLAGS(name, XA_FLAGS_ALLOC1)

struct xa_limit {
	u32 max;
	u32 min;
};
#define XA_LIMIT(_min, _max)                                                   \
	(struct xa_limit)                                                      \
	{                                                                      \
		.min = (_min), .max = (_max)                                   \
	}
#define xa_limit_32b XA_LIMIT(0, UINT_MAX)
#define xa_limit_31b XA_LIMIT(0, INT_MAX)
#define xa_limit_16b XA_LIMIT(0, USHRT_MAX)

/* Value entries: odd pointers carrying an integer. */
static inline void *xa_mk_value(unsigned long v)
{
	return (void *)((v << 1) | 1);
}
static inline unsigned long xa_to_value(const void *entry)
{
	return (unsigned long)entry >> 1;
}
static inline bool xa_is_value(const void *entry)
{
	return (unsigned long)entry & 1;
}
/* Errors as entries: -errno encoded in an internal entry. */
static inline void *xa_mk_internal(unsigned long v)
{
	return (void *)((v << 2) | 2);
}
static inline bool xa_is_internal(const void *entry)
{
	return ((unsigned long)entry & 3) == 2;
}
static inline bool xa_is_err(const void *entry)
{
	return unlikely(xa_is_internal(entry) &&
			(unsigned long)entry >=
				(unsigned long)xa_mk_internal(-MAX_ERRNO));
}
static inline int xa_err(void *entry)
{
	return xa_is_err(entry) ? (int)((long)entry >> 2) : 0;
}
#define XA_ERROR(errno) xa_mk_internal((unsigned long)(errno))

void xa_init_flags(struct xarray *xa, gfp_t flags);
static inline void xa_init(struct xarray *xa)
{
	xa_init_flags(xa, 0);
}
static inline bool xa_empty(const struct xarray *xa)
{
	return READ_ONCE(xa->pk_nr) == 0;
}

#define xa_lock(xa) spin_lock(&(xa)->xa_lock)
#define xa_unlock(xa) spin_unlock(&(xa)->xa_lock)
#define xa_lock_bh(xa) spin_lock_bh(&(xa)->xa_lock)
#define xa_unlock_bh(xa) spin_unlock_bh(&(xa)->xa_lock)
#define xa_lock_irq(xa) spin_lock_irq(&(xa)->xa_lock)
#define xa_unlock_irq(xa) spin_unlock_irq(&(xa)->xa_lock)
#define xa_lock_irqsave(xa, flags) spin_lock_irqsave(&(xa)->xa_lock, flags)
#define xa_unlock_irqrestore(xa, flags)                                        \
	spin_unlock_irqrestore(&(xa)->xa_lock, flags)

/** xa_load() - the entry at @index, or NULL. */
void *xa_load(struct xarray *xa, unsigned long index);
/** xa_store() - store @entry at @index (NULL erases); the old entry or xa_err.
 */
void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
void *__xa_store(struct xarray *xa, unsigned long index, void *entry,
		 gfp_t gfp);
/** xa_erase() - remove the entry at @index; the old one. */
void *xa_erase(struct xarray *xa, unsigned long index);
void *__xa_erase(struct xarray *xa, unsigned long index);
/** xa_cmpxchg() - store @entry if the entry is @old; the entry found. */
void *xa_cmpxchg(struct xarray *xa, unsigned long index, void *old, void *entry,
		 gfp_t gfp);
void *__xa_cmpxchg(struct xarray *xa, unsigned long index, void *old,
		   void *entry, gfp_t gfp);
/** xa_insert() - store @entry only if @index is empty: 0, -EBUSY, -ENOMEM. */
int xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
int __xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp);
/**
 * xa_alloc() - store @entry at a free index in @limit, put it in *@id:
 * 0, -EBUSY (full) or -ENOMEM.  The xarray must be XA_FLAGS_ALLOC.
 */
int xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
	     gfp_t gfp);
int __xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
	       gfp_t gfp);
/** xa_alloc_cyclic() - xa_alloc() from *@next on, wrapping; 1 if it wrapped. */
int xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry,
		    struct xa_limit limit, u32 *next, gfp_t gfp);
/** xa_find() - the first entry at or after *@index up to @max. */
void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max,
	      xa_mark_t filter);
/** xa_find_after() - the first entry after *@index up to @max. */
void *xa_find_after(struct xarray *xa, unsigned long *index, unsigned long max,
		    xa_mark_t filter);
void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark);
#define __xa_set_mark xa_set_mark
#define __xa_clear_mark xa_clear_mark
/** xa_destroy() - erase everything and free the array (not the entries). */
void xa_destroy(struct xarray *xa);

#define xa_for_each_range(xa, index, entry, start, last)                       \
	for (index = start, entry = xa_find(xa, &index, last, XA_PRESENT);     \
	     entry; entry = xa_find_after(xa, &index, last, XA_PRESENT))
#define xa_for_each_start(xa, index, entry, start)                             \
	xa_for_each_range(xa, index, entry, start, ULONG_MAX)
#define xa_for_each(xa, index, entry) xa_for_each_start(xa, index, entry, 0)
#define xa_for_each_marked(xa, index, entry, filter)                           \
	for (index = 0, entry = xa_find(xa, &index, ULONG_MAX, filter); entry; \
	     entry = xa_find_after(xa, &index, ULONG_MAX, filter))

#endif /* _LINUX_XARRAY_H */
