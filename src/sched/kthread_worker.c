// SPDX-License-Identifier: MIT
/*
 * kthread_worker (kernel/kthread.c's model): a kthread serving a list.
 * Flushing inserts a flush item right after the work (or first in the
 * list if the work runs): one thread, in order, so when the flush item
 * runs the instance has finished.  A delayed item sits on the worker's
 * delayed list while its timer is armed; the timer moves it to the work
 * list unless it was cancelled or re-armed meanwhile (pk_delayed and
 * timer_pending() under the worker's lock tell a stale expiry).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include <preempt/bug.h>
#include <preempt/irqflags.h>
#include <preempt/kthread.h>
#include <preempt/wait.h>

#include "sched_internal.h"

struct kthread_flush_work {
	struct kthread_work work;
	struct completion done;
};

void kthread_init_worker(struct kthread_worker *worker)
{
	*worker = (struct kthread_worker)KTHREAD_WORKER_INIT(*worker);
	INIT_LIST_HEAD(&worker->work_list);
	INIT_LIST_HEAD(&worker->delayed_work_list);
}

int kthread_worker_fn(void *worker_ptr)
{
	struct kthread_worker *worker = worker_ptr;
	struct kthread_work *work;
	unsigned long flags;

	WARN_ON(worker->task && worker->task != current);
	worker->task = current;
	for (;;) {
		/* The state first: a queueing or stop after it wakes us. */
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			pk_lock_irqsave(&worker->lock, flags);
			worker->task = NULL;
			pk_unlock_irqrestore(&worker->lock, flags);
			return 0;
		}
		work = NULL;
		pk_lock_irqsave(&worker->lock, flags);
		if (!list_empty(&worker->work_list)) {
			work = list_first_entry(&worker->work_list,
						struct kthread_work, node);
			list_del_init(&work->node);
		}
		worker->current_work = work;
		pk_unlock_irqrestore(&worker->lock, flags);
		if (work) {
			__set_current_state(TASK_RUNNING);
			work->func(work);
		} else {
			schedule();
		}
		cond_resched();
	}
}

static struct kthread_worker *create_worker(int cpu, const char *name)
{
	struct kthread_worker *worker = malloc(sizeof(*worker));
	struct task_struct *task;

	if (!worker)
		return (struct kthread_worker *)(long)-ENOMEM;
	kthread_init_worker(worker);
	task = kthread_create(kthread_worker_fn, worker, "%s", name);
	if (!task) {
		free(worker);
		return (struct kthread_worker *)(long)-ENOMEM;
	}
	if (cpu >= 0)
		kthread_bind(task, cpu);
	worker->task = task;
	wake_up_process(task);
	return worker;
}

struct kthread_worker *kthread_create_worker(unsigned int flags,
					     const char namefmt[], ...)
{
	char name[TASK_COMM_LEN];
	va_list ap;

	(void)flags;
	va_start(ap, namefmt);
	vsnprintf(name, sizeof(name), namefmt, ap);
	va_end(ap);
	return create_worker(-1, name);
}

struct kthread_worker *kthread_create_worker_on_cpu(int cpu, unsigned int flags,
						    const char namefmt[])
{
	char name[TASK_COMM_LEN];

	(void)flags;
	if (cpu < 0 || cpu >= num_online_cpus())
		return (struct kthread_worker *)(long)-EINVAL;
	snprintf(name, sizeof(name), namefmt, cpu);
	return create_worker(cpu, name);
}

/* Under the lock: queue @work before @pos and wake the worker if idle. */
static void insert_work(struct kthread_worker *worker,
			struct kthread_work *work, struct list_head *pos)
{
	list_add_tail(&work->node, pos);
	work->worker = worker;
	if (!worker->current_work && worker->task)
		wake_up_process(worker->task);
}

static bool queuing_blocked(const struct kthread_work *work)
{
	return !list_empty(&work->node) || work->canceling;
}

bool kthread_queue_work(struct kthread_worker *worker,
			struct kthread_work *work)
{
	unsigned long flags;
	bool ret = false;

	pk_lock_irqsave(&worker->lock, flags);
	if (!queuing_blocked(work)) {
		insert_work(worker, work, &worker->work_list);
		ret = true;
	}
	pk_unlock_irqrestore(&worker->lock, flags);
	return ret;
}

void kthread_delayed_work_timer_fn(struct timer_list *t)
{
	struct kthread_delayed_work *dwork = from_timer(dwork, t, timer);
	struct kthread_work *work = &dwork->work;
	struct kthread_worker *worker = work->worker;
	unsigned long flags;

	if (WARN_ON_ONCE(!worker))
		return;
	pk_lock_irqsave(&worker->lock, flags);
	/* Cancelled, or re-armed while we waited for the lock: stale. */
	if (work->pk_delayed && !work->canceling && !timer_pending(t)) {
		work->pk_delayed = 0;
		list_del_init(&work->node);
		insert_work(worker, work, &worker->work_list);
	}
	pk_unlock_irqrestore(&worker->lock, flags);
}

