// SPDX-License-Identifier: MIT
/*
 * The xarray's advanced API (xa_state, xas_*): each function against a
 * brute-force model on random operations; the xas_nomem() retry loop
 * with a failed allocation under the lock; xas_pause() across stores;
 * marked walks and walks that store as they go, under the lock; and a
 * walk under RCU while a writer on the other vCPU stores, in the
 * non-preemptible, preemptible and RT models (the xa_lock sleeps there).
 */

#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/xarray.h>

#include "pk_kernel_test.h"

void pk_xas_fail_nowait(unsigned int n);

/* ---- the model: NKEYS indices, low ones spread out, and the top ---- */

#define NKEYS 40
#define NLOW 36

static unsigned long key_index(int k)
{
	return k < NLOW ? (unsigned long)k * 3 : ULONG_MAX - (NKEYS - 1 - k);
}

static void *model[NKEYS]; /* NULL, XA_ZERO_ENTRY or an entry */
static unsigned int model_marks[NKEYS];

static int key_of(unsigned long index)
{
	for (int k = 0; k < NKEYS; k++)
		if (key_index(k) == index)
			return k;
	return -1;
}

static void *model_at(unsigned long index)
{
	int k = key_of(index);

	return k < 0 ? NULL : model[k];
}

/* The model's first key >= @from (<= @max) that @filter accepts, or -1. */
static int model_find(unsigned long from, unsigned long max, xa_mark_t filter)
{
	for (int k = 0; k < NKEYS; k++) {
		unsigned long i = key_index(k);

		if (i < from || i > max || !model[k])
			continue;
		if (filter == XA_PRESENT || (model_marks[k] & (1U << filter)))
			return k;
	}
	return -1;
}

static unsigned int seed = 12345;

static unsigned int rnd(unsigned int n)
{
	seed = seed * 1103515245U + 12345U;
	return (seed >> 8) % n;
}

static void *random_entry(void)
{
	switch (rnd(6)) {
	case 0:
		return NULL;
	case 1:
		return XA_ZERO_ENTRY;
	default:
		return xa_mk_value(rnd(100000));
	}
}

/* The kernel's store pattern: the lock, and xas_nomem() outside it. */
static void *store(struct xarray *xa, unsigned long index, void *entry)
{
	XA_STATE(xas, xa, index);
	void *old;

	do {
		xas_lock(&xas);
		old = xas_store(&xas, entry);
		xas_unlock(&xas);
	} while (xas_nomem(&xas, GFP_KERNEL));
	assert_int_equal(xas_error(&xas), 0);
	return old;
}

static void check_walk(struct xarray *xa, unsigned long from, unsigned long max,
		       xa_mark_t filter)
{
	XA_STATE(xas, xa, from);
	void *entry;
	int k = model_find(from, max, filter);

	rcu_read_lock();
	if (filter == XA_PRESENT) {
		xas_for_each(&xas, entry, max)
		{
			assert_true(k >= 0);
			assert_int_equal(xas.xa_index, key_index(k));
			assert_ptr_equal(entry, model[k]);
			k = key_index(k) == ULONG_MAX
				    ? -1
				    : model_find(key_index(k) + 1, max, filter);
		}
	} else {
		xas_for_each_marked(&xas, entry, max, filter)
		{
			assert_true(k >= 0);
			assert_int_equal(xas.xa_index, key_index(k));
			assert_ptr_equal(entry, model[k]);
			assert_true(xas_get_mark(&xas, filter));
			k = key_index(k) == ULONG_MAX
				    ? -1
				    : model_find(key_index(k) + 1, max, filter);
		}
	}
	rcu_read_unlock();
	assert_int_equal(k, -1);
	assert_ptr_equal(xas.xa_node, XAS_BOUNDS);
	assert_null(xas_find(&xas, max)); /* stays at the end */
}

