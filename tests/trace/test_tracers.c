// SPDX-License-Identifier: MIT
/*
 * The latency tracers: a known long section (interrupts or preemption
 * off, busy for LONG_US in a named function) among short ones must be the
 * maximum, at least LONG_US long, with its start and end named; the flags
 * must read the word at each event; and nothing is recorded once tracing
 * stops.
 *
 * The lower bound is exact (the section spins LONG_US by the tracer's own
 * clock).  Only a host stall inside a short section could make that one
 * the longest; a run where that happened is retried, so the verdict never
 * rests on timing luck.  Machine tasks record results; the asserts run in
 * the main thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/trace.h>

#include "pk_machine.h"

/* Long beside what a loaded host (qemu, a busy CI machine) stalls a short
 * section or one of the library's own for: tens of ms have been seen. */
#define LONG_US 200000
#define SHORT_US 50
#define TRIES 3
#define TEST_IRQ 14

static volatile unsigned long sink;
static int task_done;

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* In ns: the section is then at least @us by the tracer's clock. */
static __attribute__((noinline)) void spin_us(long us)
{
	long end = now_ns() + us * 1000;

	while (now_ns() < end)
		sink++;
}

static __attribute__((noinline)) void long_irqs_off(void)
{
	local_irq_disable();
	spin_us(LONG_US);
	local_irq_enable();
}

static __attribute__((noinline)) void short_irqs_off(void)
{
	unsigned long flags;

	local_irq_save(flags);
	spin_us(SHORT_US);
	local_irq_restore(flags);
}

static __attribute__((noinline)) void long_preempt_off(void)
{
	preempt_disable();
	spin_us(LONG_US);
	preempt_enable();
}

static __attribute__((noinline)) void short_preempt_off(void)
{
	preempt_disable();
	spin_us(SHORT_US);
	preempt_enable();
}

static __attribute__((noinline)) void mixed_open(void)
{
	preempt_disable();
	local_irq_disable();
	preempt_enable(); /* interrupts still off: the section goes on */
}

static __attribute__((noinline)) void mixed_close(void)
{
	local_irq_enable();
}

static void start_tracer(int tracer)
{
	struct pk_trace_config cfg = {.tracer = tracer};

	assert_int_equal(pk_trace_start(&cfg), 0);
	assert_true(tracing_is_on());
}

/* The latency report of the current trace, in a malloc'd string. */
static char *latency_report(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	pk_trace_print_latency(f);
	fclose(f);
	return text;
}

/* Did the maximum start in @from and end in @to?  Prints it if not. */
static bool max_spans(const char *from, const char *to)
{
	char *text = latency_report(), start[96], end[96];
	bool ok;

	snprintf(start, sizeof(start), "#  => started at: %s\n", from);
	snprintf(end, sizeof(end), "#  => ended at:   %s\n", to);
	ok = strstr(text, start) && strstr(text, end);
	if (!ok)
		print_message("maximum not %s..%s (a host stall?):\n%s", from,
			      to, text);
	free(text);
	return ok;
}

static bool max_is(const char *fn)
{
	return max_spans(fn, fn);
}

static void assert_max_at_least(uint64_t us)
{
	struct pk_trace_max m;

	assert_true(pk_trace_max(&m));
	if (m.latency_ns < us * 1000) {
		char *text = latency_report();

		fail_msg("shorter than %lu us:\n%s", (unsigned long)us, text);
	}
	assert_true(m.entries >= 2);
	assert_true(m.total >= m.entries);
}

/* The kept events open and close the section with the expected edges. */
static void assert_edges(enum pk_trace_type open, enum pk_trace_type close)
{
	struct pk_trace_entry ev[64];
	unsigned long n = pk_trace_max_events(ev, 64);

	assert_true(n >= 2);
	assert_int_equal(ev[0].type, open);
	if (n < 64)
		assert_int_equal(ev[n - 1].type, close);
}

/* ---- on a plain thread, its own CPU ---- */

static void thread_irqsoff_once(void)
{
	start_tracer(PK_TRACER_IRQSOFF);
	for (int i = 0; i < 5; i++)
		short_irqs_off();
	long_irqs_off();
	short_irqs_off();
	pk_trace_stop();
}

static void test_irqsoff_thread(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < TRIES; i++) {
		thread_irqsoff_once();
		if (max_is("long_irqs_off"))
			break;
	}
	assert_true(i < TRIES);
	assert_max_at_least(LONG_US);
	assert_edges(PK_TRACE_IRQS_OFF, PK_TRACE_IRQS_ON);
	assert_false(tracing_is_on());
}

/* Opened by preempt_disable(), closed by the interrupt enable. */
static void test_preemptirqsoff_mixed(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < TRIES; i++) {
		start_tracer(PK_TRACER_PREEMPTIRQSOFF);
		short_preempt_off();
		mixed_open();
		spin_us(LONG_US);
		mixed_close();
		pk_trace_stop();
		if (max_spans("mixed_open", "mixed_close"))
			break;
	}
	assert_true(i < TRIES);
	assert_max_at_least(LONG_US);
	assert_edges(PK_TRACE_PREEMPT_OFF, PK_TRACE_IRQS_ON);
}

