// SPDX-License-Identifier: MIT
/* lib/llist.c: producers on every CPU, one consumer with llist_del_first(). */

#include <linux/llist.h>

#include "check.h"

#define PRODUCERS 3
#define PER 20000

struct node {
	struct llist_node ln;
	int producer, seq;
};

static LLIST_HEAD(list);
static struct node nodes[PRODUCERS][PER];
static bool seen[PRODUCERS][PER];
static atomic_t done;

static int producer(void *arg)
{
	struct node *mine = arg;

	for (int i = 0; i < PER; i++) {
		llist_add(&mine[i].ln, &list);
		if (!(i % 256))
			cond_resched();
	}
	atomic_inc(&done);
	return 0;
}

/* The single consumer: every node comes out exactly once. */
static int consumer(void *arg)
{
	int taken = 0, bad = 0;

	(void)arg;
	for (;;) {
		struct llist_node *n = llist_del_first(&list);

		if (!n) {
			if (atomic_read(&done) == PRODUCERS &&
			    llist_empty(&list))
				break;
			cond_resched();
			continue;
		}
		struct node *nd = llist_entry(n, struct node, ln);

		if (seen[nd->producer][nd->seq])
			bad++;
		seen[nd->producer][nd->seq] = true;
		taken++;
	}
	return bad ? -1 : taken;
}

static void test_llist(void **state)
{
	struct task_struct *p[PRODUCERS];
	struct llist_node *batch;
	int taken;

	(void)state;
	check_boot(2);
	for (int i = 0; i < PRODUCERS; i++) {
		for (int j = 0; j < PER; j++)
			nodes[i][j] = (struct node){.producer = i, .seq = j};
		p[i] = kthread_run(producer, nodes[i], "producer");
	}
	taken = check_run(consumer, NULL);
	for (int i = 0; i < PRODUCERS; i++)
		kthread_stop(p[i]);
	machine_shutdown();
	assert_int_equal(taken, PRODUCERS * PER);
	/* llist_add_batch() and llist_reverse_order() on a chain. */
	nodes[0][0].ln.next = &nodes[0][1].ln;
	nodes[0][1].ln.next = &nodes[0][2].ln;
	assert_true(llist_add_batch(&nodes[0][0].ln, &nodes[0][2].ln, &list));
	batch = llist_reverse_order(llist_del_all(&list));
	assert_ptr_equal(batch, &nodes[0][2].ln);
	assert_ptr_equal(batch->next->next, &nodes[0][0].ln);
	assert_null(batch->next->next->next);
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_llist)};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
