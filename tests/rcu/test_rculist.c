// SPDX-License-Identifier: MIT
/*
 * RCU lists: the updater operations keep the order a reader walks, and
 * readers on vCPUs and on other threads walking while an updater replaces
 * and deletes entries never reach one that a callback has poisoned.
 */
#include <pthread.h>
#include <stdlib.h>

#include <preempt/rculist.h>

#include "rcu_helpers.h"

#define MAGIC 0x5a5a1234
#define POISON 0xdeadbeef

struct item {
	int val;
	unsigned int magic;
	struct list_head node;
	struct hlist_node hnode;
	struct rcu_head rh;
};

static struct item *item_new(int val)
{
	struct item *it = calloc(1, sizeof(*it));

	assert_non_null(it);
	it->val = val;
	it->magic = MAGIC;
	return it;
}

static void walk(struct list_head *head, int *out, int *n)
{
	struct item *it;

	*n = 0;
	rcu_read_lock();
	list_for_each_entry_rcu(it, head, node) out[(*n)++] = it->val;
	rcu_read_unlock();
}

/* Outside a reader, where @cond (the updater's lock held) allows it. */
static int walk_if(struct list_head *head, bool cond)
{
	struct item *it;
	int n = 0;

	list_for_each_entry_rcu(it, head, node, cond) n++;
	return n;
}

/*
 * A walk's optional condition is what lets an updater walk outside a
 * reader: true, no report; false, "RCU-list traversed in non-reader
 * section" (with CONFIG_PROVE_RCU).
 */
static void walk_condition_is_honoured(void **state)
{
	LIST_HEAD(head);
	struct item *a = item_new(1);

	(void)state;
	list_add_rcu(&a->node, &head);
	assert_int_equal(walk_if(&head, true), 1);
	assert_int_equal(captured.nr, 0);
	assert_int_equal(walk_if(&head, false), 1);
	if (CONFIG_PROVE_RCU) {
		assert_int_equal(captured.nr, 1);
		assert_report_contains("non-reader");
	}
	free(a);
}

static void list_ops_keep_order(void **state)
{
	LIST_HEAD(head);
	struct item *a = item_new(1), *b = item_new(2), *c = item_new(3),
		    *d = item_new(4), *first;
	int out[8], n;

	(void)state;
	list_add_rcu(&b->node, &head);
	list_add_rcu(&a->node, &head);
	list_add_tail_rcu(&c->node, &head);
	walk(&head, out, &n);
	assert_int_equal(n, 3);
	assert_int_equal(out[0] * 100 + out[1] * 10 + out[2], 123);
	list_replace_rcu(&b->node, &d->node);
	walk(&head, out, &n);
	assert_int_equal(out[0] * 100 + out[1] * 10 + out[2], 143);
	list_del_rcu(&a->node);
	/* A reader standing on a removed entry still reaches the rest. */
	assert_ptr_equal(a->node.next, &d->node);
	walk(&head, out, &n);
	assert_int_equal(n, 2);
	rcu_read_lock();
	first = list_first_or_null_rcu(&head, struct item, node);
	assert_int_equal(first->val, 4);
	rcu_read_unlock();
	synchronize_rcu();
	free(a);
	free(b);
	free(c);
	free(d);
	assert_int_equal(captured.nr, 0);
}

static void hlist_ops_keep_order(void **state)
{
	struct hlist_head h = HLIST_HEAD_INIT;
	struct item *a = item_new(1), *b = item_new(2), *c = item_new(3),
		    *d = item_new(4), *it;
	int sum = 0, n = 0;

	(void)state;
	assert_true(hlist_empty(&h));
	hlist_add_head_rcu(&b->hnode, &h);
	hlist_add_before_rcu(&a->hnode, &b->hnode);
	hlist_add_behind_rcu(&c->hnode, &b->hnode);
	rcu_read_lock();
	hlist_for_each_entry_rcu(it, &h, hnode) sum = sum * 10 + it->val;
	rcu_read_unlock();
	assert_int_equal(sum, 123);
	hlist_replace_rcu(&b->hnode, &d->hnode);
	hlist_del_rcu(&a->hnode);
	sum = 0;
	rcu_read_lock();
	hlist_for_each_entry_rcu(it, &h, hnode)
	{
		sum = sum * 10 + it->val;
		n++;
	}
	rcu_read_unlock();
	assert_int_equal(sum, 43);
	assert_int_equal(n, 2);
	hlist_del_init_rcu(&c->hnode);
	assert_true(hlist_unhashed(&c->hnode));
	synchronize_rcu();
	free(a);
	free(b);
	free(c);
	free(d);
}

