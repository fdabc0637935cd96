// SPDX-License-Identifier: MIT
/*
 * Workqueues: items run in task context on the pool's workers; a per-CPU
 * pool runs one busy worker at a time but hands over when it sleeps
 * (concurrency management); flush and cancel wait for the instance that
 * runs; max_active and ordered queues; delayed items.  Waits are events
 * with wide timeouts; where timing enters, it is a lower bound or a
 * margin of seconds.
 */
#define _GNU_SOURCE
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/mutex.h>
#include <preempt/sched.h>
#include <preempt/wait.h>
#include <preempt/workqueue.h>

#include "pk_machine.h"

#define container_of(p, type, member)                                          \
	((type *)((char *)(p) - __builtin_offsetof(type, member)))

#define LONG_WAIT (20 * pk_machine_hz()) /* ticks: "never" in a test */

struct item {
	struct work_struct work;
	struct completion started, release, done;
	int runs;
	int in_task, is_current, cpu, worker;
	int hold; /* wait for release before returning */
};

static void item_fn(struct work_struct *work)
{
	struct item *it = container_of(work, struct item, work);

	it->in_task = in_task() && !irqs_disabled();
	it->is_current = current_work() == work;
	it->worker = !!(current->flags & PF_WQ_WORKER);
	it->cpu = raw_smp_processor_id();
	__atomic_add_fetch(&it->runs, 1, __ATOMIC_SEQ_CST);
	complete(&it->started);
	if (it->hold)
		wait_for_completion(&it->release);
	complete(&it->done);
}

static void item_init(struct item *it, bool hold)
{
	memset(it, 0, sizeof(*it));
	INIT_WORK(&it->work, item_fn);
	init_completion(&it->started);
	init_completion(&it->release);
	init_completion(&it->done);
	it->hold = hold;
}

static void wait_done(struct completion *c)
{
	assert_true(wait_for_completion_timeout(c, LONG_WAIT) > 0);
}

/* An item runs once, in a worker task, bound to the CPU it was queued on. */
static void queued_work_runs_in_a_bound_worker(void **state)
{
	struct item it;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&it, true);
	assert_true(queue_work_on(1, system_wq, &it.work));
	wait_done(&it.started);
	/* Running, not pending: it may be queued again, once. */
	assert_false(work_pending(&it.work));
	assert_true(queue_work_on(1, system_wq, &it.work));
	assert_false(queue_work_on(1, system_wq, &it.work));
	complete_all(&it.release);
	flush_work(&it.work);
	assert_int_equal(it.runs, 2);
	assert_true(it.in_task);
	assert_true(it.is_current);
	assert_true(it.worker);
	assert_int_equal(it.cpu, 1);
	assert_null(current_work());
	assert_int_equal(captured.nr, 0);
}

/*
 * Concurrency management: on one CPU, the first item sleeps until the
 * second has run.  The second is queued while the first still runs (so
 * queueing wakes nobody): only the first's sleep can hand over.  Without
 * that, the second waits behind the first for ever (here: the long
 * timeout fails the test).
 */
static struct item cm_a, cm_b;
static int b_queued;

static void cm_sleeper(struct work_struct *work)
{
	(void)work;
	complete(&cm_a.started);
	while (!__atomic_load_n(&b_queued, __ATOMIC_SEQ_CST))
		__asm__ __volatile__("" ::: "memory");
	cm_a.runs = wait_for_completion_timeout(&cm_b.done, LONG_WAIT) > 0;
	complete(&cm_a.done);
}

static void sleeping_worker_hands_over(enum preempt_model model)
{
	pk_boot_online(1, model);
	b_queued = 0;
	item_init(&cm_a, false);
	item_init(&cm_b, false);
	INIT_WORK(&cm_a.work, cm_sleeper);
	assert_true(queue_work(system_wq, &cm_a.work));
	wait_done(&cm_a.started);
	assert_true(queue_work(system_wq, &cm_b.work));
	__atomic_store_n(&b_queued, 1, __ATOMIC_SEQ_CST);
	wait_done(&cm_a.done);
	assert_int_equal(cm_a.runs, 1); /* b ran while a slept */
	assert_int_equal(captured.nr, 0);
}

static void sleeping_worker_hands_over_full(void **state)
{
	(void)state;
	sleeping_worker_hands_over(PREEMPT_MODEL_FULL);
}

static void sleeping_worker_hands_over_none(void **state)
{
	(void)state;
	sleeping_worker_hands_over(PREEMPT_MODEL_NONE);
}

static void sleeping_worker_hands_over_rt(void **state)
{
	(void)state;
	sleeping_worker_hands_over(PREEMPT_MODEL_RT);
}

