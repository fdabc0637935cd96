// SPDX-License-Identifier: MIT
/*
 * Softirqs: where they run (irq exit, local_bh_enable(), ksoftirqd), the
 * restart limit and hand-off, the rt model's placement, leak reports,
 * tasklets.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/probe.h>

#include "pk_test.h"

#define LINE 7

static int cpu;
static pid_t cpu_tid;

/* What the last run of the test vector saw. */
static int runs;
static struct pk_context seen;
static pid_t seen_tid;
static char seen_comm[16];
static int reraise;	/* the vector raises itself again this many times */
static int runs_on_cpu; /* of those runs, on the CPU thread itself */

static void test_action(void)
{
	if (gettid() == cpu_tid)
		runs_on_cpu++;
	pk_context_read(&seen);
	seen_tid = gettid();
	prctl(PR_GET_NAME, seen_comm, 0, 0, 0);
	if (reraise > 0) {
		reraise--;
		raise_softirq(BLOCK_SOFTIRQ);
	}
	/* Last: waiters on another thread then see all of the above. */
	__atomic_add_fetch(&runs, 1, __ATOMIC_RELEASE);
}

static irqreturn_t raise_block(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	raise_softirq(BLOCK_SOFTIRQ);
	/* Raised in hardirq: nothing runs before irq exit. */
	assert_int_equal(runs, 0);
	return IRQ_HANDLED;
}

/* Wait (30 s at most) until @cond: ksoftirqd runs on its own thread. */
#define wait_for(cond)                                                         \
	do {                                                                   \
		struct timespec s_, n_;                                        \
		clock_gettime(CLOCK_MONOTONIC, &s_);                           \
		do {                                                           \
			sched_yield();                                         \
			clock_gettime(CLOCK_MONOTONIC, &n_);                   \
		} while (!(cond) && n_.tv_sec - s_.tv_sec < 30);               \
		assert_true(cond);                                             \
	} while (0)

