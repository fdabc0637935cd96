// SPDX-License-Identifier: MIT
/*
 * Every debug check fires where the kernel's would, prints the kernel's
 * format with a symbolized trace, repairs what the kernel repairs, and
 * stays quiet where the kernel stays quiet.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/bug.h>
#include <preempt/debug.h>
#include <preempt/irqflags.h>
#include <preempt/lockdep.h>
#include <preempt/sched.h>

#include "pk_test.h"

/* A check compiled out (-DPREEMPT_DEBUG=OFF) cannot be tested: its test
 * is left out of that build's list (pk_only_if() in main()). */

static int teardown(void **state)
{
	(void)state;
	capture_stop();
	assert_int_equal(preempt_count(), 0);
	return 0;
}

static __attribute__((noinline)) void disable_preemption_here(void)
{
	preempt_disable();
}

static void might_sleep_in_atomic_reports(void **state)
{
	char line[128];

	(void)state;
	prctl(PR_SET_NAME, "worker");
	disable_preemption_here();
	might_sleep();
	preempt_enable();
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_MIGHT_SLEEP);
	assert_report_contains("BUG: sleeping function called from invalid "
			       "context at tests/debug/test_reports.c:");
	snprintf(line, sizeof(line),
		 "in_atomic(): 1, irqs_disabled(): 0, non_block: 0, "
		 "pid: %d, name: worker\n",
		 (int)gettid());
	assert_report_contains(line);
	assert_report_contains("preempt_count: 1, expected: 0\n");
	/* Where the outermost preempt_disable() happened, symbolized. */
	assert_report_contains("Preemption disabled at:\n");
	assert_report_contains("disable_preemption_here+0x");
	assert_report_contains("Call Trace:\n");
	assert_report_contains("might_sleep_in_atomic_reports+0x");
	assert_report_contains("(test_reports.c:");
}

static void might_sleep_is_silent_when_preemptible(void **state)
{
	(void)state;
	might_sleep();
	preempt_disable();
	preempt_enable();
	might_sleep();
	assert_int_equal(captured.nr, 0);
}

static void might_sleep_is_rate_limited(void **state)
{
	(void)state;
	preempt_disable();
	might_sleep();
	might_sleep();
	might_sleep();
	assert_int_equal(captured.nr, 1);
	pk_debug_ratelimit_reset();
	might_sleep();
	preempt_enable();
	assert_int_equal(captured.nr, 2);
}

static void might_sleep_with_irqs_disabled_reports(void **state)
{
	unsigned long flags;

	(void)state;
	local_irq_save(flags);
	might_sleep();
	local_irq_restore(flags);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("in_atomic(): 1, irqs_disabled(): 1,");
	assert_report_contains("preempt_count: 1000000, expected: 0\n");
	assert_report_contains("hardirqs last disabled at (depth 1):\n");
	assert_report_contains("might_sleep_with_irqs_disabled_reports+0x");
}

static void might_sleep_in_non_block_section_reports(void **state)
{
	(void)state;
	non_block_start();
	might_sleep();
	non_block_end();
	assert_int_equal(captured.nr, 1);
	assert_report_contains("in_atomic(): 0, irqs_disabled(): 0, "
			       "non_block: 1,");
}

static void cond_resched_checks_like_might_sleep(void **state)
{
	(void)state;
	local_bh_disable();
	cond_resched();
	local_bh_enable();
	assert_int_equal(captured.nr, 1);
	assert_report_contains("preempt_count: 200, expected: 0\n");
}

static void cant_sleep_reports_when_preemptible(void **state)
{
	(void)state;
	preempt_disable();
	cant_sleep();
	preempt_enable();
	assert_int_equal(captured.nr, 0);
	cant_sleep();
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_CANT_SLEEP);
	assert_report_contains("BUG: assuming atomic context at "
			       "tests/debug/test_reports.c:");
	assert_report_contains("in_atomic(): 0, irqs_disabled(): 0, pid: ");
}

static void cant_migrate_honours_migrate_disable(void **state)
{
	(void)state;
	migrate_disable();
	cant_migrate();
	migrate_enable();
	local_irq_disable();
	cant_migrate();
	local_irq_enable();
	assert_int_equal(captured.nr, 0);
	cant_migrate();
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_CANT_MIGRATE);
	assert_report_contains("BUG: assuming non migratable context at ");
	assert_report_contains("migration_disabled() 0 pid: ");
}

static void unbalanced_preempt_enable_is_refused(void **state)
{
	(void)state;
	preempt_enable();
	assert_int_equal(preempt_count(), 0); /* repaired: not 0xff */
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_PREEMPT_COUNT);
	assert_report_contains("------------[ cut here ]------------\n");
	assert_report_contains("DEBUG_LOCKS_WARN_ON(");
	assert_report_contains("unbalanced_preempt_enable_is_refused+0x");
	/* As the kernel: after the first, lock debugging is off (silent). */
	preempt_enable();
	assert_int_equal(captured.nr, 1);
	assert_int_equal(preempt_count(), 0);
}