/*
 * And the other half: items that never sleep run one after another on
 * their CPU, never two at once, although the pool has an idle worker and
 * the full model time-slices tasks.
 */
static int inside, max_inside;

static void busy_item(struct work_struct *work)
{
	int now = __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
	long t0 = now_ms();

	(void)work;
	if (now > __atomic_load_n(&max_inside, __ATOMIC_SEQ_CST))
		__atomic_store_n(&max_inside, now, __ATOMIC_SEQ_CST);
	/* Many time slices (3 ticks each) of busy work, no sleep. */
	while (now_ms() - t0 < 30)
		__asm__ __volatile__("" ::: "memory");
	__atomic_sub_fetch(&inside, 1, __ATOMIC_SEQ_CST);
}

static void running_workers_are_not_multiplied(void **state)
{
	struct work_struct w[4];
	struct pk_wq_pool_stats st;

	(void)state;
	inside = max_inside = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 4; i++) {
		INIT_WORK(&w[i], busy_item);
		assert_true(queue_work_on(0, system_wq, &w[i]));
	}
	flush_workqueue(system_wq);
	assert_int_equal(max_inside, 1);
	st = pk_wq_pool_stats(0, false);
	assert_int_equal(st.max_running, 1);
	assert_true(st.nr_workers >= 2); /* a spare was there all along */
}

/* Unbound queues are not counted: a sleeping and a busy item both run. */
static void unbound_items_run_side_by_side(void **state)
{
	struct item a, b;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&a, true);
	item_init(&b, false);
	assert_true(queue_work(system_unbound_wq, &a.work));
	wait_done(&a.started);
	assert_true(queue_work(system_unbound_wq, &b.work));
	wait_done(&b.done);
	complete(&a.release);
	wait_done(&a.done);
}

/* flush_work() waits for the running instance; false when idle. */
static void flush_work_waits_for_the_running_instance(void **state)
{
	struct item it;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&it, true);
	assert_false(flush_work(&it.work)); /* never queued */
	assert_true(schedule_work(&it.work));
	wait_done(&it.started);
	complete(&it.release);
	assert_true(flush_work(&it.work));
	assert_true(completion_done(&it.done));
	assert_false(flush_work(&it.work));
}

/* A pending item's flush waits for it, not for items queued behind it. */
static void flush_work_of_a_pending_item(void **state)
{
	struct item blocker, it;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	item_init(&blocker, true);
	item_init(&it, false);
	/* max_active 1: it waits behind the blocker on the inactive list. */
	struct workqueue_struct *wq = alloc_workqueue("one", 0, 1);

	assert_non_null(wq);
	assert_true(queue_work(wq, &blocker.work));
	wait_done(&blocker.started);
	assert_true(queue_work(wq, &it.work));
	assert_true(work_pending(&it.work));
	complete(&blocker.release);
	assert_true(flush_work(&it.work));
	assert_int_equal(it.runs, 1);
	destroy_workqueue(wq);
}

/* cancel_work_sync(): a pending item never runs; a running one is waited. */
static void cancel_work_sync_pending_and_running(void **state)
{
	struct item blocker, it;
	struct workqueue_struct *wq;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	wq = alloc_workqueue("one", 0, 1);
	item_init(&blocker, true);
	item_init(&it, false);
	assert_true(queue_work(wq, &blocker.work));
	wait_done(&blocker.started);
	assert_true(queue_work(wq, &it.work));
	assert_true(cancel_work_sync(&it.work));
	assert_false(work_pending(&it.work));
	complete(&blocker.release);
	/* Running: not pending, so false, and it has finished on return. */
	assert_false(cancel_work_sync(&blocker.work));
	assert_true(completion_done(&blocker.done));
	flush_workqueue(wq);
	assert_int_equal(it.runs, 0);
	/* Cancelled items can be queued again. */
	assert_true(queue_work(wq, &it.work));
	flush_workqueue(wq);
	assert_int_equal(it.runs, 1);
	destroy_workqueue(wq);
}

static struct item bg;

static int release_later(void *arg)
{
	(void)arg;
	msleep(50);
	complete(&bg.release);
	return 0;
}

/* cancel_work_sync() of a running item returns only after it returned. */
static void cancel_work_sync_waits_while_running(void **state)
{
	struct task_struct *k;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&bg, true);
	assert_true(queue_work_on(0, system_wq, &bg.work));
	wait_done(&bg.started);
	k = kthread_run(release_later, NULL, "release");
	assert_false(cancel_work_sync(&bg.work));
	assert_true(completion_done(&bg.done));
	kthread_stop(k);
}

