/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RBTREE_AUGMENTED_H
#define _LINUX_RBTREE_AUGMENTED_H

/*
 * Augmented red-black trees (Documentation/core-api/rbtree.rst,
 * "Augmented rbtrees"): each node caches a value computed from its
 * subtree, e.g. the largest end of an interval tree.  The tree calls three
 * callbacks to keep it true: propagate() recomputes from a node up to
 * @stop, copy() gives a node that takes another's place the other's value,
 * rotate() fixes the two nodes a rotation exchanged.  Also the colour and
 * parent accessors lib/rbtree.c is written against.
 */

#include <linux/compiler.h>
#include <linux/rbtree.h>
#include <linux/rcupdate.h>

struct rb_augment_callbacks {
	void (*propagate)(struct rb_node *node, struct rb_node *stop);
	void (*copy)(struct rb_node *old, struct rb_node *new);
	void (*rotate)(struct rb_node *old, struct rb_node *new);
};

void __rb_insert_augmented(struct rb_node *node, struct rb_root *root,
			   void (*augment_rotate)(struct rb_node *old,
						  struct rb_node *new));

/* After rb_link_node(), with the new node's value and its path updated. */
static inline void
rb_insert_augmented(struct rb_node *node, struct rb_root *root,
		    const struct rb_augment_callbacks *augment)
{
	__rb_insert_augmented(node, root, augment->rotate);
}

static inline void
rb_insert_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			   bool newleft,
			   const struct rb_augment_callbacks *augment)
{
	if (newleft)
		root->rb_leftmost = node;
	rb_insert_augmented(node, &root->rb_root, augment);
}

/*
 * RB_DECLARE_CALLBACKS() - the three callbacks, named RBNAME_*, and the
 * struct rb_augment_callbacks RBNAME, for a RBSTRUCT whose RBFIELD is its
 * rb_node and RBAUGMENTED its cached value.  RBCOMPUTE(node, exit)
 * recomputes node's value and, when @exit, returns true if it did not
 * change (so propagation may stop).
 */
#define RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, \
			     RBCOMPUTE)                                        \
	static inline void RBNAME##_propagate(struct rb_node *rb,              \
					      struct rb_node *stop)            \
	{                                                                      \
		for (; rb != stop; rb = rb_parent(rb)) {                       \
			RBSTRUCT *n = rb_entry(rb, RBSTRUCT, RBFIELD);         \
			if (RBCOMPUTE(n, true))                                \
				break;                                         \
		}                                                              \
	}                                                                      \
	static inline void RBNAME##_copy(struct rb_node *rb_old,               \
					 struct rb_node *rb_new)               \
	{                                                                      \
		rb_entry(rb_new, RBSTRUCT, RBFIELD)->RBAUGMENTED =             \
			rb_entry(rb_old, RBSTRUCT, RBFIELD)->RBAUGMENTED;      \
	}                                                                      \
	static void RBNAME##_rotate(struct rb_node *rb_old,                    \
				    struct rb_node *rb_new)                    \
	{                                                                      \
		RBNAME##_copy(rb_old, rb_new);                                 \
		RBCOMPUTE(rb_entry(rb_old, RBSTRUCT, RBFIELD), false);         \
	}                                                                      \
	RBSTATIC const struct rb_augment_callbacks RBNAME = {                  \
		.propagate = RBNAME##_propagate,                               \
		.copy = RBNAME##_copy,                                         \
		.rotate = RBNAME##_rotate,                                     \
	}

/*
 * RB_DECLARE_CALLBACKS_MAX() - the common case: RBAUGMENTED (of RBTYPE)
 * is the largest RBCOMPUTE(node) in the subtree.
 */
