// SPDX-License-Identifier: MIT
/*
 * A basic xarray (linux/xarray.h) as a sorted array of (index, entry)
 * slots, binary-searched; and the IDR and IDA over it.  Modifications
 * happen under xa_lock; the slot array is grown before the lock is taken
 * again when the caller's gfp may block, as the kernel's xarray drops its
 * lock to allocate.
 *
 * xa_load() (so idr_find()) takes no lock, as the kernel's reads under
 * RCU alone: callers may hold raw locks, with interrupts off, under
 * PREEMPT_RT too (kernel/workqueue.c's __queue_work()).  Slots move
 * inside a sequence count's odd phase, with interrupts off so that a
 * reader never waits on a writer it interrupted; a grown array's old copy
 * is freed after a grace period; the reader retries on a changed count.
 */

#include <linux/atomic.h>
#include <linux/idr.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/xarray.h>

/* A slot array with its capacity, which a lockless reader bounds by. */
struct xa_array {
	struct rcu_head rcu;
	unsigned int cap;
	struct pk_xa_slot slots[];
};

static struct xa_array *array_of(struct pk_xa_slot *slots)
{
	return (struct xa_array *)((char *)slots -
				   offsetof(struct xa_array, slots));
}

static void free_array_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct xa_array, rcu));
}

/* Slots about to move: xa_lock held. */
static unsigned long move_begin(struct xarray *xa)
{
	unsigned long flags;

	local_irq_save(flags);
	WRITE_ONCE(xa->pk_seq, xa->pk_seq + 1);
	smp_wmb();
	return flags;
}

static void move_end(struct xarray *xa, unsigned long flags)
{
	smp_wmb();
	WRITE_ONCE(xa->pk_seq, xa->pk_seq + 1);
	local_irq_restore(flags);
}

static void xa_lock_type(struct xarray *xa, unsigned long *flags)
{
	spin_lock_irqsave(&xa->xa_lock, *flags);
}

static void xa_unlock_type(struct xarray *xa, unsigned long flags)
{
	spin_unlock_irqrestore(&xa->xa_lock, flags);
}

void xa_init_flags(struct xarray *xa, gfp_t flags)
{
	spin_lock_init(&xa->xa_lock);
	xa->xa_flags = flags;
	xa->pk_nr = xa->pk_cap = 0;
	xa->pk_seq = 0;
	xa->pk_slots = NULL;
	xa->pk_next = 0;
}

/*
 * The first of @nr @slots with index >= @index.  Also read without the
 * lock (xa_load()): the reads are single loads, and the caller retries.
 */
