/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_RBTREE_TYPES_H
#define _LINUX_RBTREE_TYPES_H

/*
 * Red-black tree nodes and roots, in the kernel's layout: the parent
 * pointer and the colour share one word (nodes are word-aligned, so bit 0
 * is free), which code outside lib/rbtree.c reads through rbtree.h.
 */

struct rb_node {
	unsigned long __rb_parent_color;
	struct rb_node *rb_right;
	struct rb_node *rb_left;
} __attribute__((aligned(sizeof(long))));

struct rb_root {
	struct rb_node *rb_node;
};

/* A root that also remembers its leftmost node: rb_first() in O(1). */
struct rb_root_cached {
	struct rb_root rb_root;
	struct rb_node *rb_leftmost;
};

#define RB_ROOT ((struct rb_root){NULL})
#define RB_ROOT_CACHED ((struct rb_root_cached){{NULL}, NULL})

#endif /* _LINUX_RBTREE_TYPES_H */
