// SPDX-License-Identifier: MIT
/*
 * Workqueues (kernel/workqueue.c's model, our own code).
 *
 * Pools: per vCPU a normal and a highpri pool whose workers are bound to
 * it, and two unbound pools.  A workqueue has one pool_workqueue (pwq) per
 * pool it uses: it counts the queue's items active in that pool against
 * max_active (the rest wait on the pwq's inactive list) and its items in
 * flight per flush color.
 *
 * Concurrency management: a per-CPU pool counts its busy workers that are
 * not asleep (nr_running).  A queued item wakes an idle worker only when
 * none runs; a busy worker goes on with the next item only while it is
 * the only one running; schedule() reports a busy worker's sleep
 * (pk_wq_worker_sleeping), which wakes an idle worker if items wait, and
 * its wake-up (pk_wq_worker_running).  A worker that leaves idle with no
 * other idle worker left first makes one, so a sleeping worker always has
 * someone to hand over to.  Unbound pools are not counted: every item gets
 * a worker.
 *
 * Flushing: flush_work() puts a barrier item right after the work (linked:
 * the worker that takes the work takes it too) or at the head of the list
 * of the worker running it, and waits for it.  flush_workqueue() flips the
 * queue's flush color and waits until no item of the old color is left.
 *
 * Locks: a pool's lock (raw, interrupts off), then a wait queue's lock.
 * An item's data word is only written with atomics: once its pending bit
 * is clear, queue_work() may set it from any context.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/bug.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/sched.h>
#include <preempt/wait.h>
#include <preempt/workqueue.h>

#include "../debug/report.h"
#include "sched_internal.h"
#include "../port/sim.h"

#define WORK_PK_INACTIVE (1UL << 4) /* on its pwq's inactive list */
#define WORK_PK_BITS                                                           \
	(WORK_STRUCT_PENDING | WORK_STRUCT_PK_LINKED | WORK_STRUCT_PK_COLOR |  \
	 WORK_PK_INACTIVE)
#define NR_COLORS 2

struct worker_pool {
	int lock;
	int cpu; /* -1: unbound */
	bool highpri;
	struct list_head worklist;
	struct list_head idle_list;
	struct list_head workers;
	int nr_workers, nr_idle, nr_running, max_running;
	int creating; /* a worker is being made */
	int next_id;
};

struct pool_workqueue {
	struct workqueue_struct *wq;
	struct worker_pool *pool;
	int nr_active, max_active;
	struct list_head inactive;
	int nr_in_flight[NR_COLORS];
	int color; /* what items queued now get */
};

struct workqueue_struct {
	char name[32];
	unsigned int flags;
	int draining;
	int flushing; /* one flusher at a time */
	wait_queue_head_t flush_wait;
	int nr_pwqs;
	struct pool_workqueue pwqs[]; /* per vCPU, or one if unbound */
};

struct worker {
	struct task_struct *task;
	struct worker_pool *pool;
	struct work_struct *current_work;
	work_func_t current_func;
	struct pool_workqueue *current_pwq;
	struct list_head scheduled; /* taken from the pool, to run in order */
	struct list_head node;	    /* on the idle list */
	struct list_head all;
	bool idle, counted, sleeping;
};

/*
 * Kernel code finds the worker it runs in with kthread_data(current)
 * (kernel/workqueue_internal.h's current_wq_worker(), for
 * kernel/async.c's current_is_async()) and reads current_work and
 * current_func where the kernel's struct worker has them: after a
 * two-pointer list link.
 */
_Static_assert(__builtin_offsetof(struct worker, current_work) ==
			       2 * sizeof(void *) &&
		       __builtin_offsetof(struct worker, current_func) ==
			       3 * sizeof(void *),
	       "struct worker: current_work/current_func as the kernel's");

struct wq_barrier {
	struct work_struct work;
	struct completion done;
};

static struct worker_pool cpu_pools[PK_NR_CPUS][2];
static struct worker_pool unbound_pools[2];
static int nr_pools_cpus;
static DECLARE_WAIT_QUEUE_HEAD(wq_done_wait); /* items in flight drop */

