/* SPDX-License-Identifier: MIT */
#ifndef PK_CMOCKA_H
#define PK_CMOCKA_H

/*
 * cmocka as every test program here uses it (each is compiled with
 * `-include pk_cmocka.h`, so this comes before the program's own
 * <cmocka.h>, which its include guard then skips):
 *
 * - A skip is not a pass.  cmocka counts a skipped test as neither failed
 *   nor passed and returns 0; here a program in which any test skipped
 *   (and none failed) exits with PK_SKIP_EXIT, which CTest's
 *   SKIP_RETURN_CODE shows as "Skipped".
 * - A test of something a build compiles out is not skipped but absent:
 *   pk_only_if(cond, entry) in the test array drops it when cond is 0,
 *   so the build's log lists only what it really ran.
 * - pk_execv() runs a test binary (the tool, the program itself) through
 *   the cross build's emulator (qemu-aarch64) when there is one.
 */

/* Included before anything else: the tests are Linux programs (gettid,
 * pthread_setaffinity_np, ...), so the feature macro comes first here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>

/* What CTest's SKIP_RETURN_CODE is set to (tests/CMakeLists.txt). */
#define PK_SKIP_EXIT 77

static int pk_skipped __attribute__((unused));

#undef skip
#define skip()                                                                 \
	do {                                                                   \
		pk_skipped++;                                                  \
		_skip(__FILE__, __LINE__);                                     \
	} while (0)

/*
 * pk_only_if(cond, entry): the test array's @entry (cmocka_unit_test(fn),
 * or a file's own T(fn)) exists in this build only when @cond holds.
 */
static inline __attribute__((unused)) struct CMUnitTest
pk_cm_if(int cond, struct CMUnitTest t)
{
	if (!cond)
		t.test_func = NULL;
	return t;
}
#define pk_only_if(cond, entry) pk_cm_if(!!(cond), (struct CMUnitTest)entry)
#define pk_unit_test_if(cond, f) pk_only_if(cond, cmocka_unit_test(f))

static inline __attribute__((unused)) int
pk_run_group_tests(const char *name, const struct CMUnitTest *tests, size_t n,
		   CMFixtureFunction setup, CMFixtureFunction teardown)
{
	struct CMUnitTest kept[n ? n : 1];
	size_t nr = 0;
	int failed;

	for (size_t i = 0; i < n; i++)
		if (tests[i].test_func)
			kept[nr++] = tests[i];
	failed = _cmocka_run_group_tests(name, kept, nr, setup, teardown);
	if (failed)
		return failed;
	if (pk_skipped) {
		printf("%d test(s) skipped: exit %d (CTest: Skipped)\n",
		       pk_skipped, PK_SKIP_EXIT);
		fflush(stdout);
		return PK_SKIP_EXIT;
	}
	return 0;
}

#undef cmocka_run_group_tests
#define cmocka_run_group_tests(group_tests, group_setup, group_teardown)       \
	pk_run_group_tests(#group_tests, group_tests,                          \
			   sizeof(group_tests) / sizeof((group_tests)[0]),     \
			   group_setup, group_teardown)

#ifndef PK_TEST_EMULATOR
#define PK_TEST_EMULATOR ""
#endif

/* execv(), through the cross build's emulator if there is one. */
static inline __attribute__((unused)) int pk_execv(const char *path,
						   char *const argv[])
{
	if (PK_TEST_EMULATOR[0]) {
		const char *args[64];
		size_t n = 0;

		args[n++] = PK_TEST_EMULATOR;
		args[n++] = path;
		for (size_t i = 1; argv[i] && n < 63; i++)
			args[n++] = argv[i];
		args[n] = NULL;
		return execvp(PK_TEST_EMULATOR, (char *const *)args);
	}
	return execv(path, argv);
}

#endif /* PK_CMOCKA_H */
