// SPDX-License-Identifier: MIT
/*
 * lib/plist.c: a priority queue under a raw spinlock, fed from two CPUs
 * and drained by a consumer that must always see the lowest prio first
 * and equal prios in the order they were added; plist_del() from the
 * middle, plist_requeue() behind the last equal, and the prio_list
 * holding exactly the first node of each level.
 */

#include <linux/plist.h>
#include <linux/spinlock.h>

#include "check.h"

#define PER 4000
#define LEVELS 16

struct job {
	struct plist_node pn;
	int producer, seq;
};

static PLIST_HEAD(queue);
static DEFINE_RAW_SPINLOCK(queue_lock);
static struct job jobs[2][PER];
static atomic_t done;

static int producer(void *arg)
{
	struct job *mine = arg;

	for (int i = 0; i < PER; i++) {
		plist_node_init(&mine[i].pn,
				(i * 7 + mine[i].producer) % LEVELS);
		raw_spin_lock_irq(&queue_lock);
		plist_add(&mine[i].pn, &queue);
		raw_spin_unlock_irq(&queue_lock);
		if (!(i % 128))
			cond_resched();
	}
	atomic_inc(&done);
	return 0;
}

/*
 * Each pop takes the lowest prio; within what is queued at that moment,
 * a producer's jobs of one prio come out in its order.
 */
static int consumer(void *arg)
{
	int last_seq[2][LEVELS], taken = 0;

	(void)arg;
	memset(last_seq, -1, sizeof(last_seq));
	while (taken < 2 * PER) {
		struct job *j, *next;

		raw_spin_lock_irq(&queue_lock);
		if (plist_head_empty(&queue)) {
			raw_spin_unlock_irq(&queue_lock);
			cond_resched();
			continue;
		}
		j = plist_first_entry(&queue, struct job, pn);
		plist_for_each_entry(next, &queue,
				     pn) if (next->pn.prio < j->pn.prio)
		{
			raw_spin_unlock_irq(&queue_lock);
			return -1;
		}
		plist_del(&j->pn, &queue);
		raw_spin_unlock_irq(&queue_lock);
		if (!plist_node_empty(&j->pn))
			return -2;
		if (j->seq <= last_seq[j->producer][j->pn.prio])
			return -3;
		last_seq[j->producer][j->pn.prio] = j->seq;
		taken++;
	}
	return atomic_read(&done) == 2 ? 0 : -4;
}

static void queue_two_cpus(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	check_boot(2);
	for (int p = 0; p < 2; p++)
		for (int i = 0; i < PER; i++)
			jobs[p][i] = (struct job){.producer = p, .seq = i};
	a = kthread_run(producer, jobs[0], "pl-a");
	b = kthread_run(producer, jobs[1], "pl-b");
	assert_int_equal(check_run(consumer, NULL), 0);
	kthread_stop(a);
	kthread_stop(b);
	assert_true(plist_head_empty(&queue));
	machine_shutdown();
}

/*
 * The prio_list links the first node of each level, and only those, in a
 * ring of their own (the head is not on it: one level is a ring of one).
 */
static int prio_list_ok(struct plist_head *h)
{
	struct plist_node *n, *prev = NULL;
	int levels = 0, firsts_linked = 0;

	plist_for_each(n, h)
	{
		bool first = !prev || prev->prio != n->prio;

		levels += first;
		if (!first && !list_empty(&n->prio_list))
			return 0;
		firsts_linked += first && !list_empty(&n->prio_list);
		prev = n;
	}
	return firsts_linked == (levels > 1 ? levels : 0);
}

static int shapes(void *arg)
{
	static struct plist_node n[9];
	static const int prio[9] = {5, 1, 5, 3, 1, 5, -2, 3, 5};
	PLIST_HEAD(h);
	struct plist_node *pos;
	int order[9], i = 0;
	/* by prio, then by insertion */
	static const int want[9] = {6, 1, 4, 3, 7, 0, 2, 5, 8};
	static const int requeued[9] = {6, 1, 4, 3, 7, 2, 5, 8, 0};

	(void)arg;
	for (int k = 0; k < 9; k++) {
		plist_node_init(&n[k], prio[k]);
		plist_add(&n[k], &h);
		if (!prio_list_ok(&h))
			return -1;
	}
	plist_for_each(pos, &h) order[i++] = (int)(pos - n);
	if (memcmp(order, want, sizeof(want)))
		return -2;
	if (plist_first(&h) != &n[6] || plist_last(&h) != &n[8])
		return -3;
	/* n[0] goes behind the last 5. */
	plist_requeue(&n[0], &h);
	i = 0;
	plist_for_each(pos, &h) order[i++] = (int)(pos - n);
	if (memcmp(order, requeued, sizeof(requeued)) || !prio_list_ok(&h))
		return -4;
	/* Deleting a level's first node promotes the next onto prio_list. */
	plist_del(&n[1], &h);
	plist_del(&n[3], &h);
	if (!prio_list_ok(&h) || list_empty(&n[4].prio_list) ||
	    list_empty(&n[7].prio_list))
		return -5;
	return 0;
}

static void order_and_requeue(void **state)
{
	(void)state;
	check_boot(1);
	assert_int_equal(check_run(shapes, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(queue_two_cpus),
		cmocka_unit_test(order_and_requeue),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