struct workqueue_struct *system_wq;
struct workqueue_struct *system_highpri_wq;
struct workqueue_struct *system_long_wq;
struct workqueue_struct *system_unbound_wq;
struct workqueue_struct *system_freezable_wq;
struct workqueue_struct *system_power_efficient_wq;

/* ---- pools and workers ---- */

static bool pool_bound(const struct worker_pool *pool)
{
	return pool->cpu >= 0;
}

/* Items wait and nobody runs: a worker must come. */
static bool need_more_worker(const struct worker_pool *pool)
{
	return !list_empty(&pool->worklist) &&
	       (!pool_bound(pool) || !pool->nr_running);
}

/* A busy worker goes on only while it is the pool's only runner. */
static bool keep_working(const struct worker_pool *pool)
{
	return !list_empty(&pool->worklist) &&
	       (!pool_bound(pool) || pool->nr_running <= 1);
}

/* Under the pool lock. */
static void kick_pool(struct worker_pool *pool)
{
	struct worker *w;

	if (!need_more_worker(pool) || list_empty(&pool->idle_list))
		return;
	w = list_first_entry(&pool->idle_list, struct worker, node);
	wake_up_process(w->task);
}

static void set_counted(struct worker *w, bool counted)
{
	struct worker_pool *pool = w->pool;

	if (!pool_bound(pool) || w->counted == counted)
		return;
	w->counted = counted;
	if (counted && ++pool->nr_running > pool->max_running)
		pool->max_running = pool->nr_running;
	else if (!counted)
		pool->nr_running--;
}

void pk_wq_worker_sleeping(struct task_struct *p)
{
	struct worker *w = p->pk_worker;
	unsigned long flags;

	if (!w->counted || w->sleeping)
		return;
	pk_lock_irqsave(&w->pool->lock, flags);
	w->sleeping = true;
	w->pool->nr_running--;
	kick_pool(w->pool);
	pk_unlock_irqrestore(&w->pool->lock, flags);
}

void pk_wq_worker_running(struct task_struct *p)
{
	struct worker *w = p->pk_worker;
	unsigned long flags;

	if (!w->sleeping)
		return;
	pk_lock_irqsave(&w->pool->lock, flags);
	w->sleeping = false;
	if (++w->pool->nr_running > w->pool->max_running)
		w->pool->max_running = w->pool->nr_running;
	pk_unlock_irqrestore(&w->pool->lock, flags);
}

static struct worker *find_worker_executing(struct worker_pool *pool,
					    struct work_struct *work)
{
	struct worker *w, *n;

	list_for_each_entry_safe(w, n, &pool->workers, all)
	{
		if (w->current_work == work && w->current_func == work->func)
			return w;
	}
	return NULL;
}

/* @work and the barriers linked after it on @src, to the tail of @dst. */
static void move_linked_works(struct work_struct *work, struct list_head *src,
			      struct list_head *dst)
{
	for (;;) {
		struct list_head *next = work->entry.next;

		list_del_init(&work->entry);
		list_add_tail(&work->entry, dst);
		__atomic_and_fetch(&work->data, ~WORK_PK_INACTIVE,
				   __ATOMIC_RELAXED);
		if (next == src)
			break;
		work = list_entry(next, struct work_struct, entry);
		if (!(__atomic_load_n(&work->data, __ATOMIC_RELAXED) &
		      WORK_STRUCT_PK_LINKED))
			break;
	}
}

static void enter_idle(struct worker *w)
{
	w->idle = true;
	list_add(&w->node, &w->pool->idle_list); /* LIFO: the warmest */
	w->pool->nr_idle++;
}

static void leave_idle(struct worker *w)
{
	if (!w->idle)
		return;
	w->idle = false;
	list_del_init(&w->node);
	w->pool->nr_idle--;
}

static int worker_fn(void *arg);

/* Task or thread context: may allocate. */
static struct worker *create_worker(struct worker_pool *pool)
{
	struct worker *w = calloc(1, sizeof(*w));
	unsigned long flags;
	int id;

