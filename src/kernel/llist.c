// SPDX-License-Identifier: MIT
/*
 * Lock-less list operations (linux/llist.h), one object of their own so a
 * program that compiles the kernel's lib/llist.c links that one instead.
 */

#include <linux/llist.h>

bool llist_add_batch(struct llist_node *new_first, struct llist_node *new_last,
		     struct llist_head *head)
{
	struct llist_node *first = READ_ONCE(head->first);

	do {
		new_last->next = first;
	} while (!try_cmpxchg(&head->first, &first, new_first));
	return first == NULL;
}

struct llist_node *llist_del_first(struct llist_head *head)
{
	struct llist_node *entry = smp_load_acquire(&head->first), *next;

	do {
		if (entry == NULL)
			return NULL;
		/* Safe from ABA only with one consumer: see the header. */
		next = READ_ONCE(entry->next);
	} while (!try_cmpxchg(&head->first, &entry, next));
	return entry;
}

bool llist_del_first_this(struct llist_head *head, struct llist_node *this)
{
	struct llist_node *entry = smp_load_acquire(&head->first), *next;

	do {
		if (entry != this)
			return false;
		next = READ_ONCE(entry->next);
	} while (!try_cmpxchg(&head->first, &entry, next));
	return true;
}

struct llist_node *llist_reverse_order(struct llist_node *head)
{
	struct llist_node *new_head = NULL;

	while (head) {
		struct llist_node *tmp = head;

		head = head->next;
		tmp->next = new_head;
		new_head = tmp;
	}
	return new_head;
}
