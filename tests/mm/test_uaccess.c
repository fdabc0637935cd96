// SPDX-License-Identifier: MIT
/*
 * Page-fault disabling and the user copies: a fault in copy_from_user()
 * and friends is fixed up to "bytes not copied"; a page not populated yet
 * is populated when page faults may be handled, and fails fast when
 * faulthandler_disabled(); the counter is per task; faults that are not
 * the layer's still kill.
 */
#define _GNU_SOURCE
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <preempt/mm.h>
#include <preempt/uaccess.h>
#include <preempt/wait.h>

#include "pk_machine.h"

#define REGION (4 * PAGE_SIZE)

static char __user *user;

static int setup(void **state)
{
	(void)state;
	capture_reset();
	user = pk_user_map(REGION);
	return user ? 0 : -1;
}

static int teardown(void **state)
{
	assert_int_equal(pk_user_unmap(user), 0);
	assert_int_equal(preempt_count(), 0);
	assert_false(pagefault_disabled());
	return machine_teardown(state);
}

/* cmocka catches SIGSEGV in each test: ours goes in front again. */
#define ARM() pk_mm_fault_handler_install()

static void pagefault_disable_nests_and_is_not_atomic(void **state)
{
	(void)state;
	assert_false(pagefault_disabled());
	assert_false(faulthandler_disabled());
	pagefault_disable();
	pagefault_disable();
	assert_true(pagefault_disabled());
	assert_true(faulthandler_disabled());
	assert_true(preemptible());
	pagefault_enable();
	assert_true(pagefault_disabled());
	pagefault_enable();
	assert_false(faulthandler_disabled());
	preempt_disable(); /* atomic: the handler could not sleep either */
	assert_true(faulthandler_disabled());
	assert_false(pagefault_disabled());
	preempt_enable();
}

static void copies_populate_pages_when_faults_are_enabled(void **state)
{
	struct pk_mm_stats before = pk_mm_stats();
	char buf[64] = "through a fault";
	unsigned int v = 0;

	(void)state;
	ARM();
	assert_int_equal(copy_to_user(user + 10, buf, sizeof(buf)), 0);
	memset(buf, 0, sizeof(buf));
	assert_int_equal(copy_from_user(buf, user + 10, sizeof(buf)), 0);
	assert_string_equal(buf, "through a fault");
	assert_int_equal(pk_mm_stats().faults_populated,
			 before.faults_populated + 1);
	assert_int_equal(
		put_user(0xfeedU, (unsigned int __user *)(user + PAGE_SIZE)),
		0);
	assert_int_equal(get_user(v, (unsigned int __user *)(user + PAGE_SIZE)),
			 0);
	assert_int_equal(v, 0xfeed);
	assert_int_equal(pk_mm_stats().faults_fixed, before.faults_fixed);
	assert_int_equal(captured.nr, 0);
}

static void a_fault_returns_the_bytes_not_copied(void **state)
{
	char buf[100];
	char __user *end = user + REGION;
	unsigned long v = 1;

	(void)state;
	ARM();
	memset(buf, 'x', sizeof(buf));
	assert_int_equal(copy_to_user(end - 40, buf, 40), 0);
	/* 40 bytes in the region, 60 in its guard page. */
	assert_int_equal(copy_to_user(end - 40, buf, 100), 60);
	memset(buf, 'y', sizeof(buf));
	assert_int_equal(__copy_from_user_inatomic(buf, end - 40, 100), 60);
	assert_int_equal(buf[39], 'x');
	assert_int_equal(buf[40], 'y'); /* the inatomic copy zeroes nothing */
	memset(buf, 'y', sizeof(buf));
	assert_int_equal(copy_from_user(buf, end - 40, 100), 60);
	assert_int_equal(buf[39], 'x');
	assert_int_equal(buf[40], 0); /* copy_from_user() zeroes the rest */
	assert_int_equal(buf[99], 0);
	/* Not user memory at all. */
	assert_int_equal(copy_from_user(buf, (void __user *)buf, 10), 10);
	assert_int_equal(get_user(v, (unsigned long __user *)(end - 4)),
			 -EFAULT);
	assert_int_equal(v, 0);
	assert_int_equal(captured.nr, 0);
}

