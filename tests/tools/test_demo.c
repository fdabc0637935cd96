// SPDX-License-Identifier: MIT
/*
 * `preempt demo`: the built tool end to end.  A short run of two models
 * with --json, checked for structure and sane values (no timing
 * thresholds), and bad options: exit 2 with one line on stderr.
 */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "run_tool.h"

#define DEMO(...)                                                              \
	run_tool_with(                                                         \
		NULL, NULL,                                                    \
		(const char *const[]){"preempt", "demo", __VA_ARGS__, NULL})

/* ---- a small reader for the tool's JSON: "key": value after @from ---- */

/* The text just after "key": at or after @from, or fail. */
static const char *value_of(const char *from, const char *end, const char *key)
{
	char pat[64];
	const char *p;

	snprintf(pat, sizeof(pat), "\"%s\": ", key);
	p = strstr(from, pat);
	if (!p || (end && p >= end))
		fail_msg("no \"%s\" in:\n%s", key, from);
	return p + strlen(pat);
}

static double number(const char *from, const char *end, const char *key)
{
	const char *v = value_of(from, end, key);
	char *stop;
	double d = strtod(v, &stop);

	if (stop == v)
		fail_msg("\"%s\" is not a number: %.20s", key, v);
	return d;
}

static void string_is(const char *from, const char *end, const char *key,
		      const char *want)
{
	const char *v = value_of(from, end, key);
	size_t n = strlen(want);

	if (v[0] != '"' || strncmp(v + 1, want, n) || v[n + 1] != '"')
		fail_msg("\"%s\" is not \"%s\": %.20s", key, want, v);
}

static const char *const count_keys[] = {
	"context_walks",  "samples",	      "overruns",	"hog_loops",
	"lock_ops",	  "context_switches", "preempt_enable", "irq_return",
	"cond_resched",	  "irqs_raised",      "inline",		"ksoftirqd",
	"net_rx_packets", "reports",
};

static void check_row(const char *row, const char *end, const char *model)
{
	double min, p50, p99, max;

	string_is(row, end, "model", model);
	string_is(row, end, "context_checks", "ok");
	assert_true(number(row, end, "context_mismatches") == 0);
	assert_true(number(row, end, "context_walks") >= 1);
	for (size_t i = 0; i < sizeof(count_keys) / sizeof(count_keys[0]); i++)
		if (number(row, end, count_keys[i]) < 0)
			fail_msg("%s: %s < 0", model, count_keys[i]);
	assert_true(number(row, end, "samples") >= 1);
	min = number(row, end, "min");
	p50 = number(row, end, "p50");
	p99 = number(row, end, "p99");
	max = number(row, end, "max");
	if (!(0 <= min && min <= p50 && p50 <= p99 && p99 <= max))
		fail_msg("%s: latency min %f p50 %f p99 %f max %f", model, min,
			 p50, p99, max);
	assert_true(number(row, end, "seconds") > 0);
	assert_true(number(row, end, "hog_loops") > 0);
	assert_true(number(row, end, "throughput_mloops_per_s") > 0);
	assert_true(number(row, end, "context_switches") > 0);
	assert_true(number(row, end, "irqs_raised") > 0);
	/* The interrupt source's softirqs ran, somewhere. */
	assert_true(number(row, end, "inline") + number(row, end, "ksoftirqd") >
		    0);
}

static void json_has_a_sane_row_per_model(void **state)
{
	static const char *const models[] = {"none", "full"};
	const char *row;

	(void)state;
	assert_int_equal(DEMO("--seconds", "1", "--cpus", "2", "--models",
			      "none,full", "--json"),
			 0);
	assert_true(res.out[0] == '{');
	assert_non_null(strstr(res.out, "\n]}\n"));
	assert_true(number(res.out, NULL, "cpus") == 2);
	assert_true(number(res.out, NULL, "hz") == 1000);
	assert_true(number(res.out, NULL, "seconds") == 1);
	row = strstr(res.out, "\"models\": [");
	assert_non_null(row);
	for (size_t i = 0; i < 2; i++) {
		const char *next;

		row = strstr(row, "\n  {\"model\"");
		assert_non_null(row);
		next = strstr(row + 1, "\n  {\"model\"");
		if (i == 1)
			assert_null(next);
		check_row(row, next, models[i]);
		row = row + 1;
	}
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void bad_options_exit_2_with_one_line(void **state)
{
	static const char *const bad[][3] = {
		{"--seconds", "0", NULL},	 {"--seconds", "x", NULL},
		{"--seconds", NULL, NULL},	 {"--cpus", "0", NULL},
		{"--cpus", "2x", NULL},		 {"--models", "fast", NULL},
		{"--models", ",", NULL},	 {"--bogus", NULL, NULL},
		{"--models=none,x", NULL, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		run_tool_with(NULL, NULL,
			      (const char *const[]){"preempt", "demo",
						    bad[i][0], bad[i][1],
						    bad[i][2], NULL});
		if (res.status != 2 || count_lines(res.err) != 1 ||
		    strncmp(res.err, "preempt: demo: ", 15) || res.out[0])
			fail_msg("%s %s: status %d, stderr:\n%s", bad[i][0],
				 bad[i][1] ? bad[i][1] : "", res.status,
				 res.err);
	}
}

static void help_goes_to_stdout(void **state)
{
	(void)state;
	assert_int_equal(DEMO("--help"), 0);
	assert_non_null(strstr(res.out, "usage: preempt demo"));
	assert_string_equal(res.err, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bad_options_exit_2_with_one_line),
		cmocka_unit_test(help_goes_to_stdout),
		cmocka_unit_test(json_has_a_sane_row_per_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