	if (!w)
		return NULL;
	INIT_LIST_HEAD(&w->scheduled);
	INIT_LIST_HEAD(&w->node);
	w->pool = pool;
	id = __atomic_fetch_add(&pool->next_id, 1, __ATOMIC_RELAXED);
	if (pool_bound(pool))
		w->task =
			kthread_create(worker_fn, w, "kworker/%d:%d%s",
				       pool->cpu, id, pool->highpri ? "H" : "");
	else
		w->task = kthread_create(worker_fn, w, "kworker/u:%d%s", id,
					 pool->highpri ? "H" : "");
	if (!w->task) {
		free(w);
		return NULL;
	}
	if (pool_bound(pool))
		kthread_bind(w->task, pool->cpu);
	w->task->flags |= PF_WQ_WORKER;
	w->task->pk_worker = w;
	pk_lock_irqsave(&pool->lock, flags);
	list_add_tail(&w->all, &pool->workers);
	pool->nr_workers++;
	/* Idle from birth: the spare its maker wanted, even before it runs. */
	enter_idle(w);
	pk_unlock_irqrestore(&pool->lock, flags);
	wake_up_process(w->task);
	return w;
}

/* ---- running items ---- */

static void wq_barrier_func(struct work_struct *work)
{
	struct wq_barrier *barr = (struct wq_barrier *)work;

	complete(&barr->done);
}

/* Under the pool lock: activate inactive items while max_active allows. */
static void pwq_activate(struct pool_workqueue *pwq)
{
	while (!list_empty(&pwq->inactive) &&
	       pwq->nr_active < pwq->max_active) {
		struct work_struct *w = list_first_entry(
			&pwq->inactive, struct work_struct, entry);

		if (!(__atomic_load_n(&w->data, __ATOMIC_RELAXED) &
		      WORK_STRUCT_PK_BARRIER))
			pwq->nr_active++;
		move_linked_works(w, &pwq->inactive, &pwq->pool->worklist);
	}
	kick_pool(pwq->pool);
}

/* Under the pool lock: one item of @pwq (of @color) is done or gone. */
static void pwq_dec(struct pool_workqueue *pwq, int color, bool active)
{
	if (active) {
		pwq->nr_active--;
		pwq_activate(pwq);
	}
	/* Last: a flusher may free the queue once this reaches zero. */
	if (!--pwq->nr_in_flight[color])
		wake_up_all(&wq_done_wait);
}

static void report_leak(struct worker *w, work_func_t fn, int locks, int rcu)
{
	char sym[160];

	pk_warn_kind(PK_REPORT_SCHED_ATOMIC,
		     "BUG: workqueue leaked atomic, lock or RCU: %s[%d]\n"
		     "     preempt=0x%08x lock=%d->%d RCU=%d->%d workfn=%s",
		     w->task->comm, w->task->pid, preempt_count(), locks,
		     lockdep_depth(w->task), rcu, pk_rcu_preempt_depth(),
		     pk_sym_str((unsigned long)fn, sym, sizeof(sym)));
}

/* Under the pool lock, which is dropped while @work runs. */
static void process_one_work(struct worker *w, struct work_struct *work,
			     unsigned long *flags)
{
	struct worker_pool *pool = w->pool;
	unsigned long data = __atomic_load_n(&work->data, __ATOMIC_ACQUIRE);
	bool barrier = data & WORK_STRUCT_PK_BARRIER;
	struct pool_workqueue *pwq = work->pk_pwq;
	int color = (data & WORK_STRUCT_PK_COLOR) ? 1 : 0;
	work_func_t fn = work->func;
	int locks, rcu;

	list_del_init(&work->entry);
	w->current_work = work;
	w->current_func = fn;
	w->current_pwq = barrier ? NULL : pwq;
	/* From here it may be queued again: to this pool, after us. */
	if (!barrier)
		__atomic_and_fetch(&work->data, ~WORK_PK_BITS,
				   __ATOMIC_RELEASE);
	kick_pool(pool);
	pk_unlock_irqrestore(&pool->lock, *flags);

	locks = lockdep_depth(w->task);
	rcu = pk_rcu_preempt_depth();
	fn(work);
	if (unlikely(preempt_count() || irqs_disabled() ||
		     lockdep_depth(w->task) != locks ||
		     pk_rcu_preempt_depth() != rcu)) {
		report_leak(w, fn, locks, rcu);
		preempt_count_set(0);
		local_irq_enable();
	}
	cond_resched();

	pk_lock_irqsave(&pool->lock, *flags);
	w->current_work = NULL;
	w->current_func = NULL;
	w->current_pwq = NULL;
	if (!barrier)
		pwq_dec(pwq, color, true);
}

