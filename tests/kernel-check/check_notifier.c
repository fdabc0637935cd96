// SPDX-License-Identifier: MIT
/*
 * kernel/notifier.c: the four kinds of chain on the library's locks, RCU
 * and SRCU.  Priority order and NOTIFY_STOP; -EEXIST/-ENOENT; an atomic
 * chain called from an interrupt handler; atomic unregistration waiting
 * for a callback running on the other CPU (an RCU grace period), SRCU
 * unregistration waiting for one that sleeps; blocking callbacks that
 * sleep and the robust call's roll-back; the die chain.
 */

#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kdebug.h>
#include <linux/notifier.h>

#include "check.h"

#define LINE 6

static int order[8], norder;

static int rec(struct notifier_block *nb, unsigned long val, void *data)
{
	(void)data;
	order[norder++] = nb->priority;
	return val == 99 && nb->priority == 5 ? NOTIFY_STOP : NOTIFY_OK;
}

static struct notifier_block b10 = {.notifier_call = rec, .priority = 10};
static struct notifier_block b5 = {.notifier_call = rec, .priority = 5};
static struct notifier_block b0 = {.notifier_call = rec, .priority = 0};
static RAW_NOTIFIER_HEAD(raw);

static int raw_chain(void *arg)
{
	(void)arg;
	if (raw_notifier_chain_register(&raw, &b0) ||
	    raw_notifier_chain_register(&raw, &b10) ||
	    raw_notifier_chain_register(&raw, &b5))
		return -1;
	norder = 0;
	if (raw_notifier_call_chain(&raw, 1, NULL) != NOTIFY_OK ||
	    norder != 3 || order[0] != 10 || order[1] != 5 || order[2] != 0)
		return -2;
	norder = 0;
	if (raw_notifier_call_chain(&raw, 99, NULL) != NOTIFY_STOP ||
	    norder != 2)
		return -3;
	if (raw_notifier_chain_register(&raw, &b5) != -EEXIST)
		return -4;
	if (raw_notifier_chain_unregister(&raw, &b5) ||
	    raw_notifier_chain_unregister(&raw, &b5) != -ENOENT)
		return -5;
	norder = 0;
	raw_notifier_call_chain(&raw, 99, NULL);
	return norder == 2 ? 0 : -6;
}

/* ---- atomic: from an interrupt, and unregistering waits for readers */

static ATOMIC_NOTIFIER_HEAD(atomic_chain);
static atomic_t irq_calls, inside, after_unregister;
static bool unregistered;

static int slow(struct notifier_block *nb, unsigned long val, void *data)
{
	(void)nb;
	(void)data;
	if (val == 1) {
		atomic_inc(&irq_calls);
		return NOTIFY_OK;
	}
	atomic_inc(&inside);
	if (READ_ONCE(unregistered))
		atomic_inc(&after_unregister);
	udelay(200);
	atomic_dec(&inside);
	return NOTIFY_OK;
}

static struct notifier_block slow_nb = {.notifier_call = slow};
static bool stop_calling;

static irqreturn_t irq_caller(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	atomic_notifier_call_chain(&atomic_chain, 1, NULL);
	return IRQ_HANDLED;
}

static int caller(void *arg)
{
	(void)arg;
	while (!READ_ONCE(stop_calling)) {
		atomic_notifier_call_chain(&atomic_chain, 2, NULL);
		cond_resched();
	}
	return 0;
}

static int atomic_unregister(void *arg)
{
	(void)arg;
	/* Catch the callback running on the other CPU. */
	while (!atomic_read(&inside))
		cond_resched();
	if (atomic_notifier_chain_unregister(&atomic_chain, &slow_nb))
		return -1;
	/* Returned: no CPU may still be in the callback, none may enter. */
	if (atomic_read(&inside))
		return -2;
	WRITE_ONCE(unregistered, true);
	return 0;
}

static void atomic_chains(void **state)
{
	struct task_struct *t;

	(void)state;
	check_boot(2);
	assert_int_equal(check_run(raw_chain, NULL), 0);
	assert_int_equal(
		atomic_notifier_chain_register(&atomic_chain, &slow_nb), 0);
	assert_int_equal(
		request_irq(LINE, irq_caller, IRQF_NO_THREAD, "notify", NULL),
		0);
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(1)), 0);
	for (int i = 0; i < 5000 && !atomic_read(&irq_calls); i++)
		usleep(1000);
	assert_int_equal(atomic_read(&irq_calls), 1);
	free_irq(LINE, NULL);
	t = kthread_create(caller, NULL, "caller");
	kthread_bind(t, 1);
	wake_up_process(t);
	assert_int_equal(check_run(atomic_unregister, NULL), 0);
	WRITE_ONCE(stop_calling, true);
	kthread_stop(t);
	assert_int_equal(atomic_read(&after_unregister), 0);
	assert_true(atomic_notifier_call_chain_is_empty(&atomic_chain));
	machine_shutdown();
}

