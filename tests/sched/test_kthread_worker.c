// SPDX-License-Identifier: MIT
/*
 * kthread_worker: items run one at a time, in queueing order, in the
 * worker's kthread; flush waits for the instance queued or running;
 * cancel takes a pending item back; delayed items wait for their timer.
 */
#define _GNU_SOURCE
#include <preempt/delay.h>
#include <preempt/kthread.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define container_of(p, type, member)                                          \
	((type *)((char *)(p) - __builtin_offsetof(type, member)))
#define LONG_WAIT (20 * pk_machine_hz())

struct kitem {
	struct kthread_work work;
	int tag, runs, in_worker;
	struct completion started, release;
	int hold;
};

static struct kthread_worker *kw;
static int order[8], nr_order;

static void kitem_fn(struct kthread_work *work)
{
	struct kitem *it = container_of(work, struct kitem, work);

	it->in_worker = current == kw->task && in_task();
	order[__atomic_fetch_add(&nr_order, 1, __ATOMIC_SEQ_CST)] = it->tag;
	__atomic_add_fetch(&it->runs, 1, __ATOMIC_SEQ_CST);
	complete(&it->started);
	if (it->hold)
		wait_for_completion(&it->release);
	msleep(1);
}

static void kitem_init(struct kitem *it, int tag, bool hold)
{
	memset(it, 0, sizeof(*it));
	kthread_init_work(&it->work, kitem_fn);
	init_completion(&it->started);
	init_completion(&it->release);
	it->tag = tag;
	it->hold = hold;
}

static void boot_worker(void)
{
	nr_order = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	kw = kthread_create_worker(0, "kw/%d", 7);
	assert_true((long)kw > 0);
}

static void items_run_in_order_in_the_worker(void **state)
{
	struct kitem it[6];

	(void)state;
	boot_worker();
	assert_string_equal(kw->task->comm, "kw/7");
	for (int i = 0; i < 6; i++) {
		kitem_init(&it[i], i, false);
		assert_true(kthread_queue_work(kw, &it[i].work));
	}
	assert_false(kthread_queue_work(kw, &it[5].work)); /* pending */
	kthread_flush_worker(kw);
	assert_int_equal(nr_order, 6);
	for (int i = 0; i < 6; i++) {
		assert_int_equal(order[i], i);
		assert_true(it[i].in_worker);
	}
	kthread_destroy_worker(kw);
	assert_int_equal(captured.nr, 0);
}

static void flush_and_cancel(void **state)
{
	struct kitem a, b;

	(void)state;
	boot_worker();
	kitem_init(&a, 1, true);
	kitem_init(&b, 2, false);
	kthread_queue_work(kw, &a.work);
	assert_true(wait_for_completion_timeout(&a.started, LONG_WAIT) > 0);
	kthread_queue_work(kw, &b.work);
	/* b waits behind a: take it back. */
	assert_true(kthread_cancel_work_sync(&b.work));
	assert_false(kthread_cancel_work_sync(&b.work));
	complete(&a.release);
	kthread_flush_work(&a.work);
	assert_int_equal(a.runs, 1);
	kthread_flush_worker(kw);
	assert_int_equal(b.runs, 0);
	/* Queued again after the cancel: it runs. */
	assert_true(kthread_queue_work(kw, &b.work));
	kthread_flush_work(&b.work);
	assert_int_equal(b.runs, 1);
	kthread_destroy_worker(kw);
}

static struct kthread_delayed_work kdw;
static struct kitem dit;

static void kdw_fn(struct kthread_work *work)
{
	(void)work;
	__atomic_add_fetch(&dit.runs, 1, __ATOMIC_SEQ_CST);
	complete(&dit.started);
}

static void delayed_items(void **state)
{
	long t0;

	(void)state;
	boot_worker();
	kitem_init(&dit, 0, false);
	kthread_init_delayed_work(&kdw, kdw_fn);
	t0 = now_ms();
	assert_true(kthread_queue_delayed_work(kw, &kdw, 40));
	assert_false(kthread_queue_delayed_work(kw, &kdw, 40));
	assert_true(wait_for_completion_timeout(&dit.started, LONG_WAIT) > 0);
	assert_true(now_ms() - t0 >= 39);
	/* A minute away, cancelled: never runs. */
	assert_true(kthread_queue_delayed_work(kw, &kdw, 60000));
	assert_true(kthread_cancel_delayed_work_sync(&kdw));
	/* A minute away, moved to now. */
	assert_true(kthread_queue_delayed_work(kw, &kdw, 60000));
	assert_true(kthread_mod_delayed_work(kw, &kdw, 0));
	assert_true(wait_for_completion_timeout(&dit.started, LONG_WAIT) > 0);
	kthread_flush_worker(kw);
	assert_int_equal(dit.runs, 2);
	kthread_destroy_worker(kw);
	assert_int_equal(captured.nr, 0);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(items_run_in_order_in_the_worker),
		T(flush_and_cancel),
		T(delayed_items),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