static unsigned int slots_pos(const struct pk_xa_slot *slots, unsigned int nr,
			      unsigned long index)
{
	unsigned int lo = 0, hi = nr;

	while (lo < hi) {
		unsigned int mid = lo + (hi - lo) / 2;

		if (READ_ONCE(slots[mid].index) < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static unsigned int xa_pos(const struct xarray *xa, unsigned long index)
{
	return slots_pos(xa->pk_slots, xa->pk_nr, index);
}

static struct pk_xa_slot *xa_slot(const struct xarray *xa, unsigned long index)
{
	unsigned int i = xa_pos(xa, index);

	return i < xa->pk_nr && xa->pk_slots[i].index == index
		       ? &xa->pk_slots[i]
		       : NULL;
}

/* Move the slots into @n, larger: xa_lock held. */
static void xa_adopt(struct xarray *xa, struct xa_array *n)
{
	struct pk_xa_slot *old = xa->pk_slots;

	if (xa->pk_nr)
		memcpy(n->slots, old, xa->pk_nr * sizeof(n->slots[0]));
	/* The same slots in a larger array: readers may use either.  The
	 * old one is freed a grace period after the new one is published,
	 * so no reader that could still find it is left. */
	smp_store_release(&xa->pk_slots, n->slots);
	xa->pk_cap = n->cap;
	if (old)
		call_rcu(&array_of(old)->rcu, free_array_rcu);
}

/*
 * Room for one more slot.  Called with the lock held; a blocking @gfp
 * drops it around the allocation (the array may change meanwhile, so the
 * caller looks again).  0 or -ENOMEM.
 */
static int xa_grow(struct xarray *xa, gfp_t gfp)
{
	unsigned int cap;
	struct xa_array *n;

	while (xa->pk_nr == xa->pk_cap) {
		cap = xa->pk_cap ? 2 * xa->pk_cap : 8;
		if (gfpflags_allow_blocking(gfp)) {
			spin_unlock(&xa->xa_lock);
			n = kmalloc(struct_size(n, slots, cap), gfp);
			spin_lock(&xa->xa_lock);
		} else {
			n = kmalloc(struct_size(n, slots, cap), gfp);
		}
		if (!n)
			return -ENOMEM;
		if (xa->pk_cap >= cap) { /* someone grew it meanwhile */
			kfree(n);
			continue;
		}
		n->cap = cap;
		xa_adopt(xa, n);
	}
	return 0;
}

/* @index's entry in @nr slots read without the lock (may be torn). */
static void *lockless_lookup(struct pk_xa_slot *slots, unsigned int nr,
			     unsigned long index)
{
	unsigned int i = slots_pos(slots, nr, index);

	if (i < nr && READ_ONCE(slots[i].index) == index)
		return READ_ONCE(slots[i].entry);
	return NULL;
}

/* A lockless reader's start: the sequence count once no writer is in. */
static unsigned int read_begin(const struct xarray *xa)
{
	unsigned int seq;

	/* Odd: a writer on another CPU, a few moves away from done. */
	while ((seq = smp_load_acquire(&xa->pk_seq)) & 1)
		cpu_relax();
	return seq;
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	struct pk_xa_slot *slots;
	unsigned int seq, nr;
	void *entry;

	rcu_read_lock();
	for (;;) {
		seq = read_begin(xa);
		slots = smp_load_acquire(&xa->pk_slots);
		nr = READ_ONCE(xa->pk_nr);
		entry = slots ? lockless_lookup(slots,
						min(nr, array_of(slots)->cap),
						index)
			      : NULL;
		smp_rmb();
		if (READ_ONCE(xa->pk_seq) == seq)
			break;
	}
	rcu_read_unlock();
	return entry;
}

static void *xa_remove_slot(struct xarray *xa, unsigned long index)
{
	unsigned int i = xa_pos(xa, index);
	unsigned long flags;
	void *old;

	if (i >= xa->pk_nr || xa->pk_slots[i].index != index)
		return NULL;
	old = xa->pk_slots[i].entry;
	flags = move_begin(xa);
	memmove(&xa->pk_slots[i], &xa->pk_slots[i + 1],
		(xa->pk_nr - i - 1) * sizeof(xa->pk_slots[0]));
	xa->pk_nr--;
	move_end(xa, flags);
	return old;
}

void *__xa_erase(struct xarray *xa, unsigned long index)
{
	return xa_remove_slot(xa, index);
}

void *__xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	struct pk_xa_slot *s;
	unsigned long flags;
	unsigned int i;
	void *old;

	if (WARN_ON_ONCE(xa_is_internal(entry)))
		return XA_ERROR(-EINVAL);
	if (!entry)
		return __xa_erase(xa, index);
	s = xa_slot(xa, index);
	if (s) {
		old = s->entry;
		WRITE_ONCE(s->entry, entry);
		return old;
	}
	if (xa_grow(xa, gfp))
		return XA_ERROR(-ENOMEM);
	s = xa_slot(xa, index); /* the lock may have been dropped */
	if (s) {
		old = s->entry;
		WRITE_ONCE(s->entry, entry);
		return old;
	}
	i = xa_pos(xa, index);
	flags = move_begin(xa);
	memmove(&xa->pk_slots[i + 1], &xa->pk_slots[i],
		(xa->pk_nr - i) * sizeof(xa->pk_slots[0]));
	xa->pk_slots[i] = (struct pk_xa_slot){index, entry, 0};
	xa->pk_nr++;
	move_end(xa, flags);
	return NULL;
}

void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	void *old;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	spin_lock(&xa->xa_lock);
	old = __xa_store(xa, index, entry, gfp);
	spin_unlock(&xa->xa_lock);
	return old;
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	unsigned long flags;
	void *old;

	xa_lock_type(xa, &flags);
	old = __xa_erase(xa, index);
	xa_unlock_type(xa, flags);
	return old;
}

void *__xa_cmpxchg(struct xarray *xa, unsigned long index, void *old,
		   void *entry, gfp_t gfp)
{
	struct pk_xa_slot *s = xa_slot(xa, index);
	void *cur = s ? s->entry : NULL;

	if (cur != old)
		return cur;
	cur = __xa_store(xa, index, entry, gfp);
	return xa_is_err(cur) ? cur : old;
}

void *xa_cmpxchg(struct xarray *xa, unsigned long index, void *old, void *entry,
		 gfp_t gfp)
{
	void *cur;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	spin_lock(&xa->xa_lock);
	cur = __xa_cmpxchg(xa, index, old, entry, gfp);
	spin_unlock(&xa->xa_lock);
	return cur;
}

int __xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	void *cur;

	if (xa_slot(xa, index))
		return -EBUSY;
	cur = __xa_store(xa, index, entry ? entry : xa_mk_value(0), gfp);
	if (xa_is_err(cur))
		return xa_err(cur);
	if (!entry) /* a reservation: the index stays busy but empty */
		WRITE_ONCE(xa_slot(xa, index)->entry, NULL);
	return 0;
}