/* max_active 1 on a bound queue: sleeping items still run one at a time. */
static void max_active_is_honoured(void **state)
{
	struct item a, b;
	struct workqueue_struct *wq;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	wq = alloc_workqueue("single", WQ_MEM_RECLAIM | WQ_FREEZABLE, 1);
	item_init(&a, true);
	item_init(&b, false);
	assert_true(queue_work(wq, &a.work));
	wait_done(&a.started);
	assert_true(queue_work(wq, &b.work));
	/* a sleeps: another worker could run b, but max_active says no. */
	assert_int_equal(wait_for_completion_timeout(&b.started, 50), 0);
	complete(&a.release);
	wait_done(&b.done);
	destroy_workqueue(wq);
}

static int order[8], nr_order;

static void ordered_item(struct work_struct *work)
{
	struct item *it = container_of(work, struct item, work);

	msleep(1); /* sleeping lets any other worker in, if it may */
	order[__atomic_fetch_add(&nr_order, 1, __ATOMIC_SEQ_CST)] = it->cpu;
}

/* An ordered queue runs its items one at a time, in queueing order. */
static void ordered_queue_keeps_order(void **state)
{
	struct item it[8];
	struct workqueue_struct *wq;

	(void)state;
	nr_order = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	wq = alloc_ordered_workqueue("ordered", WQ_HIGHPRI);
	for (int i = 0; i < 8; i++) {
		item_init(&it[i], false);
		it[i].cpu = i; /* the tag */
		INIT_WORK(&it[i].work, ordered_item);
		assert_true(queue_work(wq, &it[i].work));
	}
	flush_workqueue(wq);
	assert_int_equal(nr_order, 8);
	for (int i = 0; i < 8; i++)
		assert_int_equal(order[i], i);
	destroy_workqueue(wq);
}

/* Queued on another CPU while it runs: after the running instance. */
static void requeue_while_running_is_not_reentrant(void **state)
{
	struct item it;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&it, true);
	assert_true(queue_work_on(0, system_wq, &it.work));
	wait_done(&it.started);
	reinit_completion(&it.started);
	assert_true(queue_work_on(1, system_wq, &it.work));
	/* The second instance must not start while the first holds. */
	assert_int_equal(wait_for_completion_timeout(&it.started, 50), 0);
	complete_all(&it.release);
	wait_done(&it.started);
	flush_work(&it.work);
	assert_int_equal(it.runs, 2);
	assert_int_equal(it.cpu, 0); /* ran where the first instance ran */
}

/* Delayed items: not before the delay; cancel; mod; flush now. */
static struct item ditem;
static struct delayed_work dwork;

static void ditem_fn(struct work_struct *work)
{
	assert_ptr_equal(to_delayed_work(work), &dwork);
	ditem.in_task = in_task();
	__atomic_add_fetch(&ditem.runs, 1, __ATOMIC_SEQ_CST);
	complete(&ditem.done);
}

static void delayed_work_runs_after_its_delay(void **state)
{
	long t0;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&ditem, false);
	INIT_DELAYED_WORK(&dwork, ditem_fn);
	t0 = now_ms();
	assert_true(queue_delayed_work(system_wq, &dwork, 50)); /* 50 ms */
	assert_false(queue_delayed_work(system_wq, &dwork, 50));
	assert_true(delayed_work_pending(&dwork));
	wait_done(&ditem.done);
	assert_true(now_ms() - t0 >= 49);
	assert_true(ditem.in_task);
	/* Cancel before the timer: never runs. */
	reinit_completion(&ditem.done);
	assert_true(schedule_delayed_work(&dwork, 60 * 1000));
	assert_true(cancel_delayed_work_sync(&dwork));
	assert_false(delayed_work_pending(&dwork));
	assert_false(cancel_delayed_work(&dwork));
	/* mod_delayed_work(): from a minute to now. */
	assert_false(mod_delayed_work(system_wq, &dwork, 60 * 1000));
	assert_true(mod_delayed_work(system_wq, &dwork, 0));
	wait_done(&ditem.done);
	/*
	 * flush_delayed_work(): a minute's timer, run now.  Its result says
	 * whether it waited, and a worker on the other vCPU may have run the
	 * item before it looked (as in the kernel): what counts is the run.
	 */
	assert_true(schedule_delayed_work(&dwork, 60 * 1000));
	(void)flush_delayed_work(&dwork);
	assert_int_equal(ditem.runs, 3);
	assert_false(delayed_work_pending(&dwork));
	assert_int_equal(captured.nr, 0);
}

/* flush_workqueue() waits for all queued before it. */
static int slow_done;

static void slow_item(struct work_struct *work)
{
	(void)work;
	msleep(5);
	__atomic_add_fetch(&slow_done, 1, __ATOMIC_SEQ_CST);
}

