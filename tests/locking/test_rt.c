// SPDX-License-Identifier: MIT
/*
 * PREEMPT_RT's bottom halves and its spinlock_t as every context sees them,
 * on a machine booted rt:
 *  - softirq handlers (timer callbacks, tasklets) run in tasks, take
 *    sleeping spinlocks without a report, and block on them when contended;
 *  - two tasks' bh sections on one CPU exclude each other (the per-CPU bh
 *    lock), while both stay preemptible;
 *  - a long softirq no longer holds off a real-time task, which it does
 *    under the full model;
 *  - rwlock_t readers share, and a writer waits for them while new
 *    readers queue behind it;
 *  - threads outside the machine and interrupt handlers contend for the
 *    same rt_mutex the tasks sleep on, so a spinlock_t excludes them all.
 *
 * Tasks record what they saw; only the test thread asserts.  Orderings are
 * forced on one vCPU with yield() and wake-ups, not with timing; the one
 * latency comparison has hundreds of milliseconds between its outcomes.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/local_lock.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/timer.h>
#include <preempt/wait.h>

#include "pk_machine.h"

static DEFINE_SPINLOCK(lock);

static int load(const int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void store(int *p, int v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

static bool wait_until_set(const int *flag, long timeout_ms)
{
	long end = now_ms() + timeout_ms;

	while (!load(flag))
		if (now_ms() > end)
			return false;
	return true;
}

/* What a softirq handler saw of its context. */
struct seen {
	int ran, serving, preemptible, count, holder_inside;
};

static struct seen seen;
static int holder_inside;

static void record_softirq_context(void)
{
	seen.serving = !!in_serving_softirq();
	seen.preemptible = preemptible();
	seen.count = preempt_count();
}

/* ---- 1. a softirq handler takes a sleeping spinlock ---- */

static void timer_fn(struct timer_list *t)
{
	(void)t;
	spin_lock(&lock);
	record_softirq_context();
	spin_unlock(&lock);
	store(&seen.ran, 1);
}

static int arm_timer(void *arg)
{
	mod_timer(arg, jiffies + 1);
	return 0;
}

static void timer_callbacks_take_sleeping_spinlocks(void **state)
{
	static struct timer_list t;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	pk_boot_online(1, PREEMPT_MODEL_RT);
	timer_setup(&t, timer_fn, 0);
	assert_int_equal(kthread_stop(kthread_run(arm_timer, &t, "arm")), 0);
	assert_true(wait_until_set(&seen.ran, 5000));
	assert_true(seen.serving);
	assert_true(seen.preemptible); /* rt: softirqs run preemptibly */
	assert_int_equal(seen.count, 0);
	assert_int_equal(captured.nr, 0);
}

/* ---- 1b. ... and spin_trylock() there takes a free one ---- */

static int trylock_got;

static void trylock_timer_fn(struct timer_list *t)
{
	(void)t;
	if (spin_trylock(&lock)) {
		store(&trylock_got, 1);
		spin_unlock(&lock);
	}
	store(&seen.ran, 1);
}

static void timer_callbacks_trylock_free_spinlocks(void **state)
{
	static struct timer_list t;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	trylock_got = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	timer_setup(&t, trylock_timer_fn, 0);
	assert_int_equal(kthread_stop(kthread_run(arm_timer, &t, "arm")), 0);
	assert_true(wait_until_set(&seen.ran, 5000));
	/* A softirq in a task is a task for the lock: no report. */
	assert_true(load(&trylock_got));
	assert_false(spin_is_locked(&lock));
	assert_int_equal(captured.nr, 0);
}

/* ---- 2. ... and blocks on it, contended, as a task would ---- */

static int tasklet_entered, tasklet_was_blocked;

static void tasklet_fn(struct tasklet_struct *t)
{
	(void)t;
	store(&tasklet_entered, 1);
	spin_lock(&lock); /* held by the task it preempted: sleeps */
	seen.holder_inside = load(&holder_inside);
	record_softirq_context();
	spin_unlock(&lock);
	store(&seen.ran, 1);
}

