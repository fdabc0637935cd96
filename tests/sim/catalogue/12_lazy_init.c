// SPDX-License-Identifier: MIT
/*
 * 12: double-checked lazy initialization without ordering.
 *
 * A lookup table is built on first use.  The fast path tests the pointer
 * without the mutex; the slow path, under the mutex, builds the table.
 * The buggy slow path publishes the pointer first and fills the table
 * after it, so a fast path on the other vCPU can take a table that is
 * not built yet:
 *
 *	task A (slow path):                task B (fast path):
 *	t = kmalloc(sizeof(*t), ...);
 *	WRITE_ONCE(table, t);
 *	t->slot = kmalloc_array(...);
 *	                                   t = READ_ONCE(table);  // non-NULL
 *	                                   use(t->slot);          // garbage
 *	fill(t);
 *
 * Two kthreads (vCPU 0 and 1) meet at a barrier, both ask for the table,
 * use it, meet again; then the table is freed (poisoned: CAT_POISON
 * bytes, so a reused allocation is not taken for a built table) and the
 * next round starts from scratch.
 *
 * Detected by: BUG_ON() in the user, which checks the table's magic and
 * every slot (a report: abort).
 * Fix (-DFIXED): fill the table first, then smp_store_release() the
 * pointer; the fast path reads it with smp_load_acquire().
 *
 * Exit status (catalogue.h): 0 no bug seen; 1 own check, SIGABRT report,
 * no exit (hang), SIGSEGV oops: the bug was found; 2 setup failed.
 */

#include <linux/mutex.h>

#include "catalogue.h"

#define NAME "12_lazy_init"
#define TABLE_MAGIC 0x7ab1e0007ab1e000UL
#define NR_SLOTS 64
#define ROUNDS 100

struct table {
	unsigned long magic;
	unsigned long *slot; /* NR_SLOTS */
};

static struct table *table;
static DEFINE_MUTEX(table_mutex);
static struct cat_barrier barrier;

static void table_free(struct table *t)
{
	cat_free_poisoned(t->slot, NR_SLOTS * sizeof(*t->slot));
	cat_free_poisoned(t, sizeof(*t));
}

static void fill(struct table *t)
{
	t->slot = kmalloc_array(NR_SLOTS, sizeof(*t->slot), GFP_KERNEL);
	BUG_ON(!t->slot);
	for (int i = 0; i < NR_SLOTS; i++)
		t->slot[i] = i * i;
	t->magic = TABLE_MAGIC;
}

static struct table *get_table(void)
{
#ifndef FIXED
	struct table *t = READ_ONCE(table);

	if (t)
		return t;
	mutex_lock(&table_mutex);
	if (!table) {
		WRITE_ONCE(table, kmalloc(sizeof(*t), GFP_KERNEL));
		BUG_ON(!table);
		fill(table);
	}
	t = table;
	mutex_unlock(&table_mutex);
#else
	struct table *t = smp_load_acquire(&table);

	if (t)
		return t;
	mutex_lock(&table_mutex);
	t = table;
	if (!t) {
		t = kmalloc(sizeof(*t), GFP_KERNEL);
		BUG_ON(!t);
		fill(t);
		smp_store_release(&table, t);
	}
	mutex_unlock(&table_mutex);
#endif
	return t;
}

static unsigned long use(const struct table *t)
{
	unsigned long sum = 0;

	BUG_ON(READ_ONCE(t->magic) != TABLE_MAGIC);
	for (int i = 0; i < NR_SLOTS; i++) {
		BUG_ON(READ_ONCE(t->slot[i]) != (unsigned long)i * i);
		sum += t->slot[i];
	}
	return sum;
}

static int user(void *data)
{
	bool first = data;

	for (int i = 0; i < ROUNDS; i++) {
		cat_barrier_wait(&barrier);
		use(get_table());
		cat_barrier_wait(&barrier);
		if (first) { /* the other user is done with it */
			table_free(table);
			WRITE_ONCE(table, NULL);
		}
	}
	return 0;
}

int main(void)
{
	struct task_struct *a, *b;

	cat_boot();
	cat_barrier_init(&barrier, 2);
	a = cat_start(user, (void *)1, "user/a", 0);
	b = cat_start(user, NULL, "user/b", 1);
	kthread_stop(a);
	kthread_stop(b);
	machine_shutdown();
	printf("catalogue: %s (%s): no bug observed, %d tables\n", NAME,
	       CAT_BUILD, ROUNDS);
	return 0;
}