static void flush_workqueue_waits_for_everything_queued(void **state)
{
	struct work_struct w[16];
	struct workqueue_struct *wq;

	(void)state;
	slow_done = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	wq = alloc_workqueue("flushme", 0, 2);
	for (int i = 0; i < 16; i++) {
		INIT_WORK(&w[i], slow_item);
		assert_true(queue_work_on(i % 2, wq, &w[i]));
	}
	flush_workqueue(wq);
	assert_int_equal(slow_done, 16);
	destroy_workqueue(wq);
}

/* drain_workqueue(): chains that requeue themselves are waited out. */
static struct workqueue_struct *chain_wq;
static int chain_left;

static void chain_item(struct work_struct *work)
{
	msleep(1);
	if (__atomic_sub_fetch(&chain_left, 1, __ATOMIC_SEQ_CST) > 0)
		queue_work(chain_wq, work);
}

static void drain_waits_for_chains(void **state)
{
	struct work_struct w;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	chain_left = 20;
	chain_wq = alloc_workqueue("chain", WQ_UNBOUND, 0);
	INIT_WORK(&w, chain_item);
	assert_true(queue_work(chain_wq, &w));
	drain_workqueue(chain_wq);
	assert_int_equal(chain_left, 0);
	assert_false(work_pending(&w));
	destroy_workqueue(chain_wq);
	assert_int_equal(captured.nr, 0);
}

/* Without a machine there are no workers: refused, with a warning. */
static void queue_without_machine_is_refused(void **state)
{
	struct item it;

	(void)state;
	item_init(&it, false);
	assert_false(queue_work(system_wq, &it.work));
	assert_false(work_pending(&it.work));
	assert_int_equal(captured.nr, 1);
	assert_report_contains("booted machine");
}

/* From hardirq context (a timer's softirq here) queueing works. */
static struct item irq_item;
static struct timer_list qtimer;

static void queue_from_timer(struct timer_list *t)
{
	(void)t;
	assert_true(queue_work(system_highpri_wq, &irq_item.work));
}

static int arm_timer(void *arg)
{
	(void)arg;
	timer_setup(&qtimer, queue_from_timer, 0);
	mod_timer(&qtimer, jiffies_now() + 2);
	return 0;
}

static void queue_from_softirq(void **state)
{
	struct task_struct *k;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	item_init(&irq_item, false);
	k = kthread_run(arm_timer, NULL, "arm");
	wait_done(&irq_item.done);
	assert_true(irq_item.in_task);
	kthread_stop(k);
}

/* A leaked preempt_disable() in an item is reported and repaired. */
static void leaky_item(struct work_struct *work)
{
	(void)work;
	preempt_disable();
}

static void leaked_atomic_is_reported(void **state)
{
	struct work_struct w;
	struct item it;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	INIT_WORK(&w, leaky_item);
	item_init(&it, false);
	assert_true(queue_work(system_wq, &w));
	flush_work(&w);
	/* The same worker goes on, preemptible again. */
	assert_true(queue_work(system_wq, &it.work));
	wait_done(&it.done);
	assert_true(captured.nr >= 1);
	assert_report_contains("workqueue leaked atomic");
}

#if CONFIG_LOCKDEP
/* A lock left held by an item: the same report, with the depths. */
static DEFINE_MUTEX(leaked_mutex);

static void lock_leaking_item(struct work_struct *work)
{
	(void)work;
	mutex_lock(&leaked_mutex);
}

static void leaked_lock_is_reported(void **state)
{
	struct work_struct w;

	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	INIT_WORK(&w, lock_leaking_item);
	assert_true(queue_work(system_wq, &w));
	flush_work(&w);
	pk_report_flush();
	assert_true(captured.nr >= 1);
	assert_report_contains("workqueue leaked atomic, lock or RCU");
	assert_report_contains(" lock=0->1 RCU=0->0 workfn=lock_leaking_item");
}
#endif

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(queued_work_runs_in_a_bound_worker),
		T(sleeping_worker_hands_over_full),
		T(sleeping_worker_hands_over_none),
		T(sleeping_worker_hands_over_rt),
		T(running_workers_are_not_multiplied),
		T(unbound_items_run_side_by_side),
		T(flush_work_waits_for_the_running_instance),
		T(flush_work_of_a_pending_item),
		T(cancel_work_sync_pending_and_running),
		T(cancel_work_sync_waits_while_running),
		T(max_active_is_honoured),
		T(ordered_queue_keeps_order),
		T(requeue_while_running_is_not_reentrant),
		T(delayed_work_runs_after_its_delay),
		T(flush_workqueue_waits_for_everything_queued),
		T(drain_waits_for_chains),
		T(queue_without_machine_is_refused),
		T(queue_from_softirq),
		T(leaked_atomic_is_reported),
#if CONFIG_LOCKDEP /* only the validator counts held locks */
		T(leaked_lock_is_reported),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
