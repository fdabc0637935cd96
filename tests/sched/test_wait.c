// SPDX-License-Identifier: MIT
/*
 * Wait queues and completions between host threads and tasks: a host
 * thread sleeping in wait_for_completion()/wait_event() is a task on its
 * own CPU (sched.h), so a task on a vCPU wakes it and the other way round,
 * and nothing is lost.  Timing enters only as wide upper bounds.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <unistd.h>

#include <errno.h>
#include <signal.h>

#include <preempt/delay.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define ROUNDS 200

struct pingpong {
	struct completion ping, pong;
	int count;
};

static int task_pinger(void *arg)
{
	struct pingpong *pp = arg;

	for (int i = 0; i < ROUNDS; i++) {
		complete(&pp->ping);
		wait_for_completion(&pp->pong);
	}
	return 0;
}

/* The host thread (the test's own) answers a task, ROUNDS times. */
static void host_thread_and_task_complete_each_other(void **state)
{
	struct pingpong pp = {.count = 0};
	struct task_struct *k;

	(void)state;
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(task_pinger, &pp, "pinger");
	assert_non_null(k);
	for (int i = 0; i < ROUNDS; i++) {
		wait_for_completion(&pp.ping);
		pp.count++;
		complete(&pp.pong);
	}
	assert_int_equal(kthread_stop(k), 0);
	assert_int_equal(pp.count, ROUNDS);
	assert_int_equal(captured.nr, 0);
}

static DECLARE_WAIT_QUEUE_HEAD(wq);
static int flag;

static int set_flag_later(void *arg)
{
	(void)arg;
	msleep(5);
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	wake_up(&wq);
	return 0;
}

/* wait_event_timeout() on a host thread returns at the wake-up, early. */
static void host_wait_event_timeout_is_woken_early(void **state)
{
	struct task_struct *k;
	long left, t0;

	(void)state;
	flag = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	t0 = now_ms();
	k = kthread_run(set_flag_later, NULL, "setter");
	left = wait_event_timeout(wq, __atomic_load_n(&flag, __ATOMIC_ACQUIRE),
				  60 * pk_machine_hz());
	assert_true(left > 0);
	/* A minute's timeout, woken after 5 ms: far below the timeout. */
	assert_true(now_ms() - t0 < 30000);
	kthread_stop(k);
}

static int task_waits(void *arg)
{
	(void)arg;
	wait_event(wq, __atomic_load_n(&flag, __ATOMIC_ACQUIRE));
	return 7;
}

/* And the other way: a host thread's wake_up() reaches a task. */
static void host_thread_wakes_a_task(void **state)
{
	struct task_struct *k;

	(void)state;
	flag = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	k = kthread_run(task_waits, NULL, "waits");
	usleep(2000);
	__atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
	wake_up(&wq);
	assert_int_equal(kthread_stop(k), 7);
}

/* Without a machine, every thread is a task: two threads, ping-pong. */
static void *host_pinger(void *arg)
{
	task_pinger(arg);
	return NULL;
}

static void two_host_threads_without_a_machine(void **state)
{
	struct pingpong pp = {.count = 0};
	pthread_t t;

	(void)state;
	init_completion(&pp.ping);
	init_completion(&pp.pong);
	assert_int_equal(pthread_create(&t, NULL, host_pinger, &pp), 0);
	for (int i = 0; i < ROUNDS; i++) {
		wait_for_completion(&pp.ping);
		pp.count++;
		complete(&pp.pong);
	}
	pthread_join(t, NULL);
	assert_int_equal(pp.count, ROUNDS);
}

/* ---- exclusive waits, wake functions ---- */

static int calls[3], rets[3];
static void *keys[3];

static int counting_wake(struct wait_queue_entry *e, unsigned int mode,
			 int flags, void *key)
{
	int i = (int)(long)e->private;

	(void)mode;
	(void)flags;
	calls[i]++;
	keys[i] = key;
	return rets[i];
}

/*
 * wake_up() calls wake functions until one exclusive entry has woken: an
 * exclusive entry whose function returns 0 does not count.  No machine.
 */
static void wake_up_counts_exclusive_entries_that_woke(void **state)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	struct wait_queue_entry e[3];

	(void)state;
	memset(calls, 0, sizeof(calls));
	for (int i = 0; i < 3; i++) {
		init_waitqueue_func_entry(&e[i], counting_wake);
		e[i].private = (void *)(long)i;
		add_wait_queue_exclusive(&q, &e[i]);
	}
	rets[0] = 0; /* declines */
	rets[1] = 1;
	rets[2] = 1;
	wake_up_poll(&q, 0x41);
	assert_int_equal(calls[0], 1);
	assert_int_equal(calls[1], 1);
	assert_int_equal(calls[2], 0);
	assert_ptr_equal(keys[1], (void *)0x41);
	wake_up_nr(&q, 2);
	assert_int_equal(calls[2], 1);
	wake_up_all(&q);
	assert_int_equal(calls[0], 3);
	assert_int_equal(calls[2], 2);
	for (int i = 0; i < 3; i++)
		remove_wait_queue(&q, &e[i]);
	assert_false(waitqueue_active(&q));
}

