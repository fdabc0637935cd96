// SPDX-License-Identifier: MIT
/*
 * module_init/module_exit and initcall levels at boot and shutdown,
 * module_param from $PREEMPT_CMDLINE, static keys, IDR, IDA and xarray.
 */

#define KBUILD_MODNAME "ktest"

#include <linux/idr.h>
#include <linux/init.h>
#include <linux/jump_label.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/xarray.h>

#include "pk_kernel_test.h"

static int debug = 1;
module_param(debug, int, 0644);
MODULE_PARM_DESC(debug, "debug level");
static bool verbose;
module_param(verbose, bool, 0444);
static char *name = "default";
module_param(name, charp, 0444);
static unsigned int count_val = 3;
module_param_named(count, count_val, uint, 0444);
static int ids[4];
static int nr_ids;
module_param_array(ids, int, &nr_ids, 0444);

static char order[32];
static int init_in_task, init_cpu_ok;

static void note(char c)
{
	size_t n = strlen(order);

	if (n + 1 < sizeof(order)) {
		order[n] = c;
		order[n + 1] = '\0';
	}
}

static int __init early_fn(void)
{
	note('c');
	return 0;
}
core_initcall(early_fn);

static int __init late_fn(void)
{
	note('l');
	return 0;
}
late_initcall(late_fn);

static int __init my_init(void)
{
	note('m');
	init_in_task = in_task() && preemptible();
	init_cpu_ok = system_state == SYSTEM_SCHEDULING;
	return 0;
}
module_init(my_init);

static void __exit my_exit(void)
{
	note('x');
}
module_exit(my_exit);

MODULE_LICENSE("MIT");
MODULE_AUTHOR("libpreempt tests");
MODULE_DESCRIPTION("initcalls and parameters");

static void test_initcalls_and_params(void **state)
{
	(void)state;
	order[0] = '\0';
	setenv("PREEMPT_CMDLINE",
	       "loglevel=7 ktest.debug=5 ktest.verbose ktest.name=\"two "
	       "words\" "
	       "ktest.count=0x10 ktest.ids=1,2,3 other.thing=1",
	       1);
	pk_boot(2, PREEMPT_MODEL_FULL);
	/* Levels in order, in a task, before machine_boot() returned. */
	assert_string_equal(order, "cml");
	assert_true(init_in_task);
	assert_true(init_cpu_ok);
	assert_int_equal(system_state, SYSTEM_RUNNING);
	assert_int_equal(debug, 5);
	assert_true(verbose);
	assert_string_equal(name, "two words");
	assert_int_equal(count_val, 16);
	assert_int_equal(nr_ids, 3);
	assert_int_equal(ids[2], 3);
	machine_shutdown();
	assert_string_equal(order, "cmlx");
	unsetenv("PREEMPT_CMDLINE");
}

static void test_bad_param(void **state)
{
	const char *out;

	(void)state;
	debug = 1;
	setenv("PREEMPT_CMDLINE", "ktest.debug=notanumber", 1);
	console_capture();
	pk_boot(1, PREEMPT_MODEL_FULL);
	machine_shutdown();
	out = console_release();
	unsetenv("PREEMPT_CMDLINE");
	assert_int_equal(debug, 1); /* left as it was */
	assert_non_null(strstr(
		out, "`notanumber' invalid for parameter `ktest.debug'"));
}

static DEFINE_STATIC_KEY_FALSE(feature);
static DEFINE_STATIC_KEY_TRUE(on_by_default);

static void test_static_keys(void **state)
{
	(void)state;
	assert_false(static_branch_unlikely(&feature));
	assert_true(static_branch_likely(&on_by_default));
	static_branch_enable(&feature);
	assert_true(static_branch_unlikely(&feature));
	static_branch_disable(&feature);
	assert_false(static_key_enabled(&feature));
	static_branch_inc(&feature);
	static_branch_inc(&feature);
	static_branch_dec(&feature);
	assert_true(static_branch_likely(&feature)); /* a count */
	static_branch_dec(&feature);
	assert_false(static_branch_likely(&feature));
}

static void test_idr_ida(void **state)
{
	DEFINE_IDR(idr);
	DEFINE_IDA(ida);
	int a = 1, b = 2, c = 3, id, seen = 0;
	void *p;

	(void)state;
	assert_int_equal(idr_alloc(&idr, &a, 0, 0, GFP_KERNEL), 0);
	assert_int_equal(idr_alloc(&idr, &b, 0, 0, GFP_KERNEL), 1);
	assert_int_equal(idr_alloc(&idr, &c, 10, 12, GFP_KERNEL), 10);
	assert_ptr_equal(idr_find(&idr, 1), &b);
	assert_ptr_equal(idr_remove(&idr, 0), &a);
	assert_null(idr_find(&idr, 0));
	assert_int_equal(idr_alloc(&idr, &a, 0, 0, GFP_KERNEL),
			 0); /* lowest free */
	assert_int_equal(idr_alloc(&idr, &a, 10, 11, GFP_KERNEL), -ENOSPC);
	assert_ptr_equal(idr_replace(&idr, &c, 1), &b);
	idr_for_each_entry(&idr, p, id) seen += id;
	assert_int_equal(seen, 0 + 1 + 10);
	idr_destroy(&idr);
	assert_true(idr_is_empty(&idr));

	assert_int_equal(ida_alloc(&ida, GFP_KERNEL), 0);
	assert_int_equal(ida_alloc(&ida, GFP_KERNEL), 1);
	assert_int_equal(ida_alloc_min(&ida, 5, GFP_KERNEL), 5);
	ida_free(&ida, 0);
	assert_int_equal(ida_alloc(&ida, GFP_KERNEL), 0);
	assert_int_equal(ida_alloc_range(&ida, 5, 5, GFP_KERNEL), -ENOSPC);
	capture_reset();
	ida_free(&ida, 7); /* never allocated: reported */
	assert_report_contains(
		"ida_free called for id=7 which is not allocated");
	capture_stop();
	ida_destroy(&ida);
}

