/* SPDX-License-Identifier: MIT */
#ifndef PK_KERNEL_CHECK_H
#define PK_KERNEL_CHECK_H

/*
 * make kernel-check's behaviour tests: each links one real kernel file
 * (compiled with the documented flags) and runs on a machine in the model
 * $PREEMPT_MODEL names.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <linux/atomic.h>
#include <linux/kernel.h>
#include <linux/sched.h>

static inline void check_boot(int cpus)
{
	struct machine_config cfg = {.nr_cpus = cpus, .hz = HZ, .model = -1};

	assert_int_equal(machine_boot(&cfg), 0);
}

static inline int check_run(int (*fn)(void *), void *arg)
{
	struct task_struct *k = kthread_run(fn, arg, "check");

	assert_false(IS_ERR_OR_NULL(k));
	return kthread_stop(k);
}

#endif /* PK_KERNEL_CHECK_H */