/* Non-exclusive entries (queued later) are all called before exclusive. */
static void nonexclusive_entries_go_first(void **state)
{
	DECLARE_WAIT_QUEUE_HEAD(q);
	struct wait_queue_entry ex, a, b;

	(void)state;
	memset(calls, 0, sizeof(calls));
	rets[0] = rets[1] = rets[2] = 1;
	init_waitqueue_func_entry(&ex, counting_wake);
	ex.private = (void *)0L;
	init_waitqueue_func_entry(&a, counting_wake);
	a.private = (void *)1L;
	init_waitqueue_func_entry(&b, counting_wake);
	b.private = (void *)2L;
	add_wait_queue_exclusive(&q, &ex);
	add_wait_queue(&q, &a);
	add_wait_queue(&q, &b);
	assert_ptr_equal(
		list_first_entry(&q.head, struct wait_queue_entry, entry), &a);
	wake_up(&q);
	assert_int_equal(calls[0], 1);
	assert_int_equal(calls[1], 1);
	assert_int_equal(calls[2], 1);
}

static DECLARE_WAIT_QUEUE_HEAD(xq);
static int queued_waiters, woken_waiters;

static int exclusive_waiter(void *arg)
{
	DEFINE_WAIT(w);

	prepare_to_wait_exclusive(&xq, &w, TASK_UNINTERRUPTIBLE);
	__atomic_add_fetch(&queued_waiters, 1, __ATOMIC_SEQ_CST);
	schedule(); /* only a wake-up makes it return: no signal here */
	finish_wait(&xq, &w);
	__atomic_add_fetch(&woken_waiters, 1, __ATOMIC_SEQ_CST);
	(void)arg;
	return 0;
}

/* At least @n woke (waited for); then a wrong count would show in 100 ms. */
static int woken_after(int n)
{
	long t0 = now_ms();

	while (__atomic_load_n(&woken_waiters, __ATOMIC_SEQ_CST) < n &&
	       now_ms() - t0 < 20000)
		msleep(1);
	msleep(100);
	return __atomic_load_n(&woken_waiters, __ATOMIC_SEQ_CST);
}

/* Tasks: wake_up() wakes one exclusive sleeper, wake_up_nr() n, _all all. */
static void exclusive_sleepers_are_woken_by_count(void **state)
{
	struct task_struct *k[4];

	(void)state;
	queued_waiters = woken_waiters = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 4; i++)
		k[i] = kthread_run(exclusive_waiter, NULL, "excl%d", i);
	while (__atomic_load_n(&queued_waiters, __ATOMIC_SEQ_CST) < 4)
		msleep(1);
	wake_up(&xq);
	assert_int_equal(woken_after(1), 1);
	wake_up_nr(&xq, 2);
	assert_int_equal(woken_after(3), 3);
	wake_up_all(&xq);
	for (int i = 0; i < 4; i++)
		kthread_stop(k[i]);
	assert_int_equal(woken_waiters, 4);
}

/* ---- signals ---- */

static int sig_result;
static DECLARE_WAIT_QUEUE_HEAD(sq);

static int interruptible_sleeper(void *arg)
{
	(void)arg;
	sig_result = wait_event_interruptible(sq, 0);
	return signal_pending(current) ? 1 : 0;
}

static int killable_sleeper(void *arg)
{
	(void)arg;
	sig_result = wait_event_killable(sq, 0);
	return fatal_signal_pending(current) ? 1 : 0;
}

/* The signal itself must end the wait: kthread_stop() would wake it too. */
static void wait_for_result(void)
{
	long t0 = now_ms();

	while (!__atomic_load_n(&sig_result, __ATOMIC_SEQ_CST) &&
	       now_ms() - t0 < 20000)
		msleep(1);
	assert_int_equal(sig_result, -ERESTARTSYS);
}

static void wait_for_sleep(struct task_struct *k, unsigned int state)
{
	while (__atomic_load_n(&k->__state, __ATOMIC_SEQ_CST) != state)
		msleep(1);
}