static void faulthandler_disabled_fails_fast(void **state)
{
	struct pk_mm_stats before = pk_mm_stats();
	char buf[32] = "x";

	(void)state;
	ARM();
	pk_user_depopulate(user, REGION);
	pagefault_disable();
	assert_int_equal(copy_to_user(user, buf, sizeof(buf)), sizeof(buf));
	assert_int_equal(copy_from_user_nofault(buf, user, 8), -EFAULT);
	pagefault_enable();
	assert_int_equal(pk_mm_stats().faults_populated,
			 before.faults_populated);
	assert_int_equal(pk_mm_stats().faults_fixed, before.faults_fixed + 2);
	assert_int_equal(captured.nr, 0); /* no might_fault report */

	preempt_disable(); /* atomic: fails fast too, but is reported */
	assert_int_equal(copy_to_user(user, buf, sizeof(buf)), sizeof(buf));
	preempt_enable();
	if (CONFIG_DEBUG_ATOMIC_SLEEP) {
		assert_int_equal(captured.nr, 1);
		assert_report_contains("BUG: sleeping function called from "
				       "invalid context");
	}
	/* Enabled again: the same copy populates the page and succeeds. */
	assert_int_equal(copy_to_user(user, buf, sizeof(buf)), 0);
}

/* ---- the counter belongs to the task ---- */

struct pf_run {
	struct completion a_disabled, b_done;
	int b_saw_disabled, a_still_disabled;
};

static int pf_task_b(void *arg)
{
	struct pf_run *r = arg;

	wait_for_completion(&r->a_disabled);
	r->b_saw_disabled = pagefault_disabled();
	complete(&r->b_done);
	return 0;
}

static int pf_task_a(void *arg)
{
	struct pf_run *r = arg;

	pagefault_disable();
	complete(&r->a_disabled);
	wait_for_completion(&r->b_done); /* B runs on this CPU meanwhile */
	r->a_still_disabled = pagefault_disabled();
	pagefault_enable();
	return 0;
}

static void the_counter_follows_the_task(void **state)
{
	struct pf_run r = {0};
	struct task_struct *a, *b;

	(void)state;
	init_completion(&r.a_disabled);
	init_completion(&r.b_done);
	pk_boot_online(1, PREEMPT_MODEL_FULL);
	b = kthread_run(pf_task_b, &r, "pf-b");
	a = kthread_run(pf_task_a, &r, "pf-a");
	assert_int_equal(kthread_stop(a), 0);
	assert_int_equal(kthread_stop(b), 0);
	assert_false(r.b_saw_disabled);
	assert_true(r.a_still_disabled);
}

/* ---- faults that are not ours ---- */

static void foreign_faults_still_kill(void **state)
{
	pid_t pid;
	int status;

	(void)state;
	pid = fork();
	if (pid == 0) {
		signal(SIGSEGV, SIG_DFL); /* not cmocka's: the default */
		pk_mm_fault_handler_install();
		*(volatile int *)(void *)(user + REGION) = 1; /* a guard page */
		_exit(0);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* ASan reports and exits non-zero; otherwise SIGSEGV. */
	assert_true(WIFSIGNALED(status) ? WTERMSIG(status) == SIGSEGV
					: WEXITSTATUS(status) != 0);
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(pagefault_disable_nests_and_is_not_atomic),
		T(copies_populate_pages_when_faults_are_enabled),
		T(a_fault_returns_the_bytes_not_copied),
		T(faulthandler_disabled_fails_fast),
		T(the_counter_follows_the_task),
		T(foreign_faults_still_kill),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