/* Under the lock, @dwork idle. */
static void queue_delayed(struct kthread_worker *worker,
			  struct kthread_delayed_work *dwork,
			  unsigned long delay)
{
	struct kthread_work *work = &dwork->work;

	if (!delay) {
		insert_work(worker, work, &worker->work_list);
		return;
	}
	work->worker = worker;
	work->pk_delayed = 1;
	list_add_tail(&work->node, &worker->delayed_work_list);
	dwork->timer.function = kthread_delayed_work_timer_fn;
	dwork->timer.expires = pk_jiffies() + delay;
	add_timer_on(&dwork->timer, pk_this_rq ? pk_this_rq->cpu : 0);
}

bool kthread_queue_delayed_work(struct kthread_worker *worker,
				struct kthread_delayed_work *dwork,
				unsigned long delay)
{
	unsigned long flags;
	bool ret = false;

	pk_lock_irqsave(&worker->lock, flags);
	if (!queuing_blocked(&dwork->work)) {
		queue_delayed(worker, dwork, delay);
		ret = true;
	}
	pk_unlock_irqrestore(&worker->lock, flags);
	return ret;
}

/* Under the lock: off the lists (and @timer, if any); was it pending? */
static bool dequeue_work(struct kthread_work *work, struct timer_list *timer)
{
	if (list_empty(&work->node))
		return false;
	/* A running expiry waits for our lock, then sees it stale. */
	if (timer)
		del_timer(timer);
	work->pk_delayed = 0;
	list_del_init(&work->node);
	return true;
}

bool kthread_mod_delayed_work(struct kthread_worker *worker,
			      struct kthread_delayed_work *dwork,
			      unsigned long delay)
{
	unsigned long flags;
	bool ret = true;

	pk_lock_irqsave(&worker->lock, flags);
	/* Whoever cancels wins: nothing is queued. */
	if (!dwork->work.canceling) {
		ret = dequeue_work(&dwork->work, &dwork->timer);
		queue_delayed(worker, dwork, delay);
	}
	pk_unlock_irqrestore(&worker->lock, flags);
	return ret;
}

static void flush_fn(struct kthread_work *work)
{
	complete(&((struct kthread_flush_work *)work)->done);
}

void kthread_flush_work(struct kthread_work *work)
{
	struct kthread_flush_work fwork = {
		.work = KTHREAD_WORK_INIT(fwork.work, flush_fn),
	};
	struct kthread_worker *worker = work->worker;
	unsigned long flags;
	bool noop = false;

	might_sleep();
	if (!worker)
		return;
	init_completion(&fwork.done);
	pk_lock_irqsave(&worker->lock, flags);
	if (!list_empty(&work->node) && !work->pk_delayed)
		insert_work(worker, &fwork.work, work->node.next);
	else if (worker->current_work == work)
		insert_work(worker, &fwork.work, worker->work_list.next);
	else
		noop = true;
	pk_unlock_irqrestore(&worker->lock, flags);
	if (WARN_ONCE(!noop && worker->task == current,
		      "kthread_flush_work() from its own worker"))
		return; /* it would wait for itself: leave it queued */
	if (!noop)
		wait_for_completion(&fwork.done);
}

void kthread_flush_worker(struct kthread_worker *worker)
{
	struct kthread_flush_work fwork = {
		.work = KTHREAD_WORK_INIT(fwork.work, flush_fn),
	};

	might_sleep();
	init_completion(&fwork.done);
	kthread_queue_work(worker, &fwork.work);
	wait_for_completion(&fwork.done);
}

static bool cancel_sync(struct kthread_work *work, struct timer_list *timer)
{
	struct kthread_worker *worker = work->worker;
	unsigned long flags;
	bool ret;

	might_sleep();
	if (!worker)
		return false;
	pk_lock_irqsave(&worker->lock, flags);
	work->canceling++; /* queueing, and the timer's, fail from here */
	pk_unlock_irqrestore(&worker->lock, flags);
	/* Its function must be done with the item before we return. */
	if (timer)
		del_timer_sync(timer);
	pk_lock_irqsave(&worker->lock, flags);
	ret = dequeue_work(work, NULL);
	pk_unlock_irqrestore(&worker->lock, flags);
	kthread_flush_work(work); /* only a running instance is left */
	pk_lock_irqsave(&worker->lock, flags);
	work->canceling--;
	pk_unlock_irqrestore(&worker->lock, flags);
	return ret;
}

bool kthread_cancel_work_sync(struct kthread_work *work)
{
	return cancel_sync(work, NULL);
}

bool kthread_cancel_delayed_work_sync(struct kthread_delayed_work *dwork)
{
	return cancel_sync(&dwork->work, &dwork->timer);
}

void kthread_destroy_worker(struct kthread_worker *worker)
{
	struct task_struct *task = worker->task;

	if (WARN_ON(!task))
		return;
	kthread_flush_worker(worker);
	kthread_stop(task);
	WARN_ON(!list_empty(&worker->delayed_work_list));
	WARN_ON(!list_empty(&worker->work_list));
	free(worker);
}
