/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_LIST_H
#define _LINUX_LIST_H

/*
 * The kernel's circular doubly linked list (the library's list_head, plus
 * the rest of the API) and hlist, the list with a one-pointer head for
 * hash tables.  Not thread-safe: the caller serializes.  Any context.
 */

#include <linux/container_of.h>
#include <linux/poison.h>
#include <linux/stddef.h>
#include <linux/types.h>
#include <asm/barrier.h>
#include <preempt/list.h>

static inline void __list_add(struct list_head *entry, struct list_head *prev,
			      struct list_head *next)
{
	__list_link(entry, prev, next);
}

static inline void __list_del(struct list_head *prev, struct list_head *next)
{
	next->prev = prev;
	WRITE_ONCE(prev->next, next);
}

/* The checks' attribute in the kernel (lib/list_debug.c uses it). */
#define __list_valid_slowpath

/* The CONFIG_DEBUG_LIST checks alone (true without it). */
static inline bool __list_add_valid(struct list_head *entry,
				    struct list_head *prev,
				    struct list_head *next)
{
	return __pk_list_add_ok(entry, prev, next);
}

static inline bool __list_del_entry_valid(struct list_head *entry)
{
	return __pk_list_del_ok(entry);
}

static inline void __list_del_entry(struct list_head *entry)
{
	if (!__list_del_entry_valid(entry))
		return;
	__list_del(entry->prev, entry->next);
}

/** list_del() - unlink @entry; it is poisoned until re-initialized. */
static inline void list_del(struct list_head *entry)
{
	__list_del_entry(entry);
	entry->next = (struct list_head *)LIST_POISON1;
	entry->prev = (struct list_head *)LIST_POISON2;
}

/** list_replace() - put @new where @old is in its list. */
static inline void list_replace(struct list_head *old, struct list_head *new)
{
	new->next = old->next;
	new->next->prev = new;
	new->prev = old->prev;
	new->prev->next = new;
}

static inline void list_replace_init(struct list_head *old,
				     struct list_head *new)
{
	list_replace(old, new);
	INIT_LIST_HEAD(old);
}

/** list_swap() - exchange the places of @a and @b. */
static inline void list_swap(struct list_head *a, struct list_head *b)
{
	struct list_head *pos = b->prev;

	list_del(b);
	list_replace(a, b);
	if (pos == a)
		pos = b;
	list_add(a, pos);
}

/** list_move() - unlink @entry and add it after @head. */
static inline void list_move(struct list_head *entry, struct list_head *head)
{
	__list_del_entry(entry);
	list_add(entry, head);
}

/** list_move_tail() - unlink @entry and add it before @head. */
static inline void list_move_tail(struct list_head *entry,
				  struct list_head *head)
{
	__list_del_entry(entry);
	list_add_tail(entry, head);
}

/** list_bulk_move_tail() - move @first..@last to the tail of @head. */
static inline void list_bulk_move_tail(struct list_head *head,
				       struct list_head *first,
				       struct list_head *last)
{
	first->prev->next = last->next;
	last->next->prev = first->prev;
	head->prev->next = first;
	first->prev = head->prev;
	last->next = head;
	head->prev = last;
}

static inline int list_is_first(const struct list_head *entry,
				const struct list_head *head)
{
	return entry->prev == head;
}

static inline int list_is_last(const struct list_head *entry,
			       const struct list_head *head)
{
	return entry->next == head;
}

static inline int list_is_head(const struct list_head *entry,
			       const struct list_head *head)
{
	return entry == head;
}

/** list_empty_careful() - empty, checked on both links. */
static inline int list_empty_careful(const struct list_head *head)
{
	struct list_head *next = smp_load_acquire(&head->next);

	return list_is_head(next, head) && next == READ_ONCE(head->prev);
}

/** list_rotate_left() - move the first entry to the tail. */
static inline void list_rotate_left(struct list_head *head)
{
	if (!list_empty(head))
		list_move_tail(head->next, head);
}

