/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_SRCU_H
#define PREEMPT_SRCU_H

/*
 * Sleepable RCU: readers may sleep, and each srcu_struct has grace periods
 * of its own, so a slow reader of one domain holds up only that domain.
 * Two reader counts per domain, indexed by a flip bit: a grace period
 * waits for the inactive index to drain, flips, and waits for the old
 * one (the kernel's classic SRCU, with one counter per index).
 */

#include <stdbool.h>
#include <preempt/rcupdate.h>

struct srcu_struct {
	unsigned long idx; /* low bit: the index new readers take */
	long readers[2];   /* readers inside, per index */
	int gp_lock;	   /* raw: one grace period at a time */
	int cb_lock;	   /* raw, interrupts off: the callback list */
	struct rcu_head *cbs, **cbs_tail;
	long n_cbs; /* queued and not yet run */
	int queued; /* on the srcu kthread's list */
	struct srcu_struct *pk_next;
	unsigned long gps; /* grace periods completed */
	/*
	 * The domain as the lock validator sees it (the kernel's): each
	 * reader a recursive read, synchronize_srcu() a lock_sync(), so a
	 * grace period awaited inside the domain's own reader, or under a
	 * lock one of its readers takes, is a deadlock report.  No wait
	 * type: a reader may sleep and may be entered anywhere.
	 */
	struct lockdep_map dep_map;
};

#define __SRCU_STRUCT_INIT(name)                                               \
	{                                                                      \
		.idx = 0, .cbs = NULL, .cbs_tail = &(name).cbs,                \
		.dep_map = STATIC_LOCKDEP_MAP_INIT(#name, NULL),               \
	}

/** DEFINE_SRCU() - define and initialize an srcu_struct named @name. */
#define DEFINE_SRCU(name) struct srcu_struct name = __SRCU_STRUCT_INIT(name)
#define DEFINE_STATIC_SRCU(name)                                               \
	static struct srcu_struct name = __SRCU_STRUCT_INIT(name)

int __init_srcu_struct(struct srcu_struct *ssp, const char *name,
		       struct lock_class_key *key);
/**
 * init_srcu_struct() - initialize @ssp, its lock class the call site's
 * (named by the expression).  Task context.  Returns 0.
 */
#define init_srcu_struct(ssp)                                                  \
	({                                                                     \
		PK_LOCKDEP_KEY(__srcu_key);                                    \
		__init_srcu_struct((ssp), PK_LOCKDEP_NAME(#ssp),               \
				   PK_LOCKDEP_KEYP(__srcu_key));               \
	})

/**
 * cleanup_srcu_struct() - @ssp will not be used again; reports readers
 * still inside or callbacks still queued.  Task context.
 */
void cleanup_srcu_struct(struct srcu_struct *ssp);

/**
 * srcu_read_lock() - enter an SRCU reader of @ssp; returns the index to
 * pass to srcu_read_unlock().  Task, softirq or hardirq context, any
 * thread; the reader may sleep (in task context).
 */
static inline int srcu_read_lock(struct srcu_struct *ssp)
{
	int idx = (int)(__atomic_load_n(&ssp->idx, __ATOMIC_RELAXED) & 1);

	__atomic_add_fetch(&ssp->readers[idx], 1, __ATOMIC_SEQ_CST);
	lock_acquire(&ssp->dep_map, 0, 0, 2, 1, NULL, _THIS_IP_);
	return idx;
}

/** srcu_read_unlock() - leave the reader srcu_read_lock() returned @idx. */
static inline void srcu_read_unlock(struct srcu_struct *ssp, int idx)
{
	lock_release(&ssp->dep_map, _THIS_IP_);
	__atomic_sub_fetch(&ssp->readers[idx & 1], 1, __ATOMIC_SEQ_CST);
}

/* Is any reader of @ssp inside, in any task? */
static inline bool pk_srcu_readers_inside(const struct srcu_struct *ssp)
{
	return __atomic_load_n(&ssp->readers[0], __ATOMIC_RELAXED) ||
	       __atomic_load_n(&ssp->readers[1], __ATOMIC_RELAXED);
}

/**
 * srcu_read_lock_held() - is the caller inside a reader of @ssp?  Without
 * the validator (or for a domain it does not track): is anyone?
 */
static inline bool srcu_read_lock_held(const struct srcu_struct *ssp)
{
	return pk_lock_state(lock_is_held(&ssp->dep_map),
			     pk_srcu_readers_inside(ssp)) != 0;
}

/** srcu_dereference() - rcu_dereference() for an SRCU reader of @ssp. */
#define srcu_dereference_check(p, ssp, c)                                      \
	({                                                                     \
		RCU_LOCKDEP_WARN(!((c) || srcu_read_lock_held(ssp)),           \
				 "suspicious srcu_dereference_check() "        \
				 "usage!");                                    \
		__atomic_load_n(&(p), __ATOMIC_CONSUME);                       \
	})
#define srcu_dereference(p, ssp) srcu_dereference_check(p, ssp, 0)

/**
 * synchronize_srcu() - wait until every reader of @ssp that began before
 * the call has ended.  Task context or a thread that is not a vCPU; may
 * sleep; not inside a reader of @ssp.
 */
void synchronize_srcu(struct srcu_struct *ssp);

/**
 * call_srcu() - run @func(@head) after a grace period of @ssp, in the
 * srcu kthread (task context).  Task, softirq or hardirq context.
 */
void call_srcu(struct srcu_struct *ssp, struct rcu_head *head,
	       rcu_callback_t func);

/** srcu_barrier() - wait until @ssp's queued callbacks have run. */
void srcu_barrier(struct srcu_struct *ssp);

#endif /* PREEMPT_SRCU_H */
