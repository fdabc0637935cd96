// SPDX-License-Identifier: MIT
/* Wait queues and completions. */
#include <preempt/irqflags.h>
#include <preempt/wait.h>

#include "sched_internal.h"

void init_waitqueue_head(wait_queue_head_t *wq)
{
	wq->lock = 0;
	INIT_LIST_HEAD(&wq->head);
}

int default_wake_function(struct wait_queue_entry *wq_entry, unsigned int mode,
			  int flags, void *key)
{
	(void)flags;
	(void)key;
	return wake_up_state(wq_entry->task, mode);
}

int autoremove_wake_function(struct wait_queue_entry *wq_entry,
			     unsigned int mode, int flags, void *key)
{
	int ret = default_wake_function(wq_entry, mode, flags, key);

	/* Off the queue only if woken: a sleeper in another state stays. */
	if (ret)
		list_del_init(&wq_entry->entry);
	return ret;
}

void init_wait_entry(struct wait_queue_entry *wq_entry, int flags)
{
	wq_entry->flags = (unsigned int)flags;
	wq_entry->private = current;
	wq_entry->func = autoremove_wake_function;
	INIT_LIST_HEAD(&wq_entry->entry);
}

static bool entry_queued(const struct wait_queue_entry *w)
{
	return w->entry.next && !list_empty(&w->entry);
}

/* Non-exclusive entries go after the others of their kind, before the
 * first exclusive one: FIFO among themselves (the sleeping locks rely on
 * it) and all woken before a wake-up's exclusive count runs out. */
static void add_nonexclusive(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	struct wait_queue_entry *pos, *n;

	w->flags &= ~WQ_FLAG_EXCLUSIVE;
	list_for_each_entry_safe(pos, n, &wq->head, entry)
	{
		if (pos->flags & WQ_FLAG_EXCLUSIVE) {
			list_add_tail(&w->entry, &pos->entry);
			return;
		}
	}
	list_add_tail(&w->entry, &wq->head);
}

static void add_exclusive(wait_queue_head_t *wq, struct wait_queue_entry *w)
{
	w->flags |= WQ_FLAG_EXCLUSIVE;
	list_add_tail(&w->entry, &wq->head);
}

void add_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	pk_lock_irqsave(&wq->lock, flags);
	add_nonexclusive(wq, wq_entry);
	pk_unlock_irqrestore(&wq->lock, flags);
}

void add_wait_queue_exclusive(wait_queue_head_t *wq,
			      struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	pk_lock_irqsave(&wq->lock, flags);
	add_exclusive(wq, wq_entry);
	pk_unlock_irqrestore(&wq->lock, flags);
}

void remove_wait_queue(wait_queue_head_t *wq, struct wait_queue_entry *wq_entry)
{
	unsigned long flags;

	pk_lock_irqsave(&wq->lock, flags);
	if (entry_queued(wq_entry))
		list_del_init(&wq_entry->entry);
	pk_unlock_irqrestore(&wq->lock, flags);
}

/*
 * Queue @wait unless it is queued, then set the state: set before the
 * caller reads its condition, so a wake-up in between puts it back to
 * running and the schedule() after returns.  Returns whether it queued.
 */
static bool queue_and_set_state(wait_queue_head_t *wq,
				struct wait_queue_entry *wait,
				unsigned int state, bool exclusive)
{
	bool queued = false;

	if (!wait->entry.next)
		INIT_LIST_HEAD(&wait->entry);
	if (list_empty(&wait->entry)) {
		exclusive ? add_exclusive(wq, wait)
			  : add_nonexclusive(wq, wait);
		queued = true;
	}
	set_current_state(state);
	return queued;
}

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait,
		     unsigned int state)
{
	unsigned long flags;

	pk_sim_lib_point(PK_SIM_LOCK); /* the queue's lock */

	pk_lock_irqsave(&wq->lock, flags);
	queue_and_set_state(wq, wait, state, false);
	pk_unlock_irqrestore(&wq->lock, flags);
}

