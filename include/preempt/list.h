/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_LIST_H
#define PREEMPT_LIST_H

/* The kernel's circular doubly linked list, for wait queues and runqueues. */

#include <stdbool.h>
#include <stddef.h>

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD_INIT(name)                                                   \
	{                                                                      \
		&(name), &(name)                                               \
	}
#define LIST_HEAD(name) struct list_head name = LIST_HEAD_INIT(name)

static inline void INIT_LIST_HEAD(struct list_head *list)
{
	list->next = list;
	list->prev = list;
}

/*
 * Kernel code built with CONFIG_DEBUG_LIST checks every link and unlink
 * (linux/list.h; the checks are the kernel side's, or lib/list_debug.c's
 * when a program brings it): a corrupt list is reported and left alone.
 * The library's own code, which is no kernel code, is not.
 */
#if defined(__KERNEL__) && defined(CONFIG_DEBUG_LIST) && CONFIG_DEBUG_LIST
bool __list_add_valid_or_report(struct list_head *entry, struct list_head *prev,
				struct list_head *next);
bool __list_del_entry_valid_or_report(struct list_head *entry);
#define __pk_list_add_ok(entry, prev, next)                                    \
	__list_add_valid_or_report(entry, prev, next)
#define __pk_list_del_ok(entry) __list_del_entry_valid_or_report(entry)
#else
#define __pk_list_add_ok(entry, prev, next) true
#define __pk_list_del_ok(entry) true
#endif

static inline void __list_link(struct list_head *entry, struct list_head *prev,
			       struct list_head *next)
{
	if (!__pk_list_add_ok(entry, prev, next))
		return;
	next->prev = entry;
	entry->next = next;
	entry->prev = prev;
	prev->next = entry;
}

/** list_add() - insert @entry after @head (stack order).  Any context. */
static inline void list_add(struct list_head *entry, struct list_head *head)
{
	__list_link(entry, head, head->next);
}

/** list_add_tail() - insert @entry before @head (queue order). */
static inline void list_add_tail(struct list_head *entry,
				 struct list_head *head)
{
	__list_link(entry, head->prev, head);
}

/** list_del_init() - unlink @entry and make it an empty list. */
static inline void list_del_init(struct list_head *entry)
{
	/* A corrupt entry stays where it is, but still ends self-linked,
	 * as the kernel's __list_del_entry() + INIT_LIST_HEAD(). */
	if (!__pk_list_del_ok(entry)) {
		INIT_LIST_HEAD(entry);
		return;
	}
	entry->next->prev = entry->prev;
	entry->prev->next = entry->next;
	INIT_LIST_HEAD(entry);
}

/** list_empty() - does @head hold nothing? */
static inline bool list_empty(const struct list_head *head)
{
	return head->next == head;
}

#define list_entry(ptr, type, member)                                          \
	((type *)((char *)(ptr)-offsetof(type, member)))
#define list_first_entry(head, type, member)                                   \
	list_entry((head)->next, type, member)
#define list_for_each_entry_safe(pos, n, head, member)                         \
	for (pos = list_entry((head)->next, __typeof__(*pos), member),         \
	    n = list_entry(pos->member.next, __typeof__(*pos), member);        \
	     &pos->member != (head);                                           \
	     pos = n, n = list_entry(n->member.next, __typeof__(*n), member))

/* ---- hlist: a list with a one-pointer head (hash buckets) ---- */

struct hlist_head {
	struct hlist_node *first;
};
struct hlist_node {
	struct hlist_node *next, **pprev;
};
#define HLIST_HEAD_INIT                                                        \
	{                                                                      \
		.first = NULL                                                  \
	}
#define HLIST_HEAD(name) struct hlist_head name = {.first = NULL}
#define INIT_HLIST_HEAD(ptr) ((ptr)->first = NULL)
#define hlist_entry(ptr, type, member) list_entry(ptr, type, member)

static inline void INIT_HLIST_NODE(struct hlist_node *h)
{
	h->next = NULL;
	h->pprev = NULL;
}

/** hlist_unhashed() - is @h on no list?  Under the list's lock. */
static inline bool hlist_unhashed(const struct hlist_node *h)
{
	return !h->pprev;
}

/** hlist_empty() - has @h no node?  Any context, racy as a hint. */
static inline bool hlist_empty(const struct hlist_head *h)
{
	return !__atomic_load_n(&h->first, __ATOMIC_RELAXED);
}

#endif /* PREEMPT_LIST_H */