static struct tasklet_struct tasklet;

static int hold_and_yield(void *arg)
{
	(void)arg;
	spin_lock(&lock);
	store(&holder_inside, 1);
	tasklet_schedule(&tasklet); /* wakes ksoftirqd on this CPU */
	yield();		    /* ksoftirqd runs, blocks on the lock */
	/* It did contend: in the handler, not yet past the lock. */
	tasklet_was_blocked = load(&tasklet_entered) && !load(&seen.ran);
	store(&holder_inside, 0);
	spin_unlock(&lock); /* hands it over */
	return 0;
}

static void tasklets_block_on_a_contended_spinlock(void **state)
{
	(void)state;
	memset(&seen, 0, sizeof(seen));
	tasklet_entered = tasklet_was_blocked = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	tasklet_setup(&tasklet, tasklet_fn);
	assert_int_equal(
		kthread_stop(kthread_run(hold_and_yield, NULL, "hold")), 0);
	assert_true(wait_until_set(&seen.ran, 5000));
	assert_true(tasklet_was_blocked);
	assert_false(seen.holder_inside); /* it waited for the unlock */
	assert_true(seen.serving);
	assert_int_equal(seen.count, 0);
	/* No "scheduling while atomic", no sleeping-in-atomic report. */
	assert_int_equal(captured.nr, 0);
	tasklet_kill(&tasklet);
}

/* ---- 3. two tasks' bh sections on one CPU exclude each other ---- */

static struct task_struct *second;
static int a_inside, b_trying, b_in, a_saw_b_blocked, b_saw_a_inside;
static int a_preemptible;

static int bh_second(void *arg)
{
	(void)arg;
	store(&b_trying, 1);
	local_bh_disable(); /* the CPU's bh lock is A's: sleeps */
	store(&b_in, 1);
	b_saw_a_inside = load(&a_inside);
	local_bh_enable();
	return 0;
}

static int bh_first(void *arg)
{
	(void)arg;
	local_bh_disable();
	store(&a_inside, 1);
	a_preemptible = preemptible() && in_softirq();
	wake_up_process(second);
	yield(); /* legal in an rt bh section: it is preemptible */
	a_saw_b_blocked = load(&b_trying) && !load(&b_in);
	store(&a_inside, 0);
	local_bh_enable();
	return 0;
}

static void bh_sections_of_one_cpu_exclude_each_other(void **state)
{
	struct task_struct *first;

	(void)state;
	a_inside = b_trying = b_in = a_saw_b_blocked = b_saw_a_inside = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	second = kthread_create(bh_second, NULL, "bh-b");
	first = kthread_run(bh_first, NULL, "bh-a");
	assert_int_equal(kthread_stop(first), 0);
	assert_int_equal(kthread_stop(second), 0);
	assert_true(a_preemptible);
	assert_true(a_saw_b_blocked);
	assert_true(load(&b_in));
	assert_false(b_saw_a_inside);
	assert_int_equal(captured.nr, 0);
}

/* ---- 4. a long softirq and a real-time task ---- */

/*
 * A softirq wakes a FIFO task on its own (only) vCPU and goes on running.
 * Non-rt softirqs are atomic: the task cannot run before the softirq
 * ends, however long it runs.  Under rt the softirq runs preemptibly in a
 * task, so the FIFO task preempts it at once and the softirq sees it done
 * while still running.  Events, not durations: the softirq runs for
 * HOLD_MS (non-rt) or until it sees the task done (rt, with a hang cap),
 * and no assertion reads a clock.
 */
#define HOLD_MS 300
#define HANG_MS 20000

static DECLARE_COMPLETION(high_go);
static int high_done, softirq_saw_high, softirq_is_rt;

