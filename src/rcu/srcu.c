// SPDX-License-Identifier: MIT
/*
 * Sleepable RCU.  A grace period of a domain: wait for the readers of the
 * inactive index (late readers of an earlier flip), flip the index new
 * readers take, wait for the readers of the old one.  A reader that read
 * the index before the flip but counted itself after it reads the data
 * after the flip as well, so it cannot see what the updater removed; the
 * next grace period's first wait catches it.
 *
 * call_srcu() callbacks run in the "srcu_gp" kthread, which takes the
 * domains with queued callbacks in turn; without a machine they wait for
 * srcu_barrier() (or the next boot).
 */
#define _GNU_SOURCE
#include <stdlib.h>

#include <preempt/bug.h>
#include <preempt/sched.h>
#include <preempt/srcu.h>
#include <preempt/wait.h>

#include "../sched/sched_internal.h"
#include "rcu_internal.h"

static int pending_lock; /* raw, interrupts off: the list below */
static struct srcu_struct *pending;
static struct task_struct *srcu_kthread;
static DECLARE_WAIT_QUEUE_HEAD(srcu_kthread_wq);
static DECLARE_WAIT_QUEUE_HEAD(srcu_done_wq);

int __init_srcu_struct(struct srcu_struct *ssp, const char *name,
		       struct lock_class_key *key)
{
	*ssp = (struct srcu_struct){0};
	ssp->cbs_tail = &ssp->cbs;
	lockdep_init_map(&ssp->dep_map, name, key, 0);
	return 0;
}

void cleanup_srcu_struct(struct srcu_struct *ssp)
{
	WARN(pk_srcu_readers_inside(ssp),
	     "cleanup_srcu_struct(): readers still inside");
	WARN(__atomic_load_n(&ssp->n_cbs, __ATOMIC_ACQUIRE),
	     "cleanup_srcu_struct(): callbacks still queued");
}

static void wait_readers(struct srcu_struct *ssp, int idx)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	while (__atomic_load_n(&ssp->readers[idx], __ATOMIC_ACQUIRE))
		pk_rcu_poll_pause();
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

static void srcu_gp(struct srcu_struct *ssp)
{
	unsigned long flags;
	int cur;

	/* A raw lock held across sleeps: taken by polling, never spun on. */
	while (__atomic_exchange_n(&ssp->gp_lock, 1, __ATOMIC_ACQUIRE))
		pk_rcu_poll_pause();
	cur = (int)(__atomic_load_n(&ssp->idx, __ATOMIC_ACQUIRE) & 1);
	wait_readers(ssp, cur ^ 1);
	local_irq_save(flags);
	__atomic_add_fetch(&ssp->idx, 1, __ATOMIC_SEQ_CST);
	local_irq_restore(flags);
	wait_readers(ssp, cur);
	ssp->gps++;
	__atomic_store_n(&ssp->gp_lock, 0, __ATOMIC_RELEASE);
}

void synchronize_srcu(struct srcu_struct *ssp)
{
	/* Waits for the readers as a writer would: the kernel's lock_sync() */
	lock_sync(&ssp->dep_map, 0, 0, 1, NULL,
		  (unsigned long)__builtin_return_address(0));
	RCU_LOCKDEP_WARN(debug_locks && (lock_is_held(&rcu_lock_map) > 0 ||
					 lock_is_held(&rcu_bh_lock_map) > 0 ||
					 lock_is_held(&rcu_sched_lock_map) > 0),
			 "Illegal synchronize_srcu() in same-type SRCU (or in "
			 "RCU) read-side critical section");
	might_sleep();
	srcu_gp(ssp);
}

void call_srcu(struct srcu_struct *ssp, struct rcu_head *head,
	       rcu_callback_t func)
{
	unsigned long flags;
	bool wake = false;

	head->func = func;
	head->next = NULL;
	local_irq_save(flags);
	pk_raw_lock(&ssp->cb_lock);
	*ssp->cbs_tail = head;
	ssp->cbs_tail = &head->next;
	ssp->n_cbs++;
	pk_raw_unlock(&ssp->cb_lock);
	pk_raw_lock(&pending_lock);
	if (!ssp->queued) {
		ssp->queued = 1;
		ssp->pk_next = pending;
		pending = ssp;
		wake = true;
	}
	pk_raw_unlock(&pending_lock);
	local_irq_restore(flags);
	if (wake && pk_rcu_booted())
		wake_up(&srcu_kthread_wq);
}

/* One domain: a grace period, then the callbacks queued before it. */
static void srcu_process(struct srcu_struct *ssp)
{
	struct rcu_head *list, *next;
	unsigned long flags;
	long n = 0;

	local_irq_save(flags);
	pk_raw_lock(&ssp->cb_lock);
	list = ssp->cbs;
	ssp->cbs = NULL;
	ssp->cbs_tail = &ssp->cbs;
	pk_raw_unlock(&ssp->cb_lock);
	local_irq_restore(flags);
	if (!list)
		return;
	srcu_gp(ssp);
	for (; list; list = next, n++) {
		next = list->next;
		list->func(list);
	}
	__atomic_sub_fetch(&ssp->n_cbs, n, __ATOMIC_SEQ_CST);
	wake_up_all(&srcu_done_wq);
}

static struct srcu_struct *pending_pop(void)
{
	struct srcu_struct *ssp;
	unsigned long flags;

	local_irq_save(flags);
	pk_raw_lock(&pending_lock);
	ssp = pending;
	if (ssp) {
		pending = ssp->pk_next;
		ssp->queued = 0;
	}
	pk_raw_unlock(&pending_lock);
	local_irq_restore(flags);
	return ssp;
}

static void process_pending(void)
{
	struct srcu_struct *ssp;

	while ((ssp = pending_pop()))
		srcu_process(ssp);
}

static int srcu_kthread_fn(void *arg)
{
	(void)arg;
	while (!kthread_should_stop()) {
		/* call_srcu() wakes it: no polling on an idle machine. */
		wait_event(srcu_kthread_wq,
			   kthread_should_stop() ||
				   __atomic_load_n(&pending, __ATOMIC_ACQUIRE));
		process_pending();
	}
	return 0;
}

void srcu_barrier(struct srcu_struct *ssp)
{
	might_sleep();
	if (!pk_rcu_booted()) {
		process_pending();
		return;
	}
	wake_up(&srcu_kthread_wq);
	wait_event(srcu_done_wq,
		   __atomic_load_n(&ssp->n_cbs, __ATOMIC_ACQUIRE) == 0);
}

void pk_srcu_boot(void)
{
	srcu_kthread = kthread_run(srcu_kthread_fn, NULL, "srcu_gp");
	if (!srcu_kthread)
		BUG();
}

void pk_srcu_shutdown(void)
{
	if (!srcu_kthread)
		return;
	kthread_stop(srcu_kthread);
	srcu_kthread = NULL;
	process_pending(); /* from the host thread: the vCPUs are still up */
}
