// SPDX-License-Identifier: MIT
/*
 * A host thread that is not a vCPU but is an irq-layer CPU may meet RCU
 * first in an interrupt handler.  Its reader record must then come without
 * allocating: the handler runs inside a host signal handler, and the code
 * it interrupted may hold the malloc lock.
 *
 * Allocations are counted by interposing calloc() and malloc() in this
 * program, which the sanitizer build cannot do: there it is a skip.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>

#include <preempt/hardirq.h>
#include <preempt/interrupt.h>
#include <preempt/rcupdate.h>

#include "pk_test.h"

#define LINE 7

static int allocs_in_hardirq;
static int handler_ran;

static __attribute__((unused)) void note_alloc(void)
{
	if (in_hardirq())
		__atomic_fetch_add(&allocs_in_hardirq, 1, __ATOMIC_RELAXED);
}

#if defined(__SANITIZE_ADDRESS__)
/*
 * ASan owns malloc there and gcc's runtime offers no working allocation
 * hook: the test is a visible skip in that build.
 */
static void count_allocations(void)
{
	skip();
}
#else
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);

void *malloc(size_t size)
{
	note_alloc();
	return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
	note_alloc();
	return __libc_calloc(n, size);
}

static void count_allocations(void)
{
}
#endif

static irqreturn_t read_under_rcu(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	rcu_read_lock();
	handler_ran++;
	rcu_read_unlock();
	return IRQ_HANDLED;
}

/* A fresh thread, so its first reader is the handler's. */
static void *first_reader_in_an_interrupt(void *arg)
{
	(void)arg;
	int cpu = pk_irq_cpu_register();

	if (cpu >= 0)
		irq_raise(LINE, cpu); /* delivered before it returns */
	return NULL;
}

static void host_reader_record_is_not_allocated_in_hardirq(void **state)
{
	(void)state;
	pthread_t t;

	count_allocations();
	assert_int_equal(request_irq(LINE, read_under_rcu, 0, "rcu", NULL), 0);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(pthread_create(&t, NULL,
						first_reader_in_an_interrupt,
						NULL),
				 0);
		assert_int_equal(pthread_join(t, NULL), 0);
	}
	free_irq(LINE, NULL);
	assert_int_equal(handler_ran, 4);
	assert_int_equal(__atomic_load_n(&allocs_in_hardirq, __ATOMIC_RELAXED),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
			host_reader_record_is_not_allocated_in_hardirq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