/* ---- readers against an updater ---- */

#define NR_ITEMS 16

static LIST_HEAD(live);
static int stop;
static unsigned long bad;

static void poison_free(struct rcu_head *rh)
{
	struct item *it =
		(struct item *)((char *)rh - offsetof(struct item, rh));

	__atomic_store_n(&it->magic, POISON, __ATOMIC_SEQ_CST);
	/* Kept, not freed: a reader that still sees it shows the bug. */
}

static void read_once(void)
{
	struct item *it;

	rcu_read_lock();
	list_for_each_entry_rcu(it, &live, node)
	{
		if (__atomic_load_n(&it->magic, __ATOMIC_SEQ_CST) != MAGIC)
			__atomic_add_fetch(&bad, 1, __ATOMIC_SEQ_CST);
	}
	rcu_read_unlock();
}

static int reader_task(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE))
		read_once();
	return 0;
}

static void *reader_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE))
		read_once();
	return NULL;
}

static void readers_never_see_poisoned_entries(void **state)
{
	enum preempt_model model = *(enum preempt_model *)*state;
	struct item *all[20000];
	int nall = 0;
	struct task_struct *r[2];
	pthread_t t;
	long end;

	pk_boot_online(2, model);
	stop = 0;
	bad = 0;
	INIT_LIST_HEAD(&live);
	for (int i = 0; i < NR_ITEMS; i++) {
		all[nall] = item_new(i);
		list_add_tail_rcu(&all[nall++]->node, &live);
	}
	for (int i = 0; i < 2; i++) {
		r[i] = kthread_run(reader_task, NULL, "walker%d", i);
		assert_non_null(r[i]);
	}
	assert_int_equal(pthread_create(&t, NULL, reader_thread, NULL), 0);
	end = now_ms() + 300;
	while (now_ms() < end && nall < 20000) {
		struct item *old = list_first_entry(&live, struct item, node);
		struct item *new = item_new(old->val);

		all[nall++] = new;
		list_replace_rcu(&old->node, &new->node);
		/* Move it to the tail, so walkers see changes everywhere. */
		list_del_rcu(&new->node);
		list_add_tail_rcu(&new->node, &live);
		call_rcu(&old->rh, poison_free);
		if (nall % 64 == 0)
			usleep(100);
	}
	__atomic_store_n(&stop, 1, __ATOMIC_SEQ_CST);
	for (int i = 0; i < 2; i++)
		assert_int_equal(kthread_stop(r[i]), 0);
	pthread_join(t, NULL);
	rcu_barrier();
	assert_int_equal(bad, 0);
	for (int i = 0; i < nall; i++)
		free(all[i]);
}

static enum preempt_model m_none = PREEMPT_MODEL_NONE;
static enum preempt_model m_full = PREEMPT_MODEL_FULL;
static enum preempt_model m_rt = PREEMPT_MODEL_RT;

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, rcu_test_teardown)
#define TM(fn, m)                                                              \
	cmocka_unit_test_prestate_setup_teardown(fn, capture_setup,            \
						 rcu_test_teardown, &(m))

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(list_ops_keep_order),
		T(walk_condition_is_honoured),
		T(hlist_ops_keep_order),
		TM(readers_never_see_poisoned_entries, m_none),
		TM(readers_never_see_poisoned_entries, m_full),
		TM(readers_never_see_poisoned_entries, m_rt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