/* ---- blocking: callbacks sleep; the robust call rolls back */

static BLOCKING_NOTIFIER_HEAD(blocking);
static int downs;

static int sleeper(struct notifier_block *nb, unsigned long val, void *data)
{
	(void)data;
	msleep(1);
	if (val == 3) /* down */
		downs++;
	if (val == 2 && nb->priority == 1)
		return notifier_from_errno(-EBUSY);
	return NOTIFY_OK;
}

static struct notifier_block s2 = {.notifier_call = sleeper, .priority = 2};
static struct notifier_block s1 = {.notifier_call = sleeper, .priority = 1};

static int blocking_chain(void *arg)
{
	int ret;

	(void)arg;
	if (blocking_notifier_chain_register(&blocking, &s1) ||
	    blocking_notifier_chain_register(&blocking, &s2))
		return -1;
	if (blocking_notifier_call_chain(&blocking, 0, NULL) != NOTIFY_OK)
		return -2;
	/* s1 refuses "up" (2): s2, already called, gets "down" (3). */
	ret = blocking_notifier_call_chain_robust(&blocking, 2, 3, NULL);
	if (notifier_to_errno(ret) != -EBUSY || downs != 1)
		return -3;
	if (blocking_notifier_chain_unregister(&blocking, &s1) ||
	    blocking_notifier_call_chain_robust(&blocking, 2, 3, NULL) !=
		    NOTIFY_OK)
		return -4;
	return blocking_notifier_chain_unregister(&blocking, &s2);
}

/* ---- SRCU: unregistering waits for a sleeping callback */

static struct srcu_notifier_head srcu_chain;
static atomic_t srcu_inside;

static int srcu_sleeper(struct notifier_block *nb, unsigned long val,
			void *data)
{
	(void)nb;
	(void)val;
	(void)data;
	atomic_inc(&srcu_inside);
	msleep(20);
	atomic_dec(&srcu_inside);
	return NOTIFY_OK;
}

static struct notifier_block srcu_nb = {.notifier_call = srcu_sleeper};

static int srcu_caller(void *arg)
{
	(void)arg;
	return srcu_notifier_call_chain(&srcu_chain, 0, NULL) == NOTIFY_OK ? 0
									   : -1;
}

static int srcu_unregister(void *arg)
{
	struct task_struct *t;

	(void)arg;
	srcu_init_notifier_head(&srcu_chain);
	if (srcu_notifier_chain_register(&srcu_chain, &srcu_nb))
		return -1;
	t = kthread_run(srcu_caller, NULL, "srcu-caller");
	while (!atomic_read(&srcu_inside))
		msleep(1);
	if (srcu_notifier_chain_unregister(&srcu_chain, &srcu_nb))
		return -2;
	if (atomic_read(&srcu_inside))
		return -3;
	if (kthread_stop(t))
		return -4;
	srcu_cleanup_notifier_head(&srcu_chain);
	return 0;
}

/* ---- die */

static const char *die_str;

static int on_die(struct notifier_block *nb, unsigned long val, void *data)
{
	struct die_args *args = data;

	(void)nb;
	if (val == DIE_OOPS)
		die_str = args->str;
	return NOTIFY_STOP;
}

static struct notifier_block die_nb = {.notifier_call = on_die};

static int die_chain(void *arg)
{
	(void)arg;
	if (register_die_notifier(&die_nb))
		return -1;
	if (notify_die(DIE_OOPS, "oops", NULL, 0, 0, 0) != NOTIFY_STOP)
		return -2;
	if (!die_str || strcmp(die_str, "oops"))
		return -3;
	return unregister_die_notifier(&die_nb);
}

static void sleeping_chains(void **state)
{
	(void)state;
	check_boot(2);
	assert_int_equal(check_run(blocking_chain, NULL), 0);
	assert_int_equal(check_run(srcu_unregister, NULL), 0);
	assert_int_equal(check_run(die_chain, NULL), 0);
	machine_shutdown();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(atomic_chains),
		cmocka_unit_test(sleeping_chains),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