/* ---- flags: an interrupt inside a preemption-off section ---- */

static int handled;

static irqreturn_t flag_handler(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	handled++;
	return IRQ_HANDLED;
}

struct flag_seen {
	char irq_entry[6], preempt_off[6];
};

static __attribute__((noinline)) void preempt_off_with_irq(int cpu)
{
	preempt_disable();
	irq_raise(TEST_IRQ, cpu); /* to ourselves: runs before it returns */
	spin_us(SHORT_US);
	preempt_enable();
}

static void find_flags(const struct pk_trace_entry *e, void *arg)
{
	struct flag_seen *seen = arg;
	char text[64], *word = NULL;

	/* The report's own formatter. */
	if (e->type == PK_TRACE_IRQ_ENTRY)
		word = seen->irq_entry;
	else if (e->type == PK_TRACE_PREEMPT_OFF)
		word = seen->preempt_off;
	if (!word)
		return;
	pk_trace_lat_flags(e, text);
	memcpy(word, text, 6);
}

static void test_flags(void **state)
{
	struct flag_seen seen;
	int cpu = pk_irq_cpu_register();
	char *text;

	(void)state;
	memset(&seen, 0, sizeof(seen));
	assert_true(cpu >= 0);
	assert_int_equal(
		request_irq(TEST_IRQ, flag_handler, 0, "flagirq", NULL), 0);
	start_tracer(PK_TRACER_PREEMPTOFF);
	preempt_off_with_irq(cpu);
	pk_trace_stop();
	free_irq(TEST_IRQ, NULL);
	pk_irq_cpu_unregister();
	assert_int_equal(handled, 1);
	pk_trace_for_each_event(find_flags, &seen);
	assert_string_equal(seen.preempt_off, "...1.");
	assert_string_equal(seen.irq_entry, "d.h1.");
	/* The report shows the same columns and names the handler. */
	text = latency_report();
	assert_non_null(strstr(text, "d.h1. "));
	assert_non_null(strstr(text, "irq_handler_entry: irq=14 name=flagirq"));
	assert_non_null(strstr(text, "started at: preempt_off_with_irq\n"));
	free(text);
}

/* Off means off: no event once stopped. */
static void count_event(const struct pk_trace_entry *e, void *arg)
{
	(void)e;
	(*(unsigned long *)arg)++;
}

static void test_off_records_nothing(void **state)
{
	unsigned long before = 0, after = 0;

	(void)state;
	start_tracer(PK_TRACER_NOP);
	short_irqs_off();
	short_preempt_off();
	pk_trace_stop();
	pk_trace_for_each_event(count_event, &before);
	for (int i = 0; i < 100; i++)
		short_preempt_off();
	local_irq_disable();
	local_irq_enable();
	pk_trace_for_each_event(count_event, &after);
	assert_int_equal(before, after);
	if (CONFIG_DEBUG_PREEMPT)
		assert_true(before >= 4);
	assert_false(pk_trace_max(&(struct pk_trace_max){0}));
}

/* A section whose end was missed while tracing was off is not kept. */
static void test_tracing_off_voids_section(void **state)
{
	struct pk_trace_max m;

	(void)state;
	start_tracer(PK_TRACER_IRQSOFF);
	local_irq_disable();
	tracing_off();
	assert_false(tracing_is_on());
	spin_us(SHORT_US);
	local_irq_enable(); /* unseen */
	tracing_on();
	local_irq_enable(); /* enabled already: no edge, no section */
	pk_trace_stop();
	assert_false(pk_trace_max(&m));
	/* And the stale start does not block the next section. */
	tracing_on();
	short_irqs_off();
	pk_trace_stop();
	assert_true(pk_trace_max(&m));
	assert_true(m.latency_ns >= SHORT_US * 1000);
}

/* ---- in machine tasks, with interrupts and other tasks around ---- */

