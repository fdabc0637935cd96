// SPDX-License-Identifier: MIT
/*
 * kernel/locking/semaphore.c (its down()/up() renamed at compile time so
 * they do not meet the library's own): counting, blocking, timeouts, and
 * up() from an interrupt handler.
 */

#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/semaphore.h>

#include "check.h"

static struct semaphore sem;
static atomic_t inside, max_inside;

static int worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 200; i++) {
		int n;

		down(&sem);
		n = atomic_inc_return(&inside);
		if (n > atomic_read(&max_inside))
			atomic_set(&max_inside, n);
		udelay(20);
		atomic_dec(&inside);
		up(&sem);
		if (!(i % 16))
			cond_resched();
	}
	return 0;
}

static void test_counting(void **state)
{
	struct task_struct *t[4];

	(void)state;
	sema_init(&sem, 2);
	check_boot(2);
	for (int i = 0; i < 4; i++)
		t[i] = kthread_run(worker, NULL, "worker");
	for (int i = 0; i < 4; i++)
		kthread_stop(t[i]);
	machine_shutdown();
	assert_true(atomic_read(&max_inside) <= 2);
	assert_true(atomic_read(&max_inside) >= 1);
	assert_int_equal(sem.count, 2);
}

static int try_and_timeout(void *arg)
{
	unsigned long t0;
	int r;

	(void)arg;
	sema_init(&sem, 1);
	if (down_trylock(&sem) != 0)
		return 1;
	if (down_trylock(&sem) != 1) /* taken: 1, inverted */
		return 2;
	t0 = jiffies;
	r = down_timeout(&sem, 5);
	if (r != -ETIME || time_before(jiffies, t0 + 5))
		return 3;
	up(&sem);
	if (down_timeout(&sem, 5) != 0)
		return 4;
	up(&sem);
	return 0;
}

static void test_trylock_and_timeout(void **state)
{
	(void)state;
	check_boot(1);
	assert_int_equal(check_run(try_and_timeout, NULL), 0);
	machine_shutdown();
}

#define LINE 11
static irqreturn_t upper(int irq, void *dev)
{
	up(dev);
	return IRQ_HANDLED;
}

static int waiter(void *arg)
{
	down(&sem); /* count 0: sleeps until the interrupt's up() */
	*(int *)arg = 1;
	return 0;
}

static void test_up_from_irq(void **state)
{
	struct task_struct *t;
	int got = 0;

	(void)state;
	sema_init(&sem, 0);
	check_boot(2);
	assert_int_equal(
		request_irq(LINE, upper, IRQF_NO_THREAD, "upper", &sem), 0);
	t = kthread_run(waiter, &got, "waiter");
	usleep(1000); /* harmless either way: a unit given early is kept */
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	kthread_stop(t);
	free_irq(LINE, &sem);
	machine_shutdown();
	assert_int_equal(got, 1);
	assert_int_equal(sem.count, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counting),
		cmocka_unit_test(test_trylock_and_timeout),
		cmocka_unit_test(test_up_from_irq),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