static void test_xarray(void **state)
{
	DEFINE_XARRAY(xa);
	DEFINE_XARRAY_ALLOC1(xa1);
	int a, b;
	unsigned long index, sum = 0;
	void *entry;
	u32 id;

	(void)state;
	assert_true(xa_empty(&xa));
	assert_null(xa_store(&xa, 100, &a, GFP_KERNEL));
	assert_null(xa_store(&xa, 5, xa_mk_value(77), GFP_KERNEL));
	assert_ptr_equal(xa_store(&xa, 100, &b, GFP_KERNEL), &a);
	assert_ptr_equal(xa_load(&xa, 100), &b);
	assert_true(xa_is_value(xa_load(&xa, 5)));
	assert_int_equal(xa_to_value(xa_load(&xa, 5)), 77);
	assert_null(xa_load(&xa, 6));
	assert_int_equal(xa_insert(&xa, 5, &a, GFP_KERNEL), -EBUSY);
	assert_ptr_equal(xa_cmpxchg(&xa, 100, &a, &a, GFP_KERNEL),
			 &b); /* no swap */
	assert_ptr_equal(xa_cmpxchg(&xa, 100, &b, &a, GFP_KERNEL), &b);
	assert_ptr_equal(xa_load(&xa, 100), &a);
	xa_set_mark(&xa, 100, XA_MARK_1);
	assert_true(xa_get_mark(&xa, 100, XA_MARK_1));
	assert_false(xa_get_mark(&xa, 5, XA_MARK_1));
	xa_for_each(&xa, index, entry) sum += index;
	assert_int_equal(sum, 105);
	sum = 0;
	xa_for_each_marked(&xa, index, entry, XA_MARK_1) sum += index;
	assert_int_equal(sum, 100);
	assert_ptr_equal(xa_erase(&xa, 100), &a);
	assert_null(xa_load(&xa, 100));
	xa_destroy(&xa);
	assert_true(xa_empty(&xa));

	/* ALLOC1: IDs from 1. */
	assert_int_equal(xa_alloc(&xa1, &id, &a, xa_limit_32b, GFP_KERNEL), 0);
	assert_int_equal(id, 1);
	assert_int_equal(xa_alloc(&xa1, &id, &b, XA_LIMIT(1, 2), GFP_KERNEL),
			 0);
	assert_int_equal(id, 2);
	assert_int_equal(xa_alloc(&xa1, &id, &b, XA_LIMIT(1, 2), GFP_KERNEL),
			 -EBUSY);
	xa_destroy(&xa1);
}

/* Many entries: the sorted array grows and stays searchable. */
static void test_xarray_many(void **state)
{
	struct xarray xa;

	(void)state;
	xa_init(&xa);
	for (unsigned long i = 0; i < 1000; i++)
		assert_null(xa_store(&xa, (i * 7919) % 1000, xa_mk_value(i),
				     GFP_KERNEL));
	for (unsigned long i = 0; i < 1000; i++)
		assert_int_equal(xa_to_value(xa_load(&xa, (i * 7919) % 1000)),
				 i);
	xa_destroy(&xa);
}

/*
 * xa_load() takes no lock: a reader with interrupts off on one CPU, while
 * a writer on the other moves the slots around (inserting and erasing the
 * even indices below), always finds the odd ones, never torn.
 */
#define XA_KEYS 64
static struct xarray moving;
static bool writer_done, reader_started;

static int xa_writer(void *arg)
{
	(void)arg;
	/* Not before the reader loads: a host slow to run its vCPU would
	 * otherwise leave it nothing to race with. */
	while (!READ_ONCE(reader_started))
		cpu_relax();
	for (int round = 0; round < 2000; round++)
		for (unsigned long i = 0; i < XA_KEYS; i += 2) {
			xa_store(&moving, i, xa_mk_value(i), GFP_KERNEL);
			if (round % 2)
				xa_erase(&moving, i);
		}
	WRITE_ONCE(writer_done, true);
	return 0;
}

static int xa_reader(void *arg)
{
	unsigned long flags, misses = 0;

	(void)arg;
	WRITE_ONCE(reader_started, true);
	do {
		local_irq_save(flags);
		for (unsigned long i = 1; i < XA_KEYS; i += 2)
			if (xa_load(&moving, i) != xa_mk_value(i))
				misses++;
		local_irq_restore(flags);
	} while (!READ_ONCE(writer_done));
	return misses ? -1 : 0;
}

static void test_xarray_lockless_load(void **state)
{
	struct task_struct *w, *r;

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	writer_done = reader_started = false;
	xa_init(&moving);
	for (unsigned long i = 1; i < XA_KEYS; i += 2)
		xa_store(&moving, i, xa_mk_value(i), GFP_KERNEL);
	r = kthread_create(xa_reader, NULL, "xa-reader");
	w = kthread_create(xa_writer, NULL, "xa-writer");
	kthread_bind(r, 0);
	kthread_bind(w, 1);
	wake_up_process(r);
	wake_up_process(w);
	assert_int_equal(kthread_stop(w), 0);
	assert_int_equal(kthread_stop(r), 0);
	xa_destroy(&moving);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_initcalls_and_params),
		cmocka_unit_test(test_bad_param),
		cmocka_unit_test(test_static_keys),
		cmocka_unit_test(test_idr_ida),
		cmocka_unit_test(test_xarray),
		cmocka_unit_test(test_xarray_many),
		cmocka_unit_test(test_xarray_lockless_load),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
