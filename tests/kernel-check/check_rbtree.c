// SPDX-License-Identifier: MIT
/*
 * lib/rbtree.c: two tasks on two CPUs insert and erase under a spinlock;
 * after every round the tree is checked whole — in order, parents right,
 * root black, no red node with a red child, one black height — and so are
 * the augmented subtree maxima the callbacks keep (rb_insert_augmented(),
 * rb_erase_augmented()).  Then the cached-leftmost forms, rb_find(),
 * rb_replace_node() and a freeing post-order walk.
 */

#include <linux/rbtree_augmented.h>
#include <linux/spinlock.h>

#include "check.h"

#define PER_TASK 1500
#define ROUNDS 4

struct item {
	struct rb_node rb;
	u32 key;
	u32 weight;
	u32 subtree_max; /* the largest weight below and at this node */
	bool in;
};

#define item_of(n) rb_entry(n, struct item, rb)
#define ITEM_WEIGHT(it) ((it)->weight)

RB_DECLARE_CALLBACKS_MAX(static, item_cb, struct item, rb, u32, subtree_max,
			 ITEM_WEIGHT);

static struct rb_root tree = RB_ROOT;
static DEFINE_SPINLOCK(tree_lock);
static struct item items[2][PER_TASK];

static void insert(struct item *it)
{
	struct rb_node **link = &tree.rb_node, *parent = NULL;

	it->subtree_max = it->weight;
	while (*link) {
		struct item *p = item_of(*link);

		parent = *link;
		/* The path down covers the new node: its maxima grow. */
		if (p->subtree_max < it->weight)
			p->subtree_max = it->weight;
		link = it->key < p->key ? &parent->rb_left : &parent->rb_right;
	}
	rb_link_node(&it->rb, parent, link);
	rb_insert_augmented(&it->rb, &tree, &item_cb);
	it->in = true;
}

/* Black height of @n's subtree, or -1 when a rule is broken below it. */
static int check_node(struct rb_node *n, struct rb_node *parent, u32 *max)
{
	u32 lmax = 0, rmax = 0;
	int lh, rh;

	if (!n) {
		*max = 0;
		return 1;
	}
	if (rb_parent(n) != parent)
		return -1;
	if (rb_is_red(n) && ((n->rb_left && rb_is_red(n->rb_left)) ||
			     (n->rb_right && rb_is_red(n->rb_right))))
		return -1;
	if ((n->rb_left && item_of(n->rb_left)->key > item_of(n)->key) ||
	    (n->rb_right && item_of(n->rb_right)->key < item_of(n)->key))
		return -1;
	lh = check_node(n->rb_left, n, &lmax);
	rh = check_node(n->rb_right, n, &rmax);
	if (lh < 0 || lh != rh)
		return -1;
	*max = max3(item_of(n)->weight, lmax, rmax);
	if (item_of(n)->subtree_max != *max)
		return -1;
	return lh + rb_is_black(n);
}

/* 0 when the whole tree holds, with @count nodes in key order. */
static int check_tree(int count)
{
	struct rb_node *n;
	u32 max, prev = 0;
	int seen = 0;

	if (tree.rb_node && rb_is_red(tree.rb_node))
		return -1;
	if (check_node(tree.rb_node, NULL, &max) < 0)
		return -2;
	for (n = rb_first(&tree); n; n = rb_next(n), seen++) {
		if (item_of(n)->key < prev)
			return -3;
		prev = item_of(n)->key;
	}
	if (seen != count)
		return -4;
	/* Backwards, the same count. */
	for (n = rb_last(&tree); n; n = rb_prev(n))
		seen--;
	return seen ? -5 : 0;
}

static int worker(void *arg)
{
	struct item *mine = arg;
	u32 x = (u32)(mine - &items[0][0]) * 2654435761u + 1;

	for (int i = 0; i < PER_TASK; i++) {
		x = x * 1103515245u + 12345u;
		mine[i].key = x >> 8;
		mine[i].weight = (x >> 4) & 0xffff;
		spin_lock(&tree_lock);
		insert(&mine[i]);
		/* Erase an earlier one of ours now and then. */
		if (i % 3 == 2) {
			struct item *old = &mine[(x >> 3) % i];

			if (old->in) {
				rb_erase_augmented(&old->rb, &tree, &item_cb);
				old->in = false;
			}
		}
		spin_unlock(&tree_lock);
		if (!(i % 64))
			cond_resched();
	}
	return 0;
}

