// SPDX-License-Identifier: MIT
/*
 * lib/timerqueue.c (on lib/rbtree.c): a deadline queue.  Two CPUs queue
 * nodes due a few milliseconds ahead under a raw spinlock while a third
 * task expires them: each expiry takes timerqueue_getnext() once its time
 * has come, and it must be the earliest queued and never early; add
 * reports a new earliest, del whether nodes remain; iteration in order.
 */

#include <linux/spinlock.h>
#include <linux/timerqueue.h>

#include "check.h"

#define PER 1500

static struct timerqueue_head head;
static DEFINE_RAW_SPINLOCK(head_lock);
static struct timerqueue_node nodes[2][PER];
static atomic_t queued, firsts;

static int arm(void *arg)
{
	struct timerqueue_node *mine = arg;
	u32 x = (u32)(uintptr_t)arg;

	for (int i = 0; i < PER; i++) {
		x = x * 1103515245u + 12345u;
		timerqueue_init(&mine[i]);
		mine[i].expires =
			ktime_add_us(ktime_get(), 100 + (x >> 8) % 3000);
		raw_spin_lock_irq(&head_lock);
		if (timerqueue_add(&head, &mine[i]))
			atomic_inc(&firsts);
		raw_spin_unlock_irq(&head_lock);
		atomic_inc(&queued);
		if (!(i % 16))
			usleep_range(50, 100);
	}
	return 0;
}

static int expire(void *arg)
{
	int fired = 0, early = 0, disorder = 0;

	(void)arg;
	while (fired < 2 * PER) {
		struct timerqueue_node *n, *m;
		ktime_t now = ktime_get();

		raw_spin_lock_irq(&head_lock);
		n = timerqueue_getnext(&head);
		if (n && n->expires <= now) {
			/* The earliest of everything queued. */
			for (m = timerqueue_iterate_next(n); m;
			     m = timerqueue_iterate_next(m))
				disorder += m->expires < n->expires;
			timerqueue_del(&head, n);
			raw_spin_unlock_irq(&head_lock);
			if (timerqueue_node_queued(n))
				return -1;
			early += n->expires > ktime_get();
			fired++;
			continue;
		}
		raw_spin_unlock_irq(&head_lock);
		cond_resched();
	}
	return early || disorder ? -2 : 0;
}

/* One task: exact order, add's and del's answers, iteration. */
static int ordered(void *arg)
{
	static struct timerqueue_node n[64];
	struct timerqueue_node *pos;
	ktime_t prev = -1;
	int count = 0;

	(void)arg;
	timerqueue_init_head(&head);
	if (timerqueue_getnext(&head))
		return -1;
	for (int i = 0; i < 64; i++) {
		timerqueue_init(&n[i]);
		n[i].expires = (i * 37) % 64 + 1000;
		/* the new earliest iff below everything queued */
		if (timerqueue_add(&head, &n[i]) !=
		    (timerqueue_getnext(&head) == &n[i]))
			return -2;
	}
	if (timerqueue_getnext(&head)->expires != 1000)
		return -3;
	for (pos = timerqueue_getnext(&head); pos;
	     pos = timerqueue_iterate_next(pos), count++) {
		if (pos->expires <= prev)
			return -4;
		prev = pos->expires;
	}
	if (count != 64)
		return -5;
	for (int i = 0; i < 64; i++)
		if (timerqueue_del(&head, &n[i]) != (i < 63))
			return -6;
	return timerqueue_getnext(&head) ? -7 : 0;
}

static void deadlines(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	check_boot(2);
	assert_int_equal(check_run(ordered, NULL), 0);
	timerqueue_init_head(&head);
	a = kthread_run(arm, nodes[0], "tq-a");
	b = kthread_run(arm, nodes[1], "tq-b");
	assert_int_equal(check_run(expire, NULL), 0);
	kthread_stop(a);
	kthread_stop(b);
	assert_int_equal(atomic_read(&queued), 2 * PER);
	assert_true(atomic_read(&firsts) >= 1);
	assert_null(timerqueue_getnext(&head));
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(deadlines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
