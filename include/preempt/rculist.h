/* SPDX-License-Identifier: MIT */
#ifndef PREEMPT_RCULIST_H
#define PREEMPT_RCULIST_H

/*
 * Lists that readers walk under rcu_read_lock() while updaters, serialized
 * by their own lock, change them.  An updater publishes a new entry with
 * release order once it is fully linked; a removed entry keeps its
 * ->next, so a reader standing on it still finds the rest of the list,
 * and must not be freed or reused before a grace period.
 */

#include <stdbool.h>
#include <stddef.h>
#include <preempt/list.h>
#include <preempt/rcupdate.h>

/* Poison a removed entry's back pointer: readers never use it. */
#define PK_LIST_POISON2 ((void *)0x122)
#define PK_HLIST_POISON2 ((void *)0x122)

static inline void __list_add_rcu(struct list_head *entry,
				  struct list_head *prev,
				  struct list_head *next)
{
	entry->next = next;
	entry->prev = prev;
	rcu_assign_pointer(prev->next, entry);
	next->prev = entry;
}

/** list_add_rcu() - publish @entry after @head.  Updater, under its lock. */
static inline void list_add_rcu(struct list_head *entry, struct list_head *head)
{
	__list_add_rcu(entry, head, head->next);
}

/** list_add_tail_rcu() - publish @entry before @head (at the tail). */
static inline void list_add_tail_rcu(struct list_head *entry,
				     struct list_head *head)
{
	__list_add_rcu(entry, head->prev, head);
}

/**
 * list_del_rcu() - unlink @entry; readers on it still reach the rest.
 * Free it only after a grace period.
 */
static inline void list_del_rcu(struct list_head *entry)
{
	entry->next->prev = entry->prev;
	__atomic_store_n(&entry->prev->next, entry->next, __ATOMIC_RELAXED);
	entry->prev = (struct list_head *)PK_LIST_POISON2;
}

/** list_replace_rcu() - put @new where @old was, atomically for readers. */
static inline void list_replace_rcu(struct list_head *old,
				    struct list_head *new)
{
	new->next = old->next;
	new->prev = old->prev;
	rcu_assign_pointer(new->prev->next, new);
	new->next->prev = new;
	old->prev = (struct list_head *)PK_LIST_POISON2;
}

/* The container of an RCU-loaded list pointer. */
#define list_entry_rcu(ptr, type, member)                                      \
	list_entry(rcu_dereference_raw(ptr), type, member)

/** list_first_or_null_rcu() - first entry, or NULL if empty.  Reader. */
#define list_first_or_null_rcu(head, type, member)                             \
	({                                                                     \
		struct list_head *__h = (head);                                \
		struct list_head *__n = rcu_dereference_raw(__h->next);        \
		__n != __h ? list_entry(__n, type, member) : NULL;             \
	})

/*
 * list_for_each_entry_rcu(pos, head, member[, cond]) - walk the list in a
 * reader (or where the optional @cond, the updater's lock held, says so).
 */
#define __pk_rcu_list_check(dummy, cond, ...)                                  \
	((void)(CONFIG_PROVE_RCU && !((cond) || rcu_read_lock_any_held()) &&   \
		(lockdep_rcu_suspicious(__FILE__, __LINE__,                    \
					"RCU-list traversed in non-reader "    \
					"section!"),                           \
		 1)))
#define list_for_each_entry_rcu(pos, head, member, ...)                        \
	for (__pk_rcu_list_check(0, ##__VA_ARGS__, 0),                         \
	     pos = list_entry_rcu((head)->next, __typeof__(*pos), member);     \
	     &pos->member != (head);                                           \
	     pos = list_entry_rcu(pos->member.next, __typeof__(*pos), member))

/* ---- hlist ---- */

#define __pk_hlist_entry_safe(ptr, type, member)                               \
	({                                                                     \
		struct hlist_node *____p = (ptr);                              \
		____p ? hlist_entry(____p, type, member) : NULL;               \
	})

/** hlist_add_head_rcu() - publish @n first in @h.  Updater. */
static inline void hlist_add_head_rcu(struct hlist_node *n,
				      struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	n->next = first;
	n->pprev = &h->first;
	rcu_assign_pointer(h->first, n);
	if (first)
		first->pprev = &n->next;
}

/** hlist_add_before_rcu() - publish @n before @next.  Updater. */
static inline void hlist_add_before_rcu(struct hlist_node *n,
					struct hlist_node *next)
{
	n->pprev = next->pprev;
	n->next = next;
	rcu_assign_pointer(*n->pprev, n);
	next->pprev = &n->next;
}

/** hlist_add_behind_rcu() - publish @n after @prev.  Updater. */
static inline void hlist_add_behind_rcu(struct hlist_node *n,
					struct hlist_node *prev)
{
	n->next = prev->next;
	n->pprev = &prev->next;
	rcu_assign_pointer(prev->next, n);
	if (n->next)
		n->next->pprev = &n->next;
}

/** hlist_del_rcu() - unlink @n; readers on it still reach the rest. */
static inline void hlist_del_rcu(struct hlist_node *n)
{
	struct hlist_node *next = n->next;

	__atomic_store_n(n->pprev, next, __ATOMIC_RELAXED);
	if (next)
		next->pprev = n->pprev;
	n->pprev = (struct hlist_node **)PK_HLIST_POISON2;
}

/** hlist_del_init_rcu() - hlist_del_rcu(), and mark @n unhashed. */
static inline void hlist_del_init_rcu(struct hlist_node *n)
{
	if (n->pprev && n->pprev != (struct hlist_node **)PK_HLIST_POISON2) {
		struct hlist_node *next = n->next;

		__atomic_store_n(n->pprev, next, __ATOMIC_RELAXED);
		if (next)
			next->pprev = n->pprev;
		n->pprev = NULL;
	}
}

/** hlist_replace_rcu() - put @new where @old was. */
static inline void hlist_replace_rcu(struct hlist_node *old,
				     struct hlist_node *new)
{
	struct hlist_node *next = old->next;

	new->next = next;
	new->pprev = old->pprev;
	rcu_assign_pointer(*new->pprev, new);
	if (next)
		next->pprev = &new->next;
	old->pprev = (struct hlist_node **)PK_HLIST_POISON2;
}

/** hlist_first_rcu() - the first node, for a reader. */
#define hlist_first_rcu(head) rcu_dereference_raw((head)->first)
#define hlist_next_rcu(node) rcu_dereference_raw((node)->next)

/* hlist_for_each_entry_rcu(pos, head, member[, cond]) - reader's walk. */
#define hlist_for_each_entry_rcu(pos, head, member, ...)                       \
	for (__pk_rcu_list_check(0, ##__VA_ARGS__, 0),                         \
	     pos = __pk_hlist_entry_safe(hlist_first_rcu(head),                \
					 __typeof__(*pos), member);            \
	     pos; pos = __pk_hlist_entry_safe(hlist_next_rcu(&pos->member),    \
					      __typeof__(*pos), member))

#endif /* PREEMPT_RCULIST_H */
