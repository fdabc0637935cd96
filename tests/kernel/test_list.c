// SPDX-License-Identifier: MIT
/* list.h, hlist and llist: order after every operation, and llist under
 * concurrency. */

#include <linux/kernel.h>
#include <linux/list.h>
#include <linux/llist.h>
#include <linux/sched.h>

#include "pk_kernel_test.h"

struct item {
	int v;
	struct list_head node;
	struct hlist_node hnode;
	struct llist_node lnode;
};

static struct item items[6];

/* The values of @head in order, as a string like "0 1 2". */
static const char *order(struct list_head *head)
{
	static char buf[64];
	struct item *it;
	int n = 0;

	buf[0] = '\0';
	list_for_each_entry(it, head, node)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      n ? " %d" : "%d", it->v);
	return buf;
}

static void fill(struct list_head *head, int count)
{
	INIT_LIST_HEAD(head);
	for (int i = 0; i < count; i++) {
		items[i].v = i;
		list_add_tail(&items[i].node, head);
	}
}

static void test_list_ops(void **state)
{
	LIST_HEAD(a);
	LIST_HEAD(b);
	struct item *pos, *n;
	int seen = 0;

	(void)state;
	fill(&a, 5);
	assert_string_equal(order(&a), "0 1 2 3 4");
	list_move(&items[3].node, &a);
	assert_string_equal(order(&a), "3 0 1 2 4");
	list_move_tail(&items[3].node, &a);
	assert_string_equal(order(&a), "0 1 2 4 3");
	list_rotate_left(&a);
	assert_string_equal(order(&a), "1 2 4 3 0");
	list_swap(&items[1].node, &items[0].node);
	assert_string_equal(order(&a), "0 2 4 3 1");
	list_del(&items[4].node);
	assert_ptr_equal(items[4].node.next, LIST_POISON1);
	assert_string_equal(order(&a), "0 2 3 1");
	list_cut_position(&b, &a, &items[2].node);
	assert_string_equal(order(&b), "0 2");
	assert_string_equal(order(&a), "3 1");
	list_splice_tail_init(&b, &a);
	assert_true(list_empty(&b));
	assert_string_equal(order(&a), "3 1 0 2");
	list_cut_before(&b, &a, &items[0].node);
	assert_string_equal(order(&b), "3 1");
	assert_string_equal(order(&a), "0 2");
	list_splice(&b, &a);
	assert_string_equal(order(&a), "3 1 0 2");
	assert_int_equal(list_count_nodes(&a), 4);
	assert_ptr_equal(list_first_entry_or_null(&a, struct item, node),
			 &items[3]);
	assert_ptr_equal(list_last_entry(&a, struct item, node), &items[2]);
	INIT_LIST_HEAD(&b);
	assert_null(list_first_entry_or_null(&b, struct item, node));
	list_rotate_to_front(&items[0].node, &a);
	assert_string_equal(order(&a), "0 2 3 1");
	/* Reverse and safe: delete while walking backwards. */
	list_for_each_entry_safe_reverse(pos, n, &a, node)
	{
		seen = seen * 10 + pos->v;
		if (pos->v == 3)
			list_del_init(&pos->node);
	}
	assert_int_equal(seen, 1320);
	assert_string_equal(order(&a), "0 2 1");
	assert_true(list_is_last(&items[1].node, &a));
	assert_true(list_is_first(&items[0].node, &a));
	INIT_LIST_HEAD(&b);
	list_add(&items[5].node, &b);
	assert_true(list_is_singular(&b));
	list_replace_init(&items[5].node, &items[4].node);
	assert_true(list_empty(&items[5].node));
	assert_ptr_equal(list_first_entry(&b, struct item, node), &items[4]);
}

static void test_hlist(void **state)
{
	HLIST_HEAD(h);
	struct item *it;
	struct hlist_node *tmp;
	int sum = 0;

	(void)state;
	for (int i = 0; i < 4; i++) {
		items[i].v = i;
		INIT_HLIST_NODE(&items[i].hnode);
		assert_true(hlist_unhashed(&items[i].hnode));
	}
	hlist_add_head(&items[0].hnode, &h);
	hlist_add_head(&items[1].hnode, &h);		    /* 1 0 */
	hlist_add_behind(&items[2].hnode, &items[1].hnode); /* 1 2 0 */
	hlist_add_before(&items[3].hnode, &items[0].hnode); /* 1 2 3 0 */
	hlist_for_each_entry(it, &h, hnode) sum = sum * 10 + it->v;
	assert_int_equal(sum, 1230);
	hlist_del_init(&items[2].hnode);
	assert_true(hlist_unhashed(&items[2].hnode));
	sum = 0;
	hlist_for_each_entry_safe(it, tmp, &h, hnode)
	{
		sum = sum * 10 + it->v;
		hlist_del(&it->hnode);
	}
	assert_int_equal(sum, 130);
	assert_true(hlist_empty(&h));
}