static void long_tasklet_fn(struct tasklet_struct *t)
{
	long end = now_ms() + (load(&softirq_is_rt) ? HANG_MS : HOLD_MS);

	(void)t;
	complete(&high_go); /* the FIFO task is runnable from here on */
	/* Mostly in this program's code, where an interrupt may preempt
	 * (clock_gettime() runs in the vDSO, where it may not). */
	while (now_ms() < end && !load(&high_done))
		for (volatile int i = 0; i < 100000; i++)
			;
	store(&softirq_saw_high, load(&high_done));
}

static int high_waiter(void *arg)
{
	(void)arg;
	wait_for_completion(&high_go);
	store(&high_done, 1);
	return 0;
}

static int schedule_long_tasklet(void *arg)
{
	tasklet_schedule(arg);
	return 0;
}

/* Did the FIFO task run while the softirq that woke it was running? */
static bool high_ran_inside_the_softirq(enum preempt_model model)
{
	struct task_struct *high;

	high_done = 0;
	softirq_saw_high = 0;
	softirq_is_rt = model == PREEMPT_MODEL_RT;
	reinit_completion(&high_go);
	pk_boot_online(1, model);
	tasklet_setup(&tasklet, long_tasklet_fn);
	high = kthread_create(high_waiter, NULL, "high");
	sched_set_fifo(high);
	wake_up_process(high);
	kthread_stop(kthread_run(schedule_long_tasklet, &tasklet, "kick"));
	kthread_stop(high);
	tasklet_kill(&tasklet);
	machine_shutdown();
	assert_true(load(&high_done));
	return load(&softirq_saw_high);
}

static void rt_softirqs_do_not_hold_off_rt_tasks(void **state)
{
	(void)state;
	/* Non-rt softirqs are atomic: the task waits for the handler. */
	assert_false(high_ran_inside_the_softirq(PREEMPT_MODEL_FULL));
	/* rt: the task preempts the softirq at once. */
	assert_true(high_ran_inside_the_softirq(PREEMPT_MODEL_RT));
}

/* ---- 5. rwlock_t under rt: readers share, a writer waits for them ---- */

static DEFINE_RWLOCK(rwl);
static struct task_struct *writer_task, *late_reader_task;
static int r_inside, second_reader_shared, writer_saw_reader;
static char order[8];
static int norder;

static void mark(char c)
{
	order[__atomic_fetch_add(&norder, 1, __ATOMIC_SEQ_CST)] = c;
}

static int second_reader(void *arg)
{
	(void)arg;
	read_lock(&rwl); /* readers share: no waiting */
	second_reader_shared = load(&r_inside);
	read_unlock(&rwl);
	return 0;
}

static int first_reader(void *arg)
{
	(void)arg;
	read_lock(&rwl);
	store(&r_inside, 1);
	wake_up_process(arg); /* the second reader */
	yield();
	store(&r_inside, 0);
	read_unlock(&rwl);
	return 0;
}

static void rt_rwlock_readers_share(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	second_reader_shared = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	b = kthread_create(second_reader, NULL, "reader-b");
	a = kthread_run(first_reader, b, "reader-a");
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	assert_true(second_reader_shared);
	assert_int_equal(captured.nr, 0);
}

static int writer(void *arg)
{
	(void)arg;
	write_lock(&rwl); /* sleeps until the reader leaves */
	writer_saw_reader = load(&r_inside);
	mark('W');
	write_unlock(&rwl);
	return 0;
}

static int late_reader(void *arg)
{
	(void)arg;
	read_lock(&rwl); /* a writer waits: queue behind it */
	mark('r');
	read_unlock(&rwl);
	return 0;
}

static int reader_then_writer(void *arg)
{
	(void)arg;
	read_lock(&rwl);
	store(&r_inside, 1);
	wake_up_process(writer_task); /* FIFO: runs now, then waits */
	wake_up_process(late_reader_task);
	yield(); /* the late reader blocks behind the writer */
	store(&r_inside, 0);
	mark('R');
	read_unlock(&rwl); /* the last reader wakes the writer */
	return 0;
}

