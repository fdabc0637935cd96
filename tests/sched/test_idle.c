// SPDX-License-Identifier: MIT
/*
 * The idle loop: an idle vCPU stops its tick (NO_HZ_IDLE) and starts it
 * again, jiffies catch up from the clock, timers armed on an idle vCPU
 * still fire, RCU's grace periods and callbacks go on while vCPUs idle,
 * and remote wake-ups to a polling or sleeping idle vCPU land.  Every
 * wait is for an event; the only deadlines are many seconds wide.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/rcupdate.h>
#include <preempt/timer.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define LONG_WAIT (20 * pk_machine_hz())

/* Host side: wait (up to a minute) for @cond. */
#define WAIT_FOR(cond)                                                         \
	do {                                                                   \
		long until_ = now_ms() + 60000;                                \
		while (!(cond) && now_ms() < until_)                           \
			usleep(1000);                                          \
		assert_true(cond);                                             \
	} while (0)

static void boot_nohz(int cpus, int nohz)
{
	struct machine_config cfg = {.nr_cpus = cpus,
				     .hz = 1000,
				     .model = PREEMPT_MODEL_FULL,
				     .nohz = nohz};

	assert_int_equal(machine_boot(&cfg), 0);
	assert_int_equal(num_online_cpus(), cpus);
}

static unsigned long cpu_ticks(int cpu)
{
	return pk_sched_cpu_stats(cpu).ticks;
}

/* Spins on its CPU, which therefore ticks, until told to stop. */
static int spin_stop;

static int spinner(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&spin_stop, __ATOMIC_ACQUIRE))
		;
	return 0;
}

static struct task_struct *spin_on(int cpu)
{
	struct task_struct *k = kthread_create(spinner, NULL, "spin");

	__atomic_store_n(&spin_stop, 0, __ATOMIC_RELEASE);
	kthread_bind(k, cpu);
	wake_up_process(k);
	return k;
}

static void spin_end(struct task_struct *k)
{
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELEASE);
	assert_int_equal(kthread_stop(k), 0);
}

/*
 * An idle CPU stops its tick (an event: the stop is counted), and a task
 * placed on it starts the tick again.  How few ticks an idle CPU takes is
 * a rate, which depends on the host's load: bench_idle measures it.
 */
static void idle_tick_stops_and_restarts(void **state)
{
	struct task_struct *k;
	unsigned long t1;

	(void)state;
	boot_nohz(2, 0);
	WAIT_FOR(pk_sched_cpu_stats(1).tick_stops >= 1);
	k = spin_on(1);
	t1 = cpu_ticks(1);
	WAIT_FOR(cpu_ticks(1) - t1 >= 20); /* the periodic tick is back */
	/* Stopped once, ticking now: restarted at least once meanwhile (a
	 * timer's one-shot may have been first). */
	assert_true(pk_sched_cpu_stats(1).tick_restarts >= 1);
	spin_end(k);
}

/* machine_config.nohz = -1: the idle tick keeps running, never stops. */
static void nohz_off_keeps_the_idle_tick(void **state)
{
	unsigned long t1;

	(void)state;
	boot_nohz(2, -1);
	t1 = cpu_ticks(1);
	WAIT_FOR(cpu_ticks(1) - t1 >= 50);
	assert_int_equal(pk_sched_cpu_stats(0).tick_stops, 0);
	assert_int_equal(pk_sched_cpu_stats(1).tick_stops, 0);
}

static int read_jiffies(void *arg)
{
	*(unsigned long *)arg = jiffies;
	return 0;
}

/*
 * With every vCPU idle nothing advances the jiffies variable; the first
 * task to run after 50 jiffies of clock sees them all.
 */
static void jiffies_catch_up_when_the_tick_restarts(void **state)
{
	struct task_struct *k;
	unsigned long j0, seen = 0;

	(void)state;
	boot_nohz(1, 0);
	WAIT_FOR(pk_sched_cpu_stats(0).tick_stops >= 1);
	j0 = jiffies_now();
	WAIT_FOR(jiffies_now() - j0 >= 50);
	k = kthread_create(read_jiffies, &seen, "jiffies");
	kthread_bind(k, 0);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_true((long)(seen - (j0 + 50)) >= 0);
}

struct fired {
	struct timer_list timer;
	struct completion done;
	unsigned long at;
	int cpu;
};

static void timer_fired(struct timer_list *t)
{
	struct fired *f = (struct fired *)t;

	f->at = jiffies_now();
	f->cpu = raw_smp_processor_id();
	complete(&f->done);
}

/* A timer armed from outside on an idle vCPU, tick stopped: it fires,
 * there, not early, and well within the (wide) deadline. */