static int setup(void **state)
{
	(void)state;
	capture_reset();
	runs = runs_on_cpu = 0;
	reraise = 0;
	seen_tid = 0;
	preempt_model_set(PREEMPT_MODEL_FULL);
	open_softirq(BLOCK_SOFTIRQ, test_action);
	assert_int_equal(request_irq(LINE, raise_block, 0, "blk", &runs), 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	/* Let ksoftirqd finish whatever a test left it. */
	wait_for(local_softirq_pending() == 0);
	/*
	 * ...and its pass: a ksoftirqd still inside its loop would take the
	 * next test's irq-exit softirqs over.  An outermost bh disable on the
	 * CPU thread waits the pass out.
	 */
	local_bh_disable();
	local_bh_enable();
	free_irq(LINE, &runs);
	open_softirq(BLOCK_SOFTIRQ, NULL);
	preempt_model_set(PREEMPT_MODEL_FULL);
	capture_stop();
	assert_int_equal(preempt_count(), 0);
	return 0;
}

static void vectors_in_the_kernels_order(void **state)
{
	(void)state;
	assert_int_equal(HI_SOFTIRQ, 0);
	assert_int_equal(TIMER_SOFTIRQ, 1);
	assert_int_equal(NET_RX_SOFTIRQ, 3);
	assert_int_equal(TASKLET_SOFTIRQ, 6);
	assert_int_equal(RCU_SOFTIRQ, 9);
	assert_int_equal(NR_SOFTIRQS, 10);
	assert_string_equal(softirq_to_name[NET_RX_SOFTIRQ], "NET_RX");
}

/* Pending vectors run lowest number first, whatever order they were
 * raised in (raised with bh off, all run at the one local_bh_enable()). */
static int vec_order[3], vec_nr;

static void net_tx_action(void)
{
	vec_order[vec_nr++] = NET_TX_SOFTIRQ;
}

static void net_rx_action(void)
{
	vec_order[vec_nr++] = NET_RX_SOFTIRQ;
}

static void irq_poll_action(void)
{
	vec_order[vec_nr++] = IRQ_POLL_SOFTIRQ;
}

static void pending_vectors_run_in_number_order(void **state)
{
	(void)state;
	vec_nr = 0;
	open_softirq(NET_TX_SOFTIRQ, net_tx_action);
	open_softirq(NET_RX_SOFTIRQ, net_rx_action);
	open_softirq(IRQ_POLL_SOFTIRQ, irq_poll_action);
	local_bh_disable();
	raise_softirq(IRQ_POLL_SOFTIRQ);
	raise_softirq(NET_RX_SOFTIRQ);
	raise_softirq(NET_TX_SOFTIRQ);
	local_bh_enable();
	open_softirq(NET_TX_SOFTIRQ, NULL);
	open_softirq(NET_RX_SOFTIRQ, NULL);
	open_softirq(IRQ_POLL_SOFTIRQ, NULL);
	assert_int_equal(vec_nr, 3);
	assert_int_equal(vec_order[0], NET_TX_SOFTIRQ);
	assert_int_equal(vec_order[1], NET_RX_SOFTIRQ);
	assert_int_equal(vec_order[2], IRQ_POLL_SOFTIRQ);
}

static void raised_in_hardirq_runs_at_irq_exit(void **state)
{
	unsigned long before = pk_irq_stats(cpu).softirq_inline;

	(void)state;
	irq_raise(LINE, cpu);
	assert_int_equal(runs, 1);
	assert_int_equal(seen_tid, cpu_tid);
	assert_int_equal(seen.count, SOFTIRQ_OFFSET);
	assert_true(seen.in_serving_softirq);
	assert_false(seen.in_hardirq);
	assert_false(seen.irqs_disabled);
	assert_false(seen.in_task);
	assert_int_equal(seen.interrupt_context_level, 1);
	assert_int_equal(pk_irq_stats(cpu).softirq_inline, before + 1);
}

static void bh_disabled_interrupt_defers_to_bh_enable(void **state)
{
	(void)state;
	local_bh_disable();
	irq_raise(LINE, cpu);
	assert_int_equal(runs, 0); /* irq exit saw bh disabled */
	assert_true(local_softirq_pending() & (1U << BLOCK_SOFTIRQ));
	local_bh_enable();
	assert_int_equal(runs, 1);
	assert_int_equal(seen_tid, cpu_tid);
	assert_int_equal(seen.count, SOFTIRQ_OFFSET + PREEMPT_OFFSET);
}

static void raised_in_task_context_wakes_ksoftirqd(void **state)
{
	char want[16];

	(void)state;
	raise_softirq(BLOCK_SOFTIRQ);
	wait_for(__atomic_load_n(&runs, __ATOMIC_SEQ_CST) == 1);
	snprintf(want, sizeof(want), "ksoftirqd/%d", cpu);
	assert_string_equal(seen_comm, want);
	assert_true(seen_tid != cpu_tid);
	assert_true(seen.in_serving_softirq);
}

static void restart_limit_hands_off_to_ksoftirqd(void **state)
{
	unsigned long wakeups = pk_irq_stats(cpu).ksoftirqd_wakeups;

	(void)state;
	reraise = 50; /* far past MAX_SOFTIRQ_RESTART */
	irq_raise(LINE, cpu);
	/* One pass at irq exit, then at most 9 restarts (or 2 ms). */
	assert_true(runs_on_cpu >= 1 && runs_on_cpu <= 10);
	assert_true(pk_irq_stats(cpu).ksoftirqd_wakeups > wakeups);
	/* ksoftirqd takes the rest, to the end. */
	wait_for(__atomic_load_n(&runs, __ATOMIC_SEQ_CST) == 51);
	assert_true(runs_on_cpu <= 10);
	assert_true(!strncmp(seen_comm, "ksoftirqd/", 10));
}

static void rt_never_runs_softirqs_at_irq_exit(void **state)
{
	(void)state;
	preempt_model_set(PREEMPT_MODEL_RT);
	irq_raise(LINE, cpu);
	wait_for(__atomic_load_n(&runs, __ATOMIC_SEQ_CST) == 1);
	assert_true(seen_tid != cpu_tid); /* ksoftirqd, task context */
	assert_true(!strncmp(seen_comm, "ksoftirqd/", 10));

	/* local_bh_enable() in task context does run them under rt. */
	local_bh_disable();
	raise_softirq(BLOCK_SOFTIRQ); /* in_interrupt(): no ksoftirqd */
	local_bh_enable();
	assert_int_equal(runs, 2);
	assert_int_equal(seen_tid, cpu_tid);
}

static void leak_action(void)
{
	preempt_disable();
	preempt_disable();
}

static void leaking_softirq_is_reported_and_repaired(void **state)
{
	(void)state;
	open_softirq(BLOCK_SOFTIRQ, leak_action);
	irq_raise(LINE, cpu);
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_SOFTIRQ);
	assert_report_contains("huh, entered softirq 4 BLOCK ");
	assert_report_contains("with preempt_count 00000100, exited with "
			       "00000102?\n");
	assert_report_contains("leak_action+0x");
}