/* A signal ends an interruptible wait with -ERESTARTSYS. */
static void signal_ends_interruptible_wait(void **state)
{
	struct task_struct *k;

	(void)state;
	sig_result = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(interruptible_sleeper, NULL, "intr");
	get_task_struct(k);
	wait_for_sleep(k, TASK_INTERRUPTIBLE);
	assert_int_equal(send_sig(SIGUSR1, k, 0), 0);
	wait_for_result();
	assert_int_equal(kthread_stop(k), 1);
	assert_int_equal(sig_result, -ERESTARTSYS);
	assert_true(k->flags & PF_KTHREAD);
	assert_string_equal(k->comm, "intr");
	assert_true(k->pid > 0);
	assert_int_equal(k->prio, DEFAULT_PRIO);
	put_task_struct(k);
}

/* A killable wait ignores other signals; SIGKILL ends it. */
static void only_sigkill_ends_killable_wait(void **state)
{
	struct task_struct *k;

	(void)state;
	sig_result = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(killable_sleeper, NULL, "kill");
	wait_for_sleep(k, TASK_KILLABLE);
	send_sig(SIGUSR1, k, 0);
	/* Woken for another reason, it looks and sleeps on. */
	wake_up(&sq);
	msleep(50);
	for (long t0 = now_ms(); now_ms() - t0 < 20000; msleep(1))
		if (__atomic_load_n(&k->__state, __ATOMIC_SEQ_CST) ==
			    TASK_KILLABLE ||
		    __atomic_load_n(&sig_result, __ATOMIC_SEQ_CST))
			break;
	assert_int_equal(__atomic_load_n(&k->__state, __ATOMIC_SEQ_CST),
			 TASK_KILLABLE);
	assert_int_equal(sig_result, 0);
	send_sig(SIGKILL, k, 0);
	wait_for_result();
	assert_int_equal(kthread_stop(k), 1);
	assert_int_equal(sig_result, -ERESTARTSYS);
}

/* On a host thread: a signal already pending ends the wait at once. */
static void pending_signal_on_a_host_thread(void **state)
{
	long left;

	(void)state;
	assert_int_equal(send_sig(SIGUSR2, current, 0), 0);
	assert_true(signal_pending(current));
	assert_false(fatal_signal_pending(current));
	assert_int_equal(wait_event_interruptible(sq, 0), -ERESTARTSYS);
	left = wait_event_interruptible_timeout(sq, 0, 1000);
	assert_int_equal(left, -ERESTARTSYS);
	/* Uninterruptible waits do not see it: this one times out. */
	assert_int_equal(wait_event_timeout(sq, 0, 2), 0);
	flush_signals(current);
	assert_false(signal_pending(current));
	assert_int_equal(send_sig(0, current, 0), -EINVAL);
}

/* _interruptible_timeout: 0 at the timeout, ticks left when woken. */
static int flag2;

static int set_flag2(void *arg)
{
	(void)arg;
	msleep(5);
	__atomic_store_n(&flag2, 1, __ATOMIC_SEQ_CST);
	wake_up(&sq);
	return 0;
}

static void interruptible_timeout_results(void **state)
{
	struct task_struct *k;
	long left;

	(void)state;
	flag2 = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	assert_int_equal(wait_event_interruptible_timeout(sq, 0, 3), 0);
	k = kthread_run(set_flag2, NULL, "flag2");
	left = wait_event_interruptible_timeout(
		sq, __atomic_load_n(&flag2, __ATOMIC_SEQ_CST), 60000);
	assert_true(left > 0 && left <= 60000);
	kthread_stop(k);
}

/* wait_event_lock_irq(): the lock is dropped while asleep, held after. */
static DEFINE_SPINLOCK(cond_lock);
static int cond_val, lock_held_after;

static int lock_irq_waiter(void *arg)
{
	(void)arg;
	spin_lock_irq(&cond_lock);
	wait_event_lock_irq(sq, cond_val, cond_lock);
	lock_held_after = irqs_disabled();
	spin_unlock_irq(&cond_lock);
	return 0;
}

static void wait_event_lock_irq_drops_the_lock(void **state)
{
	struct task_struct *k;

	(void)state;
	cond_val = 0;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(lock_irq_waiter, NULL, "lockirq");
	wait_for_sleep(k, TASK_UNINTERRUPTIBLE);
	spin_lock_irq(&cond_lock); /* free: the waiter dropped it */
	cond_val = 1;
	spin_unlock_irq(&cond_lock);
	wake_up(&sq);
	kthread_stop(k);
	assert_true(lock_held_after);
	assert_int_equal(captured.nr, 0);
}

/* ---- completions ---- */

static DECLARE_COMPLETION(done_c);
static int completion_waiters_back, queued_after_complete;

static int completion_waiter(void *arg)
{
	(void)arg;
	wait_for_completion(&done_c);
	__atomic_add_fetch(&completion_waiters_back, 1, __ATOMIC_SEQ_CST);
	return 0;
}

static int queued_on(wait_queue_head_t *wq)
{
	struct wait_queue_entry *w, *next;
	int n = 0;

	list_for_each_entry_safe(w, next, &wq->head, entry) n++;
	return n;
}

