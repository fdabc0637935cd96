/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_KLIST_H
#define _LINUX_KLIST_H

/*
 * klists: lists whose nodes are reference counted, so an iterator may
 * sleep holding its place while others add and delete.  klist_del()
 * marks a node dead and drops the list's reference; klist_remove() also
 * waits (sleeps) until every iterator has let go of it.  Iterating and
 * adding take the list's spinlock: task or interrupt context, never
 * klist_remove() outside task context.  The functions come from
 * lib/klist.c, which a program brings.
 */

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/spinlock.h>

struct klist_node;

/* Aligned: a node keeps its "dead" mark in bit 0 of its klist pointer. */
struct klist {
	spinlock_t k_lock;
	struct list_head k_list;
	void (*get)(struct klist_node *);
	void (*put)(struct klist_node *);
} __attribute__((aligned(sizeof(void *))));

#define KLIST_INIT(_name, _get, _put)                                          \
	{                                                                      \
		.k_lock = __SPIN_LOCK_UNLOCKED(_name.k_lock),                  \
		.k_list = LIST_HEAD_INIT(_name.k_list), .get = (_get),         \
		.put = (_put),                                                 \
	}
#define DEFINE_KLIST(_name, _get, _put)                                        \
	struct klist _name = KLIST_INIT(_name, _get, _put)

void klist_init(struct klist *k, void (*get)(struct klist_node *),
		void (*put)(struct klist_node *));

struct klist_node {
	void *n_klist; /* the klist and the dead mark: klist.c's business */
	struct list_head n_node;
	struct kref n_ref;
};

void klist_add_tail(struct klist_node *n, struct klist *k);
void klist_add_head(struct klist_node *n, struct klist *k);
void klist_add_behind(struct klist_node *n, struct klist_node *pos);
void klist_add_before(struct klist_node *n, struct klist_node *pos);
void klist_del(struct klist_node *n);
/* Task context: may sleep until no iterator holds @n. */
void klist_remove(struct klist_node *n);
int klist_node_attached(struct klist_node *n);

struct klist_iter {
	struct klist *i_klist;
	struct klist_node *i_cur;
};

void klist_iter_init(struct klist *k, struct klist_iter *i);
void klist_iter_init_node(struct klist *k, struct klist_iter *i,
			  struct klist_node *n);
void klist_iter_exit(struct klist_iter *i);
struct klist_node *klist_prev(struct klist_iter *i);
struct klist_node *klist_next(struct klist_iter *i);

#endif /* _LINUX_KLIST_H */