/* The first waiting item (and its linked barriers) to whoever must run it. */
static void assign_first_work(struct worker *w)
{
	struct work_struct *work =
		list_first_entry(&w->pool->worklist, struct work_struct, entry);
	struct worker *busy = find_worker_executing(w->pool, work);

	/* Running already: after that instance, by the same worker. */
	move_linked_works(work, &w->pool->worklist,
			  busy ? &busy->scheduled : &w->scheduled);
}

static void process_scheduled_works(struct worker *w, unsigned long *flags)
{
	while (!list_empty(&w->scheduled))
		process_one_work(w,
				 list_first_entry(&w->scheduled,
						  struct work_struct, entry),
				 flags);
}

static int worker_fn(void *arg)
{
	struct worker *w = arg;
	struct worker_pool *pool = w->pool;
	unsigned long flags;

	pk_lock_irqsave(&pool->lock, flags);
	leave_idle(w);
	for (;;) {
		if (!need_more_worker(pool)) {
			enter_idle(w);
			/* The state before the check: kthread_stop() wakes. */
			set_current_state(TASK_IDLE);
			if (kthread_should_stop()) {
				__set_current_state(TASK_RUNNING);
				leave_idle(w);
				break;
			}
			pk_unlock_irqrestore(&pool->lock, flags);
			schedule();
			pk_lock_irqsave(&pool->lock, flags);
			leave_idle(w);
			continue;
		}
		/* Keep a spare, so that a sleep of ours can hand over. */
		if (!pool->nr_idle && !pool->creating) {
			pool->creating = 1;
			pk_unlock_irqrestore(&pool->lock, flags);
			WARN_ONCE(!create_worker(pool),
				  "workqueue: no new worker for pool %d",
				  pool->cpu);
			pk_lock_irqsave(&pool->lock, flags);
			pool->creating = 0;
			continue;
		}
		set_counted(w, true);
		do {
			assign_first_work(w);
			process_scheduled_works(w, &flags);
		} while (keep_working(pool));
		set_counted(w, false);
	}
	pk_unlock_irqrestore(&pool->lock, flags);
	/* pool_stop() frees @w once we have exited. */
	current->flags &= ~PF_WQ_WORKER;
	current->pk_worker = NULL;
	return 0;
}

/* ---- queueing ---- */

static int local_cpu(void)
{
	int n = num_online_cpus();

	/* A thread that is no vCPU has a number of its own: spread those. */
	return n ? raw_smp_processor_id() % n : 0;
}

/* Is the caller an item of @wq (which may queue on it while it drains)? */
static bool is_chained_work(struct workqueue_struct *wq)
{
	struct worker *w = pk_current ? pk_current->pk_worker : NULL;

	return w && w->current_pwq && w->current_pwq->wq == wq;
}

static struct pool_workqueue *pick_pwq(struct workqueue_struct *wq, int cpu)
{
	if (wq->flags & WQ_UNBOUND)
		return &wq->pwqs[0];
	if (cpu == WORK_CPU_UNBOUND)
		cpu = local_cpu();
	if (WARN_ONCE(cpu < 0 || cpu >= num_online_cpus(),
		      "workqueue: CPU %d is not online", cpu))
		cpu = local_cpu();
	return &wq->pwqs[cpu];
}

/* Lock and return @pool, or the pool that runs @work now (non-reentrancy). */
static struct worker_pool *lock_target_pool(struct work_struct *work,
					    struct pool_workqueue **pwq)
{
	struct worker_pool *last = work->pk_pool;

	if (last && last != (*pwq)->pool) {
		struct worker *busy;

		pk_raw_lock(&last->lock);
		busy = find_worker_executing(last, work);
		if (busy && busy->current_pwq &&
		    busy->current_pwq->wq == (*pwq)->wq) {
			*pwq = busy->current_pwq;
			return last;
		}
		pk_raw_unlock(&last->lock);
	}
	pk_raw_lock(&(*pwq)->pool->lock);
	return (*pwq)->pool;
}

