// SPDX-License-Identifier: MIT
/*
 * Drop-in parity with rt-tests' cyclictest: the same command line run by
 * Debian's cyclictest (scripts/deps.sh installs rt-tests) and by the tool
 * called by cyclictest's name must print the same lines once numbers are
 * masked.  A number and the spaces before it (its printf padding) become
 * "N"; tests/tools/test_latency.c checks the padding itself, and the
 * overflow lists' contents, which depend on the data.  Without -q
 * both redraw a status block every 10 ms; how many redraws there are
 * depends on timing, so only the last block of a run of them is kept.
 *
 * Skipped, with the reason, when cyclictest is not installed, cannot run
 * here (it needs the rights to set a scheduling policy), or under the
 * cross build's emulator (the host's cyclictest against an arm64 tool
 * adds nothing to the native comparison).
 */
#include <ctype.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define OUT_MAX (1 << 20)
#define CYCLICTEST "/usr/bin/cyclictest"
#define MAX_ARGS 24

static char theirs[OUT_MAX], ours[OUT_MAX], errbuf[4096];
static const char *skip_reason;

/* Run @path with @argv (argv[0] "cyclictest"), stdout into @out. */
static int run(const char *path, const char *const *argv, char *out)
{
	char out_path[] = "/tmp/test_cyclictest_out.XXXXXX";
	char err_path[] = "/tmp/test_cyclictest_err.XXXXXX";
	int fo = mkstemp(out_path), fe = mkstemp(err_path), ws;
	ssize_t n;
	pid_t pid;

	assert_true(fo >= 0 && fe >= 0);
	unlink(out_path);
	unlink(err_path);
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int in = open("/dev/null", O_RDONLY);

		if (in < 0 || dup2(in, 0) < 0 || dup2(fo, 1) < 0 ||
		    dup2(fe, 2) < 0)
			_exit(126);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &ws, 0), pid);
	assert_true(WIFEXITED(ws));
	n = pread(fo, out, OUT_MAX - 1, 0);
	out[n > 0 ? n : 0] = '\0';
	n = pread(fe, errbuf, sizeof(errbuf) - 1, 0);
	errbuf[n > 0 ? n : 0] = '\0';
	close(fo);
	close(fe);
	return WEXITSTATUS(ws);
}

/*
 * @text with every number (-?digits, optional .digits) and the spaces
 * before it replaced by "N", the cursor-up prefix of a redraw dropped,
 * and each run of status blocks cut to its last.  Returns a new string.
 */
static bool non_finite(const char *p)
{
	return (!strncmp(p, "nan", 3) || !strncmp(p, "inf", 3)) &&
	       !isalnum((unsigned char)p[3]);
}

static char *normalize(const char *text)
{
	size_t len = strlen(text);
	char *m = malloc(len + 1), *out = malloc(2 * len + 64);
	size_t j = 0, o = 0, block = (size_t)-1;
	bool in_block = false;

	assert_non_null(m);
	assert_non_null(out);
	for (size_t i = 0; i < len;) {
		size_t k = i;

		while (text[k] == ' ')
			k++;
		if (text[k] == '-' && (isdigit((unsigned char)text[k + 1]) ||
				       non_finite(text + k + 1)))
			k++;
		/* printf's NaN or infinity (cyclictest's avg of 0 cycles). */
		if (non_finite(text + k) && (i == 0 || k > i)) {
			m[j++] = 'N';
			i = k + 3;
			continue;
		}
		if (isdigit((unsigned char)text[k]) &&
		    (i == 0 || k > i ||
		     (!isalnum((unsigned char)text[i - 1]) &&
		      text[i - 1] != '_'))) {
			while (isdigit((unsigned char)text[k]))
				k++;
			if (text[k] == '.' &&
			    isdigit((unsigned char)text[k + 1]))
				for (k++; isdigit((unsigned char)text[k]);)
					k++;
			m[j++] = 'N';
			i = k;
		} else {
			m[j++] = text[i++];
		}
	}
	m[j] = '\0';
	/* Lines; "ESC[NA" starts a redraw (the N masked above). */
	for (char *l = m; l && *l;) {
		char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);

		if (!strncmp(l, "\033[NA", 4)) {
			l += 4;
			n -= 4;
		}
		/* Which cycles overflowed, and how many are listed, is data:
		 * tests/tools/test_latency.c checks the list's format. */
		if (!strncmp(l, "# ThreadN:", 10)) {
			memcpy(out + o, "# ThreadN: LIST\n", 16);
			o += 16;
			l += n;
			continue;
		}
		if (!strncmp(l, "policy: ", 8)) {
			if (in_block)
				o = block; /* the previous block is redrawn */
			block = o;
			in_block = true;
		} else if (in_block && strncmp(l, "T:", 2) && *l != '\n') {
			in_block = false;
		}
		memcpy(out + o, l, n);
		o += n;
		l += n;
	}
	out[o] = '\0';
	free(m);
	return out;
}