int xa_insert(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	int err;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	spin_lock(&xa->xa_lock);
	err = __xa_insert(xa, index, entry, gfp);
	spin_unlock(&xa->xa_lock);
	return err;
}

int xa_reserve(struct xarray *xa, unsigned long index, gfp_t gfp)
{
	int err;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	spin_lock(&xa->xa_lock);
	err = __xa_insert(xa, index, NULL, gfp);
	spin_unlock(&xa->xa_lock);
	return err == -EBUSY ? 0 : err;
}

void xa_release(struct xarray *xa, unsigned long index)
{
	struct pk_xa_slot *s;
	unsigned long flags;

	xa_lock_type(xa, &flags);
	s = xa_slot(xa, index);
	if (s && !s->entry)
		xa_remove_slot(xa, index);
	xa_unlock_type(xa, flags);
}

/* The lowest index >= @min not in use, if <= @max. */
static bool xa_free_index(struct xarray *xa, unsigned long min,
			  unsigned long max, unsigned long *index)
{
	unsigned long want = min;

	if (min == 0 && (xa->xa_flags & XA_FLAGS_ZERO_BUSY))
		want = 1;
	for (unsigned int i = xa_pos(xa, want); i < xa->pk_nr; i++) {
		if (xa->pk_slots[i].index != want)
			break;
		if (want == ULONG_MAX)
			return false;
		want++;
	}
	if (want > max)
		return false;
	*index = want;
	return true;
}

int __xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
	       gfp_t gfp)
{
	unsigned long index;
	void *cur;

	if (WARN_ON_ONCE(!(xa->xa_flags & XA_FLAGS_TRACK_FREE)))
		return -EINVAL;
	if (xa_grow(xa, gfp))
		return -ENOMEM;
	if (!xa_free_index(xa, limit.min, limit.max, &index))
		return -EBUSY;
	cur = __xa_store(xa, index, entry ? entry : xa_mk_value(0), gfp);
	if (xa_is_err(cur))
		return xa_err(cur);
	if (!entry)
		WRITE_ONCE(xa_slot(xa, index)->entry, NULL);
	*id = (u32)index;
	return 0;
}

int xa_alloc(struct xarray *xa, u32 *id, void *entry, struct xa_limit limit,
	     gfp_t gfp)
{
	int err;

	might_sleep_if(gfpflags_allow_blocking(gfp));
	spin_lock(&xa->xa_lock);
	err = __xa_alloc(xa, id, entry, limit, gfp);
	spin_unlock(&xa->xa_lock);
	return err;
}

int xa_alloc_cyclic(struct xarray *xa, u32 *id, void *entry,
		    struct xa_limit limit, u32 *next, gfp_t gfp)
{
	u32 min = limit.min;
	int err;

	if (*next > limit.min && *next <= limit.max)
		limit.min = *next;
	err = xa_alloc(xa, id, entry, limit, gfp);
	if (err == -EBUSY && limit.min != min) {
		limit.min = min;
		err = xa_alloc(xa, id, entry, limit, gfp);
		if (!err)
			err = 1; /* wrapped */
	}
	if (err >= 0)
		*next = *id + 1;
	return err;
}

static bool slot_matches(const struct pk_xa_slot *s, xa_mark_t filter)
{
	if (!s->entry)
		return false;
	return filter == XA_PRESENT || (s->marks & (1U << filter));
}