static void timer_armed_on_an_idle_cpu_fires(void **state)
{
	struct fired f = {0};
	unsigned long expires;

	(void)state;
	boot_nohz(2, 0);
	WAIT_FOR(pk_sched_cpu_stats(1).tick_stops >= 1);
	init_completion(&f.done);
	timer_setup(&f.timer, timer_fired, 0);
	expires = jiffies_now() + 30;
	f.timer.expires = expires;
	add_timer_on(&f.timer, 1);
	assert_true(wait_for_completion_timeout(&f.done, LONG_WAIT) > 0);
	assert_int_equal(f.cpu, 1);
	assert_true((long)(f.at - expires) >= 0);
	del_timer_sync(&f.timer);
}

/* msleep() on a vCPU that has nothing else to do: its tick is a one-shot
 * aimed at the sleeper's timer, again and again. */
static int sleep_thrice(void *arg)
{
	unsigned long j0 = jiffies_now();

	(void)arg;
	for (int i = 0; i < 3; i++)
		msleep(20);
	return (long)(jiffies_now() - j0) >= 60 ? 0 : -1;
}

static void msleep_on_an_idle_cpu_wakes(void **state)
{
	struct task_struct *k;

	(void)state;
	boot_nohz(2, 0);
	WAIT_FOR(pk_sched_cpu_stats(1).tick_stops >= 1);
	k = kthread_create(sleep_thrice, NULL, "sleeper");
	kthread_bind(k, 1);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_true(pk_sched_cpu_stats(1).tick_stops >= 2);
}

/* Grace periods end with every vCPU idle and its tick stopped. */
static void synchronize_rcu_with_all_cpus_idle(void **state)
{
	(void)state;
	boot_nohz(2, 0);
	WAIT_FOR(pk_sched_cpu_stats(0).tick_stops >= 1 &&
		 pk_sched_cpu_stats(1).tick_stops >= 1);
	for (int i = 0; i < 5; i++)
		synchronize_rcu();
	assert_true(pk_sched_cpu_stats(0).tick_stops >= 1);
}

static struct completion cb_done;

static void cb(struct rcu_head *h)
{
	(void)h;
	complete(&cb_done);
}

static struct rcu_head cb_head;

static int queue_cb(void *arg)
{
	(void)arg;
	call_rcu(&cb_head, cb);
	return 0;
}

/* A callback queued on a vCPU that then idles still runs: the tick stays
 * on while callbacks wait there (rcu_needs_cpu()). */
static void call_rcu_on_a_cpu_that_goes_idle(void **state)
{
	struct task_struct *k;

	(void)state;
	boot_nohz(2, 0);
	init_completion(&cb_done);
	k = kthread_create(queue_cb, NULL, "cb");
	kthread_bind(k, 1);
	wake_up_process(k);
	assert_int_equal(kthread_stop(k), 0);
	assert_true(wait_for_completion_timeout(&cb_done, LONG_WAIT) > 0);
}

/* Ping-pong between two vCPUs: each wake-up of the other, polling or
 * asleep in the host, lands (no IPI when the target needs none). */
static DECLARE_WAIT_QUEUE_HEAD(pp_wq);
static int pp_turn, pp_rounds;

static int pinger(void *arg)
{
	int me = (int)(long)arg;

	for (int i = 0; i < pp_rounds; i++) {
		wait_event(pp_wq,
			   __atomic_load_n(&pp_turn, __ATOMIC_ACQUIRE) == me);
		__atomic_store_n(&pp_turn, !me, __ATOMIC_RELEASE);
		wake_up(&pp_wq);
	}
	return 0;
}

static void remote_wakes_land(void **state)
{
	struct task_struct *a, *b;

	(void)state;
	boot_nohz(2, 0);
	pp_turn = 0;
	pp_rounds = 2000;
	a = kthread_create(pinger, (void *)0L, "ping");
	b = kthread_create(pinger, (void *)1L, "pong");
	kthread_bind(a, 0);
	kthread_bind(b, 1);
	wake_up_process(a);
	wake_up_process(b);
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
}

/*
 * The idle task is never preempted: it leaves through its own loop, which
 * restarts the tick and ends RCU's idle state (preempted inside its sleep
 * path, vCPU 1 once ran a task with its tick stopped, and a second task
 * queued there starved).  To run code as vCPU 1's idle task, a handler
 * there makes a report, deferred from signal context, and the idle loop
 * flushes it through the report hook: the hook wakes a task onto vCPU 1,
 * which sets need-resched, and the flush's preempt_enable() is then a
 * preemption point of the full model, for any task but idle.  The woken
 * task must come in through the idle loop's schedule(), which no
 * preemption counter counts.
 */
#define IDLE_LINE 9

static struct task_struct *idle_wakee;
static struct pk_sched_stats idle_hook_stats;
static int idle_hook_fired, wakee_preempted_in;

