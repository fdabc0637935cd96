// SPDX-License-Identifier: MIT
/*
 * rt_mutex: a sleeping lock with priority inheritance.
 *
 * Lock and unlock without contention are one compare-and-swap of the owner
 * word.  Bit 0 of the word says tasks wait, which makes the owner's
 * unlock-CAS fail and take the slow path that hands the lock over.
 *
 * The slow paths serialize on one raw lock for the whole inheritance graph
 * (pi_graph_lock) rather than a lock per rt_mutex plus one per task: a
 * chain walk moves through several locks and tasks, and a single lock
 * makes it atomic with no lock-order rules or retries.  Only contended
 * operations take it.
 *
 * struct task_struct has no room for what inheritance needs per task (the
 * waiter it is blocked on, its locks that have waiters), so that lives in
 * a small table.  Only tasks that wait, or own a lock others wait for, have
 * an entry; an uncontended lock never touches the table.
 *
 * Unlock hands the lock straight to the most urgent waiter (the owner word
 * becomes that task), so a woken waiter never competes again: its wait is
 * bounded by the owners ahead of it, which is what inheritance promises.
 */
#include <preempt/bug.h>
#include <preempt/debug.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/preempt.h>
#include <preempt/rtmutex.h>
#include <preempt/sched.h>

#include "../sched/sched_internal.h"

#define RET_IP ((unsigned long)__builtin_return_address(0))

#define RT_MUTEX_HAS_WAITERS 1UL
#define PI_TABLE_SIZE 256 /* tasks waiting or owning a contended lock */
#define PI_CHAIN_MAX 64	  /* beyond this, the chain must be a cycle */

/* A blocked task, on its own stack for as long as it waits. */
struct rt_mutex_waiter {
	struct task_struct *task;
	struct rt_mutex *lock;
	struct list_head node; /* on lock->waiters */
	int prio;	       /* the task's, kept current by chain walks */
	int granted; /* set by the unlocker that handed the lock over */
};

struct pi_state {
	struct task_struct *task; /* NULL: a free slot */
	struct rt_mutex_waiter *blocked_on;
	struct list_head locks; /* owned rt_mutexes with waiters, by pi_node */
};

static int pi_graph_lock;
static struct pi_state pi_table[PI_TABLE_SIZE];
static int pi_table_used; /* slots ever used: bounds the scans */

/* ---- the per-task table, under pi_graph_lock ---- */

static struct pi_state *pi_state_find(const struct task_struct *p)
{
	for (int i = 0; i < pi_table_used; i++)
		if (pi_table[i].task == p)
			return &pi_table[i];
	return NULL;
}

static struct pi_state *pi_state_get(struct task_struct *p)
{
	struct pi_state *st = pi_state_find(p);

	if (st)
		return st;
	for (int i = 0; i < PI_TABLE_SIZE; i++) {
		if (pi_table[i].task)
			continue;
		st = &pi_table[i];
		st->task = p;
		st->blocked_on = NULL;
		INIT_LIST_HEAD(&st->locks);
		if (i >= pi_table_used)
			pi_table_used = i + 1;
		return st;
	}
	/* Mutual exclusion still holds; only this task's boosts are lost. */
	WARN_ONCE(1, "rt_mutex: more than %d tasks in priority inheritance",
		  PI_TABLE_SIZE);
	return NULL;
}

/* Free @st's slot once its task neither waits nor owns contended locks. */
static void pi_state_put(struct pi_state *st)
{
	if (st && !st->blocked_on && list_empty(&st->locks))
		st->task = NULL;
}

/* ---- waiters and priorities, under pi_graph_lock ---- */

static struct rt_mutex_waiter *top_waiter(struct rt_mutex *lock)
{
	if (list_empty(&lock->waiters))
		return NULL;
	return list_first_entry(&lock->waiters, struct rt_mutex_waiter, node);
}

