// SPDX-License-Identifier: MIT
/* lib/list_sort.c: sorted and stable (equal keys keep their order). */

#include <linux/list.h>
#include <linux/list_sort.h>

#include "check.h"

#define N 3000

struct item {
	struct list_head node;
	int key, seq;
};

static int calls;

static int cmp(void *priv, const struct list_head *a, const struct list_head *b)
{
	(void)priv;
	calls++;
	return list_entry(a, struct item, node)->key >
	       list_entry(b, struct item, node)->key;
}

static int sorter(void *arg)
{
	static struct item items[N];
	struct item *it, *prev = NULL;
	unsigned int seed = 7;
	int n = 0, bad = 0;
	LIST_HEAD(head);

	(void)arg;
	for (int i = 0; i < N; i++) {
		seed = seed * 1103515245u + 12345u;
		items[i] =
			(struct item){.key = (int)(seed >> 16) % 50, .seq = i};
		list_add_tail(&items[i].node, &head);
	}
	list_sort(NULL, &head, cmp);
	list_for_each_entry(it, &head, node) {
		if (prev && (prev->key > it->key ||
			     (prev->key == it->key && prev->seq > it->seq)))
			bad++;
		prev = it;
		n++;
	}
	/* The back links too: list_sort() rebuilds them at the end. */
	n -= list_entry(head.prev, struct item, node) != prev;
	return bad || n != N ? -1 : 0;
}

static void list_sort_stable(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(sorter, NULL), 0);
	assert_true(calls > N);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(list_sort_stable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