bool prepare_to_wait_exclusive(wait_queue_head_t *wq,
			       struct wait_queue_entry *wait,
			       unsigned int state)
{
	unsigned long flags;
	bool was_empty;

	pk_lock_irqsave(&wq->lock, flags);
	was_empty = list_empty(&wq->head);
	queue_and_set_state(wq, wait, state, true);
	pk_unlock_irqrestore(&wq->lock, flags);
	return was_empty;
}

long prepare_to_wait_event(wait_queue_head_t *wq, struct wait_queue_entry *wait,
			   unsigned int state)
{
	unsigned long flags;
	long ret = 0;

	pk_sim_lib_point(PK_SIM_LOCK); /* the queue's lock */

	pk_lock_irqsave(&wq->lock, flags);
	if (signal_pending_state(state, current)) {
		/*
		 * Off the queue under its lock: a wake-up after this picks
		 * another exclusive waiter.  One that picked us already
		 * made the condition true, which the caller tests first.
		 */
		if (entry_queued(wait))
			list_del_init(&wait->entry);
		ret = -ERESTARTSYS;
	} else {
		queue_and_set_state(wq, wait, state,
				    wait->flags & WQ_FLAG_EXCLUSIVE);
	}
	pk_unlock_irqrestore(&wq->lock, flags);
	return ret;
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	/* Autoremoved by the waker: no need for the lock (the kernel's
	 * list_empty_careful() shortcut). */
	if (!entry_queued(wait))
		return;
	pk_lock_irqsave(&wq->lock, flags);
	if (entry_queued(wait))
		list_del_init(&wait->entry);
	pk_unlock_irqrestore(&wq->lock, flags);
}

static int call_wake_function(struct wait_queue_entry *w, unsigned int mode,
			      void *key)
{
	if (w->func)
		return w->func(w, mode, 0, key);
	return default_wake_function(w, mode, 0, key);
}

/* The walk: every entry until @nr_exclusive exclusive ones woke (0: all). */
static void wake_up_common(wait_queue_head_t *wq, unsigned int mode,
			   int nr_exclusive, void *key)
{
	struct wait_queue_entry *w, *n;

	list_for_each_entry_safe(w, n, &wq->head, entry)
	{
		unsigned int wflags = w->flags; /* @w may go in the call */
		int ret = call_wake_function(w, mode, key);

		if (ret < 0)
			break;
		if (ret && (wflags & WQ_FLAG_EXCLUSIVE) && !--nr_exclusive)
			break;
	}
}

/* Host threads woken here get their futex wake after the lock: no host
 * system call with preemption off (issue 19, target 8). */
void __wake_up(wait_queue_head_t *wq, unsigned int mode, int nr_exclusive,
	       void *key)
{
	struct pk_wake_q q;
	unsigned long flags;

	pk_sim_lib_point(PK_SIM_LOCK); /* the queue's lock */

	pk_lock_irqsave(&wq->lock, flags);
	pk_wake_q_start(&q);
	wake_up_common(wq, mode, nr_exclusive, key);
	pk_wake_q_stop();
	pk_unlock_irqrestore(&wq->lock, flags);
	pk_wake_q_flush(&q);
}

unsigned long pk_wq_lock(int *lock, int how)
{
	unsigned long flags = 0;

	pk_sim_lib_point(PK_SIM_LOCK);
	if (how)
		local_irq_save(flags);
	preempt_disable_notrace();
	pk_raw_lock(lock);
	return flags;
}

void pk_wq_unlock(int *lock, int how, unsigned long flags)
{
	pk_raw_unlock(lock);
	if (how == 1)
		local_irq_enable();
	else if (how == 2)
		local_irq_restore(flags);
	/* Last, so that a wake-up done under the lock preempts here. */
	preempt_enable();
}

void __wake_up_locked(wait_queue_head_t *wq, unsigned int mode,
		      int nr_exclusive)
{
	wake_up_common(wq, mode, nr_exclusive, NULL);
}

void init_completion(struct completion *x)
{
	x->done = 0;
	init_waitqueue_head(&x->wait);
}

void reinit_completion(struct completion *x)
{
	__atomic_store_n(&x->done, 0, __ATOMIC_RELEASE);
}