/* Behind the waiters at least as urgent: FIFO among equals. */
static void waiter_enqueue(struct rt_mutex *lock, struct rt_mutex_waiter *w)
{
	struct rt_mutex_waiter *pos, *n;

	list_for_each_entry_safe(pos, n, &lock->waiters, node)
	{
		if (w->prio < pos->prio) {
			list_add_tail(&w->node, &pos->node);
			return;
		}
	}
	list_add_tail(&w->node, &lock->waiters);
}

static int task_prio(const struct task_struct *p)
{
	return __atomic_load_n(&p->prio, __ATOMIC_RELAXED);
}

static void task_set_prio(struct task_struct *p, int prio)
{
	if (task_prio(p) == prio)
		return;
	/* A host thread's pseudo-task has no runqueue: the OS runs it. */
	if (!p->pk_ctx)
		__atomic_store_n(&p->prio, prio, __ATOMIC_RELAXED);
	else
		pk_sched_set_prio(p, prio);
}

/*
 * Lend @prio to @owner and on down the chain: if @owner waits for another
 * rt_mutex, its place in that queue moves up and that lock's owner is
 * boosted in turn.  Stops where a task already runs at least as urgently.
 */
static void boost_chain(struct task_struct *owner, int prio)
{
	struct task_struct *me = current;

	for (int depth = 0; owner && depth < PI_CHAIN_MAX; depth++) {
		struct pi_state *st;
		struct rt_mutex_waiter *w;

		if (task_prio(owner) <= prio)
			return;
		task_set_prio(owner, prio);
		st = pi_state_find(owner);
		if (!st || !st->blocked_on)
			return;
		w = st->blocked_on;
		list_del_init(&w->node);
		w->prio = prio;
		waiter_enqueue(w->lock, w);
		owner = rt_mutex_owner(w->lock);
		/* Back at the task that started the walk: nobody can run. */
		if (WARN_ONCE(owner == me,
			      "rt_mutex deadlock: circular locking by %s/%d",
			      me->comm, me->pid))
			return;
	}
}

/*
 * @p's own priority, or RCU_BOOST's loan (src/rcu: 0, or 1 + the
 * priority) if more urgent: the loan counts as one more waiter, so an
 * unlock's deboost keeps it, as the kernel's boost through an rt_mutex.
 */
static int base_prio(const struct task_struct *p)
{
	int rcu = __atomic_load_n(&p->pk_rcu_boosted, __ATOMIC_RELAXED);

	return rcu && rcu - 1 < p->pk_normal_prio ? rcu - 1 : p->pk_normal_prio;
}

/* What @p runs at: its base priority or its most urgent waiter's. */
static int inherited_prio(const struct task_struct *p,
			  const struct pi_state *st)
{
	int prio = base_prio(p);
	struct rt_mutex *lock, *n;

	if (!st)
		return prio;
	list_for_each_entry_safe(lock, n, &st->locks, pi_node)
	{
		int top = top_waiter(lock)->prio;

		if (top < prio)
			prio = top;
	}
	return prio;
}

/* ---- the slow paths ---- */

/*
 * Under pi_graph_lock: mark @lock contended, or take it if it came free
 * meanwhile (returns false then).  The mark and the owner's unlock-CAS
 * race on the word; whichever lands first decides.
 */