static void test_llist_basic(void **state)
{
	LLIST_HEAD(head);
	struct llist_node *first;
	struct item *it;
	int sum = 0;

	(void)state;
	assert_true(llist_empty(&head));
	for (int i = 0; i < 4; i++) {
		items[i].v = i;
		assert_int_equal(llist_add(&items[i].lnode, &head), i == 0);
	}
	/* A stack: newest first; reversed, oldest first. */
	assert_ptr_equal(llist_del_first(&head), &items[3].lnode);
	first = llist_reverse_order(llist_del_all(&head));
	assert_true(llist_empty(&head));
	llist_for_each_entry(it, first, lnode) sum = sum * 10 + it->v;
	assert_int_equal(sum, 12); /* 0 1 2 */
}

/* Producers on every CPU add; the count taken afterwards is exact. */
#define PER_TASK 100000
static LLIST_HEAD(shared);
static struct llist_node nodes[4][PER_TASK];

static int producer(void *arg)
{
	struct llist_node *mine = arg;

	for (int i = 0; i < PER_TASK; i++) {
		llist_add(&mine[i], &shared);
		if (!(i % 10000))
			cond_resched();
	}
	return 0;
}

static void test_llist_concurrent(void **state)
{
	struct task_struct *t[4];
	struct llist_node *n;
	int count = 0;

	(void)state;
	for (size_t m = 0; m < ARRAY_SIZE(all_models); m++) {
		init_llist_head(&shared);
		pk_boot(2, all_models[m]);
		for (int i = 0; i < 4; i++)
			t[i] = kthread_run(producer, nodes[i], "producer");
		for (int i = 0; i < 4; i++)
			kthread_stop(t[i]);
		machine_shutdown();
		count = 0;
		llist_for_each(n, llist_del_all(&shared)) count++;
		assert_int_equal(count, 4 * PER_TASK);
	}
	preempt_model_set(PREEMPT_MODEL_FULL);
}

/*
 * CONFIG_DEBUG_LIST (on in the debug build): a link or unlink that would
 * corrupt a list is reported in the kernel's words and not done.  Without
 * it, nothing is checked.
 */
static void test_debug_list(void **state)
{
	struct list_head head, a, b, *saved;

	(void)state;
	capture_reset();
	INIT_LIST_HEAD(&head);
	list_add(&a, &head);
	assert_int_equal(captured.nr, 0);
	if (!IS_ENABLED(CONFIG_DEBUG_LIST)) {
		/* Without it (PREEMPT_DEBUG=OFF) nothing is checked. */
		list_del(&a);
		list_del_init(&head);
		assert_int_equal(captured.nr, 0);
		capture_stop();
		return;
	}

	/* Added twice: the second is refused, the list stays as it was. */
	list_add(&a, &head);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("list_add double add: new=");
	assert_ptr_equal(head.next, &a);
	assert_ptr_equal(a.next, &head);

	/* A neighbour that does not point back. */
	saved = a.prev;
	a.prev = &b;
	list_add(&b, &head);
	assert_int_equal(captured.nr, 2);
	assert_report_contains("list_add corruption. next->prev should be "
			       "prev (");
	assert_ptr_equal(head.next, &a);
	a.prev = saved;

	/* Deleted twice: the poison is seen, nothing is written. */
	list_del(&a);
	assert_true(list_empty(&head));
	list_del(&a);
	assert_int_equal(captured.nr, 3);
	assert_report_contains("->next is LIST_POISON1 (");
	assert_true(list_empty(&head));

	/* list_del_init() of an entry its list no longer holds. */
	list_add(&a, &head);
	head.next = &head;
	head.prev = &head;
	list_del_init(&a);
	assert_int_equal(captured.nr, 4);
	assert_report_contains("list_del corruption. prev->next should be ");
	assert_true(list_empty(&a)); /* left self-linked, as the kernel's */
	capture_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_list_ops),
		cmocka_unit_test(test_hlist),
		cmocka_unit_test(test_llist_basic),
		cmocka_unit_test(test_llist_concurrent),
		cmocka_unit_test(test_debug_list),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
