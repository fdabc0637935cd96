// SPDX-License-Identifier: MIT
/*
 * The remote wake list (the kernel's ttwu_queue): a wake-up for another
 * vCPU is pushed on that vCPU's lock-free list and queued there by its
 * IPI or its idle loop.  No wake-up is lost under a flood from a vCPU and
 * a host thread at once, a batch queues in wake order, with the list off
 * nothing goes through it, and by default only idle vCPUs get it.  Every wait
 * is for an event; the only deadline is a minute wide.
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <unistd.h>

#include <preempt/irqflags.h>
#include <preempt/kthread.h>
#include <preempt/wait.h>

#include "pk_machine.h"

/* Host side: wait (up to a minute) for @cond. */
#define WAIT_FOR(cond)                                                         \
	do {                                                                   \
		long until_ = now_ms() + 60000;                                \
		while (!(cond) && now_ms() < until_)                           \
			usleep(1000);                                          \
		assert_true(cond);                                             \
	} while (0)

static void boot_wake_list(int wake_list)
{
	struct machine_config cfg = {.nr_cpus = 2,
				     .hz = 1000,
				     .model = PREEMPT_MODEL_FULL,
				     .wake_list = wake_list};

	assert_int_equal(machine_boot(&cfg), 0);
	assert_int_equal(num_online_cpus(), 2);
}

static int done;
/* The busy vCPU's spinner runs until the sleepers are stopped. */
static int spin_stop;

/* Keeps vCPU 1 busy, so a wake-up there needs the IPI, not the idle loop;
 * as SCHED_FIFO (lowest) no tick takes the CPU from it either, so no
 * schedule() there queues the wake-ups before the IPI does. */
static int spinning;

static int spinner(void *arg)
{
	(void)arg;
	__atomic_store_n(&spinning, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&spin_stop, __ATOMIC_ACQUIRE))
		;
	return 0;
}

enum { NORMAL, FIFO, FIFO_LOW };

static struct task_struct *start_on(int (*fn)(void *), void *arg, int cpu,
				    int policy)
{
	struct task_struct *k = kthread_create(fn, arg, "wl");

	kthread_bind(k, cpu);
	if (policy == FIFO)
		sched_set_fifo(k);
	else if (policy == FIFO_LOW)
		sched_set_fifo_low(k);
	wake_up_process(k);
	return k;
}

/* ---- no lost wake-ups under a flood ---- */

#define SLEEPERS 16
#define TOKENS 3000

/* Each token handed to a sleeper is one wake-up it must see. */
static struct task_struct *sleeper[SLEEPERS];
static int given[SLEEPERS], taken[SLEEPERS];