/* On the waiters' only vCPU, so none of them runs before the count. */
static int completer(void *arg)
{
	(void)arg;
	preempt_disable();
	complete(&done_c);
	queued_after_complete = queued_on(&done_c.wait);
	preempt_enable();
	return 0;
}

static void wait_until_back(int n)
{
	for (long t0 = now_ms(); now_ms() - t0 < 20000; msleep(1))
		if (__atomic_load_n(&completion_waiters_back,
				    __ATOMIC_SEQ_CST) >= n)
			break;
	assert_int_equal(
		__atomic_load_n(&completion_waiters_back, __ATOMIC_SEQ_CST), n);
}

/*
 * complete() wakes one waiter, not all of them (they would go back to
 * sleep, but a herd of wake-ups is what the kernel's exclusive queueing
 * avoids): right after it, the others are still queued.
 */
static void complete_wakes_one_waiter(void **state)
{
	struct task_struct *k[3];

	(void)state;
	init_completion(&done_c);
	completion_waiters_back = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	for (int i = 0; i < 3; i++) {
		k[i] = kthread_run(completion_waiter, NULL, "cw%d", i);
		wait_for_sleep(k[i], TASK_UNINTERRUPTIBLE);
	}
	kthread_stop(kthread_run(completer, NULL, "completer"));
	assert_int_equal(queued_after_complete, 2);
	wait_until_back(1);
	complete_all(&done_c);
	wait_until_back(3);
	for (int i = 0; i < 3; i++)
		kthread_stop(k[i]);
	/* Done for good: later waits pass too. */
	wait_for_completion(&done_c);
	assert_true(completion_done(&done_c));
}

/* Each complete() lets exactly one wait pass, whenever it comes. */
static void each_complete_passes_one_wait(void **state)
{
	(void)state;
	init_completion(&done_c);
	complete(&done_c);
	complete(&done_c);
	assert_true(try_wait_for_completion(&done_c));
	assert_int_equal(wait_for_completion_timeout(&done_c, 1000) > 0, 1);
	assert_false(try_wait_for_completion(&done_c));
	assert_int_equal(wait_for_completion_timeout(&done_c, 2), 0);
	reinit_completion(&done_c);
	assert_false(completion_done(&done_c));
}

static int completion_result = 1;

static int interruptible_completion_waiter(void *arg)
{
	(void)arg;
	__atomic_store_n(&completion_result,
			 wait_for_completion_interruptible(&done_c),
			 __ATOMIC_SEQ_CST);
	return 0;
}

/* A signal ends an interruptible completion wait, taking nothing. */
static void signal_ends_interruptible_completion_wait(void **state)
{
	struct task_struct *k;

	(void)state;
	init_completion(&done_c);
	completion_result = 1;
	pk_boot_online(2, PREEMPT_MODEL_FULL);
	k = kthread_run(interruptible_completion_waiter, NULL, "ciw");
	get_task_struct(k);
	wait_for_sleep(k, TASK_INTERRUPTIBLE);
	assert_int_equal(send_sig(SIGUSR1, k, 0), 0);
	for (long t0 = now_ms(); now_ms() - t0 < 20000; msleep(1))
		if (__atomic_load_n(&completion_result, __ATOMIC_SEQ_CST) != 1)
			break;
	assert_int_equal(completion_result, -ERESTARTSYS);
	kthread_stop(k);
	put_task_struct(k);
	/* On a host thread, a pending signal ends it at once. */
	assert_int_equal(send_sig(SIGUSR2, current, 0), 0);
	assert_int_equal(wait_for_completion_interruptible(&done_c),
			 -ERESTARTSYS);
	assert_int_equal(
		wait_for_completion_interruptible_timeout(&done_c, 1000),
		-ERESTARTSYS);
	/* Killable waits see only SIGKILL: this one times out. */
	assert_int_equal(wait_for_completion_killable_timeout(&done_c, 2), 0);
	complete(&done_c);
	assert_int_equal(wait_for_completion_killable(&done_c), 0);
	flush_signals(current);
}

#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(host_thread_and_task_complete_each_other),
		T(host_wait_event_timeout_is_woken_early),
		T(host_thread_wakes_a_task),
		T(two_host_threads_without_a_machine),
		T(wake_up_counts_exclusive_entries_that_woke),
		T(nonexclusive_entries_go_first),
		T(exclusive_sleepers_are_woken_by_count),
		T(signal_ends_interruptible_wait),
		T(only_sigkill_ends_killable_wait),
		T(pending_signal_on_a_host_thread),
		T(interruptible_timeout_results),
		T(wait_event_lock_irq_drops_the_lock),
		T(complete_wakes_one_waiter),
		T(each_complete_passes_one_wait),
		T(signal_ends_interruptible_completion_wait),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