static int count_in(void)
{
	int c = 0;

	for (int t = 0; t < 2; t++)
		for (int i = 0; i < PER_TASK; i++)
			c += items[t][i].in;
	return c;
}

static void augmented_two_cpus(void **state)
{
	(void)state;
	check_boot(2);
	for (int r = 0; r < ROUNDS; r++) {
		struct task_struct *a, *b;

		tree = RB_ROOT;
		memset(items, 0, sizeof(items));
		a = kthread_run(worker, items[0], "rb-a");
		b = kthread_run(worker, items[1], "rb-b");
		kthread_stop(a);
		kthread_stop(b);
		assert_int_equal(check_tree(count_in()), 0);
		/* Erase the rest, checking as the tree shrinks. */
		for (int t = 0; t < 2; t++)
			for (int i = 0; i < PER_TASK; i++) {
				if (!items[t][i].in)
					continue;
				rb_erase_augmented(&items[t][i].rb, &tree,
						   &item_cb);
				items[t][i].in = false;
				if (!(i % 97))
					assert_int_equal(check_tree(count_in()),
							 0);
			}
		assert_true(RB_EMPTY_ROOT(&tree));
	}
	machine_shutdown();
}

static bool key_less(struct rb_node *a, const struct rb_node *b)
{
	return item_of(a)->key < item_of(b)->key;
}

static int key_cmp(const void *key, const struct rb_node *n)
{
	u32 k = *(const u32 *)key;

	return k < item_of(n)->key ? -1 : k > item_of(n)->key;
}

/* The plain (not augmented) API on the same items. */
static int plain_api(void *arg)
{
	struct rb_root_cached cached = RB_ROOT_CACHED;
	struct item *it = items[0], *pos, *n, spare = {.key = 0};
	struct rb_node *leftmost;
	u32 k = 1000;
	int visited = 0;

	(void)arg;
	for (int i = 0; i < 200; i++) {
		it[i].key = (u32)((i * 37) % 200); /* a permutation */
		RB_CLEAR_NODE(&it[i].rb);
		if (!RB_EMPTY_NODE(&it[i].rb))
			return -1;
		leftmost = rb_add_cached(&it[i].rb, &cached, key_less);
		if ((leftmost != NULL) != (it[i].key < k))
			return -2;
		if (leftmost)
			k = it[i].key;
	}
	if (item_of(rb_first_cached(&cached))->key != 0)
		return -3;
	/* Erasing the leftmost hands the cache its successor. */
	leftmost = rb_erase_cached(rb_first_cached(&cached), &cached);
	if (!leftmost || item_of(leftmost)->key != 1 ||
	    rb_first_cached(&cached) != leftmost)
		return -4;
	k = 150;
	if (!rb_find(&k, &cached.rb_root, key_cmp) ||
	    item_of(rb_find(&k, &cached.rb_root, key_cmp))->key != 150)
		return -5;
	k = 0; /* erased */
	if (rb_find(&k, &cached.rb_root, key_cmp))
		return -6;
	/* A spare node takes key 1's place. */
	spare.key = 1;
	rb_replace_node_cached(leftmost, &spare.rb, &cached);
	if (rb_first_cached(&cached) != &spare.rb ||
	    rb_next(&spare.rb) != rb_find(&(u32){2}, &cached.rb_root, key_cmp))
		return -7;
	/* Post-order: children first, so each may be cleared as visited. */
	rbtree_postorder_for_each_entry_safe(pos, n, &cached.rb_root, rb)
	{
		if (pos->rb.rb_left || pos->rb.rb_right)
			return -8;
		if (rb_parent(&pos->rb)) {
			struct rb_node *p = rb_parent(&pos->rb);

			if (p->rb_left == &pos->rb)
				p->rb_left = NULL;
			else
				p->rb_right = NULL;
		}
		visited++;
	}
	return visited == 199 ? 0 : -9;
}

static void plain_and_cached(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(plain_api, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(augmented_two_cpus),
		cmocka_unit_test(plain_and_cached),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