static void underflow_below_an_interrupt_is_refused(void **state)
{
	(void)state;
	preempt_count_add(HARDIRQ_OFFSET);
	preempt_enable(); /* no preempt depth to drop */
	assert_int_equal(preempt_count(), HARDIRQ_OFFSET);
	preempt_count_sub(HARDIRQ_OFFSET);
	preempt_count_sub(SOFTIRQ_OFFSET); /* more than the whole count */
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(captured.nr, 1); /* the second is debug_locks-off */
}

static void depth_near_255_warns(void **state)
{
	(void)state;
	for (int i = 0; i < 244; i++)
		preempt_disable();
	assert_int_equal(captured.nr, 0);
	preempt_disable(); /* 245 = PREEMPT_MASK - 10 */
	assert_int_equal(captured.nr, 1);
	assert_report_contains("spinlock count overflowing soon?");
	for (int i = 0; i < 245; i++)
		preempt_enable();
}

static void bh_enable_without_disable_is_refused(void **state)
{
	(void)state;
	local_bh_enable();
	assert_int_equal(preempt_count(), 0);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("local_bh_enable() without local_bh_disable()");
}

static void bh_enable_in_hardirq_warns(void **state)
{
	(void)state;
	preempt_count_add(HARDIRQ_OFFSET);
	local_bh_disable();
	local_bh_enable();
	preempt_count_sub(HARDIRQ_OFFSET);
	assert_int_equal(captured.nr, 1);
	assert_report_contains("WARNING: CPU: ");
}

static void warn_on_returns_its_condition(void **state)
{
	int line = __LINE__ + 2;
	char at[128];
	bool fired = WARN_ON(2 > 1);

	(void)state;
	assert_true(fired);
	assert_false(WARN_ON(0));
	assert_int_equal(captured.nr, 1);
	assert_int_equal(captured.kind, PK_REPORT_WARN);
	snprintf(at, sizeof(at),
		 " at tests/debug/test_reports.c:%d "
		 "warn_on_returns_its_condition+0x",
		 line);
	assert_report_contains(at);
	assert_report_contains("---[ end trace");
	assert_true(WARN(1, "custom %d", 42));
	assert_report_contains("custom 42\n");
}

static void warn_on_once_fires_once_per_site(void **state)
{
	(void)state;
	for (int i = 0; i < 3; i++)
		assert_true(WARN_ON_ONCE(i >= 0));
	assert_int_equal(captured.nr, 1);
	pk_debug_ratelimit_reset(); /* re-arms the once-only sites */
	for (int i = 0; i < 3; i++)
		WARN_ON_ONCE(1);
	assert_int_equal(captured.nr, 2);
}

static void lockdep_asserts(void **state)
{
	unsigned long flags;

	(void)state;
	lockdep_assert_irqs_enabled();
	lockdep_assert_preemption_enabled();
	local_irq_save(flags);
	lockdep_assert_irqs_disabled();
	lockdep_assert_preemption_disabled();
	local_irq_restore(flags);
	preempt_disable();
	lockdep_assert_preemption_disabled();
	preempt_enable();
	assert_int_equal(captured.nr, 0);

	lockdep_assert_irqs_disabled();
	assert_int_equal(captured.nr, 1);
	preempt_disable();
	lockdep_assert_preemption_enabled();
	preempt_enable();
	assert_int_equal(captured.nr, 2);
	lockdep_assert_preemption_disabled();
	assert_int_equal(captured.nr, 3);
	local_irq_disable();
	lockdep_assert_irqs_enabled();
	local_irq_enable();
	assert_int_equal(captured.nr, 4);
	lockdep_assert_in_softirq();
	assert_int_equal(captured.nr, 5);
}

static void hook_can_let_reports_through(void **state)
{
	unsigned long before = pk_report_count();

	(void)state;
	WARN_ON(1);
	assert_int_equal(pk_report_count(), before + 1);
	assert_string_equal(pk_report_kind_str(PK_REPORT_MIGHT_SLEEP),
			    "might_sleep");
}