/* With @work's pending bit ours and interrupts off: put it on a list. */
static void __queue_work(int cpu, struct workqueue_struct *wq,
			 struct work_struct *work)
{
	struct pool_workqueue *pwq;
	struct worker_pool *pool;
	unsigned long bits;

	if (unlikely(__atomic_load_n(&wq->draining, __ATOMIC_ACQUIRE)) &&
	    WARN_ONCE(!is_chained_work(wq),
		      "workqueue: %s is draining: only its items may queue",
		      wq->name)) {
		__atomic_and_fetch(&work->data, ~WORK_STRUCT_PENDING,
				   __ATOMIC_RELEASE);
		return;
	}
	pwq = pick_pwq(wq, cpu);
	preempt_disable_notrace();
	pool = lock_target_pool(work, &pwq);
	work->pk_pool = pool;
	work->pk_pwq = pwq;
	bits = pwq->color ? WORK_STRUCT_PK_COLOR : 0;
	pwq->nr_in_flight[pwq->color]++;
	if (pwq->nr_active < pwq->max_active) {
		pwq->nr_active++;
		__atomic_or_fetch(&work->data, bits, __ATOMIC_RELAXED);
		list_add_tail(&work->entry, &pool->worklist);
		kick_pool(pool);
	} else {
		__atomic_or_fetch(&work->data, bits | WORK_PK_INACTIVE,
				  __ATOMIC_RELAXED);
		list_add_tail(&work->entry, &pwq->inactive);
	}
	pk_raw_unlock(&pool->lock);
	preempt_enable();
}

static bool grab_pending_bit(struct work_struct *work)
{
	return !(__atomic_fetch_or(&work->data, WORK_STRUCT_PENDING,
				   __ATOMIC_ACQ_REL) &
		 WORK_STRUCT_PENDING);
}

static bool wq_usable(struct workqueue_struct *wq)
{
	return !WARN_ONCE(!wq || !pk_machine_running(),
			  "workqueue: queueing needs a booted machine");
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	unsigned long flags;

	if (!wq_usable(wq))
		return false;
	local_irq_save(flags);
	if (!grab_pending_bit(work)) {
		local_irq_restore(flags);
		return false;
	}
	__queue_work(cpu, wq, work);
	local_irq_restore(flags);
	return true;
}

void delayed_work_timer_fn(struct timer_list *t)
{
	struct delayed_work *dwork = from_timer(dwork, t, timer);
	unsigned long flags;

	local_irq_save(flags);
	__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	local_irq_restore(flags);
}

/* Pending bit ours, interrupts off. */
static void __queue_delayed_work(int cpu, struct workqueue_struct *wq,
				 struct delayed_work *dwork,
				 unsigned long delay)
{
	int tcpu;

	dwork->wq = wq;
	dwork->cpu = cpu;
	if (!delay) {
		__queue_work(cpu, wq, &dwork->work);
		return;
	}
	dwork->timer.function = delayed_work_timer_fn;
	dwork->timer.expires = pk_jiffies() + delay;
	tcpu = cpu != WORK_CPU_UNBOUND && !(wq->flags & WQ_UNBOUND)
		       ? cpu
		       : (pk_this_rq ? pk_this_rq->cpu : 0);
	add_timer_on(&dwork->timer, tcpu);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;

	if (!wq_usable(wq))
		return false;
	local_irq_save(flags);
	if (!grab_pending_bit(&dwork->work)) {
		local_irq_restore(flags);
		return false;
	}
	__queue_delayed_work(cpu, wq, dwork, delay);
	local_irq_restore(flags);
	return true;
}

/* ---- taking a pending item back ---- */

/*
 * Interrupts off.  1: it was pending (timer or list) and the pending bit
 * is now ours; 0: it was idle and the bit is ours; -EAGAIN: someone is
 * between setting the bit and queueing, try again.
 */
