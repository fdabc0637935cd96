/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_KTHREAD_H
#define PREEMPT_KTHREAD_H

/*
 * kthread_worker: one kthread that runs queued kthread_work items one at a
 * time, in queueing order (include/linux/kthread.h).  kthread_create(),
 * kthread_run(), kthread_stop() and kthread_should_stop() are in
 * <preempt/sched.h>, included here.
 */

#include <stdbool.h>
#include <preempt/list.h>
#include <preempt/sched.h>
#include <preempt/timer.h>

struct kthread_work;
typedef void (*kthread_work_func_t)(struct kthread_work *work);

struct kthread_worker {
	unsigned int flags;
	int lock; /* raw, interrupts off while held */
	struct list_head work_list;
	struct list_head delayed_work_list;
	struct task_struct *task;
	struct kthread_work *current_work;
};

struct kthread_work {
	struct list_head node;
	kthread_work_func_t func;
	struct kthread_worker *worker;
	int canceling;	/* queueing fails meanwhile */
	int pk_delayed; /* on delayed_work_list, its timer armed */
};

struct kthread_delayed_work {
	struct kthread_work work;
	struct timer_list timer;
};

#define KTHREAD_WORKER_INIT(worker)                                            \
	{                                                                      \
		.flags = 0, .lock = 0,                                         \
		.work_list = LIST_HEAD_INIT((worker).work_list),               \
		.delayed_work_list =                                           \
			LIST_HEAD_INIT((worker).delayed_work_list),            \
		.task = 0, .current_work = 0                                   \
	}
#define KTHREAD_WORK_INIT(work, fn)                                            \
	{                                                                      \
		.node = LIST_HEAD_INIT((work).node), .func = (fn),             \
		.worker = 0, .canceling = 0, .pk_delayed = 0                   \
	}
#define DEFINE_KTHREAD_WORKER(worker)                                          \
	struct kthread_worker worker = KTHREAD_WORKER_INIT(worker)
#define DEFINE_KTHREAD_WORK(work, fn)                                          \
	struct kthread_work work = KTHREAD_WORK_INIT(work, fn)

/** kthread_init_worker() - initialize @worker.  Any context. */
void kthread_init_worker(struct kthread_worker *worker);

/** kthread_init_work() - @work runs @fn.  Any context, while idle. */
static inline void kthread_init_work(struct kthread_work *work,
				     kthread_work_func_t fn)
{
	INIT_LIST_HEAD(&work->node);
	work->func = fn;
	work->worker = 0;
	work->canceling = 0;
	work->pk_delayed = 0;
}

void kthread_delayed_work_timer_fn(struct timer_list *t);

/** kthread_init_delayed_work() - @dwork runs @fn.  Any context. */
static inline void kthread_init_delayed_work(struct kthread_delayed_work *dwork,
					     kthread_work_func_t fn)
{
	kthread_init_work(&dwork->work, fn);
	timer_setup(&dwork->timer, kthread_delayed_work_timer_fn, 0);
}

/**
 * kthread_worker_fn() - the loop of a kthread that serves @worker_ptr, for
 * kthread_run(kthread_worker_fn, &worker, ...).  Task context.
 */
int kthread_worker_fn(void *worker_ptr);

/**
 * kthread_create_worker() - a worker and its kthread, started
 *
 * Task or thread context (allocates), machine booted.  Returns the worker,
 * or ERR_PTR(-ENOMEM) (a negative errno as a pointer: check with IS_ERR()).
 */
struct kthread_worker *kthread_create_worker(unsigned int flags,
					     const char namefmt[], ...)
	__attribute__((format(printf, 2, 3)));

/**
 * kthread_create_worker_on_cpu() - as kthread_create_worker(), its kthread
 * bound to vCPU @cpu; @namefmt gets @cpu as its argument.
 */
struct kthread_worker *kthread_create_worker_on_cpu(int cpu, unsigned int flags,
						    const char namefmt[]);

/**
 * kthread_queue_work() - queue @work on @worker
 *
 * Any context, interrupts included.  Returns false if it was pending (or
 * being cancelled).
 */
bool kthread_queue_work(struct kthread_worker *worker,
			struct kthread_work *work);

/**
 * kthread_queue_delayed_work() - queue @dwork after @delay ticks
 *
 * Any context; the timer is armed on the caller's vCPU (vCPU 0 from a
 * thread that is none).  Returns false if it was pending.
 */
bool kthread_queue_delayed_work(struct kthread_worker *worker,
				struct kthread_delayed_work *dwork,
				unsigned long delay);

/**
 * kthread_mod_delayed_work() - queue @dwork after @delay ticks, pending or
 * not.  Any context.  Returns true if it was pending (or being cancelled,
 * when nothing is queued).
 */
bool kthread_mod_delayed_work(struct kthread_worker *worker,
			      struct kthread_delayed_work *dwork,
			      unsigned long delay);

/**
 * kthread_flush_work() - wait until the queued or running instance of
 * @work has run.  Task or thread context (may sleep), not from @work.
 */
void kthread_flush_work(struct kthread_work *work);

/** kthread_flush_worker() - wait until all queued so far has run. */
void kthread_flush_worker(struct kthread_worker *worker);

/**
 * kthread_cancel_work_sync() - take @work off its worker if pending and
 * wait until it is not running.  Task or thread context.  Returns true
 * if it was pending.
 */
bool kthread_cancel_work_sync(struct kthread_work *work);

/** kthread_cancel_delayed_work_sync() - the same, timer included. */
bool kthread_cancel_delayed_work_sync(struct kthread_delayed_work *dwork);

/**
 * kthread_destroy_worker() - flush @worker, stop its kthread, free it
 * (made by kthread_create_worker*()).  Task or thread context.
 */
void kthread_destroy_worker(struct kthread_worker *worker);

#endif /* PREEMPT_KTHREAD_H */