void *xa_find(struct xarray *xa, unsigned long *index, unsigned long max,
	      xa_mark_t filter)
{
	unsigned long flags;
	void *entry = NULL;

	xa_lock_type(xa, &flags);
	for (unsigned int i = xa_pos(xa, *index); i < xa->pk_nr; i++) {
		struct pk_xa_slot *s = &xa->pk_slots[i];

		if (s->index > max)
			break;
		if (slot_matches(s, filter)) {
			*index = s->index;
			entry = s->entry;
			break;
		}
	}
	xa_unlock_type(xa, flags);
	return entry;
}

void *xa_find_after(struct xarray *xa, unsigned long *index, unsigned long max,
		    xa_mark_t filter)
{
	unsigned long next = *index + 1;
	void *entry;

	if (*index == ULONG_MAX || next > max)
		return NULL;
	entry = xa_find(xa, &next, max, filter);
	if (entry)
		*index = next;
	return entry;
}

static void xa_mark(struct xarray *xa, unsigned long index, xa_mark_t mark,
		    bool set)
{
	unsigned long flags;
	struct pk_xa_slot *s;

	xa_lock_type(xa, &flags);
	s = xa_slot(xa, index);
	if (s && s->entry) {
		if (set)
			WRITE_ONCE(s->marks, s->marks | 1U << mark);
		else
			WRITE_ONCE(s->marks, s->marks & ~(1U << mark));
	}
	xa_unlock_type(xa, flags);
}

void xa_set_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	xa_mark(xa, index, mark, true);
}

void xa_clear_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	xa_mark(xa, index, mark, false);
}

bool xa_get_mark(struct xarray *xa, unsigned long index, xa_mark_t mark)
{
	unsigned long flags;
	struct pk_xa_slot *s;
	bool set;

	xa_lock_type(xa, &flags);
	s = xa_slot(xa, index);
	set = s && (s->marks & (1U << mark));
	xa_unlock_type(xa, flags);
	return set;
}

void xa_destroy(struct xarray *xa)
{
	unsigned long flags;
	void *slots;

	xa_lock_type(xa, &flags);
	slots = xa->pk_slots;
	xa->pk_slots = NULL;
	xa->pk_nr = xa->pk_cap = 0;
	xa_unlock_type(xa, flags);
	/* A grace period later, as the kernel frees its nodes: an
	 * xa_load() racing the destruction reads freed memory in neither. */
	if (slots)
		call_rcu(&array_of(slots)->rcu, free_array_rcu);
}

/* ---- the advanced API ---- */

/*
 * Test hook: the next @n slot-array allocations xas_store() tries under
 * the lock fail, as GFP_NOWAIT may, so tests reach the xas_nomem() path.
 */
static atomic_t xas_fail_nowait = ATOMIC_INIT(0);

void pk_xas_fail_nowait(unsigned int n)
{
	atomic_set(&xas_fail_nowait, (int)n);
}

struct xa_state pk_xa_state_order(struct xarray *xa, unsigned long index,
				  unsigned int order)
{
	struct xa_state xas = __XA_STATE(xa, index, 0, 0);

	if (WARN_ONCE(order,
		      "XA_STATE_ORDER: multi-index entries (order %u) are not "
		      "supported\n",
		      order))
		xas_set_err(&xas, -EINVAL);
	return xas;
}

/**
 * xas_set_order() - xas_set() for an entry of 2^@order indices; only
 * order 0 is supported (otherwise -EINVAL in the state, with a warning).
 * Any context.
 */
void xas_set_order(struct xa_state *xas, unsigned long index,
		   unsigned int order)
{
	xas_set(xas, index);
	if (WARN_ONCE(order,
		      "xas_set_order: multi-index entries (order %u) are not "
		      "supported\n",
		      order))
		xas_set_err(xas, -EINVAL);
}

static bool slot_accepts(unsigned int marks, xa_mark_t filter)
{
	/* A reserved slot too (XA_ZERO_ENTRY), as the kernel's. */
	return filter == XA_PRESENT || (marks & (1U << filter));
}

/*
 * The first slot with an index in [@from, @to] that @filter accepts, as
 * the array was at one instant: read without the lock, as xa_load(), and
 * retried if slots moved meanwhile.  Its index and entry (XA_ZERO_ENTRY
 * for a reserved one) go to *@index, *@entry.
 */