static int try_to_grab_pending(struct work_struct *work, bool is_dwork)
{
	struct worker_pool *pool;
	unsigned long data;
	int ret = -EAGAIN;

	if (is_dwork && del_timer(&to_delayed_work(work)->timer))
		return 1;
	if (grab_pending_bit(work))
		return 0;
	pool = __atomic_load_n(&work->pk_pool, __ATOMIC_ACQUIRE);
	if (!pool)
		return -EAGAIN;
	pk_raw_lock(&pool->lock);
	data = __atomic_load_n(&work->data, __ATOMIC_ACQUIRE);
	if (work->pk_pool == pool && !list_empty(&work->entry) &&
	    (data & WORK_STRUCT_PENDING)) {
		list_del_init(&work->entry);
		pwq_dec(work->pk_pwq, (data & WORK_STRUCT_PK_COLOR) ? 1 : 0,
			!(data & WORK_PK_INACTIVE));
		__atomic_and_fetch(&work->data,
				   ~(WORK_PK_BITS & ~WORK_STRUCT_PENDING),
				   __ATOMIC_RELAXED);
		ret = 1;
	}
	pk_raw_unlock(&pool->lock);
	return ret;
}

static int grab_pending(struct work_struct *work, bool is_dwork)
{
	unsigned long flags;
	int ret;

	for (int spins = 0;; spins++) {
		local_irq_save(flags);
		preempt_disable_notrace();
		ret = try_to_grab_pending(work, is_dwork);
		preempt_enable_no_resched_notrace();
		local_irq_restore(flags);
		if (ret != -EAGAIN)
			return ret;
		/* The queuer (perhaps a timer on another vCPU) is mid-way. */
		if (spins > 100)
			pk_host_yield();
		else
			pk_cpu_relax();
	}
}

static void release_pending(struct work_struct *work)
{
	__atomic_and_fetch(&work->data, ~WORK_STRUCT_PENDING, __ATOMIC_RELEASE);
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	unsigned long flags;
	int ret;

	if (!wq_usable(wq))
		return false;
	ret = grab_pending(&dwork->work, true);
	local_irq_save(flags);
	__queue_delayed_work(cpu, wq, dwork, delay);
	local_irq_restore(flags);
	return ret == 1;
}

bool cancel_work(struct work_struct *work)
{
	int ret = grab_pending(work, false);

	release_pending(work);
	return ret == 1;
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	int ret = grab_pending(&dwork->work, true);

	release_pending(&dwork->work);
	return ret == 1;
}

/* ---- flushing ---- */

static bool flushing_self(struct work_struct *work, const char *what)
{
	return WARN_ONCE(current_work() == work,
			 "workqueue: %s() of the running item from itself",
			 what);
}

/*
 * Queue @barr to run after the instance of @work now queued or running.
 * @pending_ok: look on the lists too (not when the caller owns the
 * pending bit, as cancel does).  Returns false if there is nothing to
 * wait for.
 */
static bool start_flush_work(struct work_struct *work, struct wq_barrier *barr)
{
	for (;;) {
		struct worker_pool *pool =
			__atomic_load_n(&work->pk_pool, __ATOMIC_ACQUIRE);
		struct worker *busy;
		unsigned long flags, data;
		bool queued = false;

		if (!pool)
			return false;
		pk_lock_irqsave(&pool->lock, flags);
		if (work->pk_pool != pool) {
			pk_unlock_irqrestore(&pool->lock, flags);
			continue; /* moved while we looked */
		}
		data = __atomic_load_n(&work->data, __ATOMIC_ACQUIRE);
		if ((data & WORK_STRUCT_PENDING) && !list_empty(&work->entry)) {
			__atomic_or_fetch(&barr->work.data,
					  WORK_STRUCT_PK_LINKED |
						  (data & WORK_PK_INACTIVE),
					  __ATOMIC_RELAXED);
			list_add(&barr->work.entry, &work->entry);
			queued = true;
		} else if ((busy = find_worker_executing(pool, work))) {
			list_add(&barr->work.entry, &busy->scheduled);
			queued = true;
		}
		pk_unlock_irqrestore(&pool->lock, flags);
		return queued;
	}
}

static bool __flush_work(struct work_struct *work)
{
	struct wq_barrier barr;

	might_sleep();
	if (flushing_self(work, "flush_work"))
		return false;
	INIT_WORK_ONSTACK(&barr.work, wq_barrier_func);
	barr.work.data = WORK_STRUCT_PK_BARRIER;
	init_completion(&barr.done);
	if (!start_flush_work(work, &barr))
		return false;
	wait_for_completion(&barr.done);
	return true;
}