/** list_rotate_to_front() - make @list the first entry of @head. */
static inline void list_rotate_to_front(struct list_head *list,
					struct list_head *head)
{
	list_move_tail(head, list);
}

/** list_is_singular() - exactly one entry? */
static inline int list_is_singular(const struct list_head *head)
{
	return !list_empty(head) && head->next == head->prev;
}

static inline void __list_cut_position(struct list_head *list,
				       struct list_head *head,
				       struct list_head *entry)
{
	struct list_head *new_first = entry->next;

	list->next = head->next;
	list->next->prev = list;
	list->prev = entry;
	entry->next = list;
	head->next = new_first;
	new_first->prev = head;
}

/**
 * list_cut_position() - move the entries of @head up to and including
 * @entry to @list (which is overwritten).
 */
static inline void list_cut_position(struct list_head *list,
				     struct list_head *head,
				     struct list_head *entry)
{
	if (list_empty(head))
		return;
	if (list_is_singular(head) && !list_is_head(entry, head) &&
	    entry != head->next)
		return;
	if (list_is_head(entry, head))
		INIT_LIST_HEAD(list);
	else
		__list_cut_position(list, head, entry);
}

/** list_cut_before() - move the entries of @head before @entry to @list. */
static inline void list_cut_before(struct list_head *list,
				   struct list_head *head,
				   struct list_head *entry)
{
	if (head->next == entry) {
		INIT_LIST_HEAD(list);
		return;
	}
	list->next = head->next;
	list->next->prev = list;
	list->prev = entry->prev;
	list->prev->next = list;
	head->next = entry;
	entry->prev = head;
}

static inline void __list_splice(const struct list_head *list,
				 struct list_head *prev, struct list_head *next)
{
	struct list_head *first = list->next;
	struct list_head *last = list->prev;

	first->prev = prev;
	prev->next = first;
	last->next = next;
	next->prev = last;
}

/** list_splice() - join @list at the front of @head (@list left stale). */
static inline void list_splice(const struct list_head *list,
			       struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head, head->next);
}

/** list_splice_tail() - join @list at the back of @head. */
static inline void list_splice_tail(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list))
		__list_splice(list, head->prev, head);
}

/** list_splice_init() - list_splice() and empty @list. */
static inline void list_splice_init(struct list_head *list,
				    struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head, head->next);
		INIT_LIST_HEAD(list);
	}
}

/** list_splice_tail_init() - list_splice_tail() and empty @list. */
static inline void list_splice_tail_init(struct list_head *list,
					 struct list_head *head)
{
	if (!list_empty(list)) {
		__list_splice(list, head->prev, head);
		INIT_LIST_HEAD(list);
	}
}

/** list_count_nodes() - how many entries? */
static inline size_t list_count_nodes(struct list_head *head)
{
	size_t n = 0;

	for (struct list_head *p = head->next; p != head; p = p->next)
		n++;
	return n;
}

#define list_last_entry(ptr, type, member) list_entry((ptr)->prev, type, member)
#define list_first_entry_or_null(ptr, type, member)                            \
	({                                                                     \
		struct list_head *__pk_head = (ptr);                           \
		struct list_head *__pk_pos = READ_ONCE(__pk_head->next);       \
		__pk_pos != __pk_head ? list_entry(__pk_pos, type, member)     \
				      : NULL;                                  \
	})
#define list_last_entry_or_null(ptr, type, member)                             \
	(list_empty(ptr) ? NULL : list_last_entry(ptr, type, member))
#define list_next_entry(pos, member)                                           \
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_prev_entry(pos, member)                                           \
	list_entry((pos)->member.prev, __typeof__(*(pos)), member)
#define list_next_entry_circular(pos, head, member)                            \
	(list_is_last(&(pos)->member, head)                                    \
		 ? list_first_entry(head, __typeof__(*(pos)), member)          \
		 : list_next_entry(pos, member))
