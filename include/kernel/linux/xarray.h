/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_XARRAY_H
#define _LINUX_XARRAY_H

/*
 * A basic xarray: a sparse array of pointers indexed by unsigned long,
 * kept as a sorted array of (index, entry) pairs.  The kernel's API for
 * storing, loading, erasing, allocating IDs and iterating, with its
 * locking rules: the xa_* functions take xa_lock themselves (but
 * xa_load, which reads under RCU alone: any context but NMI); the __xa_*
 * ones expect the caller to hold it.  Storing with a blocking @gfp may
 * sleep to allocate, dropping and retaking the lock as the kernel's
 * does.  Value entries (xa_mk_value) work; multi-index entries and marks
 * beyond XA_MARK_0..2 are not here.  The advanced API (xa_state, xas_*)
 * is, for single-index states: XA_STATE_ORDER() and xas_set_order()
 * refuse an order above 0.
 */

#include <linux/bug.h>
#include <linux/err.h>
#include <linux/gfp_types.h>
#include <linux/kernel.h>
#include <linux/rcupdate.h>
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

/*
 * Internal entries the advanced API may return: a reserved index reads
 * as XA_ZERO_ENTRY (NULL through the normal API).  Retry entries are
 * never returned here (a lockless reader retries inside), but defined so
 * that kernel code testing for them compiles.
 */
#define XA_ZERO_ENTRY xa_mk_internal(257)
#define XA_RETRY_ENTRY xa_mk_internal(256)
static inline bool xa_is_zero(const void *entry)
{
	return unlikely(entry == XA_ZERO_ENTRY);
}
static inline bool xa_is_retry(const void *entry)
{
	return unlikely(entry == XA_RETRY_ENTRY);
}
static inline bool xa_is_sibling(const void *entry)
{
	(void)entry;
	return false; /* no multi-index entries */
}
static inline bool xa_is_advanced(const void *entry)
{
	return xa_is_internal(entry) && entry <= XA_RETRY_ENTRY;
}

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
#define xa_trylock(xa) spin_trylock(&(xa)->xa_lock)
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
/**
 * xa_reserve() - reserve @index (it reads as NULL, but xa_insert() and
 * xa_alloc() see it busy) unless something is there: 0 or -ENOMEM.
 * Process context as @gfp allows (the lock may be dropped to allocate).
 */
int xa_reserve(struct xarray *xa, unsigned long index, gfp_t gfp);
#define xa_reserve_bh xa_reserve
#define xa_reserve_irq xa_reserve
/** xa_release() - drop @index's reservation, if nothing was stored there. */
void xa_release(struct xarray *xa, unsigned long index);
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

/* ---- the advanced API ---- */

struct xa_node; /* no nodes: the xarray is one sorted array */
struct list_lru;
typedef void (*xa_update_node_t)(struct xa_node *node);

/*
 * The cursor of the advanced API.  @xa_node says where it stands: NULL
 * once walked to @xa_index (loaded, found or stored), XAS_RESTART before
 * (set, reset, paused: the next call starts at @xa_index), XAS_BOUNDS
 * after a search found nothing, or an XA_ERROR().  @xa_alloc holds the
 * larger slot array xas_nomem() allocated for the next xas_store().
 */
struct xa_state {
	struct xarray *xa;
	unsigned long xa_index;
	unsigned char xa_shift;
	unsigned char xa_sibs;
	unsigned char xa_offset;
	unsigned char xa_pad;
	struct xa_node *xa_node;
	struct xa_node *xa_alloc;
	xa_update_node_t xa_update;
	struct list_lru *xa_lru;
	unsigned int pk_want; /* the capacity a failed store needed */
};

#define XAS_BOUNDS ((struct xa_node *)xa_mk_internal(1))
#define XAS_RESTART ((struct xa_node *)xa_mk_internal(3))

#define __XA_STATE(array, index, shift, sibs)                                  \
	{                                                                      \
		.xa = (array), .xa_index = (index), .xa_shift = (shift),       \
		.xa_sibs = (sibs), .xa_node = XAS_RESTART,                     \
	}
/** XA_STATE() - declare a cursor @name on @array at @index.  Any context. */
#define XA_STATE(name, array, index)                                           \
	struct xa_state name = __XA_STATE(array, index, 0, 0)

struct xa_state pk_xa_state_order(struct xarray *xa, unsigned long index,
				  unsigned int order);
/**
 * XA_STATE_ORDER() - XA_STATE() for a multi-index entry of 2^@order
 * indices.  Only order 0 is supported: any other starts the state in
 * error (-EINVAL) with a warning.  Any context.
 */
#define XA_STATE_ORDER(name, array, index, order)                              \
	struct xa_state name = pk_xa_state_order(array, index, order)

