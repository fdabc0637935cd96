// SPDX-License-Identifier: MIT
/*
 * RCU through the linux/ tree: kernel code with its own rcu_head
 * (<linux/types.h>'s callback_head), RCU lists over the tree's list.h and
 * hlists, kfree_rcu() and SRCU, in both flavours.
 */

#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/srcu.h>

#include "pk_kernel_test.h"

struct item {
	int key;
	struct list_head node;
	struct hlist_node hnode;
	struct rcu_head rcu;
};

static LIST_HEAD(items);
static HLIST_HEAD(hitems);
static int freed;

static void item_free(struct rcu_head *head)
{
	struct item *it = container_of(head, struct item, rcu);

	freed++;
	kfree(it);
}

static int sum_under_rcu(void)
{
	struct item *it;
	int sum = 0;

	rcu_read_lock();
	list_for_each_entry_rcu(it, &items, node) sum += it->key;
	hlist_for_each_entry_rcu(it, &hitems, hnode) sum += 100 * it->key;
	rcu_read_unlock();
	return sum;
}

static void run(enum preempt_model model)
{
	struct item *a = kzalloc(sizeof(*a), GFP_KERNEL);
	struct item *b = kzalloc(sizeof(*b), GFP_KERNEL);

	assert_non_null(a);
	assert_non_null(b);
	freed = 0;
	pk_boot_online(2, model);
	a->key = 1;
	b->key = 2;
	list_add_rcu(&a->node, &items);
	list_add_tail_rcu(&b->node, &items);
	hlist_add_head_rcu(&a->hnode, &hitems);
	assert_int_equal(sum_under_rcu(), 3 + 100);
	list_del_rcu(&a->node);
	hlist_del_rcu(&a->hnode);
	call_rcu(&a->rcu, item_free);
	rcu_barrier();
	assert_int_equal(freed, 1);
	assert_int_equal(sum_under_rcu(), 2);
	list_del_rcu(&b->node);
	kfree_rcu(b, rcu);
	synchronize_rcu();
	rcu_barrier();
	assert_true(list_empty(&items));
	machine_shutdown();
}

static void kernel_rcu_lists_non_preemptible(void **state)
{
	(void)state;
	run(PREEMPT_MODEL_VOLUNTARY);
}

static void kernel_rcu_lists_preemptible(void **state)
{
	(void)state;
	run(PREEMPT_MODEL_FULL);
}

DEFINE_STATIC_SRCU(kernel_srcu);

static void kernel_srcu_reader_and_sync(void **state)
{
	int idx;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	idx = srcu_read_lock(&kernel_srcu);
	msleep(1); /* an SRCU reader may sleep */
	srcu_read_unlock(&kernel_srcu, idx);
	synchronize_srcu(&kernel_srcu);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_rcu_lists_non_preemptible),
		cmocka_unit_test(kernel_rcu_lists_preemptible),
		cmocka_unit_test(kernel_srcu_reader_and_sync),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