static bool idle_hook(const struct pk_report *report, void *arg)
{
	(void)report;
	(void)arg;
	if (!(current->flags & PF_IDLE) || smp_processor_id() != 1 ||
	    __atomic_load_n(&idle_hook_fired, __ATOMIC_ACQUIRE))
		return true;
	idle_hook_stats = pk_sched_cpu_stats(1);
	wake_up_process(idle_wakee);
	__atomic_store_n(&idle_hook_fired, 1, __ATOMIC_RELEASE);
	return true;
}

static int idle_wakee_fn(void *arg)
{
	struct pk_sched_stats now = pk_sched_cpu_stats(1);

	(void)arg;
	wakee_preempted_in =
		now.resched[PK_RESCHED_PREEMPT_ENABLE] !=
			idle_hook_stats.resched[PK_RESCHED_PREEMPT_ENABLE] ||
		now.resched[PK_RESCHED_IRQ_RETURN] !=
			idle_hook_stats.resched[PK_RESCHED_IRQ_RETURN];
	return 0;
}

static irqreturn_t idle_warner(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	WARN(1, "from vCPU 1's idle");
	return IRQ_HANDLED;
}

static void idle_is_never_preempted(void **state)
{
	(void)state;
	boot_nohz(2, 0);
	idle_hook_fired = wakee_preempted_in = 0;
	idle_wakee = kthread_create(idle_wakee_fn, NULL, "wakee");
	kthread_bind(idle_wakee, 1);
	get_task_struct(idle_wakee);
	pk_set_report_hook(idle_hook, NULL);
	assert_int_equal(request_irq(IDLE_LINE, idle_warner, 0, "warn", NULL),
			 0);
	/* vCPU 0's idle loop may flush a report first: raise until vCPU 1's
	 * did. */
	for (int i = 0;
	     i < 1000 && !__atomic_load_n(&idle_hook_fired, __ATOMIC_ACQUIRE);
	     i++) {
		pk_debug_ratelimit_reset();
		assert_int_equal(irq_raise(IDLE_LINE, pk_vcpu_irq_cpu(1)), 0);
		usleep(2000);
	}
	assert_true(__atomic_load_n(&idle_hook_fired, __ATOMIC_ACQUIRE));
	assert_int_equal(kthread_stop(idle_wakee), 0);
	put_task_struct(idle_wakee);
	assert_false(wakee_preempted_in);
	free_irq(IDLE_LINE, NULL);
	pk_set_report_hook(capture_hook, NULL);
}

/*
 * An idle machine runs nothing: RCU's and SRCU's kthreads sleep until
 * work wakes them (they once polled ten times a second, which cost each
 * idle vCPU 0.05% of a host CPU).  Wanted: a 300 ms window, within nine
 * seconds, in which neither ran (a grace period of boot's may run first).
 */
static int rcu_kthread_runs;

static void count_rcu_kthreads(struct task_struct *prev,
			       struct task_struct *next)
{
	(void)prev;
	if (!strncmp(next->comm, "rcu_", 4) || !strcmp(next->comm, "srcu_gp"))
		__atomic_add_fetch(&rcu_kthread_runs, 1, __ATOMIC_RELAXED);
}

static struct pk_switch_hook rcu_runs_hook = {.sched_out = count_rcu_kthreads};

static bool quiet_window(void)
{
	int before = __atomic_load_n(&rcu_kthread_runs, __ATOMIC_RELAXED);

	usleep(300000);
	return __atomic_load_n(&rcu_kthread_runs, __ATOMIC_RELAXED) == before;
}

static void idle_machine_runs_no_rcu_kthread(void **state)
{
	bool quiet = false;

	(void)state;
	assert_int_equal(pk_switch_hook_register(&rcu_runs_hook), 0);
	boot_nohz(2, 0);
	for (int i = 0; i < 30 && !quiet; i++)
		quiet = quiet_window();
	assert_true(quiet);
	machine_shutdown();
	assert_int_equal(pk_switch_hook_unregister(&rcu_runs_hook), 0);
}

/* A failed assert leaves a spinner running: stop it before the shutdown. */
static int idle_teardown(void **state)
{
	__atomic_store_n(&spin_stop, 1, __ATOMIC_RELEASE);
	machine_teardown(state);
	pk_switch_hook_unregister(&rcu_runs_hook); /* if a failure left it */
	return 0;
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, capture_setup, idle_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(idle_tick_stops_and_restarts),
		T(nohz_off_keeps_the_idle_tick),
		T(jiffies_catch_up_when_the_tick_restarts),
		T(timer_armed_on_an_idle_cpu_fires),
		T(msleep_on_an_idle_cpu_wakes),
		T(synchronize_rcu_with_all_cpus_idle),
		T(call_rcu_on_a_cpu_that_goes_idle),
		T(remote_wakes_land),
		T(idle_is_never_preempted),
		T(idle_machine_runs_no_rcu_kthread),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