/* Run @fn in a child with stderr captured; returns the wait status. */
static int in_child(void (*fn)(void), char *err, size_t size)
{
	int pipefd[2], status;
	ssize_t n, len = 0;
	pid_t pid;

	assert_int_equal(pipe(pipefd), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(pipefd[1], STDERR_FILENO);
		close(pipefd[0]);
		pk_set_report_hook(NULL, NULL);
		fn();
		_exit(0);
	}
	close(pipefd[1]);
	while ((n = read(pipefd[0], err + len, size - 1 - (size_t)len)) > 0)
		len += n;
	err[len] = '\0';
	close(pipefd[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* Not a sibling call, so the frame stays in the trace. */
static __attribute__((optimize("no-optimize-sibling-calls"))) void
child_warns(void)
{
	WARN_ON(1);
}

static __attribute__((optimize("no-optimize-sibling-calls"))) void
child_dumps_stack(void)
{
	dump_stack();
}

static void dump_stack_prints_a_symbolized_trace(void **state)
{
	static char err[16384];
	int status = in_child(child_dumps_stack, err, sizeof(err));

	(void)state;
	assert_true(WIFEXITED(status));
	assert_non_null(strstr(err, "Call Trace:\n"));
	assert_non_null(strstr(err, "child_dumps_stack+0x"));
	assert_non_null(strstr(err, "(test_reports.c:"));
	assert_null(strstr(err, "pk_rbuf_")); /* machinery left out */
}

static void child_bugs(void)
{
	BUG_ON(1 + 1 == 2);
}

static void child_warns_with_panic_on_warn(void)
{
	pk_set_panic_on_warn(true);
	WARN_ON(1);
}

static void reports_go_to_stderr_and_execution_goes_on(void **state)
{
	static char err[16384];
	int status = in_child(child_warns, err, sizeof(err));

	(void)state;
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	assert_non_null(strstr(err, "------------[ cut here ]------------"));
	assert_non_null(strstr(err, "child_warns+0x"));
}

static void bug_on_aborts(void **state)
{
	static char err[16384];
	int status = in_child(child_bugs, err, sizeof(err));

	(void)state;
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(
		strstr(err, "kernel BUG at tests/debug/test_reports.c:"));
}

static void panic_on_warn_aborts(void **state)
{
	static char err[16384];
	int status = in_child(child_warns_with_panic_on_warn, err, sizeof(err));

	(void)state;
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGABRT);
	assert_non_null(strstr(err, "panic_on_warn set"));
}

/* PREEMPT_PANIC_ON_WARN=1: re-run this binary in warn-once mode. */
static void panic_on_warn_from_environment(void **state)
{
	char *self = realpath("/proc/self/exe", NULL);
	int status;
	pid_t pid;

	(void)state;
	assert_non_null(self);
	for (int panic = 0; panic <= 1; panic++) {
		pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, STDERR_FILENO);
			setenv("PREEMPT_PANIC_ON_WARN", panic ? "1" : "0", 1);
			pk_execv(self,
				 (char *const[]){self, "--warn-once", NULL});
			_exit(127);
		}
		assert_int_equal(waitpid(pid, &status, 0), pid);
		if (panic) {
			assert_true(WIFSIGNALED(status));
			assert_int_equal(WTERMSIG(status), SIGABRT);
		} else {
			assert_true(WIFEXITED(status));
			assert_int_equal(WEXITSTATUS(status), 0);
		}
	}
	free(self);
}

/* With the checks compiled out, misuse goes unreported: nothing is left. */
static void checks_compiled_out_are_silent(void **state)
{
	(void)state;
	preempt_disable();
	might_sleep();
	cant_migrate();
	preempt_enable();
	cant_sleep();
	lockdep_assert_irqs_disabled();
	assert_int_equal(captured.nr, 0);
	assert_int_equal(preempt_count(), 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, capture_setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP && CONFIG_DEBUG_PREEMPT,
			   T(might_sleep_in_atomic_reports)),
		T(might_sleep_is_silent_when_preemptible),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(might_sleep_is_rate_limited)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP && CONFIG_TRACE_IRQFLAGS,
			   T(might_sleep_with_irqs_disabled_reports)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(might_sleep_in_non_block_section_reports)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(cond_resched_checks_like_might_sleep)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(cant_sleep_reports_when_preemptible)),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP,
			   T(cant_migrate_honours_migrate_disable)),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   T(unbalanced_preempt_enable_is_refused)),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   T(underflow_below_an_interrupt_is_refused)),
		pk_only_if(CONFIG_DEBUG_PREEMPT, T(depth_near_255_warns)),
		T(bh_enable_without_disable_is_refused),
		T(bh_enable_in_hardirq_warns),
		T(warn_on_returns_its_condition),
		T(warn_on_once_fires_once_per_site),
		pk_only_if(CONFIG_DEBUG_ATOMIC_SLEEP, T(lockdep_asserts)),
		T(hook_can_let_reports_through),
		T(reports_go_to_stderr_and_execution_goes_on),
		T(bug_on_aborts),
		T(dump_stack_prints_a_symbolized_trace),
		T(panic_on_warn_aborts),
		T(panic_on_warn_from_environment),
		pk_only_if(!CONFIG_DEBUG_ATOMIC_SLEEP && !CONFIG_DEBUG_PREEMPT,
			   T(checks_compiled_out_are_silent)),
	};

	if (argc > 1 && !strcmp(argv[1], "--warn-once")) {
		WARN_ON(1);
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
