// SPDX-License-Identifier: MIT
/*
 * lib/errseq.c: each watcher learns of an error once, watchers sampling
 * before and after an error was seen get what errseq.rst promises, and
 * errors set from a hard interrupt handler and a task on the other CPU
 * while two watchers poll are each reported, the latest one last.
 */

#include <linux/errseq.h>
#include <linux/interrupt.h>

#include "check.h"

static int watchers(void *arg)
{
	errseq_t e = 0, a, b, c;

	(void)arg;
	a = errseq_sample(&e);
	if (errseq_check(&e, a))
		return -1;
	errseq_set(&e, -EIO);
	/* Nobody saw it yet: a new sampler still gets it. */
	b = errseq_sample(&e);
	if (b != 0 || errseq_check(&e, b) != -EIO)
		return -2;
	if (errseq_check_and_advance(&e, &a) != -EIO ||
	    errseq_check_and_advance(&e, &a) != 0)
		return -3;
	/* Seen now: a sampler from here on does not. */
	c = errseq_sample(&e);
	if (errseq_check(&e, c) || errseq_check_and_advance(&e, &b) != -EIO)
		return -4;
	/* A second error reaches everybody once. */
	errseq_set(&e, -ENOSPC);
	if (errseq_check_and_advance(&e, &a) != -ENOSPC ||
	    errseq_check_and_advance(&e, &b) != -ENOSPC ||
	    errseq_check_and_advance(&e, &c) != -ENOSPC ||
	    errseq_check_and_advance(&e, &c) != 0)
		return -5;
	return 0;
}

static errseq_t shared;
static atomic_t setters_done, irq_done, sampled;

static irqreturn_t handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	errseq_set(&shared, -EREMOTEIO);
	atomic_set(&irq_done, 1);
	return IRQ_HANDLED;
}

static int setter(void *arg)
{
	(void)arg;
	while (atomic_read(&sampled) < 2) /* both watchers hold a sample */
		msleep(1);
	for (int i = 0; i < 2000; i++) {
		errseq_set(&shared, i & 1 ? -EIO : -EAGAIN);
		if (!(i % 64))
			cond_resched();
	}
	while (!atomic_read(&irq_done))
		msleep(1);
	errseq_set(&shared, -EPIPE); /* the last */
	atomic_set(&setters_done, 1);
	return 0;
}

static int poller(void *arg)
{
	errseq_t since = errseq_sample(&shared);
	int got = 0, err;

	(void)arg;
	atomic_inc(&sampled);
	while (!atomic_read(&setters_done)) {
		if (errseq_check_and_advance(&shared, &since))
			got++;
		cond_resched();
	}
	err = errseq_check_and_advance(&shared, &since);
	/* The last error once (unless already taken), then nothing. */
	if (err && err != -EPIPE)
		return -1;
	if (errseq_check_and_advance(&shared, &since))
		return -2;
	return got + !!err > 0 ? 0 : -3;
}

static void errors_once_each(void **state)
{
	struct task_struct *s, *p1, *p2;

	(void)state;
	check_boot(2);
	assert_int_equal(check_run(watchers, NULL), 0);
	assert_int_equal(
		request_irq(9, handler, IRQF_NO_THREAD, "errseq", NULL), 0);
	p1 = kthread_run(poller, NULL, "poll-a");
	p2 = kthread_run(poller, NULL, "poll-b");
	s = kthread_run(setter, NULL, "setter");
	assert_int_equal(irq_raise(9, pk_vcpu_irq_cpu(1)), 0);
	assert_int_equal(kthread_stop(s), 0);
	assert_int_equal(kthread_stop(p1), 0);
	assert_int_equal(kthread_stop(p2), 0);
	free_irq(9, NULL);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(errors_once_each),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