static void random_op(struct xarray *xa)
{
	int k = (int)rnd(NKEYS);
	unsigned long index = key_index(k), max;
	xa_mark_t mark = rnd(3);
	XA_STATE(xas, xa, index);
	void *entry, *old;

	switch (rnd(9)) {
	case 0:
	case 1: /* store: the old entry back, marks kept unless erased */
		entry = random_entry();
		old = store(xa, index, entry);
		assert_ptr_equal(old, model[k]);
		model[k] = entry;
		if (!entry)
			model_marks[k] =
				0; /* erased; a replacement keeps them */
		break;
	case 2: /* loads: advanced and normal agree with the model */
		rcu_read_lock();
		assert_ptr_equal(xas_load(&xas), model[k]);
		assert_true(xas_valid(&xas));
		rcu_read_unlock();
		assert_ptr_equal(xa_load(xa, index),
				 xa_is_zero(model[k]) ? NULL : model[k]);
		break;
	case 3: /* walks */
		max = rnd(4) ? ULONG_MAX : key_index((int)rnd(NKEYS));
		check_walk(xa, rnd(2) ? index : index + 1, max, XA_PRESENT);
		break;
	case 4:
		check_walk(xa, rnd(3) ? 0 : index, ULONG_MAX, mark);
		break;
	case 5: /* marks, under the lock, on a walked state */
		xas_lock(&xas);
		xas_load(&xas);
		if (rnd(2)) {
			xas_set_mark(&xas, mark);
			if (model[k])
				model_marks[k] |= 1U << mark;
		} else if (rnd(4)) {
			xas_clear_mark(&xas, mark);
			model_marks[k] &= ~(1U << mark);
		} else {
			xas_init_marks(&xas);
			model_marks[k] = 0;
		}
		for (xa_mark_t m = 0; m < 3; m++)
			assert_int_equal(xas_get_mark(&xas, m),
					 !!(model_marks[k] & (1U << m)));
		xas_unlock(&xas);
		break;
	case 6: /* not walked: no mark, and setting one does nothing */
		xas_lock(&xas);
		xas_set_mark(&xas, mark);
		assert_false(xas_get_mark(&xas, mark));
		xas_unlock(&xas);
		assert_int_equal(xa_get_mark(xa, index, mark),
				 !!(model_marks[k] & (1U << mark)));
		break;
	case 7: /* next: the first call loads, then each index in turn */
		rcu_read_lock();
		for (int i = 0; i < 5; i++)
			assert_ptr_equal(xas_next(&xas),
					 model_at(index + (unsigned long)i));
		rcu_read_unlock();
		break;
	case 8:
		rcu_read_lock();
		for (int i = 0; i < 5; i++)
			assert_ptr_equal(xas_prev(&xas),
					 model_at(index - (unsigned long)i));
		rcu_read_unlock();
		break;
	}
}

static int random_ops(void *arg)
{
	struct xarray xa;

	(void)arg;
	xa_init(&xa);
	memset(model, 0, sizeof(model));
	memset(model_marks, 0, sizeof(model_marks));
	for (int i = 0; i < 20000; i++)
		random_op(&xa);
	for (int k = 0; k < NKEYS; k++)
		store(&xa, key_index(k), NULL);
	assert_true(xa_empty(&xa));
	xa_destroy(&xa);
	return 0;
}

/*
 * In full and rt (where the xa_lock sleeps and lockdep checks the reads
 * under it against another lock type): no report either.
 */
static void xas_matches_model(void **state)
{
	(void)state;
	capture_reset();
	pk_boot(1, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(random_ops, NULL), 0);
	machine_shutdown();
	pk_boot(1, PREEMPT_MODEL_RT);
	assert_int_equal(run_on_machine(random_ops, NULL), 0);
	assert_int_equal(captured.nr, 0);
}

/* ---- the state itself ---- */

