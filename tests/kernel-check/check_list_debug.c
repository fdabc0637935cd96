// SPDX-License-Identifier: MIT
/*
 * lib/list_debug.c (CONFIG_DEBUG_LIST): the list calls of kernel code go
 * through its checks.  In a task, two tasks on two CPUs and a hardirq
 * handler at once: a double add, an add next to a neighbour that does not
 * point back, and a second delete are each refused, the list left as it
 * was, and each is reported in the kernel's words; good calls pass
 * unreported.  make test runs it against the kernel side's own
 * src/kernel/list_debug.c (kernel/test_list_debug_kernel).
 */

#include <linux/list.h>
#include <preempt/debug.h>

#include "check.h"

static atomic_t reports[3];

static bool count_report(const struct pk_report *r, void *arg)
{
	(void)arg;
	if (strstr(r->text, "list_add double add: new="))
		atomic_inc(&reports[0]);
	else if (strstr(r->text, "list_add corruption. next->prev should be "
				 "prev ("))
		atomic_inc(&reports[1]);
	else if (strstr(r->text, "->next is LIST_POISON1 ("))
		atomic_inc(&reports[2]);
	return true;
}

/* Wrong answers: each refused call must leave head <-> a <-> b intact. */
static int corrupt_calls(unsigned long seed)
{
	struct list_head head, a, b, c, *saved;
	int bad = 0;

	(void)seed;
	INIT_LIST_HEAD(&head);
	list_add_tail(&a, &head);
	list_add_tail(&b, &head);
	list_add(&a, &head); /* already there */
	bad += head.next != &a || a.next != &b || b.next != &head;
	saved = b.prev;
	b.prev = &c; /* a's successor no longer points back */
	list_add(&c, &a);
	bad += a.next != &b;
	b.prev = saved;
	list_del(&b);
	list_del(&b); /* poisoned */
	bad += head.next != &a || a.next != &head || head.prev != &a;
	list_del(&a);
	bad += !list_empty(&head);
	return bad;
}

static void corruption_refused_everywhere(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		atomic_set(&reports[i], 0);
	pk_set_report_hook(count_report, NULL);
	check_in_every_context(corrupt_calls, 3);
	pk_report_flush();
	pk_set_report_hook(NULL, NULL);
	/* Once per context each: two tasks and the handler. */
	for (int i = 0; i < 3; i++)
		assert_int_equal(atomic_read(&reports[i]), 3);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corruption_refused_everywhere),
	};

	/* PREEMPT_DEBUG=OFF: kernel code is built without the checks. */
	if (!IS_ENABLED(CONFIG_DEBUG_LIST)) {
		printf("SKIP: CONFIG_DEBUG_LIST is off in this build\n");
		return 77;
	}

	return cmocka_run_group_tests(tests, NULL, NULL);
}
