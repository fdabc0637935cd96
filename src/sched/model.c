// SPDX-License-Identifier: MIT
/* The preemption model: a run-time value, as PREEMPT_DYNAMIC makes it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <preempt/preempt.h>
#include <preempt/sched.h>

static const char *const model_names[PREEMPT_MODEL_NR] = {
	[PREEMPT_MODEL_NONE] = "none", [PREEMPT_MODEL_VOLUNTARY] = "voluntary",
	[PREEMPT_MODEL_FULL] = "full", [PREEMPT_MODEL_LAZY] = "lazy",
	[PREEMPT_MODEL_RT] = "rt",
};

/* Full by default: v7.0 dropped none and voluntary on the main arches. */
static enum preempt_model current_model = PREEMPT_MODEL_FULL;

__attribute__((constructor)) static void model_from_environment(void)
{
	const char *env = getenv("PREEMPT_MODEL");
	int model;

	if (!env || !*env)
		return;
	model = preempt_model_parse(env);
	if (model < 0) {
		fprintf(stderr,
			"libpreempt: PREEMPT_MODEL=%s is not one of none, "
			"voluntary, full, lazy, rt; using %s\n",
			env, model_names[current_model]);
		return;
	}
	current_model = (enum preempt_model)model;
}

enum preempt_model preempt_model(void)
{
	return __atomic_load_n(&current_model, __ATOMIC_RELAXED);
}

bool pk_machine_running(void);

int preempt_model_set(enum preempt_model model)
{
	if ((unsigned int)model >= PREEMPT_MODEL_NR)
		return -EINVAL;
	/* Locks already taken decided by the boot model: rt is for life. */
	if (pk_machine_running() &&
	    (model == PREEMPT_MODEL_RT) != pk_machine_rt())
		return -EBUSY;
	__atomic_store_n(&current_model, model, __ATOMIC_RELAXED);
	return 0;
}

int preempt_model_parse(const char *name)
{
	for (int i = 0; i < PREEMPT_MODEL_NR; i++)
		if (name && !strcmp(name, model_names[i]))
			return i;
	return -1;
}

const char *preempt_model_str(enum preempt_model model)
{
	if ((unsigned int)model >= PREEMPT_MODEL_NR)
		return "unknown";
	return model_names[model];
}