/* Fail with both texts at the first line that differs. */
static void assert_same_structure(const char *a, const char *b,
				  const char *what)
{
	char *na = normalize(a), *nb = normalize(b);
	const char *p = na, *q = nb;
	int line = 1;

	while (*p && *q && *p == *q) {
		line += *p == '\n';
		p++;
		q++;
	}
	if (*p || *q)
		fail_msg("%s: line %d differs\ncyclictest:\n%s\n"
			 "preempt cyclictest:\n%s",
			 what, line, na, nb);
	free(na);
	free(nb);
}

static bool can_compare(void)
{
	static const char *const probe[] = {"cyclictest", "-q", "-l", "2",
					    NULL};

	if (PK_TEST_EMULATOR[0]) {
		skip_reason = "under an emulator: compared on the native build";
	} else if (access(CYCLICTEST, X_OK)) {
		skip_reason = CYCLICTEST " not installed (Debian rt-tests; "
					 "scripts/deps.sh installs it)";
	} else if (run(CYCLICTEST, probe, theirs)) {
		static char why[512];

		snprintf(why, sizeof(why), "cyclictest cannot run here: %.400s",
			 errbuf);
		skip_reason = why;
	}
	return !skip_reason;
}

/* @path run as "cyclictest" with @args (NULL-terminated) after it. */
static void run_as_cyclictest(const char *path, const char *const *args,
			      char *out)
{
	const char *argv[MAX_ARGS] = {"cyclictest"};
	int n = 1;

	for (; args[n - 1]; n++) {
		assert_true(n < MAX_ARGS - 1);
		argv[n] = args[n - 1];
	}
	argv[n] = NULL;
	if (run(path, argv, out))
		fail_msg("%s failed: %s", path, errbuf);
}

static char *slurp_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, OUT_MAX);
	size_t n;

	assert_non_null(f);
	assert_non_null(buf);
	n = fread(buf, 1, OUT_MAX - 1, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	return buf;
}

#define SKIP_UNLESS_COMPARABLE()                                               \
	do {                                                                   \
		if (!can_compare()) {                                          \
			print_message("skipped: %s\n", skip_reason);           \
			skip();                                                \
		}                                                              \
	} while (0)

/* Each row: one cyclictest command line, stdout compared. */
static const char *const stdout_cases[][MAX_ARGS] = {
	{"-l", "100", "-i", "1000", NULL},
	{"-q", "-l", "100", NULL},
	{"-q", "-l", "50", "-t", "2", NULL},
	{"-q", "-l", "50", "-t", "2", "-i", "500", "-d", "100", NULL},
	{"-l", "50", "-t", "2", "-h", "5", NULL},
	{"-q", "-l", "50", "-t", "2", "-h", "3", NULL},
	{"-q", "-l", "50", "-t", "2", "-H", "2", NULL},
	{"-l", "40", "-t", "3", "-H", "4", NULL},
	{"-q", "-l", "30", "-N", NULL},
	{"-l", "30", "-N", "-t", "2", NULL},
	{"-q", "-l", "30", "-p", "80", "-t", "2", NULL},
	{"-l", "30", "-p", "80", NULL},
	{"-q", "-l", "20", "-S", NULL},
	{"-q", "-l", "20", "-a", "0", "-t", "2", NULL},
	{"-q", "-D", "1", "-i", "100000", NULL},
	{"-q", "-D", "1s", "-i", "200000", "-t", "2", NULL},
	{"-q", "-l", "20", "-m", NULL},
};

static void stdout_has_the_same_structure(void **state)
{
	(void)state;
	SKIP_UNLESS_COMPARABLE();
	for (size_t i = 0; i < sizeof(stdout_cases) / sizeof(stdout_cases[0]);
	     i++) {
		char what[256] = "cyclictest";

		for (int a = 0; stdout_cases[i][a]; a++)
			snprintf(what + strlen(what),
				 sizeof(what) - strlen(what), " %s",
				 stdout_cases[i][a]);
		run_as_cyclictest(CYCLICTEST, stdout_cases[i], theirs);
		run_as_cyclictest(PREEMPT_TOOL_PATH, stdout_cases[i], ours);
		assert_same_structure(theirs, ours, what);
	}
}