bool flush_work(struct work_struct *work)
{
	return __flush_work(work);
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	unsigned long flags;

	local_irq_save(flags);
	if (del_timer(&dwork->timer))
		__queue_work(dwork->cpu, dwork->wq, &dwork->work);
	local_irq_restore(flags);
	return flush_work(&dwork->work);
}

static bool __cancel_work_sync(struct work_struct *work, bool is_dwork)
{
	int ret;

	might_sleep();
	if (flushing_self(work, "cancel_work_sync"))
		return false;
	/* Pending bit ours from here: queueing attempts fail meanwhile. */
	ret = grab_pending(work, is_dwork);
	__flush_work(work);
	release_pending(work);
	return ret == 1;
}

bool cancel_work_sync(struct work_struct *work)
{
	return __cancel_work_sync(work, false);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return __cancel_work_sync(&dwork->work, true);
}

static bool color_drained(struct workqueue_struct *wq, int color)
{
	for (int i = 0; i < wq->nr_pwqs; i++)
		if (__atomic_load_n(&wq->pwqs[i].nr_in_flight[color],
				    __ATOMIC_ACQUIRE))
			return false;
	return true;
}

void flush_workqueue(struct workqueue_struct *wq)
{
	int color = 0;

	might_sleep();
	if (WARN_ONCE(is_chained_work(wq),
		      "workqueue: flush_workqueue(%s) from its own item",
		      wq->name))
		return;
	wait_event(wq->flush_wait,
		   !__atomic_exchange_n(&wq->flushing, 1, __ATOMIC_ACQUIRE));
	/* Items queued from now get the other color: not waited for. */
	for (int i = 0; i < wq->nr_pwqs; i++) {
		struct pool_workqueue *pwq = &wq->pwqs[i];
		unsigned long flags;

		pk_lock_irqsave(&pwq->pool->lock, flags);
		color = pwq->color;
		pwq->color = !color;
		pk_unlock_irqrestore(&pwq->pool->lock, flags);
	}
	wait_event(wq_done_wait, color_drained(wq, color));
	__atomic_store_n(&wq->flushing, 0, __ATOMIC_RELEASE);
	wake_up_all(&wq->flush_wait);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	__atomic_add_fetch(&wq->draining, 1, __ATOMIC_SEQ_CST);
	for (int round = 1;; round++) {
		flush_workqueue(wq);
		if (color_drained(wq, 0) && color_drained(wq, 1))
			break;
		WARN_ONCE(round == 100,
			  "workqueue %s: drain_workqueue() isn't complete "
			  "after %d tries",
			  wq->name, round);
	}
	__atomic_sub_fetch(&wq->draining, 1, __ATOMIC_SEQ_CST);
}

/* ---- workqueues ---- */

static struct worker_pool *pool_of(int cpu, bool highpri)
{
	return cpu < 0 ? &unbound_pools[highpri] : &cpu_pools[cpu][highpri];
}

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	int n = (flags & WQ_UNBOUND) ? 1 : PK_NR_CPUS;
	bool highpri = flags & WQ_HIGHPRI;
	struct workqueue_struct *wq;
	va_list ap;

	wq = calloc(1, sizeof(*wq) + (size_t)n * sizeof(wq->pwqs[0]));
	if (!wq)
		return NULL;
	va_start(ap, max_active);
	vsnprintf(wq->name, sizeof(wq->name), fmt, ap);
	va_end(ap);
	if (max_active <= 0)
		max_active = WQ_DFL_ACTIVE;
	if (max_active > WQ_MAX_ACTIVE)
		max_active = WQ_MAX_ACTIVE;
	wq->flags = flags;
	wq->nr_pwqs = n;
	init_waitqueue_head(&wq->flush_wait);
	for (int i = 0; i < n; i++) {
		struct pool_workqueue *pwq = &wq->pwqs[i];

		pwq->wq = wq;
		pwq->pool = pool_of((flags & WQ_UNBOUND) ? -1 : i, highpri);
		pwq->max_active = max_active;
		INIT_LIST_HEAD(&pwq->inactive);
	}
	return wq;
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	if (!wq)
		return;
	drain_workqueue(wq);
	/* A worker may still be in pwq_dec() of our last item. */
	for (int i = 0; i < wq->nr_pwqs; i++) {
		unsigned long flags;

		pk_lock_irqsave(&wq->pwqs[i].pool->lock, flags);
		pk_unlock_irqrestore(&wq->pwqs[i].pool->lock, flags);
	}
	free(wq);
}