#define list_prev_entry_circular(pos, head, member)                            \
	(list_is_first(&(pos)->member, head)                                   \
		 ? list_last_entry(head, __typeof__(*(pos)), member)           \
		 : list_prev_entry(pos, member))
#define list_entry_is_head(pos, head, member) (&(pos)->member == (head))

#define list_for_each(pos, head)                                               \
	for (pos = (head)->next; !list_is_head(pos, (head)); pos = pos->next)
#define list_for_each_continue(pos, head)                                      \
	for (pos = pos->next; !list_is_head(pos, (head)); pos = pos->next)
#define list_for_each_prev(pos, head)                                          \
	for (pos = (head)->prev; !list_is_head(pos, (head)); pos = pos->prev)
#define list_for_each_safe(pos, n, head)                                       \
	for (pos = (head)->next, n = pos->next; !list_is_head(pos, (head));    \
	     pos = n, n = pos->next)
#define list_for_each_prev_safe(pos, n, head)                                  \
	for (pos = (head)->prev, n = pos->prev; !list_is_head(pos, (head));    \
	     pos = n, n = pos->prev)
#define list_for_each_entry(pos, head, member)                                 \
	for (pos = list_first_entry(head, __typeof__(*pos), member);           \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_reverse(pos, head, member)                         \
	for (pos = list_last_entry(head, __typeof__(*pos), member);            \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = list_prev_entry(pos, member))
#define list_prepare_entry(pos, head, member)                                  \
	((pos) ?: list_entry(head, __typeof__(*pos), member))
#define list_for_each_entry_continue(pos, head, member)                        \
	for (pos = list_next_entry(pos, member);                               \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_continue_reverse(pos, head, member)                \
	for (pos = list_prev_entry(pos, member);                               \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = list_prev_entry(pos, member))
#define list_for_each_entry_from(pos, head, member)                            \
	for (; !list_entry_is_head(pos, head, member);                         \
	     pos = list_next_entry(pos, member))
#define list_for_each_entry_from_reverse(pos, head, member)                    \
	for (; !list_entry_is_head(pos, head, member);                         \
	     pos = list_prev_entry(pos, member))
#define list_for_each_entry_safe_continue(pos, n, head, member)                \
	for (pos = list_next_entry(pos, member),                               \
	    n = list_next_entry(pos, member);                                  \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_from(pos, n, head, member)                    \
	for (n = list_next_entry(pos, member);                                 \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = n, n = list_next_entry(n, member))
#define list_for_each_entry_safe_reverse(pos, n, head, member)                 \
	for (pos = list_last_entry(head, __typeof__(*pos), member),            \
	    n = list_prev_entry(pos, member);                                  \
	     !list_entry_is_head(pos, head, member);                           \
	     pos = n, n = list_prev_entry(n, member))
#define list_safe_reset_next(pos, n, member) n = list_next_entry(pos, member)

/* ---- hlist: a list with a single-pointer head ---- */

/* HLIST_HEAD*, INIT_HLIST_NODE(), hlist_unhashed(), hlist_empty() and
 * hlist_entry(): <preempt/list.h>. */

static inline int hlist_unhashed_lockless(const struct hlist_node *h)
{
	return !READ_ONCE(h->pprev);
}

static inline void __hlist_del(struct hlist_node *n)
{
	struct hlist_node *next = n->next;
	struct hlist_node **pprev = n->pprev;

	WRITE_ONCE(*pprev, next);
	if (next)
		WRITE_ONCE(next->pprev, pprev);
}

/** hlist_del() - unlink @n; poisoned until re-initialized. */
static inline void hlist_del(struct hlist_node *n)
{
	__hlist_del(n);
	n->next = (struct hlist_node *)LIST_POISON1;
	n->pprev = (struct hlist_node **)LIST_POISON2;
}

/** hlist_del_init() - unlink @n if hashed and leave it unhashed. */
static inline void hlist_del_init(struct hlist_node *n)
{
	if (!hlist_unhashed(n)) {
		__hlist_del(n);
		INIT_HLIST_NODE(n);
	}
}

/** hlist_add_head() - insert @n first in @h. */
static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	struct hlist_node *first = h->first;

	WRITE_ONCE(n->next, first);
	if (first)
		WRITE_ONCE(first->pprev, &n->next);
	WRITE_ONCE(h->first, n);
	WRITE_ONCE(n->pprev, &h->first);
}

/** hlist_add_before() - insert @n before @next. */
static inline void hlist_add_before(struct hlist_node *n,
				    struct hlist_node *next)
{
	WRITE_ONCE(n->pprev, next->pprev);
	WRITE_ONCE(n->next, next);
	WRITE_ONCE(next->pprev, &n->next);
	WRITE_ONCE(*(n->pprev), n);
}

/** hlist_add_behind() - insert @n after @prev. */
static inline void hlist_add_behind(struct hlist_node *n,
				    struct hlist_node *prev)
{
	WRITE_ONCE(n->next, prev->next);
	WRITE_ONCE(prev->next, n);
	WRITE_ONCE(n->pprev, &prev->next);
	if (n->next)
		WRITE_ONCE(n->next->pprev, &n->next);
}

/** hlist_add_fake() - make @n look hashed on a list of its own. */
static inline void hlist_add_fake(struct hlist_node *n)
{
	n->pprev = &n->next;
}

static inline bool hlist_fake(struct hlist_node *h)
{
	return h->pprev == &h->next;
}

/** hlist_is_singular_node() - is @n the only node of @h? */
static inline bool hlist_is_singular_node(struct hlist_node *n,
					  struct hlist_head *h)
{
	return !n->next && n->pprev == &h->first;
}

/** hlist_move_list() - move all of @old to @new (overwritten). */
static inline void hlist_move_list(struct hlist_head *old,
				   struct hlist_head *new)
{
	new->first = old->first;
	if (new->first)
		new->first->pprev = &new->first;
	old->first = NULL;
}

static inline size_t hlist_count_nodes(struct hlist_head *head)
{
	size_t n = 0;

	for (struct hlist_node *p = head->first; p; p = p->next)
		n++;
	return n;
}

#define hlist_for_each(pos, head)                                              \
	for (pos = (head)->first; pos; pos = pos->next)
#define hlist_for_each_safe(pos, n, head)                                      \
	for (pos = (head)->first; pos && ({                                    \
					  n = pos->next;                       \
					  1;                                   \
				  });                                          \
	     pos = n)
#define hlist_entry_safe(ptr, type, member)                                    \
	({                                                                     \
		__typeof__(ptr) ____ptr = (ptr);                               \
		____ptr ? hlist_entry(____ptr, type, member) : NULL;           \
	})
#define hlist_for_each_entry(pos, head, member)                                \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*(pos)),         \
				    member);                                   \
	     pos; pos = hlist_entry_safe((pos)->member.next,                   \
					 __typeof__(*(pos)), member))
#define hlist_for_each_entry_continue(pos, member)                             \
	for (pos = hlist_entry_safe((pos)->member.next, __typeof__(*(pos)),    \
				    member);                                   \
	     pos; pos = hlist_entry_safe((pos)->member.next,                   \
					 __typeof__(*(pos)), member))
#define hlist_for_each_entry_from(pos, member)                                 \
	for (; pos; pos = hlist_entry_safe((pos)->member.next,                 \
					   __typeof__(*(pos)), member))
#define hlist_for_each_entry_safe(pos, n, head, member)                        \
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member);  \
	     pos && ({                                                         \
		     n = pos->member.next;                                     \
		     1;                                                        \
	     });                                                               \
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))

#endif /* _LINUX_LIST_H */