static bool xa_seek(struct xarray *xa, unsigned long from, unsigned long to,
		    xa_mark_t filter, unsigned long *index, void **entry)
{
	struct pk_xa_slot *slots;
	unsigned int seq, nr;
	unsigned long at = 0;
	void *e = NULL;
	bool found;

	rcu_read_lock();
	for (;;) {
		seq = read_begin(xa);
		slots = smp_load_acquire(&xa->pk_slots);
		nr = slots ? min(READ_ONCE(xa->pk_nr), array_of(slots)->cap)
			   : 0;
		found = false;
		for (unsigned int i = slots_pos(slots, nr, from); i < nr; i++) {
			at = READ_ONCE(slots[i].index);
			if (at > to)
				break;
			e = READ_ONCE(slots[i].entry);
			if (slot_accepts(READ_ONCE(slots[i].marks), filter)) {
				found = true;
				break;
			}
		}
		smp_rmb();
		if (READ_ONCE(xa->pk_seq) == seq)
			break;
	}
	rcu_read_unlock();
	if (found) {
		*index = at;
		*entry = e ? e : XA_ZERO_ENTRY;
	}
	return found;
}

static void xas_assert_readable(const struct xa_state *xas)
{
	RCU_LOCKDEP_WARN(!rcu_read_lock_held() &&
				 !lockdep_is_held(&xas->xa->xa_lock),
			 "xas read outside rcu_read_lock() and xa_lock");
}

/**
 * xas_load() - the entry at the cursor's index (NULL if none, XA_ZERO_ENTRY
 * if reserved); walks the state there.  NULL in error.  Under
 * rcu_read_lock() or the xa_lock.
 */
void *xas_load(struct xa_state *xas)
{
	unsigned long at;
	void *entry;

	if (xas_error(xas))
		return NULL;
	xas_assert_readable(xas);
	xas->xa_node = NULL;
	if (!xa_seek(xas->xa, xas->xa_index, xas->xa_index, XA_PRESENT, &at,
		     &entry))
		return NULL;
	return entry;
}

/* Nothing left in the range: the bounds state, index unchanged. */
static void *xas_bounds(struct xa_state *xas)
{
	xas->xa_node = XAS_BOUNDS;
	return NULL;
}

static void *xas_search(struct xa_state *xas, unsigned long max,
			xa_mark_t filter)
{
	unsigned long from = xas->xa_index;
	void *entry;

	if (xas_error(xas) || xas->xa_node == XAS_BOUNDS)
		return NULL;
	xas_assert_readable(xas);
	if (from > max)
		return xas_bounds(xas);
	if (!xas->xa_node) { /* walked: that entry has been seen */
		if (from == max)
			return xas_bounds(xas);
		from++;
	}
	if (!xa_seek(xas->xa, from, max, filter, &xas->xa_index, &entry))
		return xas_bounds(xas);
	xas->xa_node = NULL;
	return entry;
}

/**
 * xas_find() - the next present entry up to @max: at the cursor's index
 * or after if the state is not walked, after it if it is.  Reserved
 * indices come back as XA_ZERO_ENTRY (xas_retry() skips them).  NULL and
 * the bounds state when there is none.  Under rcu_read_lock() or the
 * xa_lock.
 */
void *xas_find(struct xa_state *xas, unsigned long max)
{
	return xas_search(xas, max, XA_PRESENT);
}

/**
 * xas_find_marked() - xas_find() for entries with @mark set.  Under
 * rcu_read_lock() or the xa_lock.
 */
void *xas_find_marked(struct xa_state *xas, unsigned long max, xa_mark_t mark)
{
	return xas_search(xas, max, mark);
}

/**
 * xas_next() - move to the next index (wrapping from ULONG_MAX to 0) and
 * return its entry, which may be NULL; a state not yet walked loads its
 * own index instead.  NULL in error.  Under rcu_read_lock() or the
 * xa_lock.
 */
void *xas_next(struct xa_state *xas)
{
	if (xas_error(xas))
		return NULL;
	if (!xas->xa_node)
		xas->xa_index++;
	return xas_load(xas);
}

/** xas_prev() - xas_next() backwards (wrapping from 0 to ULONG_MAX). */
void *xas_prev(struct xa_state *xas)
{
	if (xas_error(xas))
		return NULL;
	if (!xas->xa_node)
		xas->xa_index--;
	return xas_load(xas);
}

