/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LLIST_H
#define _LINUX_LLIST_H

/*
 * Lock-less singly linked lists: any number of producers add with
 * cmpxchg; a consumer takes the whole list with one xchg
 * (llist_del_all()).  llist_del_first() needs a single consumer or a lock
 * among the consumers (the ABA case).  Adding is safe in any context,
 * including NMI.  The list is a stack: newest first.
 */

#include <linux/atomic.h>
#include <linux/container_of.h>
#include <linux/stddef.h>
#include <linux/types.h>

struct llist_head {
	struct llist_node *first;
};

struct llist_node {
	struct llist_node *next;
};

#define LLIST_HEAD_INIT(name)                                                  \
	{                                                                      \
		NULL                                                           \
	}
#define LLIST_HEAD(name) struct llist_head name = LLIST_HEAD_INIT(name)

static inline void init_llist_head(struct llist_head *list)
{
	list->first = NULL;
}

/* A node on no list points at itself (llist_on_list() tells). */
static inline void init_llist_node(struct llist_node *node)
{
	node->next = node;
}

static inline bool llist_on_list(const struct llist_node *node)
{
	return node->next != node;
}

#define llist_entry(ptr, type, member) container_of(ptr, type, member)
#define member_address_is_nonnull(ptr, member)                                 \
	((uintptr_t)(ptr) + offsetof(__typeof__(*(ptr)), member) != 0)
#define llist_for_each(pos, node) for ((pos) = (node); pos; (pos) = (pos)->next)
#define llist_for_each_safe(pos, n, node)                                      \
	for ((pos) = (node); (pos) && ((n) = (pos)->next, true); (pos) = (n))
#define llist_for_each_entry(pos, node, member)                                \
	for ((pos) = llist_entry((node), __typeof__(*(pos)), member);          \
	     member_address_is_nonnull(pos, member);                           \
	     (pos) = llist_entry((pos)->member.next, __typeof__(*(pos)),       \
				 member))
#define llist_for_each_entry_safe(pos, n, node, member)                        \
	for (pos = llist_entry((node), __typeof__(*pos), member);              \
	     member_address_is_nonnull(pos, member) &&                         \
	     (n = llist_entry(pos->member.next, __typeof__(*n), member),       \
	     true);                                                            \
	     pos = n)

/** llist_empty() - is @head empty (a snapshot)?  Any context. */
static inline bool llist_empty(const struct llist_head *head)
{
	return READ_ONCE(head->first) == NULL;
}

static inline struct llist_node *llist_next(struct llist_node *node)
{
	return node->next;
}

/**
 * llist_add_batch() - add the chain @new_first..@new_last to @head.
 * Returns true if @head was empty.  Any context.
 */
bool llist_add_batch(struct llist_node *new_first, struct llist_node *new_last,
		     struct llist_head *head);

/** __llist_add_batch() - llist_add_batch() for a caller owning @head. */
static inline bool __llist_add_batch(struct llist_node *new_first,
				     struct llist_node *new_last,
				     struct llist_head *head)
{
	new_last->next = head->first;
	head->first = new_first;
	return new_last->next == NULL;
}

/** llist_add() - add @new; true if @head was empty.  Any context. */
static inline bool llist_add(struct llist_node *new, struct llist_head *head)
{
	return llist_add_batch(new, new, head);
}

static inline bool __llist_add(struct llist_node *new, struct llist_head *head)
{
	return __llist_add_batch(new, new, head);
}

/** llist_del_all() - take every entry (newest first).  Any context. */
static inline struct llist_node *llist_del_all(struct llist_head *head)
{
	return xchg(&head->first, NULL);
}

static inline struct llist_node *__llist_del_all(struct llist_head *head)
{
	struct llist_node *first = head->first;

	head->first = NULL;
	return first;
}

/**
 * llist_del_first() - take the newest entry, or NULL.  One consumer at a
 * time (others may add concurrently).
 */
struct llist_node *llist_del_first(struct llist_head *head);

/** llist_del_first_init() - llist_del_first() and init_llist_node(). */
static inline struct llist_node *llist_del_first_init(struct llist_head *head)
{
	struct llist_node *n = llist_del_first(head);

	if (n)
		init_llist_node(n);
	return n;
}

/**
 * llist_del_first_this() - take the newest entry only if it is @this;
 * true if taken.  One consumer at a time.
 */
bool llist_del_first_this(struct llist_head *head, struct llist_node *this);

/** llist_reverse_order() - reverse a chain taken off a list (oldest first). */
struct llist_node *llist_reverse_order(struct llist_node *head);

#endif /* _LINUX_LLIST_H */
