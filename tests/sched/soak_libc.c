// SPDX-License-Identifier: MIT
/*
 * The safe-point rule in one program, without cmocka, so that it links
 * fully static (libc.a has no shared cmocka to go with it):
 *
 *   soak_libc [SECONDS-PER-MODEL [MODEL...]]
 *
 * runs the callback, inside-libc and inside-libpreempt cases once, then tasks
 * in malloc/free/snprintf loops on 2 vCPUs in each model (default: every model,
 * 1 s each).  Exit status 0 when every check held, 1 otherwise, with one line
 * per failure; 2 for bad arguments.
 */
#include "safepoint_cases.h"

static const char *const model_names[PREEMPT_MODEL_NR] = {"none", "voluntary",
							  "full", "lazy", "rt"};

static int model_by_name(const char *name)
{
	for (int m = 0; m < PREEMPT_MODEL_NR; m++)
		if (!strcmp(name, model_names[m]))
			return m;
	return -1;
}

static int check(const char *what, const char *error)
{
	printf("%-28s %s\n", what, error ? error : "ok");
	return error != NULL;
}

int main(int argc, char **argv)
{
	long seconds = argc > 1 ? strtol(argv[1], NULL, 10) : 1;
	int failed = 0, models[PREEMPT_MODEL_NR], nr = 0;

	if (seconds <= 0) {
		fprintf(stderr, "soak_libc: bad seconds '%s'\n", argv[1]);
		return 2;
	}
	for (int i = 2; i < argc; i++)
		if ((models[nr++] = model_by_name(argv[i])) < 0) {
			fprintf(stderr, "soak_libc: unknown model '%s'\n",
				argv[i]);
			return 2;
		}
	if (!nr)
		for (; nr < PREEMPT_MODEL_NR; nr++)
			models[nr] = nr;
	setvbuf(stdout, NULL, _IOLBF, 0);
	failed |= check("callback from libc", case_callback_from_libc());
	failed |= check("inside libc", case_inside_libc());
	failed |= check("inside libpreempt", case_inside_library());
	for (int i = 0; i < nr; i++) {
		unsigned long preempted = 0;
		const char *error = case_soak((enum preempt_model)models[i], 4,
					      seconds * 1000, &preempted);
		char what[64];

		if (!error && !preempted)
			error = "never preempted at interrupt return";
		snprintf(what, sizeof(what), "soak %s %lds (%lu irq-ret)",
			 model_names[models[i]], seconds, preempted);
		failed |= check(what, error);
	}
	return failed;
}
