// SPDX-License-Identifier: MIT
/*
 * lib/kfifo.c: a lockless single-producer single-consumer fifo between
 * two CPUs, byte fifos from kfifo_alloc(), and record fifos.
 */

#include <linux/kfifo.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "check.h"

#define ITEMS 200000
static DEFINE_KFIFO(ints, int, 64);

static int produce(void *arg)
{
	(void)arg;
	for (int i = 0; i < ITEMS;) {
		if (kfifo_put(&ints, i))
			i++;
		else
			cond_resched();
	}
	return 0;
}

static int consume(void *arg)
{
	int v, expect = 0;

	(void)arg;
	while (expect < ITEMS) {
		if (!kfifo_get(&ints, &v)) {
			cond_resched();
			continue;
		}
		if (v != expect)
			return -1; /* lost, duplicated or out of order */
		expect++;
	}
	return expect;
}

static void test_spsc_between_cpus(void **state)
{
	struct task_struct *p;

	(void)state;
	check_boot(2);
	kthread_bind(p = kthread_create(produce, NULL, "producer"), 0);
	wake_up_process(p);
	assert_int_equal(check_run(consume, NULL), ITEMS);
	kthread_stop(p);
	machine_shutdown();
	assert_true(kfifo_is_empty(&ints));
}

static void test_bytes(void **state)
{
	struct kfifo f;
	unsigned char out[100], in[100];
	DEFINE_SPINLOCK(lock);

	(void)state;
	for (int i = 0; i < 100; i++)
		in[i] = (unsigned char)i;
	assert_int_equal(kfifo_alloc(&f, 50, GFP_KERNEL), 0);
	assert_int_equal(kfifo_size(&f), 64); /* rounded up to a power of 2 */
	assert_int_equal(kfifo_in(&f, in, 100), 64);
	assert_true(kfifo_is_full(&f));
	assert_int_equal(kfifo_out(&f, out, 10), 10);
	assert_memory_equal(out, in, 10);
	assert_int_equal(kfifo_avail(&f), 10);
	/* Wraps around the end of the buffer. */
	assert_int_equal(kfifo_in_spinlocked(&f, in + 64, 10, &lock), 10);
	assert_int_equal(kfifo_len(&f), 64);
	assert_int_equal(kfifo_out_peek(&f, out, 3), 3);
	assert_int_equal(out[0], 10);
	assert_int_equal(kfifo_out(&f, out, 100), 64);
	assert_memory_equal(out, in + 10, 64);
	kfifo_free(&f);
}

static void test_records(void **state)
{
	struct kfifo_rec_ptr_1 r;
	char buf[32];

	(void)state;
	assert_int_equal(kfifo_alloc(&r, 64, GFP_KERNEL), 0);
	assert_int_equal(kfifo_in(&r, "hello", 5), 5);
	assert_int_equal(kfifo_in(&r, "kernel!", 7), 7);
	assert_int_equal(kfifo_peek_len(&r), 5);
	assert_int_equal(kfifo_out(&r, buf, sizeof(buf)), 5);
	assert_memory_equal(buf, "hello", 5);
	assert_int_equal(kfifo_out(&r, buf, 3), 3); /* the rest is dropped */
	assert_memory_equal(buf, "ker", 3);
	assert_true(kfifo_is_empty(&r));
	kfifo_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spsc_between_cpus),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_records),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