static int noise(void *arg)
{
	(void)arg;
	for (int i = 0; i < 5 && !kthread_should_stop(); i++) {
		short_irqs_off();
		short_preempt_off();
		msleep(2);
	}
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static int long_task(void *arg)
{
	msleep(5);
	((void (*)(void))arg)();
	__atomic_store_n(&task_done, 1, __ATOMIC_RELEASE);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

static void machine_once(int tracer, void (*section)(void))
{
	struct task_struct *n0, *n1, *l;

	start_tracer(tracer);
	pk_boot(2, PREEMPT_MODEL_FULL);
	task_done = 0;
	n0 = kthread_run(noise, NULL, "noise");
	n1 = kthread_run(noise, NULL, "noise");
	l = kthread_run(long_task, (void *)section, "long");
	while (!__atomic_load_n(&task_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	kthread_stop(l);
	kthread_stop(n0);
	kthread_stop(n1);
	machine_shutdown();
	pk_trace_stop();
}

static void test_machine(int tracer, void (*section)(void), const char *fn)
{
	char *text;
	int i;

	for (i = 0; i < TRIES; i++) {
		machine_once(tracer, section);
		if (max_is(fn))
			break;
	}
	assert_true(i < TRIES);
	assert_max_at_least(LONG_US);
	text = latency_report();
	assert_non_null(strstr(text, "| task: long-"));
	assert_non_null(strstr(text, "(M:preempt VP:0, KP:0, SP:0 HP:0 #P:2)"));
	free(text);
}

static void test_irqsoff_machine(void **state)
{
	(void)state;
	test_machine(PK_TRACER_IRQSOFF, long_irqs_off, "long_irqs_off");
	assert_edges(PK_TRACE_IRQS_OFF, PK_TRACE_IRQS_ON);
}

static void test_preemptoff_machine(void **state)
{
	(void)state;
	test_machine(PK_TRACER_PREEMPTOFF, long_preempt_off,
		     "long_preempt_off");
	assert_edges(PK_TRACE_PREEMPT_OFF, PK_TRACE_PREEMPT_ON);
}

/* Scheduler events reach the ring even without a latency tracer. */
static int sleeper(void *arg)
{
	(void)arg;
	msleep(3);
	return 0;
}

static void find_sched(const struct pk_trace_entry *e, void *arg)
{
	int *seen = arg;

	if (e->type == PK_TRACE_SCHED_SWITCH && e->sw.next_pid > 0)
		seen[0]++;
	if (e->type == PK_TRACE_SCHED_WAKEUP &&
	    !strcmp(e->wakeup.comm, "sleeper"))
		seen[1]++;
	if (e->flags & PK_TRACE_F_VCPU)
		seen[2]++;
}

static void test_sched_events(void **state)
{
	int seen[3] = {0};

	(void)state;
	start_tracer(PK_TRACER_NOP);
	pk_boot(2, PREEMPT_MODEL_FULL);
	kthread_stop(kthread_run(sleeper, NULL, "sleeper"));
	machine_shutdown();
	pk_trace_stop();
	pk_trace_for_each_event(find_sched, seen);
	assert_true(seen[0] >= 1);
	assert_true(seen[1] >= 1);
	assert_true(seen[2] >= 1);
}

/* ---- the lazy model's need-resched: 'l' ---- */

static int lazy_stop;

/* A preempt-off edge every ~10 us, for ~100 ms; slices expire meanwhile. */
static int lazy_hog(void *arg)
{
	long end = now_ns() + 100 * 1000000L;

	(void)arg;
	while (now_ns() < end &&
	       !__atomic_load_n(&lazy_stop, __ATOMIC_RELAXED)) {
		preempt_disable();
		preempt_enable();
		spin_us(10);
	}
	return 0;
}

static void count_lazy(const struct pk_trace_entry *e, void *arg)
{
	int *seen = arg;
	char flags[6];

	pk_trace_lat_flags(e, flags);
	seen[0] += flags[1] == 'l';
	seen[1] += flags[1] == 'N' || flags[1] == 'B';
}

static void test_lazy_need_resched(void **state)
{
	struct task_struct *a, *b;
	int seen[2] = {0, 0};

	(void)state;
	lazy_stop = 0;
	start_tracer(PK_TRACER_NOP);
	pk_boot(1, PREEMPT_MODEL_LAZY);
	/* Two normal hogs: each slice's end owes a lazy reschedule, paid
	 * at the next tick. */
	a = kthread_run(lazy_hog, NULL, "hog-a");
	b = kthread_run(lazy_hog, NULL, "hog-b");
	kthread_stop(a);
	kthread_stop(b);
	machine_shutdown();
	pk_trace_stop();
	pk_trace_for_each_event(count_lazy, seen);
	print_message("events with l: %d, with N or B: %d\n", seen[0], seen[1]);
	assert_true(seen[0] > 0);
}

static int teardown(void **state)
{
	pk_trace_stop();
	return machine_teardown(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		pk_only_if(CONFIG_TRACE_IRQFLAGS,
			   cmocka_unit_test_teardown(test_irqsoff_thread,
						     teardown)),
		pk_only_if(CONFIG_DEBUG_PREEMPT && CONFIG_TRACE_IRQFLAGS,
			   cmocka_unit_test_teardown(test_preemptirqsoff_mixed,
						     teardown)),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   cmocka_unit_test_teardown(test_flags, teardown)),
		cmocka_unit_test_teardown(test_off_records_nothing, teardown),
		pk_only_if(CONFIG_TRACE_IRQFLAGS,
			   cmocka_unit_test_teardown(
				   test_tracing_off_voids_section, teardown)),
		pk_only_if(CONFIG_TRACE_IRQFLAGS,
			   cmocka_unit_test_teardown(test_irqsoff_machine,
						     teardown)),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   cmocka_unit_test_teardown(test_preemptoff_machine,
						     teardown)),
		cmocka_unit_test_teardown(test_sched_events, teardown),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   cmocka_unit_test_teardown(test_lazy_need_resched,
						     teardown)),
	};

	return cmocka_run_group_tests(tests, capture_setup, NULL);
}