static bool mark_waiters(struct rt_mutex *lock, struct task_struct *me,
			 unsigned long *owner)
{
	unsigned long old = __atomic_load_n(&lock->owner, __ATOMIC_RELAXED);

	do {
		while (!old) {
			if (__atomic_compare_exchange_n(
				    &lock->owner, &old, (unsigned long)me,
				    false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				return false;
		}
	} while (!__atomic_compare_exchange_n(
		&lock->owner, &old, old | RT_MUTEX_HAS_WAITERS, false,
		__ATOMIC_RELAXED, __ATOMIC_RELAXED));
	*owner = old & ~RT_MUTEX_HAS_WAITERS;
	return true;
}

/* Under pi_graph_lock: queue @w on its lock and boost the owner chain. */
static bool queue_waiter(struct rt_mutex_waiter *w)
{
	struct rt_mutex *lock = w->lock;
	struct task_struct *owner;
	struct pi_state *st;
	unsigned long word;

	if (!mark_waiters(lock, w->task, &word))
		return false;
	owner = (struct task_struct *)word;
	if (list_empty(&lock->waiters)) {
		st = pi_state_get(owner);
		if (st)
			list_add_tail(&lock->pi_node, &st->locks);
	}
	st = pi_state_get(w->task);
	if (st)
		st->blocked_on = w;
	waiter_enqueue(lock, w);
	if (top_waiter(lock) == w)
		boost_chain(owner, w->prio);
	return true;
}

/* Sleep until an unlocker has made us the owner; wake-ups may be spurious. */
static void wait_for_handoff(struct rt_mutex_waiter *w)
{
	for (;;) {
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (__atomic_load_n(&w->granted, __ATOMIC_ACQUIRE))
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
}

static void rt_mutex_lock_slow(struct rt_mutex *lock, struct task_struct *me)
{
	struct rt_mutex_waiter w = {.task = me, .lock = lock};
	unsigned long flags;
	bool queued;

	INIT_LIST_HEAD(&w.node);
	pk_lock_irqsave(&pi_graph_lock, flags);
	w.prio = task_prio(me);
	queued = queue_waiter(&w);
	pk_unlock_irqrestore(&pi_graph_lock, flags);
	if (!queued)
		return;
	wait_for_handoff(&w);
	/*
	 * The unlocker wakes us with pi_graph_lock held: once we have held
	 * it too, the unlocker is done with us, and we may return (and exit).
	 */
	pk_lock_irqsave(&pi_graph_lock, flags);
	pk_unlock_irqrestore(&pi_graph_lock, flags);
}

/* Under pi_graph_lock: make the top waiter of @lock its owner, and wake it. */
static void hand_off(struct rt_mutex *lock)
{
	struct rt_mutex_waiter *w = top_waiter(lock);
	struct task_struct *next = w->task;
	struct pi_state *st = pi_state_find(next);
	struct rt_mutex_waiter *still;

	list_del_init(&w->node);
	if (st)
		st->blocked_on = NULL;
	still = top_waiter(lock);
	if (still) {
		st = st ? st : pi_state_get(next);
		if (st)
			list_add_tail(&lock->pi_node, &st->locks);
		__atomic_store_n(&lock->owner,
				 (unsigned long)next | RT_MUTEX_HAS_WAITERS,
				 __ATOMIC_RELAXED);
		boost_chain(next, still->prio);
	} else {
		__atomic_store_n(&lock->owner, (unsigned long)next,
				 __ATOMIC_RELAXED);
	}
	pi_state_put(st);
	/* Full barrier: the waiter sets its state before reading @granted,
	 * we set @granted before reading its state in the wake-up. */
	pk_store_mb(&w->granted, 1);
	wake_up_process(next); /* a task, or a host thread's parked task */
}

static void rt_mutex_unlock_slow(struct rt_mutex *lock, struct task_struct *me)
{
	struct pi_state *st;
	unsigned long flags;

	pk_lock_irqsave(&pi_graph_lock, flags);
	st = pi_state_find(me);
	list_del_init(&lock->pi_node);
	if (top_waiter(lock))
		hand_off(lock);
	else
		__atomic_store_n(&lock->owner, 0, __ATOMIC_RELEASE);
	/* Preemption is off: a woken waiter and our drop take effect at the
	 * unlock below, together. */
	task_set_prio(me, inherited_prio(me, st));
	pi_state_put(st);
	pk_unlock_irqrestore(&pi_graph_lock, flags);
}

/* ---- the API ---- */

void pk_rt_mutex_adjust_prio(struct task_struct *p)
{
	unsigned long flags;

	pk_lock_irqsave(&pi_graph_lock, flags);
	task_set_prio(p, inherited_prio(p, pi_state_find(p)));
	pk_unlock_irqrestore(&pi_graph_lock, flags);
}

bool pk_rt_mutex_owned(struct rt_mutex *lock)
{
	return rt_mutex_owner(lock) == current;
}

void __rt_mutex_init(struct rt_mutex *lock, const char *name,
		     struct lock_class_key *key)
{
	lock->owner = 0;
	INIT_LIST_HEAD(&lock->waiters);
	INIT_LIST_HEAD(&lock->pi_node);
	lock->depth = 0;
	/* No name and no key (the library's own): not validated. */
	lock->dep_map = (struct lockdep_map){0};
	lockdep_init_map_wait(&lock->dep_map, name, key, 0, LD_WAIT_SLEEP);
}

static bool rt_mutex_cmpxchg_acquire(struct rt_mutex *lock,
				     struct task_struct *me)
{
	unsigned long none = 0;

	return __atomic_compare_exchange_n(&lock->owner, &none,
					   (unsigned long)me, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

static void rt_mutex_lock_common(struct rt_mutex *lock, unsigned int sub,
				 unsigned long ip)
{
	struct task_struct *me = current;

	if (likely(rt_mutex_cmpxchg_acquire(lock, me))) {
		lock_acquire(&lock->dep_map, sub, 0, 0, 1, NULL, ip);
		return;
	}
	if (unlikely(rt_mutex_owner(lock) == me)) {
		/* Waiting would never end: report, and count the nesting
		 * so that the matching unlock leaves the lock held. */
		WARN_ONCE(1, "rt_mutex deadlock: recursive locking by %s/%d",
			  me->comm, me->pid);
		lock->depth++;
		return;
	}
	/* Before waiting: an order that can deadlock is reported first. */
	lock_acquire(&lock->dep_map, sub, 0, 0, 1, NULL, ip);
	rt_mutex_lock_slow(lock, me);
}

void rt_mutex_lock_nested(struct rt_mutex *lock, unsigned int subclass)
{
	might_sleep();
	rt_mutex_lock_common(lock, subclass, RET_IP);
}

void rt_mutex_lock(struct rt_mutex *lock)
{
	might_sleep();
	rt_mutex_lock_common(lock, 0, RET_IP);
}

void pk_rt_mutex_lock_rtlock(struct rt_mutex *lock)
{
	/* PREEMPT_RT's spinlock_t is allowed inside an RCU reader, a
	 * bh-disabled section included. */
#if CONFIG_DEBUG_ATOMIC_SLEEP
	__might_resched(__FILE__, __LINE__,
			(unsigned int)pk_rcu_sleep_depth()
				<< MIGHT_RESCHED_RCU_SHIFT);
#endif
	might_resched();
	rt_mutex_lock_common(lock, 0, RET_IP); /* its map is untracked */
}

int rt_mutex_trylock(struct rt_mutex *lock)
{
	/* An interrupt would take the lock for the task it interrupted. */
	if (WARN_ON_ONCE(!in_task()))
		return 0;
	if (!rt_mutex_cmpxchg_acquire(lock, current))
		return 0;
	lock_acquire(&lock->dep_map, 0, 1, 0, 1, NULL, RET_IP);
	return 1;
}

int pk_rt_mutex_trylock_any(struct rt_mutex *lock)
{
	return rt_mutex_cmpxchg_acquire(lock, current);
}

void rt_mutex_unlock(struct rt_mutex *lock)
{
	struct task_struct *me = current;
	unsigned long mine = (unsigned long)me;

	if (WARN_ONCE(rt_mutex_owner(lock) != me,
		      "rt_mutex: unlock by %s/%d, which does not hold it",
		      me->comm, me->pid))
		return;
	if (unlikely(lock->depth)) {
		lock->depth--;
		return;
	}
	lock_release(&lock->dep_map, RET_IP);
	if (likely(__atomic_compare_exchange_n(&lock->owner, &mine, 0, false,
					       __ATOMIC_RELEASE,
					       __ATOMIC_RELAXED)))
		return;
	rt_mutex_unlock_slow(lock, me);
}