static int token_sleeper(void *arg)
{
	int i = (int)(long)arg;

	while (__atomic_load_n(&taken[i], __ATOMIC_ACQUIRE) < TOKENS &&
	       !kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (__atomic_load_n(&given[i], __ATOMIC_ACQUIRE) ==
		    __atomic_load_n(&taken[i], __ATOMIC_RELAXED)) {
			schedule();
			continue;
		}
		__set_current_state(TASK_RUNNING);
		__atomic_add_fetch(&taken[i], 1, __ATOMIC_RELEASE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* Hands sleeper @i its next token, if it took the last one. */
static void give(int i)
{
	int t = __atomic_load_n(&taken[i], __ATOMIC_ACQUIRE);

	if (t < TOKENS && __atomic_load_n(&given[i], __ATOMIC_RELAXED) == t &&
	    __atomic_compare_exchange_n(&given[i], &t, t + 1, false,
					__ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
		wake_up_process(sleeper[i]);
}

static int flooder(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		for (int i = 0; i < SLEEPERS; i++)
			give(i);
	return 0;
}

static int all_taken(void)
{
	int n = 0;

	for (int i = 0; i < SLEEPERS; i++)
		n += __atomic_load_n(&taken[i], __ATOMIC_ACQUIRE);
	return n;
}

static int all_given(void)
{
	int n = 0;

	for (int i = 0; i < SLEEPERS; i++)
		n += __atomic_load_n(&given[i], __ATOMIC_ACQUIRE);
	return n;
}

/*
 * How long the givers may take for SLEEPERS * TOKENS tokens.  Natively a
 * fraction of a second, so a minute is a wide margin, and one that a
 * wake-up left on a list until the next tick exceeds.  Under emulation
 * with both vCPUs on one loaded host CPU, 16 tokens move per host time
 * slice: there the flood stops after 3 s and only the drain is checked.
 */
static long flood_ms(void)
{
	return getenv("PK_TEST_EMULATED") ? 3000 : 60000;
}

/*
 * Once the givers stop, every token handed out must be taken (a lost
 * wake-up leaves its sleeper asleep with one waiting); natively, all of
 * them were handed out.
 */
static void flood_drained(void)
{
	WAIT_FOR(all_taken() == all_given());
	if (getenv("PK_TEST_EMULATED"))
		assert_true(all_taken() >= SLEEPERS);
	else
		assert_int_equal(all_taken(), SLEEPERS * TOKENS);
}

/*
 * A vCPU and a host thread both wake 16 SCHED_FIFO sleepers on a busy
 * vCPU: every token reaches its sleeper (a lost wake-up leaves one asleep
 * with a token waiting), and the wake-ups went through the list.
 */
static void flood_loses_no_wakeup(void **state)
{
	struct task_struct *spin, *w;
	struct pk_sched_stats st;
	long until;

	(void)state;
	boot_wake_list(1);
	done = spin_stop = 0;
	memset(given, 0, sizeof(given));
	memset(taken, 0, sizeof(taken));
	spin = start_on(spinner, NULL, 1, FIFO_LOW);
	for (int i = 0; i < SLEEPERS; i++) {
		sleeper[i] = start_on(token_sleeper, (void *)(long)i, 1, FIFO);
		get_task_struct(sleeper[i]);
	}
	w = start_on(flooder, NULL, 0, FIFO);
	/* The host thread is no vCPU: its wake-ups are all remote. */
	until = now_ms() + flood_ms();
	while (all_taken() < SLEEPERS * TOKENS && now_ms() < until)
		for (int i = 0; i < SLEEPERS; i++)
			give(i);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(w), 0);
	flood_drained();
	for (int i = 0; i < SLEEPERS; i++) {
		assert_int_equal(kthread_stop(sleeper[i]), 0);
		put_task_struct(sleeper[i]);
	}
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(spin), 0);
	st = pk_sched_cpu_stats(1);
	assert_true(st.wake_list_tasks > 0);
	assert_true(st.wake_batches > 0);
	assert_true(st.wake_batches <= st.wake_list_tasks);
}

/* ---- a batch queues in wake order ---- */

#define BATCH 4

static int order_log[BATCH], order_n, blocked, release_block;

static int logger(void *arg)
{
	set_current_state(TASK_INTERRUPTIBLE);
	schedule();
	order_log[__atomic_fetch_add(&order_n, 1, __ATOMIC_SEQ_CST)] =
		(int)(long)arg;
	return 0;
}

/* Holds vCPU 1's interrupts off, so its IPI waits and the list fills. */
static int blocker(void *arg)
{
	(void)arg;
	local_irq_disable();
	__atomic_store_n(&blocked, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&release_block, __ATOMIC_ACQUIRE))
		;
	local_irq_enable();
	return 0;
}

static void batch_queues_in_wake_order(void **state)
{
	struct task_struct *t[BATCH], *b;
	struct pk_sched_stats before, after;

	(void)state;
	boot_wake_list(1);
	order_n = 0;
	blocked = 0;
	release_block = 0;
	for (int i = 0; i < BATCH; i++) {
		t[i] = start_on(logger, (void *)(long)i, 1, NORMAL);
		get_task_struct(t[i]);
	}
	for (int i = 0; i < BATCH; i++)
		WAIT_FOR(__atomic_load_n(&t[i]->__state, __ATOMIC_ACQUIRE) ==
			 TASK_INTERRUPTIBLE);
	b = start_on(blocker, NULL, 1, NORMAL);
	WAIT_FOR(__atomic_load_n(&blocked, __ATOMIC_ACQUIRE));
	before = pk_sched_cpu_stats(1);
	for (int i = 0; i < BATCH; i++)
		assert_int_equal(wake_up_process(t[i]), 1);
	/* Nothing ran yet: they wait on the list for vCPU 1's interrupts. */
	assert_int_equal(__atomic_load_n(&order_n, __ATOMIC_ACQUIRE), 0);
	__atomic_store_n(&release_block, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(b), 0);
	for (int i = 0; i < BATCH; i++) {
		assert_int_equal(kthread_stop(t[i]), 0);
		put_task_struct(t[i]);
	}
	after = pk_sched_cpu_stats(1);
	assert_int_equal(order_n, BATCH);
	for (int i = 0; i < BATCH; i++)
		assert_int_equal(order_log[i], i);
	/* One kick carried the four. */
	assert_int_equal(after.wake_batches - before.wake_batches, 1);
	assert_int_equal(after.wake_list_tasks - before.wake_list_tasks, BATCH);
}

/* ---- off means off ---- */

static DECLARE_WAIT_QUEUE_HEAD(pp_wq);
static int pp_turn;

static int pinger(void *arg)
{
	int me = (int)(long)arg;

	for (int i = 0; i < 500; i++) {
		wait_event(pp_wq,
			   __atomic_load_n(&pp_turn, __ATOMIC_ACQUIRE) == me);
		__atomic_store_n(&pp_turn, !me, __ATOMIC_RELEASE);
		wake_up(&pp_wq);
	}
	return 0;
}

/* Two tasks, one on each vCPU, waking each other 500 times. */
static void ping_pong(void)
{
	struct task_struct *a, *b;

	pp_turn = 0;
	a = start_on(pinger, (void *)0L, 0, NORMAL);
	b = start_on(pinger, (void *)1L, 1, NORMAL);
	get_task_struct(a);
	get_task_struct(b);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	put_task_struct(a);
	put_task_struct(b);
}

/* wake_list = -1: remote wake-ups lock the other runqueue and still land;
 * the list stays unused. */
static void wake_list_off_is_unused(void **state)
{
	(void)state;
	boot_wake_list(-1);
	ping_pong();
	for (int cpu = 0; cpu < 2; cpu++)
		assert_int_equal(pk_sched_cpu_stats(cpu).wake_list_tasks, 0);
}

/* Sleeps until stopped; each wake-up only runs it round once. */
static int napper(void *arg)
{
	(void)arg;
	while (!kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule();
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/* Host side: until @p sleeps off its CPU. */
static void wait_asleep(struct task_struct *p)
{
	WAIT_FOR(__atomic_load_n(&p->__state, __ATOMIC_ACQUIRE) ==
			 TASK_INTERRUPTIBLE &&
		 !__atomic_load_n(&p->pk_on_cpu, __ATOMIC_ACQUIRE));
}

/*
 * By default (wake_list = 0) a wake-up goes on the list when its vCPU
 * runs the idle task, the kernel's rule for CPUs that share a cache, or
 * when it preempts the busy vCPU's task, whose reschedule IPI then carries
 * it.  One that does not preempt (a normal task, or one at the running
 * task's own real-time priority) locks the busy vCPU's runqueue.  A flood
 * of wake-ups that preempt uses the list; a ping-pong between two vCPUs
 * (one asleep while the other runs) uses it too.
 */
static void default_lists_for_idle_or_preempting(void **state)
{
	struct task_struct *spin, *w, *normal, *same;
	unsigned long before;

	(void)state;
	boot_wake_list(0);
	done = spinning = spin_stop = 0;
	memset(given, 0, sizeof(given));
	memset(taken, 0, sizeof(taken));
	normal = start_on(napper, NULL, 1, NORMAL);
	same = start_on(napper, NULL, 1, FIFO_LOW);
	get_task_struct(normal);
	get_task_struct(same);
	wait_asleep(normal);
	wait_asleep(same);
	spin = start_on(spinner, NULL, 1, FIFO_LOW);
	WAIT_FOR(__atomic_load_n(&spinning, __ATOMIC_ACQUIRE));
	/* vCPU 1 busy at FIFO_LOW: neither wake-up preempts it. */
	before = pk_sched_cpu_stats(1).wake_list_tasks;
	wake_up_process(normal);
	wake_up_process(same);
	/* Queued either way by now: a listed one only after the drain. */
	WAIT_FOR(__atomic_load_n(&normal->pk_on_rq, __ATOMIC_ACQUIRE) &&
		 __atomic_load_n(&same->pk_on_rq, __ATOMIC_ACQUIRE));
	assert_int_equal(pk_sched_cpu_stats(1).wake_list_tasks, before);
	for (int i = 0; i < SLEEPERS; i++) {
		sleeper[i] = start_on(token_sleeper, (void *)(long)i, 1, FIFO);
		get_task_struct(sleeper[i]);
	}
	w = start_on(flooder, NULL, 0, FIFO);
	for (long until = now_ms() + flood_ms();
	     all_taken() < SLEEPERS * TOKENS && now_ms() < until;)
		usleep(1000);
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(w), 0);
	flood_drained();
	for (int i = 0; i < SLEEPERS; i++) {
		assert_int_equal(kthread_stop(sleeper[i]), 0);
		put_task_struct(sleeper[i]);
	}
	assert_true(pk_sched_cpu_stats(1).wake_list_tasks > before);
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(spin), 0);
	assert_int_equal(kthread_stop(normal), 0);
	assert_int_equal(kthread_stop(same), 0);
	put_task_struct(normal);
	put_task_struct(same);

	before = pk_sched_cpu_stats(1).wake_list_tasks;
	ping_pong();
	assert_true(pk_sched_cpu_stats(1).wake_list_tasks > before);
}

static int wl_teardown(void **state)
{
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&release_block, 1, __ATOMIC_RELEASE);
	return machine_teardown(state);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, capture_setup, wl_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(flood_loses_no_wakeup),
		T(batch_queues_in_wake_order),
		T(wake_list_off_is_unused),
		T(default_lists_for_idle_or_preempting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
