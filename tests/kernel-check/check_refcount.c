// SPDX-License-Identifier: MIT
/*
 * lib/refcount.c and lib/dec_and_lock.c: objects shared by four tasks on
 * two CPUs, each taking and dropping references; the last put, and only
 * it, comes back holding the lock (refcount_dec_and_lock(),
 * atomic_dec_and_lock(), refcount_dec_and_mutex_lock()).  Misuse
 * saturates with the kernel's warning, formatted by the program's
 * refcount_warn_saturate().
 */

#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/spinlock.h>

#include "check.h"

#define TASKS 4
#define ROUNDS 20000

static struct {
	refcount_t ref;
	atomic_t plain;
	refcount_t mref;
} obj;
static DEFINE_SPINLOCK(lock);
static DEFINE_MUTEX(mtx);
static atomic_t last_ref, last_plain, last_mref, bad;

static int user(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		refcount_inc(&obj.ref);
		atomic_inc(&obj.plain);
		/* Never the last: our own reference is still held. */
		if (refcount_dec_and_lock(&obj.ref, &lock) ||
		    atomic_dec_and_lock(&obj.plain, &lock))
			atomic_inc(&bad);
		if (!(i % 512))
			cond_resched();
	}
	if (refcount_dec_and_lock(&obj.ref, &lock)) {
		if (!spin_is_locked(&lock))
			atomic_inc(&bad);
		atomic_inc(&last_ref);
		spin_unlock(&lock);
	}
	if (atomic_dec_and_lock(&obj.plain, &lock)) {
		atomic_inc(&last_plain);
		spin_unlock(&lock);
	}
	msleep(1);
	if (refcount_dec_and_mutex_lock(&obj.mref, &mtx)) {
		if (!mutex_is_locked(&mtx))
			atomic_inc(&bad);
		atomic_inc(&last_mref);
		mutex_unlock(&mtx);
	}
	return 0;
}

static void last_put_locks(void **state)
{
	struct task_struct *t[TASKS];

	(void)state;
	refcount_set(&obj.ref, TASKS);
	atomic_set(&obj.plain, TASKS);
	refcount_set(&obj.mref, TASKS);
	check_boot(2);
	for (int i = 0; i < TASKS; i++)
		t[i] = kthread_run(user, NULL, "user");
	for (int i = 0; i < TASKS; i++)
		kthread_stop(t[i]);
	machine_shutdown();
	assert_int_equal(atomic_read(&bad), 0);
	assert_int_equal(atomic_read(&last_ref), 1);
	assert_int_equal(atomic_read(&last_plain), 1);
	assert_int_equal(atomic_read(&last_mref), 1);
	assert_int_equal(refcount_read(&obj.ref), 0);
}

static int misuse(void *arg)
{
	refcount_t r;

	(void)arg;
	refcount_set(&r, 1);
	if (refcount_dec_if_one(&r) != true || refcount_read(&r) != 0)
		return -1;
	refcount_inc(&r); /* on 0: use after free */
	if (refcount_read(&r) != REFCOUNT_SATURATED)
		return -2;
	refcount_set(&r, 2);
	if (!refcount_dec_not_one(&r) || refcount_dec_not_one(&r))
		return -3;
	refcount_dec(&r); /* 1 -> 0 by refcount_dec(): a leak */
	if (refcount_read(&r) != REFCOUNT_SATURATED)
		return -4;
	/* Saturated stays saturated. */
	if (refcount_dec_and_test(&r) ||
	    refcount_read(&r) != REFCOUNT_SATURATED)
		return -5;
	return 0;
}

static void saturation(void **state)
{
	char out[8192];
	FILE *f = tmpfile();
	int saved = dup(2);
	ssize_t n;

	(void)state;
	assert_non_null(f);
	check_boot(1);
	dup2(fileno(f), 2);
	n = check_run(misuse, NULL);
	dup2(saved, 2);
	machine_shutdown();
	assert_int_equal(n, 0);
	n = pread(fileno(f), out, sizeof(out) - 1, 0);
	assert_true(n > 0);
	out[n] = '\0';
	assert_non_null(
		strstr(out, "refcount_t: addition on 0; use-after-free."));
	assert_non_null(
		strstr(out, "refcount_t: decrement hit 0; leaking memory."));
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(last_put_locks),
		cmocka_unit_test(saturation),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
