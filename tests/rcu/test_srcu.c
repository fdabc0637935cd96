// SPDX-License-Identifier: MIT
/*
 * SRCU: readers that sleep hold their domain's grace periods and nobody
 * else's; call_srcu() callbacks run after one; srcu_barrier() waits for
 * them; from tasks, threads that are not vCPUs, and hardirq.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>

#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/srcu.h>

#include "rcu_helpers.h"

#define LINE 34

DEFINE_SRCU(dom_a);
static struct srcu_struct dom_b;

struct sleeper {
	struct srcu_struct *ssp;
	int entered, release, left;
};

/* An SRCU reader that sleeps (msleep) until released. */
static int sleeping_reader(void *arg)
{
	struct sleeper *s = arg;
	int idx = srcu_read_lock(s->ssp);

	__atomic_store_n(&s->entered, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&s->release, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE))
		msleep(1);
	__atomic_store_n(&s->left, 1, __ATOMIC_SEQ_CST);
	srcu_read_unlock(s->ssp, idx);
	return 0;
}

struct sync_arg {
	struct srcu_struct *ssp;
	struct sleeper *s;
	int done, left_at_end;
};

static void *sync_srcu_thread(void *arg)
{
	struct sync_arg *a = arg;

	synchronize_srcu(a->ssp);
	a->left_at_end = __atomic_load_n(&a->s->left, __ATOMIC_SEQ_CST);
	__atomic_store_n(&a->done, 1, __ATOMIC_SEQ_CST);
	return NULL;
}

static void srcu_waits_for_sleeping_reader(void **state)
{
	enum preempt_model model = *(enum preempt_model *)*state;
	struct sleeper s = {.ssp = &dom_a};
	struct sync_arg a = {.ssp = &dom_a, .s = &s};
	struct task_struct *r;
	pthread_t t;

	pk_boot_online(2, model);
	r = kthread_run(sleeping_reader, &s, "srcu-reader");
	assert_non_null(r);
	wait_flag(&s.entered);
	/* Another domain's grace period does not wait for it. */
	init_srcu_struct(&dom_b);
	synchronize_srcu(&dom_b);
	/* Nor does RCU's: an SRCU reader is no RCU reader. */
	synchronize_rcu();
	assert_int_equal(s.left, 0);
	assert_int_equal(pthread_create(&t, NULL, sync_srcu_thread, &a), 0);
	usleep(30000);
	assert_int_equal(__atomic_load_n(&a.done, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&s.release, 1, __ATOMIC_SEQ_CST);
	pthread_join(t, NULL);
	assert_int_equal(a.left_at_end, 1);
	assert_int_equal(kthread_stop(r), 0);
	cleanup_srcu_struct(&dom_b);
	assert_int_equal(captured.nr, 0);
}

struct srcu_probe {
	struct rcu_head rh;
	struct sleeper *s;
	int ran, left_at_run, queued;
};

static void srcu_probe_cb(struct rcu_head *rh)
{
	struct srcu_probe *p = (struct srcu_probe *)rh;

	p->left_at_run = __atomic_load_n(&p->s->left, __ATOMIC_SEQ_CST);
	__atomic_store_n(&p->ran, 1, __ATOMIC_SEQ_CST);
}

static struct srcu_probe *irq_probe;

static irqreturn_t queue_srcu_in_hardirq(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	call_srcu(&dom_a, &irq_probe->rh, srcu_probe_cb);
	__atomic_store_n(&irq_probe->queued, 1, __ATOMIC_SEQ_CST);
	return IRQ_HANDLED;
}

static void call_srcu_after_reader(void **state, bool from_irq)
{
	enum preempt_model model = *(enum preempt_model *)*state;
	struct sleeper s = {.ssp = &dom_a};
	struct srcu_probe p = {.s = &s};
	struct task_struct *r;

	pk_boot_online(2, model);
	r = kthread_run(sleeping_reader, &s, "srcu-reader");
	assert_non_null(r);
	wait_flag(&s.entered);
	irq_probe = &p;
	if (from_irq) {
		assert_int_equal(request_irq(LINE, queue_srcu_in_hardirq,
					     IRQF_NO_THREAD, "srcu", &p),
				 0);
		assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	} else {
		call_srcu(&dom_a, &p.rh, srcu_probe_cb);
		p.queued = 1;
	}
	wait_flag(&p.queued);
	usleep(30000);
	assert_int_equal(__atomic_load_n(&p.ran, __ATOMIC_SEQ_CST), 0);
	__atomic_store_n(&s.release, 1, __ATOMIC_SEQ_CST);
	srcu_barrier(&dom_a);
	assert_int_equal(p.ran, 1);
	assert_int_equal(p.left_at_run, 1);
	assert_int_equal(kthread_stop(r), 0);
	if (from_irq)
		free_irq(LINE, &p);
}

static void call_srcu_from_thread(void **state)
{
	call_srcu_after_reader(state, false);
}

static void call_srcu_from_hardirq(void **state)
{
	call_srcu_after_reader(state, true);
}

/* No machine: the barrier drives the grace period itself. */
static void srcu_without_machine(void **state)
{
	struct srcu_struct ss;
	struct srcu_probe p = {0};
	struct sleeper s = {.left = 1};
	int idx;

	(void)state;
	p.s = &s;
	init_srcu_struct(&ss);
	idx = srcu_read_lock(&ss);
	assert_true(srcu_read_lock_held(&ss));
	srcu_read_unlock(&ss, idx);
	synchronize_srcu(&ss);
	call_srcu(&ss, &p.rh, srcu_probe_cb);
	srcu_barrier(&ss);
	assert_int_equal(p.ran, 1);
	cleanup_srcu_struct(&ss);
	assert_int_equal(captured.nr, 0);
}

static void cleanup_with_reader_is_reported(void **state)
{
	struct srcu_struct ss;
	int idx;

	(void)state;
	init_srcu_struct(&ss);
	idx = srcu_read_lock(&ss);
	cleanup_srcu_struct(&ss);
	srcu_read_unlock(&ss, idx);
	assert_report_contains("cleanup_srcu_struct(): readers still inside");
}

static enum preempt_model m_none = PREEMPT_MODEL_NONE;
static enum preempt_model m_full = PREEMPT_MODEL_FULL;
static enum preempt_model m_rt = PREEMPT_MODEL_RT;

#define T(fn, m)                                                               \
	cmocka_unit_test_prestate_setup_teardown(fn, capture_setup,            \
						 rcu_test_teardown, &(m))

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(srcu_waits_for_sleeping_reader, m_none),
		T(srcu_waits_for_sleeping_reader, m_full),
		T(srcu_waits_for_sleeping_reader, m_rt),
		T(call_srcu_from_thread, m_none),
		T(call_srcu_from_thread, m_rt),
		T(call_srcu_from_hardirq, m_full),
		T(srcu_without_machine, m_full),
		T(cleanup_with_reader_is_reported, m_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