/* --histfile: stdout without the histogram, the file with it. */
static void histfile_has_the_same_structure(void **state)
{
	static const char *const args[] = {
		"-q", "-l", "40", "-t",
		"2",  "-h", "3",  "--histfile=/tmp/test_ct_hist",
		NULL};
	char *a, *b;

	(void)state;
	SKIP_UNLESS_COMPARABLE();
	run_as_cyclictest(CYCLICTEST, args, theirs);
	a = slurp_file("/tmp/test_ct_hist");
	run_as_cyclictest(PREEMPT_TOOL_PATH, args, ours);
	b = slurp_file("/tmp/test_ct_hist");
	assert_same_structure(theirs, ours, "--histfile stdout");
	assert_non_null(strstr(a, "# Histogram\n"));
	assert_same_structure(a, b, "--histfile file");
	free(a);
	free(b);
}

/*
 * --json: rt-tests 2.x's keys, order and layout.  Histogram entries are
 * the buckets that happen to be hit, so their lines are dropped; -h is
 * wide enough that both histograms have some.  The command line itself
 * differs (the program's path) and the kernel's names are the host's.
 */
static char *json_skeleton(const char *path)
{
	char *text = slurp_file(path), *out = calloc(1, OUT_MAX);
	size_t o = 0;

	assert_non_null(out);
	for (char *l = text; *l;) {
		char *nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) + 1 : strlen(l);
		const char *q = l + strspn(l, " ");

		/* A histogram bucket: 8 spaces, "digits": count. */
		if (q - l == 8 && q[0] == '"' && isdigit((unsigned char)q[1])) {
			l += n;
			continue;
		}
		if (!strncmp(q, "\"cmdline:\"", 10)) {
			o += (size_t)snprintf(out + o, OUT_MAX - o,
					      "  \"cmdline:\": \"...\",\n");
			l += n;
			continue;
		}
		memcpy(out + o, l, n);
		o += n;
		l += n;
	}
	free(text);
	return out;
}

static void json_has_rt_tests_keys(void **state)
{
	static const char *const args[] = {
		"-q", "-l", "100",   "-t",
		"2",  "-h", "20000", "--json=/tmp/test_ct.json",
		NULL};
	char *a, *b;

	(void)state;
	SKIP_UNLESS_COMPARABLE();
	run_as_cyclictest(CYCLICTEST, args, theirs);
	a = json_skeleton("/tmp/test_ct.json");
	run_as_cyclictest(PREEMPT_TOOL_PATH, args, ours);
	b = json_skeleton("/tmp/test_ct.json");
	/* The odd keys, present in both. */
	assert_non_null(strstr(a, "\"rt_test_version:\""));
	assert_non_null(strstr(b, "\"rt_test_version:\""));
	assert_same_structure(a, b, "--json file");
	assert_same_structure(theirs, ours, "--json stdout");
	free(a);
	free(b);
}

/* The masking itself: numbers and their padding go, words stay. */
static void normalize_masks_numbers_only(void **state)
{
	char *n;

	(void)state;
	n = normalize("T: 0 (28673) P:80 I:1000 Min:     86 avg: 1.50\n"
		      "policy: other/other: x\n\nT: 1\n"
		      "\033[4Apolicy: other/other: x\n\nT: 2\n# Thread 0:\n");
	assert_string_equal(n,
			    "T:N (N) P:N I:N Min:N avg:N\n"
			    "policy: other/other: x\n\nT:N\n# ThreadN: LIST\n");
	free(n);
	n = normalize("x86_64 v2 abc\n");
	assert_string_equal(n, "x86_64 v2 abc\n");
	free(n);
	n = normalize("\"avg\": -nan,\n\"max\": inf\ninfo nano\n");
	assert_string_equal(n, "\"avg\":N,\n\"max\":N\ninfo nano\n");
	free(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(normalize_masks_numbers_only),
		cmocka_unit_test(stdout_has_the_same_structure),
		cmocka_unit_test(histfile_has_the_same_structure),
		cmocka_unit_test(json_has_rt_tests_keys),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
