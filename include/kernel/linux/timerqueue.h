/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_TIMERQUEUE_H
#define _LINUX_TIMERQUEUE_H

/*
 * A time-ordered queue of nodes on a leftmost-cached rbtree: the earliest
 * expiry in O(1), add and delete in O(log n).  No locking: the caller's.
 * timerqueue_add(), _del() and _iterate_next() come from
 * lib/timerqueue.c, which a program brings.
 */

#include <linux/ktime.h>
#include <linux/rbtree.h>

struct timerqueue_node {
	struct rb_node node;
	ktime_t expires;
};

struct timerqueue_head {
	struct rb_root_cached rb_root;
};

/* Both return whether @node is now, or was, the earliest: true if so. */
bool timerqueue_add(struct timerqueue_head *head, struct timerqueue_node *node);
/* Returns false when the queue is empty afterwards. */
bool timerqueue_del(struct timerqueue_head *head, struct timerqueue_node *node);
struct timerqueue_node *timerqueue_iterate_next(struct timerqueue_node *node);

static inline struct timerqueue_node *
timerqueue_getnext(struct timerqueue_head *head)
{
	struct rb_node *leftmost = rb_first_cached(&head->rb_root);

	return rb_entry_safe(leftmost, struct timerqueue_node, node);
}

static inline void timerqueue_init(struct timerqueue_node *node)
{
	RB_CLEAR_NODE(&node->node);
}

static inline bool timerqueue_node_queued(struct timerqueue_node *node)
{
	return !RB_EMPTY_NODE(&node->node);
}

static inline ktime_t timerqueue_node_expires(struct timerqueue_node *node)
{
	return node->expires;
}

static inline void timerqueue_init_head(struct timerqueue_head *head)
{
	head->rb_root = RB_ROOT_CACHED;
}

#endif /* _LINUX_TIMERQUEUE_H */
