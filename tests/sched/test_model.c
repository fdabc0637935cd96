// SPDX-License-Identifier: MIT
/*
 * The preemption model is a run-time value; it changes *where* a task may
 * be switched out (kernel/Kconfig.preempt; kernel/sched/core.c, the
 * preempt_dynamic code), never what the count says.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <preempt/debug.h>
#include <preempt/irqflags.h>
#include <preempt/sched.h>

#include "pk_test.h"

static int setup(void **state)
{
	(void)state;
	capture_reset();
	clear_preempt_need_resched();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	capture_stop();
	clear_preempt_need_resched();
	assert_int_equal(preempt_count(), 0);
	return 0;
}

static void names_round_trip(void **state)
{
	(void)state;
	for (int m = 0; m < PREEMPT_MODEL_NR; m++)
		assert_int_equal(preempt_model_parse(preempt_model_str(m)), m);
	assert_int_equal(preempt_model_parse("preempt"), -1);
	assert_int_equal(preempt_model_parse(NULL), -1);
	assert_int_equal(preempt_model_set(PREEMPT_MODEL_NR), -EINVAL);
	assert_string_equal(preempt_model_str(PREEMPT_MODEL_LAZY), "lazy");
}

static void queries_follow_the_model(void **state)
{
	(void)state;
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		preempt_model_set(m);
		assert_int_equal(preempt_model(), m);
		assert_int_equal(preempt_model_none(), m == PREEMPT_MODEL_NONE);
		assert_int_equal(preempt_model_voluntary(),
				 m == PREEMPT_MODEL_VOLUNTARY);
		assert_int_equal(preempt_model_full(), m == PREEMPT_MODEL_FULL);
		assert_int_equal(preempt_model_lazy(), m == PREEMPT_MODEL_LAZY);
		assert_int_equal(preempt_model_rt(), m == PREEMPT_MODEL_RT);
		assert_int_equal(preempt_model_preemptible(),
				 m >= PREEMPT_MODEL_FULL);
	}
}

static unsigned long resched(enum pk_resched_kind kind)
{
	return pk_sched_stats().resched[kind];
}

/* Which primitive is a preemption point under which model. */
static void preemption_points_follow_the_model(void **state)
{
	(void)state;
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		bool preemptible_model = m >= PREEMPT_MODEL_FULL;
		unsigned long before;

		preempt_model_set(m);

		/* preempt_enable() reaching zero with a reschedule owed. */
		before = resched(PK_RESCHED_PREEMPT_ENABLE);
		preempt_disable();
		set_preempt_need_resched();
		preempt_enable();
		assert_int_equal(resched(PK_RESCHED_PREEMPT_ENABLE) - before,
				 preemptible_model);
		assert_int_equal(need_resched(), !preemptible_model);

		/* cond_resched(): none and voluntary only. */
		set_preempt_need_resched();
		before = resched(PK_RESCHED_COND_RESCHED);
		assert_int_equal(cond_resched(), !preemptible_model);
		assert_int_equal(resched(PK_RESCHED_COND_RESCHED) - before,
				 !preemptible_model);

		/* might_sleep(): voluntary only. */
		set_preempt_need_resched();
		before = resched(PK_RESCHED_COND_RESCHED);
		might_sleep();
		assert_int_equal(resched(PK_RESCHED_COND_RESCHED) - before,
				 m == PREEMPT_MODEL_VOLUNTARY);
		clear_preempt_need_resched();
	}
	assert_int_equal(captured.nr, 0);
}

static void no_preemption_point_while_atomic(void **state)
{
	unsigned long before = resched(PK_RESCHED_PREEMPT_ENABLE);
	unsigned long flags;

	(void)state;
	preempt_model_set(PREEMPT_MODEL_FULL);
	set_preempt_need_resched();
	local_irq_save(flags);
	preempt_disable();
	preempt_enable(); /* irqs still off: the word is not zero */
	assert_true(need_resched());
	local_irq_restore(flags);
	preempt_disable();
	preempt_disable();
	preempt_enable(); /* still nested */
	assert_int_equal(resched(PK_RESCHED_PREEMPT_ENABLE), before);
	preempt_enable();
	assert_int_equal(resched(PK_RESCHED_PREEMPT_ENABLE), before + 1);
	assert_false(need_resched());
}

/* The child prints its model; stderr is returned in @err. */
static int model_of_child(const char *env, char *err, size_t size)
{
	char *self = realpath("/proc/self/exe", NULL);
	int out[2], errp[2], status, model = -1;
	char buf[64] = "";
	ssize_t n;
	pid_t pid;

	assert_non_null(self);
	assert_int_equal(pipe(out), 0);
	assert_int_equal(pipe(errp), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(out[1], STDOUT_FILENO);
		dup2(errp[1], STDERR_FILENO);
		if (env)
			setenv("PREEMPT_MODEL", env, 1);
		else
			unsetenv("PREEMPT_MODEL");
		pk_execv(self, (char *const[]){self, "--print-model", NULL});
		_exit(127);
	}
	close(out[1]);
	close(errp[1]);
	n = read(out[0], buf, sizeof(buf) - 1);
	if (n > 0)
		buf[n] = '\0';
	n = read(errp[0], err, size - 1);
	err[n > 0 ? n : 0] = '\0';
	close(out[0]);
	close(errp[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	free(self);
	model = preempt_model_parse(strtok(buf, "\n"));
	return model;
}

static void model_from_the_environment(void **state)
{
	char err[512];

	(void)state;
	assert_int_equal(model_of_child("none", err, sizeof(err)),
			 PREEMPT_MODEL_NONE);
	assert_string_equal(err, "");
	assert_int_equal(model_of_child("rt", err, sizeof(err)),
			 PREEMPT_MODEL_RT);
	assert_int_equal(model_of_child(NULL, err, sizeof(err)),
			 PREEMPT_MODEL_FULL);
	/* A bad value: one line saying so, and the default. */
	assert_int_equal(model_of_child("fast", err, sizeof(err)),
			 PREEMPT_MODEL_FULL);
	assert_non_null(strstr(err, "PREEMPT_MODEL=fast is not one of"));
	assert_non_null(strchr(err, '\n'));
	assert_null(strchr(strchr(err, '\n') + 1, '\n'));
}

#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		T(names_round_trip),
		T(queries_follow_the_model),
		T(preemption_points_follow_the_model),
		T(no_preemption_point_while_atomic),
		T(model_from_the_environment),
	};

	if (argc > 1 && !strcmp(argv[1], "--print-model")) {
		printf("%s\n", preempt_model_str(preempt_model()));
		return 0;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