#define COMPLETE_ALL (~0U >> 1)

/* complete() wakes one waiter: they queue exclusive (wait_for_common()). */
void complete(struct completion *x)
{
	struct pk_wake_q q;
	unsigned long flags;

	pk_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETE_ALL)
		x->done++;
	pk_wake_q_start(&q);
	wake_up_common(&x->wait, TASK_NORMAL, 1, NULL);
	pk_wake_q_stop();
	pk_unlock_irqrestore(&x->wait.lock, flags);
	pk_wake_q_flush(&q);
}

void complete_all(struct completion *x)
{
	struct pk_wake_q q;
	unsigned long flags;

	pk_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETE_ALL;
	pk_wake_q_start(&q);
	wake_up_common(&x->wait, TASK_NORMAL, 0, NULL);
	pk_wake_q_stop();
	pk_unlock_irqrestore(&x->wait.lock, flags);
	pk_wake_q_flush(&q);
}

/* Under the lock: take one completion if there is one. */
static bool completion_take(struct completion *x)
{
	if (!x->done)
		return false;
	if (x->done != COMPLETE_ALL)
		x->done--;
	return true;
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ret;

	pk_lock_irqsave(&x->wait.lock, flags);
	ret = completion_take(x);
	pk_unlock_irqrestore(&x->wait.lock, flags);
	return ret;
}

bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_ACQUIRE) != 0;
}

/*
 * As the kernel's do_wait_for_common(): queued exclusive, so complete()
 * wakes one waiter, and the count is tested and taken under the queue's
 * lock, so a waiter that complete() picked always takes it, even if its
 * timeout or a signal came at the same time (the wake-up is never lost
 * on a waiter that leaves).  Returns the ticks left (at least 1) once
 * completed, 0 on timeout, -ERESTARTSYS on a signal @state admits.
 */
static long wait_for_common(struct completion *x, long timeout,
			    unsigned int state)
{
	struct wait_queue_entry wait;
	unsigned long flags;

	might_sleep();
	init_wait_entry(&wait, WQ_FLAG_EXCLUSIVE);
	pk_lock_irqsave(&x->wait.lock, flags);
	while (!x->done && timeout > 0) {
		if (signal_pending_state(state, current)) {
			timeout = -ERESTARTSYS;
			break;
		}
		queue_and_set_state(&x->wait, &wait, state, true);
		pk_unlock_irqrestore(&x->wait.lock, flags);
		timeout = schedule_timeout(timeout);
		pk_lock_irqsave(&x->wait.lock, flags);
	}
	if (entry_queued(&wait))
		list_del_init(&wait.entry);
	__set_current_state(TASK_RUNNING);
	if (completion_take(x))
		timeout = timeout > 0 ? timeout : 1;
	pk_unlock_irqrestore(&x->wait.lock, flags);
	return timeout;
}

void wait_for_completion(struct completion *x)
{
	wait_for_common(x, MAX_SCHEDULE_TIMEOUT, TASK_UNINTERRUPTIBLE);
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return (unsigned long)wait_for_common(x, (long)timeout,
					      TASK_UNINTERRUPTIBLE);
}

/* The untimed forms a signal may end: 0 or -ERESTARTSYS. */
static int wait_for_untimed(struct completion *x, unsigned int state)
{
	long ret = wait_for_common(x, MAX_SCHEDULE_TIMEOUT, state);

	return ret < 0 ? (int)ret : 0;
}

int wait_for_completion_interruptible(struct completion *x)
{
	return wait_for_untimed(x, TASK_INTERRUPTIBLE);
}

long wait_for_completion_interruptible_timeout(struct completion *x,
					       unsigned long timeout)
{
	return wait_for_common(x, (long)timeout, TASK_INTERRUPTIBLE);
}

int wait_for_completion_killable(struct completion *x)
{
	return wait_for_untimed(x, TASK_KILLABLE);
}

long wait_for_completion_killable_timeout(struct completion *x,
					  unsigned long timeout)
{
	return wait_for_common(x, (long)timeout, TASK_KILLABLE);
}
