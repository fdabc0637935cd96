/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RBTREE_H
#define _LINUX_RBTREE_H

/*
 * Red-black trees (Documentation/core-api/rbtree.rst).  The tree does no
 * locking and no allocation: the caller embeds a struct rb_node, walks
 * down to the link where a new node belongs, rb_link_node()s it there and
 * rb_insert_color()s to rebalance.  rb_add()/rb_find() do the walk with a
 * comparison callback.  Any context, under whatever lock the caller's
 * data needs.  The library does not implement the out-of-line functions:
 * a program brings lib/rbtree.c.
 */

#include <linux/compiler.h>
#include <linux/container_of.h>
#include <linux/rbtree_types.h>
#include <linux/rcupdate.h>
#include <linux/stddef.h>
#include <linux/types.h>

#define rb_parent(r) ((struct rb_node *)((r)->__rb_parent_color & ~3UL))
#define rb_entry(ptr, type, member) container_of(ptr, type, member)
#define RB_EMPTY_ROOT(root) (READ_ONCE((root)->rb_node) == NULL)
/* A node that is in no tree points at itself. */
#define RB_EMPTY_NODE(node) ((node)->__rb_parent_color == (unsigned long)(node))
#define RB_CLEAR_NODE(node) ((node)->__rb_parent_color = (unsigned long)(node))

void rb_insert_color(struct rb_node *node, struct rb_root *root);
void rb_erase(struct rb_node *node, struct rb_root *root);

struct rb_node *rb_next(const struct rb_node *node);
struct rb_node *rb_prev(const struct rb_node *node);
struct rb_node *rb_first(const struct rb_root *root);
struct rb_node *rb_last(const struct rb_root *root);

/* Post-order: children before their parent, so a walk may free nodes. */
struct rb_node *rb_first_postorder(const struct rb_root *root);
struct rb_node *rb_next_postorder(const struct rb_node *node);

/* @new takes @victim's place, colour and children; no rebalancing. */
void rb_replace_node(struct rb_node *victim, struct rb_node *new,
		     struct rb_root *root);
void rb_replace_node_rcu(struct rb_node *victim, struct rb_node *new,
			 struct rb_root *root);

/* @node, red, becomes the child at *@rb_link of @parent. */
static inline void rb_link_node(struct rb_node *node, struct rb_node *parent,
				struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = node->rb_right = NULL;
	*rb_link = node;
}

static inline void rb_link_node_rcu(struct rb_node *node,
				    struct rb_node *parent,
				    struct rb_node **rb_link)
{
	node->__rb_parent_color = (unsigned long)parent;
	node->rb_left = node->rb_right = NULL;
	rcu_assign_pointer(*rb_link, node);
}

#define rb_entry_safe(ptr, type, member)                                       \
	({                                                                     \
		__typeof__(ptr) __pk_rb = (ptr);                               \
		__pk_rb ? rb_entry(__pk_rb, type, member) : NULL;              \
	})

/* Every entry in post-order; @pos may be freed in the body. */
#define rbtree_postorder_for_each_entry_safe(pos, n, root, field)              \
	for (pos = rb_entry_safe(rb_first_postorder(root), __typeof__(*pos),   \
				 field);                                       \
	     pos && ({                                                         \
		     n = rb_entry_safe(rb_next_postorder(&pos->field),         \
				       __typeof__(*pos), field);               \
		     1;                                                        \
	     });                                                               \
	     pos = n)

#define rb_first_cached(root) ((root)->rb_leftmost)

static inline void rb_insert_color_cached(struct rb_node *node,
					  struct rb_root_cached *root,
					  bool leftmost)
{
	if (leftmost)
		root->rb_leftmost = node;
	rb_insert_color(node, &root->rb_root);
}

/* Returns the new leftmost node when @node was the leftmost, else NULL. */
static inline struct rb_node *rb_erase_cached(struct rb_node *node,
					      struct rb_root_cached *root)
{
	struct rb_node *leftmost = NULL;

	if (root->rb_leftmost == node)
		leftmost = root->rb_leftmost = rb_next(node);
	rb_erase(node, &root->rb_root);
	return leftmost;
}

static inline void rb_replace_node_cached(struct rb_node *victim,
					  struct rb_node *new,
					  struct rb_root_cached *root)
{
	if (root->rb_leftmost == victim)
		root->rb_leftmost = new;
	rb_replace_node(victim, new, &root->rb_root);
}

/*
 * rb_add_cached() - insert @node where @less orders it, after its equals.
 * Returns @node when it became the leftmost, else NULL.
 */
static __always_inline struct rb_node *
rb_add_cached(struct rb_node *node, struct rb_root_cached *tree,
	      bool (*less)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_root.rb_node, *parent = NULL;
	bool leftmost = true;

	while (*link) {
		parent = *link;
		if (less(node, parent)) {
			link = &parent->rb_left;
		} else {
			link = &parent->rb_right;
			leftmost = false;
		}
	}
	rb_link_node(node, parent, link);
	rb_insert_color_cached(node, tree, leftmost);
	return leftmost ? node : NULL;
}

static __always_inline void rb_add(struct rb_node *node, struct rb_root *tree,
				   bool (*less)(struct rb_node *,
						const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;

	while (*link) {
		parent = *link;
		link = less(node, parent) ? &parent->rb_left
					  : &parent->rb_right;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
}

/* rb_find_add() - insert @node unless @cmp finds an equal; returns that. */
static __always_inline struct rb_node *
rb_find_add(struct rb_node *node, struct rb_root *tree,
	    int (*cmp)(struct rb_node *, const struct rb_node *))
{
	struct rb_node **link = &tree->rb_node, *parent = NULL;
	int c;

	while (*link) {
		parent = *link;
		c = cmp(node, parent);
		if (c < 0)
			link = &parent->rb_left;
		else if (c > 0)
			link = &parent->rb_right;
		else
			return parent;
	}
	rb_link_node(node, parent, link);
	rb_insert_color(node, tree);
	return NULL;
}

/* @cmp(key, node): <0 when @key sorts before @node. */
static __always_inline struct rb_node *
rb_find(const void *key, const struct rb_root *tree,
	int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node;

	while (node) {
		int c = cmp(key, node);

		if (c < 0)
			node = node->rb_left;
		else if (c > 0)
			node = node->rb_right;
		else
			return node;
	}
	return NULL;
}

/* The leftmost node equal to @key. */
static __always_inline struct rb_node *
rb_find_first(const void *key, const struct rb_root *tree,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	struct rb_node *node = tree->rb_node, *match = NULL;

	while (node) {
		int c = cmp(key, node);

		if (c <= 0) {
			if (!c)
				match = node;
			node = node->rb_left;
		} else {
			node = node->rb_right;
		}
	}
	return match;
}

/* The node after @node when it also equals @key, else NULL. */
static __always_inline struct rb_node *
rb_next_match(const void *key, struct rb_node *node,
	      int (*cmp)(const void *key, const struct rb_node *))
{
	node = rb_next(node);
	if (node && cmp(key, node))
		node = NULL;
	return node;
}

#define rb_for_each(node, key, tree, cmp)                                      \
	for ((node) = rb_find_first((key), (tree), (cmp)); (node);             \
	     (node) = rb_next_match((key), (node), (cmp)))

#endif /* _LINUX_RBTREE_H */
