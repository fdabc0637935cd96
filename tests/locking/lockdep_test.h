/* SPDX-License-Identifier: MIT */
#ifndef LOCKDEP_TEST_H
#define LOCKDEP_TEST_H

/*
 * What the lockdep tests share: a validator fresh for each test (reports
 * captured, the first one turning it off as in the kernel) and line-by-
 * line matching of the captured report.
 */

#include <regex.h>

#include <preempt/lockdep.h>

#include "pk_test.h"

/* One line of the last report matches the extended regex @re. */
static inline bool report_has_line(const char *re)
{
	regex_t rx;
	bool found;

	assert_int_equal(regcomp(&rx, re, REG_EXTENDED | REG_NEWLINE), 0);
	found = regexec(&rx, captured.text, 0, NULL, 0) == 0;
	regfree(&rx);
	return found;
}

#define assert_line(re)                                                        \
	do {                                                                   \
		if (!report_has_line(re)) {                                    \
			fprintf(stderr, "%s", captured.text);                  \
			fail_msg("no line matches /%s/", (re));                \
		}                                                              \
	} while (0)

static inline int setup(void **state)
{
	(void)state;
	pk_lockdep_reset();
	pk_lockdep_keep_going(false);
	capture_reset();
	return 0;
}

static inline int teardown(void **state)
{
	(void)state;
	pk_report_flush();
	capture_stop();
	pk_lockdep_reset();
	return 0;
}

#endif /* LOCKDEP_TEST_H */