static void rt_rwlock_writer_waits_for_readers(void **state)
{
	struct task_struct *r;

	(void)state;
	norder = writer_saw_reader = 0;
	memset(order, 0, sizeof(order));
	pk_boot_online(1, PREEMPT_MODEL_RT);
	writer_task = kthread_create(writer, NULL, "writer");
	sched_set_fifo(writer_task);
	late_reader_task = kthread_create(late_reader, NULL, "late-reader");
	r = kthread_run(reader_then_writer, NULL, "reader");
	assert_int_equal(kthread_stop(r), 0);
	assert_int_equal(kthread_stop(writer_task), 0);
	assert_int_equal(kthread_stop(late_reader_task), 0);
	assert_string_equal(order, "RWr");
	assert_false(writer_saw_reader);
	assert_int_equal(captured.nr, 0);
}

/* ---- 5b. an unlock by a task that does not hold the lock ---- */

static int wrong_unlocker(void *arg)
{
	(void)arg;
	spin_unlock(&lock); /* the test thread holds it: reported */
	return 0;
}

static void rt_spin_unlock_by_a_non_owner_leaves_the_hold(void **state)
{
	(void)state;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	spin_lock(&lock);
	assert_int_equal(
		kthread_stop(kthread_run(wrong_unlocker, NULL, "wrong")), 0);
	assert_true(captured.nr >= 1);
	/* Still ours, and our unlock frees it for the next holder. */
	assert_true(spin_is_locked(&lock));
	spin_unlock(&lock);
	assert_false(spin_is_locked(&lock));
	assert_true(spin_trylock(&lock));
	spin_unlock(&lock);
}

/* ---- 6. contexts that cannot sleep contend for the same lock ---- */

#define ROUNDS 100000

static long shared_value;

static void add_one_locked(void)
{
	spin_lock(&lock);
	long v = shared_value;

	for (volatile int i = 0; i < 20; i++)
		;
	shared_value = v + 1;
	spin_unlock(&lock);
}

static int go;

static int counting_task(void *arg)
{
	(void)arg;
	while (!load(&go)) /* all start together, to contend */
		;
	for (int i = 0; i < ROUNDS; i++)
		add_one_locked();
	return 0;
}

static void host_threads_and_tasks_share_rt_spinlocks(void **state)
{
	struct task_struct *t[3];

	(void)state;
	shared_value = go = 0;
	pk_boot_online(2, PREEMPT_MODEL_RT);
	for (int i = 0; i < 3; i++)
		t[i] = kthread_run(counting_task, NULL, "count/%d", i);
	usleep(10000);
	store(&go, 1);
	counting_task(NULL); /* a thread outside the machine: it spins */
	for (int i = 0; i < 3; i++)
		assert_int_equal(kthread_stop(t[i]), 0);
	assert_int_equal(shared_value, 4 * ROUNDS);
	assert_false(spin_is_locked(&lock));
	assert_int_equal(captured.nr, 0);
}

#define LINE 9

static int handler_got_lock, handler_done, handler_entered;
static int holder_saw_handler;

static irqreturn_t hard_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	store(&handler_entered, 1);
	spin_lock(&lock); /* spinlock_t in hardirq under rt: reported */
	handler_got_lock = !load(&holder_inside);
	spin_unlock(&lock);
	store(&handler_done, 1);
	return IRQ_HANDLED;
}

static void *hold_from_host(void *arg)
{
	(void)arg;
	spin_lock(&lock);
	store(&holder_inside, 1);
	/* Not released before the handler is at the lock: it must spin. */
	holder_saw_handler = wait_until_set(&handler_entered, 5000);
	usleep(2000); /* the handler spins meanwhile, on its vCPU */
	store(&holder_inside, 0);
	spin_unlock(&lock);
	return NULL;
}

