// SPDX-License-Identifier: MIT
/*
 * lib/klist.c: an iterator that sleeps holding its place while another
 * task on the other CPU deletes around it; klist_remove() of the node the
 * iterator holds sleeps until the iterator moves on (woken by the last
 * put), while klist_del() of other nodes returns at once.  The get/put
 * callbacks balance; the add forms place nodes where they say.
 */

#include <linux/delay.h>
#include <linux/klist.h>

#include "check.h"

#define N 16

struct item {
	struct klist_node kn;
	int id;
};

static struct item items[N];
static atomic_t ngets, nputs;
static struct klist_node *volatile holding;
static atomic_t moved_on;

static void get(struct klist_node *n)
{
	(void)n;
	atomic_inc(&ngets);
}

static void put(struct klist_node *n)
{
	(void)n;
	atomic_inc(&nputs);
}

static DEFINE_KLIST(list, get, put);

#define item_of(n) container_of(n, struct item, kn)

static int iterator(void *arg)
{
	struct klist_iter it;
	struct klist_node *n;
	int seen = 0;

	(void)arg;
	klist_iter_init(&list, &it);
	while ((n = klist_next(&it))) {
		seen++;
		if (item_of(n)->id == 5) {
			/* Hold node 5 across a sleep: its removal must wait. */
			holding = n;
			msleep(30);
			atomic_set(&moved_on, 1);
		}
	}
	klist_iter_exit(&it);
	return seen;
}

static int remover(void *arg)
{
	(void)arg;
	while (!holding)
		msleep(1);
	/* Others go at once, even while the iterator sleeps. */
	klist_del(&items[9].kn);
	if (atomic_read(&moved_on))
		return -1;
	klist_remove(&items[5].kn);
	/* Only once the iterator has let go of it. */
	if (!atomic_read(&moved_on))
		return -2;
	/*
	 * Detached by then: 6.12's release clears the node's list before it
	 * wakes the remover, 6.1's just after (the remover may look first),
	 * so wait a moment, bounded, for the store.
	 */
	for (int i = 0; i < 1000 && klist_node_attached(&items[5].kn); i++)
		msleep(1);
	return klist_node_attached(&items[5].kn) ? -3 : 0;
}

static void remove_waits_for_iterator(void **state)
{
	struct task_struct *it, *rm;
	int seen;

	(void)state;
	for (int i = 0; i < N; i++) {
		items[i].id = i;
		klist_add_tail(&items[i].kn, &list);
	}
	check_boot(2);
	it = kthread_create(iterator, NULL, "klist-iter");
	rm = kthread_create(remover, NULL, "klist-rm");
	kthread_bind(it, 0);
	kthread_bind(rm, 1);
	wake_up_process(it);
	wake_up_process(rm);
	assert_int_equal(kthread_stop(rm), 0);
	seen = kthread_stop(it);
	machine_shutdown();
	/* 9 was deleted before the iterator reached it. */
	assert_int_equal(seen, N - 1);
	assert_false(klist_node_attached(&items[9].kn));
	assert_true(klist_node_attached(&items[4].kn));
}

static int placement(void *arg)
{
	static struct item a = {.id = 100}, b = {.id = 101}, c = {.id = 102};
	struct klist_iter it;
	struct klist_node *n;
	int order[N + 3], k = 0;
	static const int want[] = {100, 0, 101, 1};

	(void)arg;
	klist_add_head(&a.kn, &list);
	klist_add_behind(&b.kn, &items[0].kn);
	klist_add_before(&c.kn, &items[N - 1].kn);
	klist_iter_init(&list, &it);
	while ((n = klist_next(&it)))
		order[k++] = item_of(n)->id;
	klist_iter_exit(&it);
	if (memcmp(order, want, sizeof(want)) || order[k - 2] != 102 ||
	    order[k - 1] != N - 1)
		return -1;
	/* Backwards from the end. */
	klist_iter_init(&list, &it);
	n = klist_prev(&it);
	klist_iter_exit(&it);
	if (!n || item_of(n)->id != N - 1)
		return -2;
	/* Empty the list: every node's reference dropped. */
	klist_iter_init(&list, &it);
	while ((n = klist_next(&it)))
		klist_del(n);
	klist_iter_exit(&it);
	return list_empty(&list.k_list) ? 0 : -3;
}

static void add_forms_and_balance(void **state)
{
	(void)state;
	check_boot(1);
	assert_int_equal(check_run(placement, NULL), 0);
	machine_shutdown();
	/* One get per add, one put per node's release. */
	assert_int_equal(atomic_read(&ngets), N + 3);
	assert_int_equal(atomic_read(&nputs), N + 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(remove_waits_for_iterator),
		cmocka_unit_test(add_forms_and_balance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
