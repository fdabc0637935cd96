// SPDX-License-Identifier: MIT
/*
 * Interrupt frames belong on the CPU's interrupt stack, never on a task's.
 * Handlers here use more stack than the tasks have, so a frame on a task
 * stack overflows it at the first interrupt: no timing involved.  And a
 * task that overflows its own stack gets the kernel's report, not a bare
 * SIGSEGV (checked in a forked child, whose stderr and end are read).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <stdint.h>
#include <unistd.h>

#include <preempt/interrupt.h>
#include <preempt/sched.h>

#include "pk_machine.h"

#define LINE 14
#define NR_TASKS 2
#define TASK_STACK (32 * 1024)
#define HANDLER_STACK (48 * 1024)
#define RAISES_PER_TASK 2000
#define RAISES_PER_RAISER 20000
#define TOTAL_RAISES (NR_TASKS * RAISES_PER_TASK + 2 * RAISES_PER_RAISER)

static struct {
	struct task_struct *task;
	char *lo, *hi;
} tasks[NR_TASKS];
static long handled, accounted, on_task_stack, failed_raises;
static int started;

static __attribute__((noinline)) irqreturn_t big_handler(int irq, void *dev)
{
	volatile char big[HANDLER_STACK];
	char here;

	(void)irq;
	(void)dev;
	for (size_t i = 0; i < sizeof(big); i += 512)
		big[i] = (char)i;
	for (int i = 0; i < NR_TASKS; i++)
		if (current == tasks[i].task && &here >= tasks[i].lo &&
		    &here < tasks[i].hi)
			__atomic_add_fetch(&on_task_stack, 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
	/* Raises coalesce: count the ones this call covers. */
	__atomic_add_fetch(&accounted, pk_irq_coalesced(), __ATOMIC_RELAXED);
	return IRQ_HANDLED;
}

static int raising_task(void *arg)
{
	int i = (int)(long)arg;
	char top;
	uintptr_t sp = (uintptr_t)&top;

	tasks[i].hi = (char *)(sp + 256);
	tasks[i].lo = (char *)(sp - TASK_STACK);
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	for (int n = 0; n < RAISES_PER_TASK; n++) {
		/* At its own CPU: the handler runs right here, on return
		 * from the raise, interrupting this task. */
		preempt_disable();
		irq_raise(LINE, pk_vcpu_irq_cpu(raw_smp_processor_id()));
		preempt_enable();
	}
	/* Stay interruptible until every raise has been handled. */
	while (__atomic_load_n(&accounted, __ATOMIC_ACQUIRE) < TOTAL_RAISES)
		__asm__ __volatile__("" ::: "memory");
	return 0;
}

static void *raiser(void *arg)
{
	(void)arg;
	for (int n = 0; n < RAISES_PER_RAISER; n++)
		if (irq_raise(LINE, pk_vcpu_irq_cpu(n & 1)) != 0)
			__atomic_add_fetch(&failed_raises, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void interrupt_storm_stays_off_task_stacks(void **state)
{
	struct machine_config cfg = {
		.nr_cpus = 2, .hz = 1000, .stack_size = TASK_STACK};
	pthread_t raisers[2];

	(void)state;
	capture_reset();
	assert_int_equal(machine_boot(&cfg), 0);
	assert_int_equal(request_irq(LINE, big_handler, 0, "big", NULL), 0);
	for (int i = 0; i < NR_TASKS; i++) {
		tasks[i].task = kthread_create(raising_task, (void *)(long)i,
					       "raiser/%d", i);
		assert_non_null(tasks[i].task);
		kthread_bind(tasks[i].task, i);
		wake_up_process(tasks[i].task);
	}
	while (__atomic_load_n(&started, __ATOMIC_ACQUIRE) < NR_TASKS)
		usleep(100);
	for (int i = 0; i < 2; i++)
		pthread_create(&raisers[i], NULL, raiser, NULL);
	for (int i = 0; i < 2; i++)
		pthread_join(raisers[i], NULL);
	machine_shutdown(); /* waits for the tasks */
	free_irq(LINE, NULL);
	assert_int_equal(failed_raises, 0);
	assert_int_equal(accounted, TOTAL_RAISES);
	assert_true(handled > 0);
	assert_int_equal(on_task_stack, 0);
	capture_stop();
}

static int depth_limit = 1 << 30; /* out of reach: the stack ends first */

static __attribute__((noinline)) int deep(int n)
{
	volatile char pad[512];

	pad[0] = (char)n;
	if (n >= depth_limit)
		return 0;
	return deep(n + 1) + pad[0];
}

static int overflowing_task(void *arg)
{
	(void)arg;
	return deep(0);
}

/* The child: a machine whose one task recurses without end. */
static void overflow_child(int fd)
{
	struct machine_config cfg = {
		.nr_cpus = 1, .hz = 1000, .stack_size = TASK_STACK};

	dup2(fd, STDERR_FILENO);
	if (machine_boot(&cfg) != 0)
		_exit(2);
	kthread_run(overflowing_task, NULL, "overflow");
	sleep(60); /* the report and the abort come long before */
	_exit(3);
}

static void task_stack_overflow_is_reported(void **state)
{
	char out[16384];
	size_t len = 0;
	ssize_t n;
	int fds[2], status;
	pid_t pid;

	(void)state;
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fds[0]);
		overflow_child(fds[1]);
	}
	close(fds[1]);
	while (len < sizeof(out) - 1 &&
	       (n = read(fds[0], out + len, sizeof(out) - 1 - len)) > 0)
		len += (size_t)n;
	out[len] = '\0';
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	printf("%s", out);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(out, "BUG: TASK stack guard page was hit at"));
	assert_non_null(strstr(out, "kernel stack overflow (page fault)"));
	assert_non_null(strstr(out, "Comm: overflow"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		/* First: the child must install the guard itself. */
		cmocka_unit_test(task_stack_overflow_is_reported),
		cmocka_unit_test(interrupt_storm_stays_off_task_stacks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