static void xas_state_rules(void **state)
{
	DEFINE_XARRAY(xa);
	XA_STATE(xas, &xa, 5);
	int a;

	(void)state;
	assert_true(xas_invalid(&xas)); /* not walked yet */
	assert_int_equal(xas_error(&xas), 0);
	xas_set_err(&xas, -EIO);
	assert_int_equal(xas_error(&xas), -EIO);
	/* In error, every operation does nothing. */
	xas_lock(&xas);
	assert_null(xas_store(&xas, &a));
	assert_null(xas_load(&xas));
	assert_null(xas_find(&xas, ULONG_MAX));
	assert_null(xas_next(&xas));
	xas_unlock(&xas);
	assert_int_equal(xas.xa_index, 5);
	assert_null(xa_load(&xa, 5));
	assert_false(xas_nomem(&xas, GFP_KERNEL)); /* not -ENOMEM */
	xas_set(&xas, 7);
	assert_int_equal(xas_error(&xas), 0);
	xas_lock(&xas);
	assert_null(xas_store(&xas, &a));
	assert_true(xas_valid(&xas));
	assert_false(xas_is_node(&xas));
	xas_unlock(&xas);
	assert_ptr_equal(xa_load(&xa, 7), &a);
	/* A reserved index: a zero entry here, NULL to the normal API. */
	assert_int_equal(xa_insert(&xa, 9, NULL, GFP_KERNEL), 0);
	xas_set(&xas, 8);
	rcu_read_lock();
	assert_ptr_equal(xas_find(&xas, ULONG_MAX), XA_ZERO_ENTRY);
	assert_true(xas_retry(&xas, XA_ZERO_ENTRY));
	assert_false(xas_retry(&xas, &a));
	assert_true(xas_retry(&xas, XA_RETRY_ENTRY));
	assert_ptr_equal(xas.xa_node, XAS_RESTART);
	rcu_read_unlock();
	assert_null(xa_load(&xa, 9));
	assert_int_equal(xa_insert(&xa, 9, &a, GFP_KERNEL), -EBUSY);
	/* xa_reserve()/xa_release(): the same, and nothing over an entry. */
	assert_int_equal(xa_reserve(&xa, 7, GFP_KERNEL), 0);
	assert_ptr_equal(xa_load(&xa, 7), &a);
	xa_release(&xa, 7);
	assert_ptr_equal(xa_load(&xa, 7), &a);
	assert_int_equal(xa_reserve(&xa, 11, GFP_KERNEL), 0);
	assert_int_equal(xa_insert(&xa, 11, &a, GFP_KERNEL), -EBUSY);
	xa_release(&xa, 11);
	assert_int_equal(xa_insert(&xa, 11, &a, GFP_KERNEL), 0);
	assert_ptr_equal(xa_erase(&xa, 11), &a);
	/* Pause: the next find starts after the index; at the top, bounds. */
	xas_set(&xas, ULONG_MAX);
	xas_pause(&xas); /* not walked: nothing to step over */
	assert_int_equal(xas.xa_index, ULONG_MAX);
	xas_lock(&xas);
	xas_store(&xas, &a);
	xas_pause(&xas);
	xas_unlock(&xas);
	assert_ptr_equal(xas.xa_node, XAS_BOUNDS);
	assert_null(xas_find(&xas, ULONG_MAX));
#if CONFIG_PROVE_RCU
	/* A read with neither the RCU read lock nor the xa_lock: reported. */
	capture_reset();
	xas_set(&xas, 7);
	assert_ptr_equal(xas_load(&xas), &a);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("outside rcu_read_lock() and xa_lock");
	capture_stop();
#endif
	xa_destroy(&xa);
}

static void xas_order_refused(void **state)
{
	DEFINE_XARRAY(xa);
	int a;

	(void)state;
	capture_reset();
	{
		XA_STATE_ORDER(xas, &xa, 4, 2);

		assert_int_equal(xas_error(&xas), -EINVAL);
		assert_report_contains("not supported");
		xas_lock(&xas);
		assert_null(xas_store(&xas, &a));
		xas_unlock(&xas);
		assert_null(xa_load(&xa, 4));
		xas_set_order(&xas, 4, 0);
		assert_int_equal(xas_error(&xas), 0);
		xas_set_order(&xas, 4, 1);
		assert_int_equal(xas_error(&xas), -EINVAL);
	}
	capture_stop();
	xa_destroy(&xa);
}

