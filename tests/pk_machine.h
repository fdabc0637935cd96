/* SPDX-License-Identifier: MIT */
#ifndef PK_MACHINE_H
#define PK_MACHINE_H

/*
 * Helpers for tests that boot a machine: booting at 1000 Hz, a monotonic
 * clock in milliseconds, and the setup/teardown pair that captures reports
 * and shuts the machine down after each test.
 */

#include <time.h>

#include <preempt/sched.h>

#include "pk_test.h"

/* Boot @cpus vCPUs at 1000 Hz in @model, or fail the test. */
static inline void pk_boot(int cpus, enum preempt_model model)
{
	struct machine_config cfg = {
		.nr_cpus = cpus, .hz = 1000, .model = (int)model};

	assert_int_equal(machine_boot(&cfg), 0);
}

/* pk_boot(), and check that all @cpus came online. */
static inline void pk_boot_online(int cpus, enum preempt_model model)
{
	pk_boot(cpus, model);
	assert_int_equal(num_online_cpus(), cpus);
}

static inline long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* After each test: the machine down, reports uncaptured, model reset. */
static inline int machine_teardown(void **state)
{
	(void)state;
	machine_shutdown();
	capture_stop();
	preempt_model_set(PREEMPT_MODEL_FULL);
	return 0;
}

#endif /* PK_MACHINE_H */
