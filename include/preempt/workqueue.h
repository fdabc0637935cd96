/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_WORKQUEUE_H
#define PREEMPT_WORKQUEUE_H

/*
 * Workqueues, as the kernel's (Documentation/core-api/workqueue.rst): work
 * items run in task context by kworker tasks of worker pools, two per vCPU
 * (normal and WQ_HIGHPRI) with their workers bound to it, and two unbound
 * pools.  A per-CPU pool runs one worker at a time: when the running worker
 * sleeps, the scheduler tells the pool, which wakes (or makes) another to
 * run the next item, and when it wakes the pool again counts it as
 * running (concurrency management, kernel/workqueue.c).
 *
 * A work item is never run by two workers at once: queued again while it
 * runs, it goes to the pool that runs it, after the running instance.
 * Needs a booted machine: the pools' workers are its tasks.
 */

#include <stdbool.h>
#include <preempt/list.h>
#include <preempt/lockdep_types.h>
#include <preempt/timer.h>

struct work_struct;
struct workqueue_struct;
typedef void (*work_func_t)(struct work_struct *work);

/* work_struct.data: bit 0 pending (queued or about to be), the rest ours. */
#define WORK_STRUCT_PENDING_BIT 0
#define WORK_STRUCT_PENDING (1UL << WORK_STRUCT_PENDING_BIT)
#define WORK_STRUCT_PK_BARRIER (1UL << 1) /* a flush's own barrier item */
#define WORK_STRUCT_PK_LINKED (1UL << 2)  /* runs right after the previous */
#define WORK_STRUCT_PK_COLOR (1UL << 3)	  /* queued in flush color 1 */

struct work_struct {
	unsigned long data;
	struct list_head entry;
	work_func_t func;
	void *pk_pool; /* the pool it was last queued on */
	void *pk_pwq;  /* while queued: its workqueue's share of that pool */
	/* Kernel code's (linux/workqueue.h has this layout); unused here. */
	struct lockdep_map lockdep_map;
};

/* The kernel form's layout (include/kernel/linux/workqueue.h), spelled
 * the same way there. */
_Static_assert(__builtin_offsetof(struct work_struct, entry) ==
			       sizeof(unsigned long) &&
		       __builtin_offsetof(struct work_struct, func) ==
			       sizeof(unsigned long) +
				       sizeof(struct list_head) &&
		       __builtin_offsetof(struct work_struct, lockdep_map) ==
			       __builtin_offsetof(struct work_struct, func) +
				       3 * sizeof(void *) &&
		       sizeof(struct work_struct) ==
			       __builtin_offsetof(struct work_struct,
						  lockdep_map) +
				       sizeof(struct lockdep_map),
	       "struct work_struct: the kernel form's layout");

#define __WORK_INITIALIZER(n, f)                                               \
	{                                                                      \
		.data = 0, .entry = LIST_HEAD_INIT((n).entry), .func = (f),    \
		.pk_pool = NULL, .pk_pwq = NULL                                \
	}
#define DECLARE_WORK(n, f) struct work_struct n = __WORK_INITIALIZER(n, f)

/** INIT_WORK() - initialize @_work to run @_func.  Any context. */
#define INIT_WORK(_work, _func)                                                \
	do {                                                                   \
		struct work_struct *__w = (_work);                             \
		__w->data = 0;                                                 \
		INIT_LIST_HEAD(&__w->entry);                                   \
		__w->func = (_func);                                           \
		__w->pk_pool = NULL;                                           \
		__w->pk_pwq = NULL;                                            \
	} while (0)
#define INIT_WORK_ONSTACK(_work, _func) INIT_WORK(_work, _func)

/** work_pending() - is @work queued (or a delayed one's timer armed)? */
#define work_pending(work)                                                     \
	((__atomic_load_n(&(work)->data, __ATOMIC_ACQUIRE) &                   \
	  WORK_STRUCT_PENDING) != 0)

struct delayed_work {
	struct work_struct work;
	struct timer_list timer;
	struct workqueue_struct *wq; /* where the timer queues it */
	int cpu;
};

void delayed_work_timer_fn(struct timer_list *t);