static void hardirq_spins_for_rt_spinlocks_and_is_reported(void **state)
{
	pthread_t holder;

	(void)state;
	handler_got_lock = handler_done = holder_inside = 0;
	handler_entered = holder_saw_handler = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	assert_int_equal(
		request_irq(LINE, hard_handler, IRQF_NO_THREAD, "hard", NULL),
		0);
	assert_int_equal(pthread_create(&holder, NULL, hold_from_host, NULL),
			 0);
	assert_true(wait_until_set(&holder_inside, 5000));
	assert_int_equal(irq_raise(LINE, pk_vcpu_irq_cpu(0)), 0);
	pthread_join(holder, NULL);
	assert_true(wait_until_set(&handler_done, 5000));
	free_irq(LINE, NULL);
	assert_true(holder_saw_handler); /* it did contend */
	assert_true(handler_got_lock);	 /* only after the host thread let go */
	if (CONFIG_DEBUG_ATOMIC_SLEEP) {
		assert_true(captured.nr >= 1);
		assert_report_contains(
			"BUG: sleeping function called from invalid context");
	}
}

/* ---- 7. a forced-threaded handler serves the softirqs it raises ---- */

#define LINE2 11

static char softirq_comm[TASK_COMM_LEN];
static int softirq_done;

static void block_action(void)
{
	snprintf(softirq_comm, sizeof(softirq_comm), "%s", current->comm);
	store(&softirq_done, 1);
}

static irqreturn_t raising_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	raise_softirq(BLOCK_SOFTIRQ);
	return IRQ_HANDLED;
}

static void forced_threads_serve_their_softirqs(void **state)
{
	(void)state;
	softirq_done = 0;
	memset(softirq_comm, 0, sizeof(softirq_comm));
	open_softirq(BLOCK_SOFTIRQ, block_action);
	pk_boot_online(1, PREEMPT_MODEL_RT);
	assert_int_equal(request_irq(LINE2, raising_handler, 0, "raiser", NULL),
			 0);
	assert_int_equal(irq_raise(LINE2, pk_vcpu_irq_cpu(0)), 0);
	assert_true(wait_until_set(&softirq_done, 5000));
	free_irq(LINE2, NULL);
	/* As irq_forced_thread_fn(): at its local_bh_enable(), not in
	 * ksoftirqd. */
	assert_string_equal(softirq_comm, "irq/11-raiser");
}

/* ---- 7b. softirqs run pinned, even after an atomic bh disable ---- */

static int poll_ran, poll_pinned;

static void poll_action(void)
{
	poll_pinned = is_migration_disabled();
	store(&poll_ran, 1);
}

static int atomic_bh_section(void *arg)
{
	(void)arg;
	preempt_disable();
	local_bh_disable(); /* not preemptible: the bh lock is not taken */
	raise_softirq(IRQ_POLL_SOFTIRQ);
	preempt_enable();
	local_bh_enable(); /* preemptible, but not holding the bh */
	return 0;
}

static void softirqs_run_pinned_after_an_atomic_bh_disable(void **state)
{
	(void)state;
	poll_ran = poll_pinned = 0;
	open_softirq(IRQ_POLL_SOFTIRQ, poll_action);
	pk_boot_online(1, PREEMPT_MODEL_RT);
	assert_int_equal(
		kthread_stop(kthread_run(atomic_bh_section, NULL, "atomic-bh")),
		0);
	assert_true(wait_until_set(&poll_ran, 5000));
	/* Served where the CPU's bh lock keeps the server on its CPU. */
	assert_true(poll_pinned);
	assert_int_equal(captured.nr, 0);
}

/* ---- 8. the tick's timer softirq runs in ktimers, at FIFO ---- */

static char timer_comm[TASK_COMM_LEN];
static int timer_policy, timer_ran;

static void where_timer_fn(struct timer_list *t)
{
	(void)t;
	snprintf(timer_comm, sizeof(timer_comm), "%s", current->comm);
	timer_policy = current->policy;
	store(&timer_ran, 1);
}