static struct pk_context hardirq_seen;

static irqreturn_t record_hardirq(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	pk_context_read(&hardirq_seen);
	return IRQ_HANDLED;
}

static void interrupt_in_softirq(void)
{
	irq_raise(LINE + 1, cpu); /* softirqs run with interrupts enabled */
}

static void hardirq_nests_inside_a_softirq(void **state)
{
	(void)state;
	request_irq(LINE + 1, record_hardirq, 0, "nested", &hardirq_seen);
	open_softirq(BLOCK_SOFTIRQ, interrupt_in_softirq);
	irq_raise(LINE, cpu);
	assert_int_equal(hardirq_seen.count, SOFTIRQ_OFFSET + HARDIRQ_OFFSET +
						     HARDIRQ_DISABLE_OFFSET);
	assert_true(hardirq_seen.in_serving_softirq);
	assert_true(hardirq_seen.in_hardirq);
	assert_false(hardirq_seen.in_task);
	assert_int_equal(hardirq_seen.interrupt_context_level, 2);
	free_irq(LINE + 1, &hardirq_seen);
}

static int tasklet_runs;
static struct pk_context tasklet_seen;

static void tasklet_fn(struct tasklet_struct *t)
{
	(void)t;
	tasklet_runs++;
	pk_context_read(&tasklet_seen);
}

static void tasklets_run_once_in_softirq(void **state)
{
	struct tasklet_struct t;

	(void)state;
	tasklet_runs = 0;
	tasklet_setup(&t, tasklet_fn);
	local_bh_disable();
	tasklet_schedule(&t);
	tasklet_schedule(&t); /* already queued: still one run */
	assert_int_equal(tasklet_runs, 0);
	local_bh_enable();
	assert_int_equal(tasklet_runs, 1);
	assert_true(tasklet_seen.in_serving_softirq);

	tasklet_disable(&t);
	local_bh_disable();
	tasklet_hi_schedule(&t);
	local_bh_enable();
	assert_int_equal(tasklet_runs, 1); /* disabled: requeued */
	tasklet_enable(&t);
	local_bh_disable();
	local_bh_enable(); /* nothing pending here: ksoftirqd or a retry */
	wait_for(__atomic_load_n(&tasklet_runs, __ATOMIC_SEQ_CST) == 2);
	tasklet_kill(&t);
	assert_int_equal(t.state, 0);
}

static void old_style_tasklet(unsigned long data)
{
	tasklet_runs += (int)data;
}

static void tasklet_init_passes_data(void **state)
{
	struct tasklet_struct t;

	(void)state;
	tasklet_runs = 0;
	tasklet_init(&t, old_style_tasklet, 7);
	local_bh_disable();
	tasklet_schedule(&t);
	local_bh_enable();
	assert_int_equal(tasklet_runs, 7);
}

/* ---- a bh-off section on the CPU thread holds ksoftirqd off ---- */

#define BH_TRIALS 1000

