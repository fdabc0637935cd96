/* SPDX-License-Identifier: MIT */
#ifndef PK_RCU_HELPERS_H
#define PK_RCU_HELPERS_H

/*
 * Shared by the RCU tests: a reader that holds its section until told,
 * and an updater that records what the reader was doing when its grace
 * period ended.  A grace period that ends early shows as an updater that
 * saw the reader still inside -- the check never depends on timing, only
 * the chance of catching a broken grace period does.
 */

#include <pthread.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>

#include "pk_machine.h"

enum reader_kind {
	READER_RCU,
	READER_BH,
	READER_SCHED,
};

struct hold {
	enum reader_kind kind;
	int entered;
	int release;
	int left; /* set inside the section, just before the unlock */
	int host; /* held by a thread that is not a vCPU */
};

/*
 * Set by a teardown after a failed test: readers leave at once, so the
 * machine can shut down and the failure shows as a failure, not a hang.
 */
static int hold_abort;

static inline bool hold_released(const struct hold *h)
{
	return __atomic_load_n(&h->release, __ATOMIC_ACQUIRE) ||
	       __atomic_load_n(&hold_abort, __ATOMIC_ACQUIRE);
}

static inline int rcu_test_teardown(void **state)
{
	__atomic_store_n(&hold_abort, 1, __ATOMIC_SEQ_CST);
	machine_teardown(state);
	__atomic_store_n(&hold_abort, 0, __ATOMIC_SEQ_CST);
	pk_rcu_set_boot_flavour(PK_RCU_FLAVOUR_AUTO);
	return 0;
}

static inline void hold_lock(enum reader_kind kind)
{
	if (kind == READER_BH)
		rcu_read_lock_bh();
	else if (kind == READER_SCHED)
		rcu_read_lock_sched();
	else
		rcu_read_lock();
}

static inline void hold_unlock(enum reader_kind kind)
{
	if (kind == READER_BH)
		rcu_read_unlock_bh();
	else if (kind == READER_SCHED)
		rcu_read_unlock_sched();
	else
		rcu_read_unlock();
}

/* The reader: inside until ->release. */
static inline void hold_section(struct hold *h)
{
	hold_lock(h->kind);
	__atomic_store_n(&h->entered, 1, __ATOMIC_SEQ_CST);
	while (!hold_released(h)) {
		if (h->host)
			usleep(100); /* a thread, not a task: may block */
		else
			__asm__ __volatile__("" ::: "memory");
	}
	__atomic_store_n(&h->left, 1, __ATOMIC_SEQ_CST);
	hold_unlock(h->kind);
}

static inline int hold_task(void *arg)
{
	hold_section(arg);
	return 0;
}

static inline void *hold_thread(void *arg)
{
	hold_section(arg);
	return NULL;
}

static inline void wait_flag(int *flag)
{
	long deadline = now_ms() + 10000;

	while (!__atomic_load_n(flag, __ATOMIC_ACQUIRE)) {
		if (now_ms() > deadline)
			fail_msg("flag never set");
		usleep(100);
	}
}

#endif /* PK_RCU_HELPERS_H */
