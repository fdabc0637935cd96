// SPDX-License-Identifier: MIT
/*
 * linux/jhash.h against lookup3's published values, linux/hashtable.h,
 * the scope guards of linux/cleanup.h (a lock released and interrupts
 * restored when the scope ends, also by break and return), and rcuwait
 * (a waiter woken from another CPU).
 */

#include <linux/delay.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/rcuwait.h>
#include <linux/spinlock.h>

#include "pk_kernel_test.h"

static void jhash_vectors(void **state)
{
	static const char s[] = "Four score and seven years ago";
	u32 words[6];

	(void)state;
	/* lookup3.c's driver5(): hashlittle() of these. */
	assert_int_equal(jhash("", 0, 0), 0xdeadbeef);
	assert_int_equal(jhash(s, 30, 0), 0x17770551);
	assert_int_equal(jhash(s, 30, 1), 0xcd628161);
	/* Whole words: the word form agrees with the byte form. */
	for (int n = 0; n <= 6; n++) {
		memcpy(words, s, sizeof(words));
		assert_int_equal(jhash2(words, n, 7), jhash(words, 4 * n, 7));
	}
	assert_int_not_equal(jhash_1word(1, 0), jhash_1word(2, 0));
	assert_int_not_equal(jhash_2words(1, 2, 0), jhash_2words(2, 1, 0));
	assert_int_equal(jhash_3words(1, 2, 3, 9), jhash_3words(1, 2, 3, 9));
}

struct obj {
	int key;
	struct hlist_node node;
};

static void hashtable_ops(void **state)
{
	DEFINE_HASHTABLE(ht, 4);
	static struct obj objs[100];
	struct hlist_node *tmp;
	struct obj *o;
	int bkt, n = 0;

	(void)state;
	assert_int_equal(HASH_SIZE(ht), 16);
	assert_int_equal(HASH_BITS(ht), 4);
	assert_true(hash_empty(ht));
	for (int i = 0; i < 100; i++) {
		objs[i].key = i * 7;
		hash_add(ht, &objs[i].node, objs[i].key);
	}
	hash_for_each(ht, bkt, o, node) n++;
	assert_int_equal(n, 100);
	/* Each key in the bucket it hashes to. */
	for (int i = 0; i < 100; i++) {
		bool found = false;

		hash_for_each_possible(ht, o, node, i * 7) if (o->key == i * 7)
			found = true;
		assert_true(found);
	}
	hash_for_each_safe(ht, bkt, tmp, o, node) if (o->key % 2)
		hash_del(&o->node);
	n = 0;
	hash_for_each(ht, bkt, o, node)
	{
		assert_int_equal(o->key % 2, 0);
		n++;
	}
	assert_int_equal(n, 50);
	assert_false(hash_hashed(&objs[1].node));
	hash_init(ht);
	assert_true(hash_empty(ht));
}

static DEFINE_SPINLOCK(lock);
static DEFINE_MUTEX(mtx);

static int guarded(int leave)
{
	guard(spinlock_irqsave)(&lock);
	if (!spin_is_locked(&lock) || !irqs_disabled())
		return -1;
	if (leave)
		return 1; /* the guard drops the lock here too */
	return 0;
}

static int guards(void *arg)
{
	int inside = 0;

	(void)arg;
	if (guarded(0) || spin_is_locked(&lock) || irqs_disabled())
		return -1;
	if (guarded(1) != 1 || spin_is_locked(&lock) || irqs_disabled())
		return -2;
	scoped_guard(mutex, &mtx)
	{
		inside = mutex_is_locked(&mtx);
	}
	if (!inside || mutex_is_locked(&mtx))
		return -3;
	{
		guard(rcu)();
		if (!rcu_read_lock_held())
			return -4;
	}
	if (rcu_read_lock_held())
		return -5;
	return 0;
}

static void scope_guards(void **state)
{
	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(guards, NULL), 0);
	machine_shutdown();
}

static struct rcuwait rw = __RCUWAIT_INITIALIZER(rw);
static bool ready, done;

static int waiter(void *arg)
{
	int ret;

	(void)arg;
	ret = rcuwait_wait_event(&rw, READ_ONCE(ready), TASK_UNINTERRUPTIBLE);
	WRITE_ONCE(done, true);
	return ret;
}

static void rcuwait_wakes(void **state)
{
	struct task_struct *t;

	(void)state;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	t = kthread_create(waiter, NULL, "waiter");
	kthread_bind(t, 1);
	wake_up_process(t);
	while (!rcuwait_active(&rw))
		usleep(1000);
	WRITE_ONCE(ready, true);
	rcuwait_wake_up(&rw);
	/* Woken by that, not by kthread_stop()'s own wake-up. */
	for (int i = 0; i < 2000 && !READ_ONCE(done); i++)
		usleep(1000);
	assert_true(READ_ONCE(done));
	assert_int_equal(kthread_stop(t), 0);
	assert_false(rcuwait_active(&rw));
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jhash_vectors),
		cmocka_unit_test(hashtable_ops),
		cmocka_unit_test(scope_guards),
		cmocka_unit_test(rcuwait_wakes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
