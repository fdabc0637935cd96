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

void prepare_to_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait,
		     unsigned int state)
{
	unsigned long flags;

	pk_lock_irqsave(&wq->lock, flags);
	if (!wait->entry.next || list_empty(&wait->entry)) {
		if (!wait->entry.next)
			INIT_LIST_HEAD(&wait->entry);
		list_add_tail(&wait->entry, &wq->head);
	}
	/* The state before the condition is read: a wake-up in between
	 * puts it back to running, so the schedule() after returns. */
	set_current_state(state);
	pk_unlock_irqrestore(&wq->lock, flags);
}

void finish_wait(wait_queue_head_t *wq, struct wait_queue_entry *wait)
{
	unsigned long flags;

	__set_current_state(TASK_RUNNING);
	pk_lock_irqsave(&wq->lock, flags);
	if (wait->entry.next && !list_empty(&wait->entry))
		list_del_init(&wait->entry);
	pk_unlock_irqrestore(&wq->lock, flags);
}

void wake_up(wait_queue_head_t *wq)
{
	struct wait_queue_entry *w, *n;
	unsigned long flags;

	pk_lock_irqsave(&wq->lock, flags);
	list_for_each_entry_safe(w, n, &wq->head, entry)
		wake_up_process(w->task);
	pk_unlock_irqrestore(&wq->lock, flags);
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

void complete(struct completion *x)
{
	unsigned long flags;

	pk_lock_irqsave(&x->wait.lock, flags);
	if (x->done != COMPLETE_ALL)
		x->done++;
	pk_unlock_irqrestore(&x->wait.lock, flags);
	wake_up(&x->wait);
}

void complete_all(struct completion *x)
{
	unsigned long flags;

	pk_lock_irqsave(&x->wait.lock, flags);
	x->done = COMPLETE_ALL;
	pk_unlock_irqrestore(&x->wait.lock, flags);
	wake_up(&x->wait);
}

bool try_wait_for_completion(struct completion *x)
{
	unsigned long flags;
	bool ret = false;

	pk_lock_irqsave(&x->wait.lock, flags);
	if (x->done) {
		if (x->done != COMPLETE_ALL)
			x->done--;
		ret = true;
	}
	pk_unlock_irqrestore(&x->wait.lock, flags);
	return ret;
}

bool completion_done(struct completion *x)
{
	return __atomic_load_n(&x->done, __ATOMIC_ACQUIRE) != 0;
}

void wait_for_completion(struct completion *x)
{
	wait_event(x->wait, try_wait_for_completion(x));
}

unsigned long wait_for_completion_timeout(struct completion *x,
					  unsigned long timeout)
{
	return (unsigned long)wait_event_timeout(
		x->wait, try_wait_for_completion(x), (long)timeout);
}