#define INIT_DELAYED_WORK(_dwork, _func)                                       \
	do {                                                                   \
		INIT_WORK(&(_dwork)->work, (_func));                           \
		timer_setup(&(_dwork)->timer, delayed_work_timer_fn, 0);       \
		(_dwork)->wq = NULL;                                           \
		(_dwork)->cpu = 0;                                             \
	} while (0)
#define INIT_DEFERRABLE_WORK(_dwork, _func) INIT_DELAYED_WORK(_dwork, _func)
#define __DELAYED_WORK_INITIALIZER(n, f, tflags)                               \
	{                                                                      \
		.work = __WORK_INITIALIZER((n).work, (f)),                     \
		.timer = {.entry = LIST_HEAD_INIT((n).timer.entry),            \
			  .expires = 0,                                        \
			  .function = delayed_work_timer_fn,                   \
			  .cpu = -1},                                          \
		.wq = NULL, .cpu = 0                                           \
	}
#define DECLARE_DELAYED_WORK(n, f)                                             \
	struct delayed_work n = __DELAYED_WORK_INITIALIZER(n, f, 0)

/** to_delayed_work() - the delayed_work around @work. */
static inline struct delayed_work *to_delayed_work(struct work_struct *work)
{
	return (struct delayed_work *)((char *)work -
				       __builtin_offsetof(struct delayed_work,
							  work));
}

#define delayed_work_pending(w) work_pending(&(w)->work)

/* alloc_workqueue() flags, the kernel's values. */
enum {
	WQ_UNBOUND = 1 << 1,	     /* workers not bound to a CPU */
	WQ_FREEZABLE = 1 << 2,	     /* accepted: nothing freezes */
	WQ_MEM_RECLAIM = 1 << 3,     /* accepted: workers are never short */
	WQ_HIGHPRI = 1 << 4,	     /* the highpri pools */
	WQ_CPU_INTENSIVE = 1 << 5,   /* accepted */
	WQ_SYSFS = 1 << 6,	     /* accepted */
	WQ_POWER_EFFICIENT = 1 << 7, /* accepted */
	__WQ_ORDERED = 1 << 17,	     /* one item at a time, in queueing order */
	WQ_MAX_ACTIVE = 512,
	WQ_DFL_ACTIVE = WQ_MAX_ACTIVE / 2,
};

/* queue_work_on()'s "no CPU in particular": the caller's own. */
#define WORK_CPU_UNBOUND 64

/* The system's queues, made at machine_boot(), gone at shutdown. */
extern struct workqueue_struct *system_wq;
extern struct workqueue_struct *system_highpri_wq;
extern struct workqueue_struct *system_long_wq;
extern struct workqueue_struct *system_unbound_wq;
extern struct workqueue_struct *system_freezable_wq;
extern struct workqueue_struct *system_power_efficient_wq;

/**
 * alloc_workqueue() - a workqueue named after @fmt
 * @flags: WQ_* (WQ_UNBOUND and WQ_HIGHPRI choose the pools; the others are
 *         accepted)
 * @max_active: items of this queue running at once per pool (per CPU for
 *         a bound queue, in all for an unbound one); 0 for the default,
 *         256; at most 512
 *
 * Task or thread context (allocates).  NULL when memory is short.
 */
struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
	__attribute__((format(printf, 1, 4)));

/** alloc_ordered_workqueue() - unbound, one item at a time, in order. */
#define alloc_ordered_workqueue(fmt, flags, ...)                               \
	alloc_workqueue(fmt, WQ_UNBOUND | __WQ_ORDERED | (flags), 1,           \
			##__VA_ARGS__)

/**
 * destroy_workqueue() - drain @wq, then free it
 *
 * Task or thread context (may sleep).  Delayed items whose timer is still
 * armed must have been cancelled.
 */
void destroy_workqueue(struct workqueue_struct *wq);

/**
 * queue_work_on() - queue @work on @wq, on the pool of CPU @cpu
 * (WORK_CPU_UNBOUND: the caller's; an unbound @wq ignores @cpu)
 *
 * Any context, interrupts included.  Returns false if @work was already
 * pending (it is not queued twice), true if it was queued.
 */
bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work);

