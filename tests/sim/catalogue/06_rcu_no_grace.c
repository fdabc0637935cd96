// SPDX-License-Identifier: MIT
/*
 * 06: an RCU-protected object freed without waiting for a grace period.
 *
 * A reader kthread (vCPU 0) looks up the current configuration under
 * rcu_read_lock(); an updater kthread (vCPU 1) replaces it now and then
 * and frees the old one at once:
 *
 *	reader:                     updater:
 *	rcu_read_lock();
 *	c = rcu_dereference(cur);
 *	                            old = rcu_replace_pointer(cur, new, 1);
 *	                            kfree(old);             // c is old
 *	spin_lock(&c->lock);        // freed memory
 *	c->hits++;
 *	spin_unlock(&c->lock);
 *	use(c->val[]);
 *	rcu_read_unlock();
 *
 * Freeing poisons the object (CAT_POISON bytes), as slab debugging does.
 *
 * Detected by: BUG_ON() in the reader, which checks the object's magic
 * when it finds the object and, at the end of its critical section, the
 * magic again and that the values add up to the checksum stored with
 * them (a report: abort).  A free between the first check and the lock
 * meets the spinlock debug check ("spinlock bad magic"), whose report
 * reads the poisoned owner and crashes (SIGSEGV): found, as an oops.
 * Fix (-DFIXED): call_rcu(): the object is poisoned and freed only after
 * every reader that could have seen it has left its critical section.
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/rcupdate.h>
#include <linux/spinlock.h>

#include "catalogue.h"

#define NAME "06_rcu_no_grace"
#define CONF_MAGIC 0xc0f1c0f1c0f1c0f1UL
#define NR_VALS 16
#define READS 500
#define READ_WORK 5000 /* between lookups: 5-15 us */
#define UPDATES 20
#define UPDATE_WORK 100000 /* between updates: 100-300 us */

struct conf {
	unsigned long magic;
	spinlock_t lock; /* hits */
	unsigned long hits;
	unsigned long val[NR_VALS];
	unsigned long sum;
	struct rcu_head rh;
};

static struct conf __rcu *cur;
static bool updates_done;

static struct conf *conf_new(unsigned long gen)
{
	struct conf *c = kmalloc(sizeof(*c), GFP_KERNEL);

	BUG_ON(!c);
	c->sum = 0;
	for (int i = 0; i < NR_VALS; i++) {
		c->val[i] = gen * NR_VALS + i;
		c->sum += c->val[i];
	}
	spin_lock_init(&c->lock);
	c->hits = 0;
	c->magic = CONF_MAGIC;
	return c;
}

#ifdef FIXED
static void conf_free_rcu(struct rcu_head *rh)
{
	cat_free_poisoned(container_of(rh, struct conf, rh),
			  sizeof(struct conf));
}
#endif

static void conf_retire(struct conf *old)
{
#ifndef FIXED
	cat_free_poisoned(old, sizeof(*old));
#else
	call_rcu(&old->rh, conf_free_rcu);
#endif
}

struct actor {
	unsigned long seed;
	unsigned long sink;
};

static int reader(void *data)
{
	struct actor *a = data;

	for (int i = 0; i < READS && !READ_ONCE(updates_done); i++) {
		struct conf *c;
		unsigned long sum = 0;

		rcu_read_lock();
		c = rcu_dereference(cur);
		BUG_ON(READ_ONCE(c->magic) != CONF_MAGIC);
		spin_lock(&c->lock);
		c->hits++;
		spin_unlock(&c->lock);
		for (int j = 0; j < NR_VALS; j++)
			sum += READ_ONCE(c->val[j]);
		BUG_ON(READ_ONCE(c->magic) != CONF_MAGIC ||
		       sum != READ_ONCE(c->sum));
		rcu_read_unlock();
		a->sink += cat_work(READ_WORK +
				    cat_next(&a->seed) % (2 * READ_WORK));
	}
	return 0;
}

static int updater(void *data)
{
	struct actor *a = data;

	for (unsigned long gen = 1; gen <= UPDATES; gen++) {
		struct conf *old =
			rcu_replace_pointer(cur, conf_new(gen), true);

		conf_retire(old);
		a->sink += cat_work(UPDATE_WORK +
				    cat_next(&a->seed) % (2 * UPDATE_WORK));
	}
	WRITE_ONCE(updates_done, true);
	return 0;
}

int main(void)
{
	static struct actor act[2] = {{.seed = 1}, {.seed = 2}};
	struct task_struct *r, *u;

	cat_boot();
	rcu_assign_pointer(cur, conf_new(0));
	r = cat_start(reader, &act[0], "reader", 0);
	u = cat_start(updater, &act[1], "updater", 1);
	kthread_stop(u);
	kthread_stop(r);
	rcu_barrier(); /* the callbacks of the fixed build */
	kfree(rcu_dereference_protected(cur, true));
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %d updates\n", NAME,
	       CAT_BUILD, UPDATES);
	return 0;
}