struct work_struct *current_work(void)
{
	struct worker *w = pk_current ? pk_current->pk_worker : NULL;

	return w ? w->current_work : NULL;
}

struct pk_wq_pool_stats pk_wq_pool_stats(int cpu, bool highpri)
{
	struct pk_wq_pool_stats s = {0};
	struct worker_pool *pool;

	if (cpu >= nr_pools_cpus)
		return s;
	pool = pool_of(cpu, highpri);
	s.nr_workers = __atomic_load_n(&pool->nr_workers, __ATOMIC_RELAXED);
	s.nr_idle = __atomic_load_n(&pool->nr_idle, __ATOMIC_RELAXED);
	s.nr_running = __atomic_load_n(&pool->nr_running, __ATOMIC_RELAXED);
	s.max_running = __atomic_load_n(&pool->max_running, __ATOMIC_RELAXED);
	return s;
}

/* ---- with the machine ---- */

static void pool_init(struct worker_pool *pool, int cpu, bool highpri)
{
	memset(pool, 0, sizeof(*pool));
	pool->cpu = cpu;
	pool->highpri = highpri;
	INIT_LIST_HEAD(&pool->worklist);
	INIT_LIST_HEAD(&pool->idle_list);
	INIT_LIST_HEAD(&pool->workers);
}

static void pool_stop(struct worker_pool *pool)
{
	struct worker *w, *n;

	/* The machine is quiet: no item runs, no worker is being made. */
	list_for_each_entry_safe(w, n, &pool->workers, all)
	{
		kthread_stop(w->task);
		list_del_init(&w->all);
		free(w);
	}
	pool->nr_workers = 0;
}

static void for_each_pool(void (*fn)(struct worker_pool *pool))
{
	for (int cpu = 0; cpu < nr_pools_cpus; cpu++)
		for (int h = 0; h < 2; h++)
			fn(&cpu_pools[cpu][h]);
	for (int h = 0; h < 2; h++)
		fn(&unbound_pools[h]);
}

static void pool_first_worker(struct worker_pool *pool)
{
	if (!create_worker(pool))
		BUG(); /* at boot: the machine would have no workqueues */
}

void pk_workqueue_init(void)
{
	nr_pools_cpus = num_online_cpus();
	for (int cpu = 0; cpu < nr_pools_cpus; cpu++)
		for (int h = 0; h < 2; h++)
			pool_init(&cpu_pools[cpu][h], cpu, h);
	for (int h = 0; h < 2; h++)
		pool_init(&unbound_pools[h], -1, h);
	for_each_pool(pool_first_worker);
	system_wq = alloc_workqueue("events", 0, 0);
	system_highpri_wq = alloc_workqueue("events_highpri", WQ_HIGHPRI, 0);
	system_long_wq = alloc_workqueue("events_long", 0, 0);
	system_unbound_wq =
		alloc_workqueue("events_unbound", WQ_UNBOUND, WQ_MAX_ACTIVE);
	system_freezable_wq =
		alloc_workqueue("events_freezable", WQ_FREEZABLE, 0);
	system_power_efficient_wq = alloc_workqueue("events_power_efficient",
						    WQ_POWER_EFFICIENT, 0);
	if (!system_wq || !system_highpri_wq || !system_long_wq ||
	    !system_unbound_wq || !system_freezable_wq ||
	    !system_power_efficient_wq)
		BUG();
}

void pk_workqueue_exit(void)
{
	struct workqueue_struct **sys[] = {
		&system_wq,	      &system_highpri_wq,
		&system_long_wq,      &system_unbound_wq,
		&system_freezable_wq, &system_power_efficient_wq,
	};

	for (size_t i = 0; i < sizeof(sys) / sizeof(sys[0]); i++) {
		struct workqueue_struct *wq = *sys[i];

		*sys[i] = NULL;
		destroy_workqueue(wq);
	}
	for_each_pool(pool_stop);
	nr_pools_cpus = 0;
}
