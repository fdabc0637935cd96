// SPDX-License-Identifier: MIT
/*
 * `preempt audit` end to end over tests/tools/audit/: the line after each
 * "EXPECT <rule> [driver]" comment must be reported with that rule, and nothing
 * else may be; the clean file gives nothing; exit statuses; SARIF checked
 * structurally by tests/tools/sarif_check.py.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#define RUN_TOOL_OUT_MAX (1 << 17)
#include "run_tool.h"

#define TREE PREEMPT_SOURCE_DIR "/tests/tools/audit"

#define AUDIT(...)                                                             \
	run_tool_with(                                                         \
		NULL, NULL,                                                    \
		(const char *const[]){"preempt", "audit", __VA_ARGS__, NULL})

struct expect {
	char file[512], rule[32];
	long line;
	bool driver;
};

static struct expect expects[64];
static int nexpects;

/* The EXPECT markers of one file, with its path as the tool prints it. */
static void scan_file(const char *path)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *m = strstr(line, "/* EXPECT ");
		struct expect *e;

		n++;
		if (!m)
			continue;
		assert_true(nexpects < 64);
		e = &expects[nexpects++];
		snprintf(e->file, sizeof(e->file), "%s", path);
		e->line = n + 1; /* the marker stands above its line */
		assert_int_equal(sscanf(m, "/* EXPECT %31s", e->rule), 1);
		e->driver = strstr(m, " driver ") != NULL;
	}
	fclose(f);
}

static void scan_tree(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	assert_non_null(d);
	while ((e = readdir(d))) {
		char path[512];
		size_t n = strlen(e->d_name);
		struct stat st;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		assert_int_equal(stat(path, &st), 0);
		if (S_ISDIR(st.st_mode))
			scan_tree(path);
		else if (n > 2 && !strcmp(e->d_name + n - 2, ".c"))
			scan_file(path);
	}
	closedir(d);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

/* Every EXPECT is found with its rule; nothing else is reported. */
static void every_class_is_found(void **state)
{
	(void)state;
	nexpects = 0;
	scan_tree(TREE);
	assert_true(nexpects >= 12);
	assert_int_equal(AUDIT("--json", TREE), 1);
	assert_string_equal(res.err, "");
	for (int i = 0; i < nexpects; i++) {
		char want[1024];
		const char *at;

		snprintf(want, sizeof(want),
			 "{\"file\":\"%.500s\",\"line\":%ld,", expects[i].file,
			 expects[i].line);
		at = strstr(res.out, want);
		if (!at)
			fail_msg("not reported: %s:%ld (%s) in:\n%s",
				 expects[i].file, expects[i].line,
				 expects[i].rule, res.out);
		snprintf(want, sizeof(want), "\"rule\":\"%s\"",
			 expects[i].rule);
		if (!strstr(at, want) || strstr(at, want) > strchr(at, '\n'))
			fail_msg("%s:%ld: not %s", expects[i].file,
				 expects[i].line, expects[i].rule);
		if (expects[i].driver &&
		    (!strstr(at, "\"driver\":true") ||
		     strstr(at, "\"driver\":true") > strchr(at, '\n')))
			fail_msg("%s:%ld: not marked as driver code",
				 expects[i].file, expects[i].line);
	}
	assert_int_equal(count_lines(res.out), nexpects);
}

/* The seed pattern: text output names the place, why and the fix. */
static void text_names_place_why_and_fix(void **state)
{
	(void)state;
	assert_int_equal(AUDIT(TREE "/gfp_choice.c"), 1);
	assert_contains(res.out, TREE "/gfp_choice.c:8:14: error: "
				      "[gfp-choice] preemptible() in "
				      "buf_alloc(): GFP flags chosen from the "
				      "context predicate");
	assert_contains(res.out, "constant 0 without CONFIG_PREEMPT_COUNT");
	assert_contains(res.out, "gfpflags_allow_blocking()");
	assert_contains(res.out, "3 findings\n");
	assert_int_equal(AUDIT(TREE "/drivers/net/foo_nic.c"), 1);
	assert_contains(res.out, "drivers must not use them");
}

static void clean_code_exits_0(void **state)
{
	(void)state;
	assert_int_equal(AUDIT(TREE "/clean.c"), 0);
	assert_string_equal(res.out, "0 findings\n");
	assert_int_equal(AUDIT("--json", TREE "/clean.c"), 0);
	assert_string_equal(res.out, "");
}

static void expect_usage_error(void)
{
	assert_int_equal(res.status, 2);
	assert_string_equal(res.out, "");
	assert_int_equal(count_lines(res.err), 1);
	assert_true(!strncmp(res.err, "preempt: audit: ", 16));
}

static void bad_input_exits_2(void **state)
{
	(void)state;
	AUDIT("/nonexistent/tree");
	expect_usage_error();
	AUDIT("--bogus", TREE);
	expect_usage_error();
	AUDIT("--json", "--sarif", TREE);
	expect_usage_error();
	run_tool_with(NULL, NULL,
		      (const char *const[]){"preempt", "audit", NULL});
	expect_usage_error();
	AUDIT("--spatch=/nonexistent/spatch", TREE);
	expect_usage_error();
	AUDIT("--cocci=/nonexistent.cocci", TREE);
	expect_usage_error();
}

static int check_sarif(const char *text)
{
	char path[] = "/tmp/test_audit_sarif.XXXXXX";
	char cmd[1024];
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "python3 %s/tests/tools/sarif_check.py %s >/dev/null",
		 PREEMPT_SOURCE_DIR, path);
	rc = system(cmd);
	unlink(path);
	return rc;
}

/* SARIF 2.1.0, structurally; and the checker rejects a broken log. */
static void sarif_is_valid(void **state)
{
	static char copy[RUN_TOOL_OUT_MAX];
	char *v;

	(void)state;
	assert_int_equal(AUDIT("--sarif", TREE), 1);
	assert_int_equal(check_sarif(res.out), 0);
	assert_contains(res.out, "\"ruleId\":\"gfp-choice\"");
	assert_contains(res.out, "\"startLine\":8,\"startColumn\":14");
	snprintf(copy, sizeof(copy), "%s", res.out);
	v = strstr(copy, "\"level\":\"error\"");
	assert_non_null(v);
	memcpy(v, "\"level\":\"fatal\"", 15);
	assert_int_not_equal(check_sarif(copy), 0);
	assert_int_not_equal(check_sarif("{\"version\":\"2.1.0\"}"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_class_is_found),
		cmocka_unit_test(text_names_place_why_and_fix),
		cmocka_unit_test(clean_code_exits_0),
		cmocka_unit_test(bad_input_exits_2),
		cmocka_unit_test(sarif_is_valid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