/* ---- xas_nomem() ---- */

static int nomem_loop(void *arg)
{
	DEFINE_XARRAY(xa);
	XA_STATE(xas, &xa, 3);
	int passes = 0, a;

	(void)arg;
	/*
	 * Empty: the store needs an array; every one under the lock fails,
	 * so the retry must use the one xas_nomem() allocated.
	 */
	pk_xas_fail_nowait(1000);
	do {
		xas_lock(&xas);
		assert_null(xas_store(&xas, &a));
		if (!passes)
			assert_int_equal(xas_error(&xas), -ENOMEM);
		xas_unlock(&xas);
		if (!passes)
			assert_null(xa_load(&xa, 3)); /* nothing stored */
		passes++;
	} while (passes < 5 && xas_nomem(&xas, GFP_KERNEL));
	pk_xas_fail_nowait(0);
	assert_int_equal(xas_error(&xas), 0);
	assert_int_equal(passes, 2);
	assert_ptr_equal(xa_load(&xa, 3), &a);
	assert_null(xas.xa_alloc); /* used, or freed by the last call */

	/* __xas_nomem() drops and retakes the lock itself. */
	for (unsigned long i = 10; i < 17; i++)
		xa_store(&xa, i, &a, GFP_KERNEL); /* 8 slots: full */
	pk_xas_fail_nowait(1);
	xas_set(&xas, 100);
	passes = 0;
	xas_lock(&xas);
	do {
		xas_store(&xas, xa_mk_value(100));
		passes++;
	} while (__xas_nomem(&xas, GFP_KERNEL));
	xas_unlock(&xas);
	assert_int_equal(passes, 2);
	assert_int_equal(xas_error(&xas), 0);
	assert_ptr_equal(xa_load(&xa, 100), xa_mk_value(100));

	/* An irq-safe array: __xas_nomem() retakes the lock the irq way. */
	{
		DEFINE_XARRAY_FLAGS(xirq, XA_FLAGS_LOCK_IRQ);
		XA_STATE(xi, &xirq, 1);

		pk_xas_fail_nowait(1);
		passes = 0;
		xas_lock_irq(&xi);
		do {
			xas_store(&xi, &a);
			passes++;
		} while (__xas_nomem(&xi, GFP_KERNEL));
		xas_unlock_irq(&xi);
		assert_int_equal(passes, 2);
		assert_int_equal(xas_error(&xi), 0);
		assert_false(irqs_disabled());
		assert_ptr_equal(xa_load(&xirq, 1), &a);
		xa_destroy(&xirq);
	}

	/* Without a retry the error stays, and the store never happened. */
	pk_xas_fail_nowait(1);
	for (unsigned long i = 200; i < 207; i++)
		xa_store(&xa, i, &a, GFP_KERNEL); /* 16 slots: full */
	xas_set(&xas, 300);
	xas_lock(&xas);
	xas_create_range(&xas);
	xas_unlock(&xas);
	assert_int_equal(xas_error(&xas), -ENOMEM);
	assert_true(xas_nomem(&xas, GFP_KERNEL));
	assert_non_null(xas.xa_alloc);
	assert_false(xas_nomem(&xas, GFP_KERNEL)); /* frees the unused one */
	assert_null(xas.xa_alloc);
	assert_null(xa_load(&xa, 300));
	xa_destroy(&xa);
	return 0;
}

static void xas_nomem_retries(void **state)
{
	(void)state;
	pk_boot(1, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(nomem_loop, NULL), 0);
}

/* ---- walks ---- */

/*
 * A walk under RCU pauses after each entry; while paused, the entry it
 * just saw goes, one ahead is erased and one is added right after it.
 * It sees the array as it is after each pause.
 */
