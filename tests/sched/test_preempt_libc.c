// SPDX-License-Identifier: MIT
/*
 * The safe-point rule under fire: tasks that spend half their time inside
 * malloc(), free() and snprintf() are preempted from the tick for seconds
 * on end.  A task switched out inside libc while holding its lock would
 * deadlock the next task on that vCPU; the rule makes that impossible, and
 * this test would hang (and time out) if it did not hold.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <preempt/delay.h>
#include <preempt/sched.h>

#include "pk_machine.h"

#define NR_TASKS 4
#define RUN_MS 3000

static volatile unsigned long sink;

static int libc_heavy(void *arg)
{
	long deadline = now_ms() + RUN_MS;
	unsigned int seed = (unsigned int)(long)arg;
	long rounds = 0;
	char line[128];

	while (now_ms() < deadline) {
		size_t size = sizeof(line) + rand_r(&seed) % 4096;
		char *p = malloc(size);

		if (!p)
			return -1;
		snprintf(line, sizeof(line), "task %ld round %ld size %zu",
			 (long)arg, rounds, size);
		memcpy(p, line, strlen(line) + 1);
		/* Our own code between the libc calls: preemptible. */
		for (int i = 0; i < 200; i++)
			sink += (unsigned long)p[i % 16] * (unsigned long)i;
		free(p);
		rounds++;
	}
	return rounds > 0 ? 0 : -1;
}

static int ticker(void *arg)
{
	(void)arg;
	while (!kthread_should_stop())
		msleep(1); /* a FIFO wake-up every tick or two */
	return 0;
}

static void no_deadlock_when_preempted_around_libc(void **state)
{
	struct task_struct *tasks[NR_TASKS], *tick;
	unsigned long irq_preemptions = 0, deferred = 0;

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	tick = kthread_create(ticker, NULL, "ticker");
	sched_set_fifo(tick);
	wake_up_process(tick);
	for (long i = 0; i < NR_TASKS; i++)
		tasks[i] =
			kthread_run(libc_heavy, (void *)(i + 1), "libc/%ld", i);
	for (int i = 0; i < NR_TASKS; i++)
		assert_int_equal(kthread_stop(tasks[i]), 0);
	kthread_stop(tick);
	for (int c = 0; c < 2; c++) {
		struct pk_sched_stats s = pk_sched_cpu_stats(c);

		irq_preemptions += s.resched[PK_RESCHED_IRQ_RETURN];
		deferred += s.deferred_unsafe;
	}
	machine_shutdown();
	printf("preempted at irq return %lu times, %lu put off for being "
	       "in libc or the runtime\n",
	       irq_preemptions, deferred);
	/* Three seconds of two tasks per vCPU: the tick must have preempted. */
	assert_true(irq_preemptions > 0);
	assert_int_equal(captured.nr, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(no_deadlock_when_preempted_around_libc),
	};

	capture_reset();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
