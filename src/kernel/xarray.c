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

static void free_slots(struct pk_xa_slot *slots)
{
	if (slots)
		kfree(array_of(slots));
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

/*
 * Room for one more slot.  Called with the lock held; a blocking @gfp
 * drops it around the allocation (the array may change meanwhile, so the
 * caller looks again).  0 or -ENOMEM.
 */
static int xa_reserve(struct xarray *xa, gfp_t gfp)
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
		if (xa->pk_nr)
			memcpy(n->slots, xa->pk_slots,
			       xa->pk_nr * sizeof(n->slots[0]));
		/* The same slots in a larger array: readers may use either. */
		if (xa->pk_slots)
			call_rcu(&array_of(xa->pk_slots)->rcu, free_array_rcu);
		smp_store_release(&xa->pk_slots, n->slots);
		xa->pk_cap = cap;
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

void *xa_load(struct xarray *xa, unsigned long index)
{
	struct pk_xa_slot *slots;
	unsigned int seq, nr;
	void *entry;

	rcu_read_lock();
	for (;;) {
		seq = smp_load_acquire(&xa->pk_seq);
		if (seq & 1) { /* a writer on another CPU: a few moves */
			cpu_relax();
			continue;
		}
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
	if (xa_reserve(xa, gfp))
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
	if (xa_reserve(xa, gfp))
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
			s->marks |= 1U << mark;
		else
			s->marks &= ~(1U << mark);
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
	free_slots(slots); /* no reader may be left: the caller's rule */
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