static int pause_walk(void *arg)
{
	DEFINE_XARRAY(xa);
	XA_STATE(xas, &xa, 0);
	unsigned long seen[64];
	int n = 0;
	void *entry;

	(void)arg;
	for (unsigned long i = 0; i < 40; i += 4)
		store(&xa, i, xa_mk_value(i));
	rcu_read_lock();
	xas_for_each(&xas, entry, ULONG_MAX)
	{
		unsigned long at = xas.xa_index;

		if (xas_retry(&xas, entry))
			continue;
		assert_int_equal(xa_to_value(entry), at);
		seen[n++] = at;
		xas_pause(&xas);
		rcu_read_unlock();
		store(&xa, at, NULL);
		if (at % 4 == 0 && at < 36) {
			store(&xa, at + 1, xa_mk_value(at + 1));
			store(&xa, at + 4, NULL); /* erased ahead */
			store(&xa, at + 8, xa_mk_value(at + 8));
		}
		cond_resched();
		rcu_read_lock();
	}
	rcu_read_unlock();
	/* 0, 1 (added), then 8 (4 erased), 9, 16, 17, ... */
	assert_int_equal(n, 11); /* ..., 32, 33 and 40 (added at 32) */
	for (int i = 0; i < n; i++)
		assert_int_equal(seen[i], (unsigned long)(i / 2) * 8 + i % 2);
	xa_destroy(&xa);
	return 0;
}

static void xas_pause_sees_stores(void **state)
{
	(void)state;
	pk_boot(1, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(pause_walk, NULL), 0);
}

/*
 * Under the lock: a marked walk that clears the mark, replaces the entry
 * and erases every other one; then a plain walk that stores as it goes
 * (growing the array mid-walk through the nomem loop).
 */
static int locked_walks(void *arg)
{
	DEFINE_XARRAY(xa);
	XA_STATE(xas, &xa, 0);
	int n = 0;
	void *entry;

	(void)arg;
	for (unsigned long i = 1; i <= 30; i++)
		store(&xa, i, xa_mk_value(i));
	for (unsigned long i = 3; i <= 30; i += 3)
		xa_set_mark(&xa, i, XA_MARK_2);
	xas_lock(&xas);
	xas_for_each_marked(&xas, entry, 27, XA_MARK_2)
	{
		assert_int_equal(xa_to_value(entry) % 3, 0);
		xas_clear_mark(&xas, XA_MARK_2);
		xas_store(&xas, n % 2 ? NULL : xa_mk_value(1000));
		n++;
	}
	xas_unlock(&xas);
	assert_int_equal(n, 9); /* 3..27 */
	assert_true(xa_get_mark(&xa, 30, XA_MARK_2));
	assert_false(xa_get_mark(&xa, 3, XA_MARK_2));
	assert_ptr_equal(xa_load(&xa, 3), xa_mk_value(1000));
	assert_null(xa_load(&xa, 6));

	/*
	 * Store as it goes: each even entry gets its odd neighbour, growing
	 * the array mid-walk; the first growth under the lock fails, and
	 * the walk resumes at the entry whose neighbour was not stored.
	 */
	xa_destroy(&xa);
	for (unsigned long i = 0; i <= 40; i += 2)
		store(&xa, i, xa_mk_value(i));
	pk_xas_fail_nowait(1);
	xas_set(&xas, 0);
	n = 0;
	do {
		n++;
		xas_lock(&xas);
		xas_for_each(&xas, entry, 99)
		{
			if (xa_to_value(entry) % 2)
				continue;
			xas_next(&xas);
			xas_store(&xas, xa_mk_value(xas.xa_index));
		}
		xas_unlock(&xas);
	} while (xas_nomem(&xas, GFP_KERNEL) ? (xas.xa_index--, true) : false);
	assert_int_equal(n, 2);
	for (unsigned long i = 0; i <= 41; i++)
		assert_ptr_equal(xa_load(&xa, i), xa_mk_value(i));
	xa_destroy(&xa);
	return 0;
}

