/* SPDX-License-Identifier: MIT */
#ifndef PK_TEST_H
#define PK_TEST_H

/*
 * Shared test helpers: cmocka, and a report hook that keeps the reports a
 * test raises so it can assert on their text instead of on stderr.
 */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include <preempt/debug.h>

struct captured {
	int nr;
	enum pk_report_kind kind;
	char text[8192];
};

static struct captured captured;

static bool capture_hook(const struct pk_report *report, void *arg)
{
	(void)arg;
	captured.nr++;
	captured.kind = report->kind;
	snprintf(captured.text, sizeof(captured.text), "%s", report->text);
	return true; /* keep the expected reports off the test log */
}

/* Start a test: capture reports, forget rate limits. */
static inline void capture_reset(void)
{
	memset(&captured, 0, sizeof(captured));
	pk_set_report_hook(capture_hook, NULL);
	pk_debug_ratelimit_reset();
}

static inline void capture_stop(void)
{
	pk_set_report_hook(NULL, NULL);
}

/* A cmocka setup that only starts capturing. */
static inline int capture_setup(void **state)
{
	(void)state;
	capture_reset();
	return 0;
}

#define assert_report_contains(needle)                                         \
	do {                                                                   \
		if (!strstr(captured.text, (needle)))                          \
			fail_msg("report lacks \"%s\":\n%s", (needle),         \
				 captured.text);                               \
	} while (0)

#endif /* PK_TEST_H */