/** queue_work() - queue_work_on() the caller's CPU.  Any context. */
static inline bool queue_work(struct workqueue_struct *wq,
			      struct work_struct *work)
{
	return queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

/** schedule_work() - queue_work() on system_wq.  Any context. */
static inline bool schedule_work(struct work_struct *work)
{
	return queue_work(system_wq, work);
}

/** schedule_work_on() - queue_work_on() on system_wq.  Any context. */
static inline bool schedule_work_on(int cpu, struct work_struct *work)
{
	return queue_work_on(cpu, system_wq, work);
}

/**
 * queue_delayed_work_on() - queue @dwork on @wq after @delay ticks (at
 * once for 0)
 *
 * Any context; the timer is armed on the caller's vCPU (vCPU 0 from a
 * thread that is not one).  Returns false if it was already pending.
 */
bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay);

static inline bool queue_delayed_work(struct workqueue_struct *wq,
				      struct delayed_work *dwork,
				      unsigned long delay)
{
	return queue_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

static inline bool schedule_delayed_work(struct delayed_work *dwork,
					 unsigned long delay)
{
	return queue_delayed_work(system_wq, dwork, delay);
}

/**
 * mod_delayed_work_on() - queue @dwork after @delay ticks whether or not
 * it is pending (its timer or queueing is replaced)
 *
 * Any context.  Returns true if it was pending, false if not.
 */
bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay);

static inline bool mod_delayed_work(struct workqueue_struct *wq,
				    struct delayed_work *dwork,
				    unsigned long delay)
{
	return mod_delayed_work_on(WORK_CPU_UNBOUND, wq, dwork, delay);
}

/**
 * flush_work() - wait until the instance of @work queued (or running) at
 * the call has finished; later queueings are not waited for
 *
 * Task or thread context (may sleep); not from @work itself.  Returns true
 * if it waited, false if @work was idle.
 */
bool flush_work(struct work_struct *work);

/**
 * flush_delayed_work() - queue @dwork now if its timer is armed, then
 * flush_work().  Task or thread context.
 */
bool flush_delayed_work(struct delayed_work *dwork);

/**
 * flush_workqueue() - wait for every item queued on @wq before the call
 *
 * Task or thread context (may sleep), not from an item of @wq.
 */
void flush_workqueue(struct workqueue_struct *wq);

/**
 * drain_workqueue() - wait until @wq is empty, items that queue more on it
 * included; meanwhile only its own items may queue on it (others are
 * refused with a warning).  Task or thread context.
 */
void drain_workqueue(struct workqueue_struct *wq);

/** flush_scheduled_work() - flush_workqueue(system_wq). */
#define flush_scheduled_work() flush_workqueue(system_wq)

/**
 * cancel_work_sync() - take @work off its queue if pending, and wait
 * until it is not running; queueing it meanwhile fails
 *
 * Task or thread context (may sleep); not from @work itself.  Returns true
 * if it was pending.
 */
bool cancel_work_sync(struct work_struct *work);

/**
 * cancel_work() - take @work off its queue if pending; no wait for a
 * running instance.  Any context.  Returns true if it was pending.
 */
bool cancel_work(struct work_struct *work);

/**
 * cancel_delayed_work() - disarm @dwork's timer or take it off its queue.
 * Any context.  Returns true if it was pending.
 */
bool cancel_delayed_work(struct delayed_work *dwork);

/**
 * cancel_delayed_work_sync() - cancel_delayed_work(), then wait until it
 * is not running.  Task or thread context (may sleep).
 */
bool cancel_delayed_work_sync(struct delayed_work *dwork);

/**
 * current_work() - the item the calling worker runs, or NULL if the
 * caller is no worker.  Any context.
 */
struct work_struct *current_work(void);

/** current_is_workqueue_rescuer() - never: no rescuers are needed here. */
static inline bool current_is_workqueue_rescuer(void)
{
	return false;
}

/**
 * struct pk_wq_pool_stats - a worker pool, as seen now
 * @nr_workers: its workers
 * @nr_idle: those waiting for work
 * @nr_running: busy workers that are not asleep (per-CPU pools)
 * @max_running: the most that ever were, since boot
 */
struct pk_wq_pool_stats {
	int nr_workers, nr_idle, nr_running, max_running;
};

/**
 * pk_wq_pool_stats() - the counters of vCPU @cpu's pool (@highpri: the
 * highpri one; @cpu -1: the unbound pools).  Any context.
 */
struct pk_wq_pool_stats pk_wq_pool_stats(int cpu, bool highpri);

#endif /* PREEMPT_WORKQUEUE_H */
