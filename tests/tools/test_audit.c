// SPDX-License-Identifier: MIT
/*
 * `preempt audit` end to end over tests/tools/audit/: the line after each
 * "EXPECT <rule> [driver]" comment must be reported with that rule, and nothing
 * else may be; the clean file gives nothing; exit statuses; SARIF checked
 * structurally by tests/tools/sarif_check.py.  `--run` the same way over
 * tests/tools/audit_run/context_user.c's "EXPECT-RUN rule..." markers.
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

/* Runs sarif_check.py (with @opt before the file, if any): its exit status. */
static int run_sarif_check(const char *opt, const char *text)
{
	char path[] = "/tmp/test_audit_sarif.XXXXXX";
	char cmd[1024];
	int fd = mkstemp(path), rc;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	snprintf(cmd, sizeof(cmd),
		 "python3 %s/tests/tools/sarif_check.py %s %s >/dev/null",
		 PREEMPT_SOURCE_DIR, opt, path);
	rc = system(cmd);
	unlink(path);
	assert_true(WIFEXITED(rc));
	return WEXITSTATUS(rc);
}

static int check_sarif(const char *text)
{
	return run_sarif_check("", text);
}

#define SARIF_SCHEMA PREEMPT_SOURCE_DIR "/.cache/sarif-schema-2.1.0.json"

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

/*
 * The same log against the official SARIF 2.1.0 schema (fetched by
 * scripts/sarif-schema.sh; a skip when it could not be), and the schema
 * rejects a level outside its enum.
 */
static void sarif_matches_schema(void **state)
{
	static char copy[RUN_TOOL_OUT_MAX];
	char *v;
	int rc;

	(void)state;
	assert_int_equal(AUDIT("--sarif", TREE), 1);
	rc = run_sarif_check("--schema " SARIF_SCHEMA, res.out);
	if (rc == 77)
		skip();
	assert_int_equal(rc, 0);
	snprintf(copy, sizeof(copy), "%s", res.out);
	v = strstr(copy, "\"level\":\"error\"");
	assert_non_null(v);
	memcpy(v, "\"level\":\"fatal\"", 15);
	assert_int_equal(run_sarif_check("--schema " SARIF_SCHEMA, copy), 1);
}

/* ---- --run ---- */

#define RUN_SRC PREEMPT_SOURCE_DIR "/tests/tools/audit_run/context_user.c"

struct run_expect {
	long line;
	char rule[32];
	bool found;
};

static struct run_expect run_expects[32];
static int nrun_expects;

static void scan_run_markers(void)
{
	char line[512];
	long n = 0;
	FILE *f = fopen(RUN_SRC, "r");

	assert_non_null(f);
	nrun_expects = 0;
	while (fgets(line, sizeof(line), f)) {
		char *m = strstr(line, "/* EXPECT-RUN "), *save = NULL;

		n++;
		if (!m)
			continue;
		m += strlen("/* EXPECT-RUN ");
		for (char *r = strtok_r(m, " */\n", &save); r;
		     r = strtok_r(NULL, " */\n", &save)) {
			assert_true(nrun_expects < 32);
			run_expects[nrun_expects].line = n + 1;
			snprintf(run_expects[nrun_expects].rule,
				 sizeof(run_expects[0].rule), "%s", r);
			run_expects[nrun_expects++].found = false;
		}
	}
	fclose(f);
}

/* The tool on the program, under the cross build's emulator if any. */
static int audit_run(const char *opt1, const char *opt2)
{
	const char *argv[8] = {"preempt", "audit", "--run"};
	int n = 3;

	if (opt1)
		argv[n++] = opt1;
	if (opt2)
		argv[n++] = opt2;
	if (PK_TEST_EMULATOR[0])
		argv[n++] = PK_TEST_EMULATOR;
	argv[n++] = AUDIT_RUN_PROG;
	argv[n] = NULL;
	return run_tool_with(NULL, NULL, argv);
}