static void timers_expire_in_ktimers(void **state)
{
	static struct timer_list t;

	(void)state;
	timer_ran = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	timer_setup(&t, where_timer_fn, 0);
	assert_int_equal(kthread_stop(kthread_run(arm_timer, &t, "arm")), 0);
	assert_true(wait_until_set(&timer_ran, 5000));
	assert_string_equal(timer_comm, "ktimers/0");
	assert_int_equal(timer_policy, SCHED_FIFO);
	machine_shutdown();
	/* Without rt there is no ktimers: the same timer runs elsewhere. */
	timer_ran = 0;
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	assert_int_equal(kthread_stop(kthread_run(arm_timer, &t, "arm")), 0);
	assert_true(wait_until_set(&timer_ran, 5000));
	assert_string_not_equal(timer_comm, "ktimers/0");
}

/* ---- 9. a task that exits with bh disabled ---- */

static int bh_after_ok;

static int exit_bh_disabled(void *arg)
{
	(void)arg;
	local_bh_disable();
	return 0; /* sloppy: the CPU's bh lock is still ours */
}

static int bh_after(void *arg)
{
	(void)arg;
	local_bh_disable(); /* would wait for the dead task for good */
	local_bh_enable();
	store(&bh_after_ok, 1);
	return 0;
}

static void exit_with_bh_disabled_is_reported_and_repaired(void **state)
{
	(void)state;
	bh_after_ok = 0;
	pk_boot_online(1, PREEMPT_MODEL_RT);
	assert_int_equal(
		kthread_stop(kthread_run(exit_bh_disabled, NULL, "sloppy")), 0);
	kthread_run(bh_after, NULL, "after");
	assert_true(wait_until_set(&bh_after_ok, 5000));
	assert_int_equal(captured.nr, 1);
	assert_report_contains("exited with softirq_disable_cnt 0x200");
}

/* ---- 10. local_lock_t in hardirq under rt ---- */

#define LINE3 13

static DEFINE_PER_CPU(local_lock_t, pcpu_lock);
static int local_handler_done;

static irqreturn_t local_lock_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	local_lock(&pcpu_lock); /* a sleeping lock under rt: reported */
	local_unlock(&pcpu_lock);
	store(&local_handler_done, 1);
	return IRQ_HANDLED;
}

static void local_lock_in_hardirq_is_reported(void **state)
{
	(void)state;
	local_handler_done = 0;
	local_lock_init(&pcpu_lock);
	pk_boot_online(1, PREEMPT_MODEL_RT);
	assert_int_equal(request_irq(LINE3, local_lock_handler, IRQF_NO_THREAD,
				     "local", NULL),
			 0);
	assert_int_equal(irq_raise(LINE3, pk_vcpu_irq_cpu(0)), 0);
	assert_true(wait_until_set(&local_handler_done, 5000));
	free_irq(LINE3, NULL);
	if (!CONFIG_DEBUG_ATOMIC_SLEEP)
		return;
	assert_int_equal(captured.nr, 1);
	assert_report_contains(
		"BUG: sleeping function called from invalid context");
}

int main(void)
{
#define T(fn)                                                                  \
	cmocka_unit_test_setup_teardown(fn, capture_setup, machine_teardown)
	const struct CMUnitTest tests[] = {
		T(timer_callbacks_take_sleeping_spinlocks),
		T(timer_callbacks_trylock_free_spinlocks),
		T(tasklets_block_on_a_contended_spinlock),
		T(bh_sections_of_one_cpu_exclude_each_other),
		T(rt_softirqs_do_not_hold_off_rt_tasks),
		T(rt_rwlock_readers_share),
		T(rt_rwlock_writer_waits_for_readers),
		T(rt_spin_unlock_by_a_non_owner_leaves_the_hold),
		T(host_threads_and_tasks_share_rt_spinlocks),
		T(hardirq_spins_for_rt_spinlocks_and_is_reported),
		T(forced_threads_serve_their_softirqs),
		T(softirqs_run_pinned_after_an_atomic_bh_disable),
		T(timers_expire_in_ktimers),
		T(exit_with_bh_disabled_is_reported_and_repaired),
		T(local_lock_in_hardirq_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