/**
 * xas_pause() - before dropping the lock (or leaving the RCU reader) in a
 * forward walk: the next xas_find() starts after the entry just seen,
 * looking at the array as it is then.  Any context.
 */
void xas_pause(struct xa_state *xas)
{
	if (xas_invalid(xas))
		return;
	xas->xa_node = XAS_RESTART;
	if (++xas->xa_index == 0)
		xas->xa_node = XAS_BOUNDS;
}

/* The slot of the cursor's index: xa_lock held. */
static struct pk_xa_slot *xas_slot(const struct xa_state *xas)
{
	lockdep_assert_held(&xas->xa->xa_lock);
	return xa_slot(xas->xa, xas->xa_index);
}

/*
 * Room for one more slot, without sleeping: the array xas_nomem() left
 * in the state, or GFP_NOWAIT.  Else -ENOMEM in the state, with the
 * capacity wanted for xas_nomem().  xa_lock held.
 */
static int xas_room(struct xa_state *xas)
{
	struct xarray *xa = xas->xa;
	struct xa_array *n = (struct xa_array *)xas->xa_alloc;
	unsigned int cap = xa->pk_cap ? 2 * xa->pk_cap : 8;

	if (xa->pk_nr < xa->pk_cap)
		return 0;
	if (n && n->cap > xa->pk_cap) {
		xas->xa_alloc = NULL;
	} else if (atomic_add_unless(&xas_fail_nowait, -1, 0)) {
		n = NULL;
	} else {
		n = kmalloc(struct_size(n, slots, cap),
			    GFP_NOWAIT | __GFP_NOWARN);
		if (n)
			n->cap = cap;
	}
	if (!n) {
		xas->pk_want = cap;
		xas_set_err(xas, -ENOMEM);
		return -ENOMEM;
	}
	xa_adopt(xa, n);
	return 0;
}

/**
 * xas_store() - store @entry at the cursor's index and return the entry
 * that was there (XA_ZERO_ENTRY for a reserved index).  NULL erases (and
 * so clears the marks); XA_ZERO_ENTRY reserves; another entry keeps the
 * marks.  If the array must grow and cannot without sleeping, nothing is
 * stored and the state holds -ENOMEM for xas_nomem().  With the xa_lock.
 */
void *xas_store(struct xa_state *xas, void *entry)
{
	struct xarray *xa = xas->xa;
	struct pk_xa_slot *s;
	unsigned long flags;
	unsigned int i;
	void *old;

	if (xas_error(xas))
		return NULL;
	if (WARN_ON_ONCE(xa_is_internal(entry) && !xa_is_zero(entry))) {
		xas_set_err(xas, -EINVAL);
		return NULL;
	}
	s = xas_slot(xas);
	if (s) {
		old = s->entry ? s->entry : XA_ZERO_ENTRY;
		if (!entry)
			xa_remove_slot(xa, xas->xa_index);
		else
			WRITE_ONCE(s->entry, xa_is_zero(entry) ? NULL : entry);
		xas->xa_node = NULL;
		return old;
	}
	xas->xa_node = NULL;
	if (!entry || xas_room(xas))
		return NULL;
	i = xa_pos(xa, xas->xa_index);
	flags = move_begin(xa);
	memmove(&xa->pk_slots[i + 1], &xa->pk_slots[i],
		(xa->pk_nr - i) * sizeof(xa->pk_slots[0]));
	xa->pk_slots[i] = (struct pk_xa_slot){
		xas->xa_index, xa_is_zero(entry) ? NULL : entry, 0};
	xa->pk_nr++;
	move_end(xa, flags);
	return NULL;
}

/**
 * xas_create_range() - make sure the next xas_store() at the cursor needs
 * no memory: -ENOMEM in the state if that needs xas_nomem().  With the
 * xa_lock.
 */
void xas_create_range(struct xa_state *xas)
{
	if (xas_error(xas))
		return;
	if (!xas_slot(xas))
		xas_room(xas);
}

/**
 * xas_get_mark() - is @mark set on the entry at the cursor?  False if the
 * state is not walked or in error.  Under rcu_read_lock() or the xa_lock.
 */
bool xas_get_mark(const struct xa_state *xas, xa_mark_t mark)
{
	unsigned long at;
	void *entry;

	if (xas_invalid(xas))
		return false;
	xas_assert_readable(xas);
	return xa_seek(xas->xa, xas->xa_index, xas->xa_index, mark, &at,
		       &entry);
}