/* One JSON finding per line: each marked (line, rule) once, nothing else. */
static void run_finds_every_marked_site(void **state)
{
	char *save = NULL;
	int lines = 0;

	(void)state;
	scan_run_markers();
	assert_true(nrun_expects >= 8);
	assert_int_equal(audit_run("--json", NULL), 1);
	for (char *l = strtok_r(res.out, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save), lines++) {
		long line = -1;
		char rule[32] = "";
		const char *at = strstr(l, "\"line\":");
		const char *r = strstr(l, "\"rule\":\"");
		bool known = false;

		assert_non_null(strstr(l, "{\"file\":\"context_user.c\","));
		assert_true(at && r);
		line = strtol(at + 7, NULL, 10);
		sscanf(r + 8, "%31[^\"]", rule);
		for (int i = 0; i < nrun_expects; i++)
			if (run_expects[i].line == line &&
			    !strcmp(run_expects[i].rule, rule)) {
				assert_false(run_expects[i].found);
				run_expects[i].found = known = true;
			}
		if (!known)
			fail_msg("unexpected finding: %s", l);
	}
	for (int i = 0; i < nrun_expects; i++)
		if (!run_expects[i].found)
			fail_msg("not reported: line %ld (%s)",
				 run_expects[i].line, run_expects[i].rule);
	assert_int_equal(lines, nrun_expects);
}

/* The answers per model, as a kernel developer expects them. */
static void run_names_the_answers(void **state)
{
	(void)state;
	assert_int_equal(audit_run(NULL, NULL), 1);
	assert_contains(res.out, "warning: [model-dependent] in_atomic() in "
				 "under_locks(): answered differently under "
				 "different preemption models (1 under none, "
				 "voluntary, full, lazy; 0 under rt).");
	assert_contains(res.out, "(1 under none, voluntary; 0 under full, "
				 "lazy, rt).");
	assert_contains(res.out, "[legacy-count] preemptible() in plain(): "
				 "answered otherwise than a PREEMPT_COUNT=n "
				 "kernel answers at the same place (1 where "
				 "PREEMPT_COUNT=n answers 0, under none, "
				 "voluntary, full, lazy, rt).");
	/* One model: nothing to compare between models. */
	assert_int_equal(audit_run("--model=full", NULL), 1);
	assert_null(strstr(res.out, "[model-dependent]"));
	assert_contains(res.out, "[legacy-count] in_atomic() in under_locks()");
	assert_int_equal(audit_run("--model=rt,full", "--sarif"), 1);
	assert_int_equal(check_sarif(res.out), 0);
	assert_contains(res.out, "\"ruleId\":\"model-dependent\"");
}

static void run_bad_input_exits_2(void **state)
{
	(void)state;
	AUDIT("--run");
	expect_usage_error();
	AUDIT("--run", "/nonexistent/program");
	expect_usage_error();
	AUDIT("--run", "--model=bogus", "/bin/true");
	expect_usage_error();
	AUDIT("--model=full", TREE);
	expect_usage_error();
}

/* Run alone, the program says at exit where PREEMPT_COUNT=n differs. */
static void program_alone_summarises(void **state)
{
	char err_path[] = "/tmp/test_audit_prog_err.XXXXXX";
	int err = mkstemp(err_path), wstatus;
	pid_t pid;

	(void)state;
	assert_true(err >= 0);
	unlink(err_path);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		const char *argv[] = {AUDIT_RUN_PROG, NULL};

		unsetenv("PREEMPT_AUDIT_LOG");
		setenv("PREEMPT_MODEL", "full", 1);
		if (dup2(err, 2) < 0)
			_exit(126);
		pk_execv(AUDIT_RUN_PROG, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &wstatus, 0), pid);
	assert_true(WIFEXITED(wstatus));
	assert_int_equal(WEXITSTATUS(wstatus), 0);
	slurp(err, res.err, sizeof(res.err));
	assert_contains(res.err, "preempt audit: context_user.c:");
	assert_contains(res.err, "preemptible() in plain(): a PREEMPT_COUNT=n "
				 "kernel answers otherwise here");
	assert_null(strstr(res.err, "in_interrupt()"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_class_is_found),
		cmocka_unit_test(text_names_place_why_and_fix),
		cmocka_unit_test(clean_code_exits_0),
		cmocka_unit_test(bad_input_exits_2),
		cmocka_unit_test(sarif_is_valid),
		cmocka_unit_test(sarif_matches_schema),
		cmocka_unit_test(run_finds_every_marked_site),
		cmocka_unit_test(run_names_the_answers),
		cmocka_unit_test(run_bad_input_exits_2),
		cmocka_unit_test(program_alone_summarises),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