static int bh_about;	  /* the CPU thread is about to disable bh */
static int bh_in_section; /* ... and has disabled it */
static int bh_pass;	  /* ksoftirqd's pass has begun */
static int bh_overlaps;	  /* ksoftirqd ran softirqs inside a section */
static int bh_tail_runs;
static unsigned long bh_waits_before;

static unsigned long bh_waits(void)
{
	return pk_irq_stats(cpu).bh_waits;
}

/*
 * Runs in ksoftirqd's pass and holds it until the CPU thread either gets
 * into its bh-off section (the bug) or waits for the pass (the fix).
 */
static void hold_pass_action(void)
{
	__atomic_store_n(&bh_pass, 1, __ATOMIC_SEQ_CST);
	while (!__atomic_load_n(&bh_about, __ATOMIC_SEQ_CST))
		sched_yield();
	while (bh_waits() == bh_waits_before) {
		if (__atomic_load_n(&bh_in_section, __ATOMIC_SEQ_CST)) {
			__atomic_add_fetch(&bh_overlaps, 1, __ATOMIC_SEQ_CST);
			break;
		}
		sched_yield();
	}
	__atomic_store_n(&bh_pass, 2, __ATOMIC_SEQ_CST);
}

static void tail_action(void)
{
	__atomic_add_fetch(&bh_tail_runs, 1, __ATOMIC_SEQ_CST);
}

static void bh_trial(int i)
{
	bh_about = bh_in_section = bh_pass = 0;
	bh_waits_before = bh_waits();
	raise_softirq(NET_RX_SOFTIRQ); /* task context: ksoftirqd's */
	wait_for(__atomic_load_n(&bh_pass, __ATOMIC_SEQ_CST) == 1);
	__atomic_store_n(&bh_about, 1, __ATOMIC_SEQ_CST);
	local_bh_disable();
	__atomic_store_n(&bh_in_section, 1, __ATOMIC_SEQ_CST);
	/* Fixed, the pass is over; broken, it ends when it sees us here. */
	wait_for(__atomic_load_n(&bh_pass, __ATOMIC_SEQ_CST) == 2);
	raise_softirq(NET_TX_SOFTIRQ); /* bh off: left for the enable */
	__atomic_store_n(&bh_in_section, 0, __ATOMIC_SEQ_CST);
	local_bh_enable();
	wait_for(__atomic_load_n(&bh_tail_runs, __ATOMIC_SEQ_CST) == i + 1);
}

static void bh_disabled_section_holds_off_ksoftirqd(void **state)
{
	(void)state;
	bh_overlaps = bh_tail_runs = 0;
	open_softirq(NET_RX_SOFTIRQ, hold_pass_action);
	open_softirq(NET_TX_SOFTIRQ, tail_action);
	for (int i = 0; i < BH_TRIALS; i++)
		bh_trial(i);
	wait_for(local_softirq_pending() == 0);
	open_softirq(NET_RX_SOFTIRQ, NULL);
	open_softirq(NET_TX_SOFTIRQ, NULL);
	assert_int_equal(bh_overlaps, 0);
	assert_int_equal(bh_tail_runs, BH_TRIALS);
	assert_true(bh_waits() > 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(vectors_in_the_kernels_order),
		T(pending_vectors_run_in_number_order),
		T(raised_in_hardirq_runs_at_irq_exit),
		T(bh_disabled_interrupt_defers_to_bh_enable),
		T(raised_in_task_context_wakes_ksoftirqd),
		T(restart_limit_hands_off_to_ksoftirqd),
		T(rt_never_runs_softirqs_at_irq_exit),
		T(leaking_softirq_is_reported_and_repaired),
		T(hardirq_nests_inside_a_softirq),
		T(tasklets_run_once_in_softirq),
		T(tasklet_init_passes_data),
		T(bh_disabled_section_holds_off_ksoftirqd),
	};

	cpu = pk_irq_cpu_register();
	cpu_tid = gettid();
	return cmocka_run_group_tests(tests, NULL, NULL);
}