static void xas_marks(const struct xa_state *xas, unsigned int clear,
		      unsigned int set)
{
	struct pk_xa_slot *s;

	if (xas_invalid(xas))
		return;
	s = xas_slot(xas);
	if (s) /* a reserved entry's too, as the kernel's */
		WRITE_ONCE(s->marks, (s->marks & ~clear) | set);
}

/**
 * xas_set_mark() - set @mark on the entry at the cursor; nothing if there
 * is none, or the state is not walked or in error.  With the xa_lock.
 */
void xas_set_mark(const struct xa_state *xas, xa_mark_t mark)
{
	xas_marks(xas, 0, 1U << mark);
}

/** xas_clear_mark() - clear @mark, as xas_set_mark() sets it. */
void xas_clear_mark(const struct xa_state *xas, xa_mark_t mark)
{
	xas_marks(xas, 1U << mark, 0);
}

/**
 * xas_init_marks() - clear every mark of the entry at the cursor.  (Free
 * tracking keeps no mark here, so XA_FLAGS_TRACK_FREE arrays too.)  With
 * the xa_lock.
 */
void xas_init_marks(const struct xa_state *xas)
{
	xas_marks(xas, ~0U, 0);
}

/** xas_destroy() - free the array xas_nomem() kept and no store used. */
void xas_destroy(struct xa_state *xas)
{
	kfree(xas->xa_alloc);
	xas->xa_alloc = NULL;
}

/* The array a failed xas_store() wanted, allocated with @gfp. */
static bool xas_alloc_wanted(struct xa_state *xas, gfp_t gfp)
{
	struct xa_array *n = kmalloc(struct_size(n, slots, xas->pk_want), gfp);

	if (!n)
		return false;
	n->cap = xas->pk_want;
	xas_destroy(xas);
	xas->xa_alloc = (struct xa_node *)n;
	xas->xa_node = XAS_RESTART;
	return true;
}

/**
 * xas_nomem() - after an operation that failed with -ENOMEM, allocate
 * what it needed with @gfp (which may sleep: call it without the lock)
 * and return true to say: retry.  Otherwise free what an earlier call
 * allocated and return false.  Task context as @gfp allows.
 */
bool xas_nomem(struct xa_state *xas, gfp_t gfp)
{
	if (xas->xa_node != XA_ERROR(-ENOMEM)) {
		xas_destroy(xas);
		return false;
	}
	return xas_alloc_wanted(xas, gfp);
}

/**
 * __xas_nomem() - xas_nomem() with the xa_lock held: a blocking @gfp
 * drops it (in the array's lock type, XA_FLAGS_LOCK_IRQ/_BH) to allocate.
 */
bool __xas_nomem(struct xa_state *xas, gfp_t gfp)
{
	unsigned int type =
		xas->xa->xa_flags & (XA_FLAGS_LOCK_IRQ | XA_FLAGS_LOCK_BH);
	bool ok;

	if (xas->xa_node != XA_ERROR(-ENOMEM)) {
		xas_destroy(xas);
		return false;
	}
	if (!gfpflags_allow_blocking(gfp))
		return xas_alloc_wanted(xas, gfp);
	if (type == XA_FLAGS_LOCK_IRQ)
		xas_unlock_irq(xas);
	else if (type == XA_FLAGS_LOCK_BH)
		xas_unlock_bh(xas);
	else
		xas_unlock(xas);
	ok = xas_alloc_wanted(xas, gfp);
	if (type == XA_FLAGS_LOCK_IRQ)
		xas_lock_irq(xas);
	else if (type == XA_FLAGS_LOCK_BH)
		xas_lock_bh(xas);
	else
		xas_lock(xas);
	return ok;
}

/* ---- IDR ---- */

static int idr_alloc_range(struct idr *idr, void *ptr, unsigned long min,
			   unsigned long max, gfp_t gfp, u32 *id)
{
	struct xa_limit lim = {.min = (u32)(min - idr->idr_base),
			       .max = (u32)(max - idr->idr_base)};
	int err;

	if (WARN_ON_ONCE(min < idr->idr_base))
		return -EINVAL;
	/* A NULL pointer reserves the ID (xa_alloc() keeps the slot). */
	err = xa_alloc(&idr->idr_rt, id, ptr, lim, gfp);
	if (err == -EBUSY)
		return -ENOSPC;
	*id += idr->idr_base;
	return err;
}

