// SPDX-License-Identifier: MIT
/*
 * The held-locks list (the debug record behind "still has locks held!")
 * belongs to the task, and an interrupt handler on the same CPU records
 * its own locks in it.  So the task must update it with interrupts
 * disabled.  Not left to timing: the task's lock and unlock are
 * single-stepped (x86 trap flag) and every instruction raises the
 * interrupt, whose handler takes and drops a lock; the list must come out
 * exact.  Without a trap flag (arm64) a host thread raises the interrupt
 * as fast as it can while the task locks and unlocks, checking the list
 * every time: the same property, less systematically.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <string.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "pk_test.h"

#define LINE 12

#if !defined(__x86_64__)
/* The stepping helpers are x86-64's (the trap flag). */
#pragma GCC diagnostic ignored "-Wunused-function"
#pragma GCC diagnostic ignored "-Wunused-variable"
#include <pthread.h>
#include <sched.h>

#define ROUNDS 20000
static volatile int raising;
#endif

static int cpu;
static int stepping;
static long handled, trapped;
static raw_spinlock_t task_lock, irq_lock;

static irqreturn_t take_a_lock(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	raw_spin_lock(&irq_lock);
	raw_spin_unlock(&irq_lock);
	handled++;
	return IRQ_HANDLED;
}

/* After every stepped instruction: an interrupt right there. */
static void trap(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	/*
	 * Only where an interrupt would be taken at once: the instructions
	 * of the dispatch that a replay at the task's enabling edge runs
	 * (stepped too) would otherwise keep it pending for ever.
	 */
	if (!stepping || in_interrupt() || irqs_disabled())
		return;
	trapped++;
	irq_raise(LINE, cpu);
}

#if defined(__x86_64__)
static inline __attribute__((always_inline)) void step(int on)
{
	stepping = on;
	if (on)
		__asm__ __volatile__("pushfq; orl $0x100, (%%rsp); popfq" ::
					     : "memory", "cc");
	else
		__asm__ __volatile__("pushfq; andl $~0x100, (%%rsp); popfq" ::
					     : "memory", "cc");
}
#endif

#if !defined(__x86_64__)
static void *raiser(void *arg)
{
	(void)arg;
	while (raising) {
		irq_raise(LINE, cpu);
		sched_yield();
	}
	return NULL;
}
#endif

static void handler_locks_leave_the_task_list_intact(void **state)
{
	struct sigaction sa;

	(void)state;
#if !defined(__x86_64__)
	pthread_t t;

	(void)sa;
	cpu = pk_irq_cpu_register();
	assert_true(cpu >= 0);
	raw_spin_lock_init(&task_lock);
	raw_spin_lock_init(&irq_lock);
	assert_int_equal(request_irq(LINE, take_a_lock, 0, "locker", NULL), 0);
	raising = 1;
	assert_int_equal(pthread_create(&t, NULL, raiser, NULL), 0);
	for (int i = 0; i < ROUNDS; i++) {
		raw_spin_lock(&task_lock);
		if (CONFIG_DEBUG_SPINLOCK) {
			assert_int_equal(current->pk_nr_held, 1);
			assert_ptr_equal(current->pk_held_locks[0], &task_lock);
		}
		raw_spin_unlock(&task_lock);
		assert_int_equal(current->pk_nr_held, 0);
	}
	raising = 0;
	pthread_join(t, NULL);
	assert_true(handled > 0);
	assert_int_equal(captured.nr, 0);
	free_irq(LINE, NULL);
	pk_irq_cpu_unregister();
#else
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = trap;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGTRAP, &sa, NULL);
	cpu = pk_irq_cpu_register();
	assert_true(cpu >= 0);
	raw_spin_lock_init(&task_lock);
	raw_spin_lock_init(&irq_lock);
	assert_int_equal(request_irq(LINE, take_a_lock, 0, "locker", NULL), 0);

	step(1);
	raw_spin_lock(&task_lock);
	step(0);
	if (CONFIG_DEBUG_SPINLOCK) {
		assert_int_equal(current->pk_nr_held, 1);
		assert_ptr_equal(current->pk_held_locks[0], &task_lock);
	}
	step(1);
	raw_spin_unlock(&task_lock);
	step(0);
	assert_int_equal(current->pk_nr_held, 0);
	assert_true(trapped > 10);
	assert_true(handled > 0);
	assert_int_equal(captured.nr, 0);
	free_irq(LINE, NULL);
	pk_irq_cpu_unregister();
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(handler_locks_leave_the_task_list_intact,
				       capture_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