/* The xa_lock of the state's array, as xa_lock() and its variants. */
#define xas_trylock(xas) xa_trylock((xas)->xa)
#define xas_lock(xas) xa_lock((xas)->xa)
#define xas_unlock(xas) xa_unlock((xas)->xa)
#define xas_lock_bh(xas) xa_lock_bh((xas)->xa)
#define xas_unlock_bh(xas) xa_unlock_bh((xas)->xa)
#define xas_lock_irq(xas) xa_lock_irq((xas)->xa)
#define xas_unlock_irq(xas) xa_unlock_irq((xas)->xa)
#define xas_lock_irqsave(xas, flags) xa_lock_irqsave((xas)->xa, flags)
#define xas_unlock_irqrestore(xas, flags) xa_unlock_irqrestore((xas)->xa, flags)

/** xas_error() - the state's error, or 0.  Any context. */
static inline int xas_error(const struct xa_state *xas)
{
	return xa_err(xas->xa_node);
}
/** xas_set_err() - put the state in error @err (negative).  Any context. */
static inline void xas_set_err(struct xa_state *xas, long err)
{
	xas->xa_node = XA_ERROR(err);
}
/** xas_invalid() - in error, or not walked?  Any context. */
static inline bool xas_invalid(const struct xa_state *xas)
{
	return (unsigned long)xas->xa_node & 3;
}
/** xas_valid() - walked to an index and not in error?  Any context. */
static inline bool xas_valid(const struct xa_state *xas)
{
	return !xas_invalid(xas);
}
/** xas_is_node() - at a node?  Never: the xarray has none. */
static inline bool xas_is_node(const struct xa_state *xas)
{
	(void)xas;
	return false;
}
/** xas_reset() - forget the walk and any error; keep the index.  Any context.
 */
static inline void xas_reset(struct xa_state *xas)
{
	xas->xa_node = XAS_RESTART;
}
/** xas_set() - move the cursor to @index, clearing any error.  Any context. */
static inline void xas_set(struct xa_state *xas, unsigned long index)
{
	xas->xa_index = index;
	xas->xa_node = XAS_RESTART;
}
void xas_set_order(struct xa_state *xas, unsigned long index,
		   unsigned int order);
/** xas_set_update() - a node callback: never called, there are no nodes. */
static inline void xas_set_update(struct xa_state *xas, xa_update_node_t u)
{
	xas->xa_update = u;
}
/** xas_set_lru() - the list_lru for new nodes: kept, unused.  Any context. */
static inline void xas_set_lru(struct xa_state *xas, struct list_lru *lru)
{
	xas->xa_lru = lru;
}
/**
 * xas_retry() - should the walk skip @entry?  True for XA_ZERO_ENTRY (a
 * reserved index) and a retry entry (which also resets the state).
 */
static inline bool xas_retry(struct xa_state *xas, const void *entry)
{
	if (xa_is_zero(entry))
		return true;
	if (!xa_is_retry(entry))
		return false;
	xas_reset(xas);
	return true;
}

/*
 * The reads (xas_load, xas_find*, xas_next, xas_prev, xas_get_mark) need
 * rcu_read_lock() or the xa_lock; the writes (xas_store, the mark
 * setters, xas_create_range) need the xa_lock.  Entries and marks they
 * see are the array's at one instant each call.
 */
void *xas_load(struct xa_state *xas);
void *xas_store(struct xa_state *xas, void *entry);
void *xas_find(struct xa_state *xas, unsigned long max);
void *xas_find_marked(struct xa_state *xas, unsigned long max, xa_mark_t mark);
void *xas_next(struct xa_state *xas);
void *xas_prev(struct xa_state *xas);
void xas_pause(struct xa_state *xas);
bool xas_get_mark(const struct xa_state *xas, xa_mark_t mark);
void xas_set_mark(const struct xa_state *xas, xa_mark_t mark);
void xas_clear_mark(const struct xa_state *xas, xa_mark_t mark);
void xas_init_marks(const struct xa_state *xas);
void xas_create_range(struct xa_state *xas);
bool xas_nomem(struct xa_state *xas, gfp_t gfp);
bool __xas_nomem(struct xa_state *xas, gfp_t gfp);
void xas_destroy(struct xa_state *xas);

/** xas_reload() - xas_load() again (no shortcut here). */
static inline void *xas_reload(struct xa_state *xas)
{
	return xas_load(xas);
}
/** xas_get_order() - the order of the entry: always 0. */
static inline unsigned int xas_get_order(struct xa_state *xas)
{
	(void)xas;
	return 0;
}
/** xas_next_entry() - xas_find() (the kernel's inline fast path). */
static inline void *xas_next_entry(struct xa_state *xas, unsigned long max)
{
	return xas_find(xas, max);
}
/** xas_next_marked() - xas_find_marked(). */
static inline void *xas_next_marked(struct xa_state *xas, unsigned long max,
				    xa_mark_t mark)
{
	return xas_find_marked(xas, max, mark);
}

/** xas_for_each() - each present entry from the cursor up to @max. */
#define xas_for_each(xas, entry, max)                                          \
	for (entry = xas_find(xas, max); entry;                                \
	     entry = xas_next_entry(xas, max))
/** xas_for_each_marked() - each entry with @mark from the cursor to @max. */
#define xas_for_each_marked(xas, entry, max, mark)                             \
	for (entry = xas_find_marked(xas, max, mark); entry;                   \
	     entry = xas_next_marked(xas, max, mark))

#endif /* _LINUX_XARRAY_H */