#define RB_DECLARE_CALLBACKS_MAX(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBTYPE,  \
				 RBAUGMENTED, RBCOMPUTE)                       \
	static inline bool RBNAME##_compute_max(RBSTRUCT *node, bool exit)     \
	{                                                                      \
		RBTYPE max = RBCOMPUTE(node);                                  \
		struct rb_node *kid[2] = {node->RBFIELD.rb_left,               \
					  node->RBFIELD.rb_right};             \
		for (int i = 0; i < 2; i++) {                                  \
			RBSTRUCT *c;                                           \
			if (!kid[i])                                           \
				continue;                                      \
			c = rb_entry(kid[i], RBSTRUCT, RBFIELD);               \
			if (c->RBAUGMENTED > max)                              \
				max = c->RBAUGMENTED;                          \
		}                                                              \
		if (exit && node->RBAUGMENTED == max)                          \
			return true;                                           \
		node->RBAUGMENTED = max;                                       \
		return false;                                                  \
	}                                                                      \
	RB_DECLARE_CALLBACKS(RBSTATIC, RBNAME, RBSTRUCT, RBFIELD, RBAUGMENTED, \
			     RBNAME##_compute_max)

#define RB_RED 0
#define RB_BLACK 1

#define __rb_parent(pc) ((struct rb_node *)((pc) & ~3UL))
#define __rb_color(pc) ((pc)&1)
#define __rb_is_black(pc) __rb_color(pc)
#define __rb_is_red(pc) (!__rb_color(pc))
#define rb_color(rb) __rb_color((rb)->__rb_parent_color)
#define rb_is_red(rb) __rb_is_red((rb)->__rb_parent_color)
#define rb_is_black(rb) __rb_is_black((rb)->__rb_parent_color)

static inline void rb_set_parent(struct rb_node *rb, struct rb_node *p)
{
	rb->__rb_parent_color = rb_color(rb) | (unsigned long)p;
}

static inline void rb_set_parent_color(struct rb_node *rb, struct rb_node *p,
				       int color)
{
	rb->__rb_parent_color = (unsigned long)p | (unsigned long)color;
}

/* The link that points at @old: in @parent, or the root. */
static inline struct rb_node **
pk_rb_link(struct rb_node *old, struct rb_node *parent, struct rb_root *root)
{
	if (!parent)
		return &root->rb_node;
	return parent->rb_left == old ? &parent->rb_left : &parent->rb_right;
}

static inline void __rb_change_child(struct rb_node *old, struct rb_node *new,
				     struct rb_node *parent,
				     struct rb_root *root)
{
	WRITE_ONCE(*pk_rb_link(old, parent, root), new);
}

/* For readers walking the tree under RCU: @new is published. */
static inline void __rb_change_child_rcu(struct rb_node *old,
					 struct rb_node *new,
					 struct rb_node *parent,
					 struct rb_root *root)
{
	rcu_assign_pointer(*pk_rb_link(old, parent, root), new);
}

/* Restore the colours after a black node left the tree below @parent. */
void __rb_erase_color(struct rb_node *parent, struct rb_root *root,
		      void (*augment_rotate)(struct rb_node *old,
					     struct rb_node *new));

/* @node had at most one child, @child (red, if any): it takes @node's place. */
static __always_inline struct rb_node *
pk_rb_erase_simple(struct rb_node *node, struct rb_node *child,
		   struct rb_root *root,
		   const struct rb_augment_callbacks *augment)
{
	unsigned long pc = node->__rb_parent_color;
	struct rb_node *parent = __rb_parent(pc);

	__rb_change_child(node, child, parent, root);
	if (child) {
		child->__rb_parent_color =
			pc; /* black: the path keeps its count */
		augment->propagate(parent, NULL);
		return NULL;
	}
	augment->propagate(parent, NULL);
	return __rb_is_black(pc) ? parent : NULL;
}

/*
 * Unlink @node.  Returns the node below which a black is missing, for
 * __rb_erase_color(), or NULL when the colours still hold.
 */
static __always_inline struct rb_node *
__rb_erase_augmented(struct rb_node *node, struct rb_root *root,
		     const struct rb_augment_callbacks *augment)
{
	struct rb_node *succ, *sparent, *schild, *rebalance;
	unsigned long succ_pc;

	if (!node->rb_left)
		return pk_rb_erase_simple(node, node->rb_right, root, augment);
	if (!node->rb_right)
		return pk_rb_erase_simple(node, node->rb_left, root, augment);

	/* Two children: the in-order successor takes @node's place. */
	succ = node->rb_right;
	if (!succ->rb_left) {
		sparent = succ;
		schild = succ->rb_right;
		augment->copy(node, succ);
	} else {
		while (succ->rb_left)
			succ = succ->rb_left;
		sparent = rb_parent(succ);
		schild = succ->rb_right;
		WRITE_ONCE(sparent->rb_left, schild);
		WRITE_ONCE(succ->rb_right, node->rb_right);
		rb_set_parent(node->rb_right, succ);
		augment->copy(node, succ);
		augment->propagate(sparent, succ);
	}
	WRITE_ONCE(succ->rb_left, node->rb_left);
	rb_set_parent(node->rb_left, succ);
	succ_pc = succ->__rb_parent_color;
	__rb_change_child(node, succ, rb_parent(node), root);
	succ->__rb_parent_color = node->__rb_parent_color;
	if (schild) {
		rb_set_parent_color(schild, sparent, RB_BLACK);
		rebalance = NULL;
	} else {
		rebalance = __rb_is_black(succ_pc) ? sparent : NULL;
	}
	augment->propagate(succ, NULL);
	return rebalance;
}

static __always_inline void
rb_erase_augmented(struct rb_node *node, struct rb_root *root,
		   const struct rb_augment_callbacks *augment)
{
	struct rb_node *rebalance = __rb_erase_augmented(node, root, augment);

	if (rebalance)
		__rb_erase_color(rebalance, root, augment->rotate);
}

static __always_inline void
rb_erase_augmented_cached(struct rb_node *node, struct rb_root_cached *root,
			  const struct rb_augment_callbacks *augment)
{
	if (root->rb_leftmost == node)
		root->rb_leftmost = rb_next(node);
	rb_erase_augmented(node, &root->rb_root, augment);
}

#endif /* _LINUX_RBTREE_AUGMENTED_H */