int idr_alloc(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	u32 id;
	int err;

	if (WARN_ON_ONCE(start < 0))
		return -EINVAL;
	err = idr_alloc_range(idr, ptr, (unsigned long)start,
			      end > 0 ? (unsigned long)end - 1 : INT_MAX, gfp,
			      &id);
	return err ? err : (int)id;
}

int idr_alloc_cyclic(struct idr *idr, void *ptr, int start, int end, gfp_t gfp)
{
	int max = end > 0 ? end - 1 : INT_MAX;
	int from = max_t(int, start, (int)idr->idr_next);
	int id;

	id = from <= max ? idr_alloc(idr, ptr, from, max + 1, gfp) : -ENOSPC;
	if (id == -ENOSPC && from > start)
		id = idr_alloc(idr, ptr, start, max + 1, gfp);
	if (id >= 0)
		idr->idr_next = (unsigned int)id + 1U;
	return id;
}

int idr_alloc_u32(struct idr *idr, void *ptr, u32 *nextid, unsigned long max,
		  gfp_t gfp)
{
	return idr_alloc_range(idr, ptr, *nextid, max, gfp, nextid);
}

void *idr_find(const struct idr *idr, unsigned long id)
{
	if (id < idr->idr_base)
		return NULL;
	return xa_load((struct xarray *)&idr->idr_rt, id - idr->idr_base);
}

void *idr_remove(struct idr *idr, unsigned long id)
{
	if (id < idr->idr_base)
		return NULL;
	return xa_erase(&idr->idr_rt, id - idr->idr_base);
}

void *idr_replace(struct idr *idr, void *ptr, unsigned long id)
{
	struct pk_xa_slot *s;
	unsigned long flags;
	void *old = ERR_PTR(-ENOENT);

	spin_lock_irqsave(&idr->idr_rt.xa_lock, flags);
	s = id >= idr->idr_base ? xa_slot(&idr->idr_rt, id - idr->idr_base)
				: NULL;
	if (s) {
		old = s->entry;
		WRITE_ONCE(s->entry, ptr);
	}
	spin_unlock_irqrestore(&idr->idr_rt.xa_lock, flags);
	return old;
}

void *idr_get_next_ul(struct idr *idr, unsigned long *nextid)
{
	unsigned long index =
		*nextid >= idr->idr_base ? *nextid - idr->idr_base : 0;
	void *entry = xa_find(&idr->idr_rt, &index, ULONG_MAX, XA_PRESENT);

	if (entry)
		*nextid = index + idr->idr_base;
	return entry;
}

void *idr_get_next(struct idr *idr, int *nextid)
{
	unsigned long id = (unsigned long)*nextid;
	void *entry = idr_get_next_ul(idr, &id);

	if (entry && id > INT_MAX)
		return NULL;
	if (entry)
		*nextid = (int)id;
	return entry;
}

int idr_for_each(const struct idr *idr, int (*fn)(int id, void *p, void *data),
		 void *data)
{
	unsigned long index;
	void *entry;

	xa_for_each((struct xarray *)&idr->idr_rt, index, entry)
	{
		int ret = fn((int)(index + idr->idr_base), entry, data);

		if (ret)
			return ret;
	}
	return 0;
}

void idr_destroy(struct idr *idr)
{
	xa_destroy(&idr->idr_rt);
}

/* ---- IDA ---- */

int ida_alloc_range(struct ida *ida, unsigned int min, unsigned int max,
		    gfp_t gfp)
{
	u32 id;
	int err;

	if ((int)min < 0)
		return -ENOSPC;
	if ((int)max < 0)
		max = INT_MAX;
	err = xa_alloc(&ida->xa, &id, xa_mk_value(1), XA_LIMIT(min, max), gfp);
	if (err == -EBUSY)
		return -ENOSPC;
	return err ? err : (int)id;
}

void ida_free(struct ida *ida, unsigned int id)
{
	WARN((int)id < 0 || !xa_erase(&ida->xa, id),
	     "ida_free called for id=%u which is not allocated.\n", id);
}

void ida_destroy(struct ida *ida)
{
	xa_destroy(&ida->xa);
}