static void xas_locked_walks(void **state)
{
	(void)state;
	capture_reset();
	pk_boot(1, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(locked_walks, NULL), 0);
	machine_shutdown();
	pk_boot(1, PREEMPT_MODEL_RT);
	assert_int_equal(run_on_machine(locked_walks, NULL), 0);
	assert_int_equal(captured.nr, 0);
}

/* ---- a walk under RCU against a writer on the other vCPU ---- */

#define RKEYS 64
static struct xarray moving;
static bool writer_done;

/*
 * Even indices come and go; odd ones stay, their entries replaced by
 * value entries carrying the index and a generation.
 */
static int walk_writer(void *arg)
{
	(void)arg;
	for (unsigned long gen = 1; gen <= 300; gen++)
		for (unsigned long i = 0; i < RKEYS; i++) {
			XA_STATE(xas, &moving, i);

			do {
				xas_lock(&xas);
				if (i % 2)
					xas_store(&xas,
						  xa_mk_value(gen << 8 | i));
				else
					xas_store(&xas, gen % 2 ? xa_mk_value(i)
								: NULL);
				xas_unlock(&xas);
			} while (xas_nomem(&xas, GFP_KERNEL));
		}
	WRITE_ONCE(writer_done, true);
	return 0;
}

static int walk_reader(void *arg)
{
	unsigned long walks = 0, bad = 0;
	void *entry;

	(void)arg;
	while (!READ_ONCE(writer_done) || !walks) {
		XA_STATE(xas, &moving, 0);
		unsigned long odd = 0, last = 0;
		bool first = true;

		rcu_read_lock();
		xas_for_each(&xas, entry, ULONG_MAX)
		{
			unsigned long at = xas.xa_index;

			if (xas_retry(&xas, entry))
				continue;
			if ((!first && at <= last) || at >= RKEYS ||
			    !xa_is_value(entry) ||
			    (xa_to_value(entry) & 0xff) != at)
				bad++;
			odd += at % 2;
			first = false;
			last = at;
			if (need_resched() || at % 16 == 15) {
				xas_pause(&xas);
				cond_resched_rcu();
			}
		}
		rcu_read_unlock();
		if (odd != RKEYS / 2)
			bad++; /* an odd index missing or seen twice */
		walks++;
	}
	return bad ? -1 : 0;
}

static void rcu_walk(enum preempt_model model)
{
	struct task_struct *w, *r;

	pk_boot(2, model);
	xa_init(&moving);
	WRITE_ONCE(writer_done, false);
	for (unsigned long i = 1; i < RKEYS; i += 2)
		xa_store(&moving, i, xa_mk_value(i), GFP_KERNEL);
	r = kthread_create(walk_reader, NULL, "xas-reader");
	w = kthread_create(walk_writer, NULL, "xas-writer");
	kthread_bind(r, 0);
	kthread_bind(w, 1);
	wake_up_process(r);
	wake_up_process(w);
	assert_int_equal(kthread_stop(w), 0);
	assert_int_equal(kthread_stop(r), 0);
	xa_destroy(&moving);
}

static void xas_rcu_walk_none(void **state)
{
	(void)state;
	rcu_walk(PREEMPT_MODEL_NONE);
}

static void xas_rcu_walk_full(void **state)
{
	(void)state;
	rcu_walk(PREEMPT_MODEL_FULL);
}

static void xas_rcu_walk_rt(void **state)
{
	(void)state;
	rcu_walk(PREEMPT_MODEL_RT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(xas_state_rules),
		cmocka_unit_test(xas_order_refused),
		cmocka_unit_test_teardown(xas_matches_model, machine_teardown),
		cmocka_unit_test_teardown(xas_nomem_retries, machine_teardown),
		cmocka_unit_test_teardown(xas_pause_sees_stores,
					  machine_teardown),
		cmocka_unit_test_teardown(xas_locked_walks, machine_teardown),
		cmocka_unit_test_teardown(xas_rcu_walk_none, machine_teardown),
		cmocka_unit_test_teardown(xas_rcu_walk_full, machine_teardown),
		cmocka_unit_test_teardown(xas_rcu_walk_rt, machine_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
