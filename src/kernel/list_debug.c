// SPDX-License-Identifier: MIT
/*
 * CONFIG_DEBUG_LIST: every link and unlink of kernel code's lists checked
 * (include/preempt/list.h calls these), a corrupt one reported in the
 * kernel's words and left alone.  In an object of its own: a program that
 * brings lib/list_debug.c replaces it whole.
 */

#include <linux/bug.h>
#include <linux/list.h>
#include <linux/poison.h>
#include <linux/printk.h>

bool __list_add_valid_or_report(struct list_head *new, struct list_head *prev,
				struct list_head *next)
{
	if (CHECK_DATA_CORRUPTION(!prev,
				  "list_add corruption. prev is NULL.\n") ||
	    CHECK_DATA_CORRUPTION(!next,
				  "list_add corruption. next is NULL.\n"))
		return false;
	if (CHECK_DATA_CORRUPTION(next->prev != prev,
				  "list_add corruption. next->prev should be "
				  "prev (%px), but was %px. (next=%px).\n",
				  prev, next->prev, next) ||
	    CHECK_DATA_CORRUPTION(prev->next != next,
				  "list_add corruption. prev->next should be "
				  "next (%px), but was %px. (prev=%px).\n",
				  next, prev->next, prev))
		return false;
	return !CHECK_DATA_CORRUPTION(
		new == prev || new == next,
		"list_add double add: new=%px, prev=%px, next=%px.\n", new,
		prev, next);
}

bool __list_del_entry_valid_or_report(struct list_head *entry)
{
	struct list_head *prev = entry->prev, *next = entry->next;

	if (CHECK_DATA_CORRUPTION(
		    !next, "list_del corruption, %px->next is NULL\n", entry) ||
	    CHECK_DATA_CORRUPTION(
		    !prev, "list_del corruption, %px->prev is NULL\n", entry))
		return false;
	if (CHECK_DATA_CORRUPTION(next == LIST_POISON1,
				  "list_del corruption, %px->next is "
				  "LIST_POISON1 (%px)\n",
				  entry, LIST_POISON1) ||
	    CHECK_DATA_CORRUPTION(prev == LIST_POISON2,
				  "list_del corruption, %px->prev is "
				  "LIST_POISON2 (%px)\n",
				  entry, LIST_POISON2))
		return false;
	return !CHECK_DATA_CORRUPTION(prev->next != entry,
				      "list_del corruption. prev->next should "
				      "be %px, but was %px. (prev=%px)\n",
				      entry, prev->next, prev) &&
	       !CHECK_DATA_CORRUPTION(next->prev != entry,
				      "list_del corruption. next->prev should "
				      "be %px, but was %px. (next=%px)\n",
				      entry, next->prev, next);
}
