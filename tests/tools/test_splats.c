// SPDX-License-Identifier: MIT
/*
 * `preempt decode` over the corpus of real, cited kernel reports in
 * tests/tools/splats/: each NAME.log is one report as posted publicly
 * (its source in its first line), each NAME.expect the facts its splat
 * object must carry.  Then the splat reader called directly, for the
 * cases the corpus has no real report of (a stack address written over
 * the count; the corpus's corrupt count is garbage of another kind), and
 * the log reader's hostile-input rules.
 */
#include <dirent.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#define RUN_TOOL_OUT_MAX (1 << 18)
#include "run_tool.h"

#include "splat.h"

#define SPLATS PREEMPT_SOURCE_DIR "/tests/tools/splats"

#define TOOL(in, ...)                                                          \
	run_tool_with(                                                         \
		(in), NULL,                                                    \
		(const char *const[]){"preempt", "decode", __VA_ARGS__, NULL})

/* The first splat object of the JSON output, as its own string. */
static char *first_splat(const char *out)
{
	const char *at = strstr(out, "\"role\":\"splat\"");
	const char *start, *end;

	if (!at)
		return NULL;
	for (start = at; start > out && start[-1] != '\n'; start--)
		;
	end = strchr(at, '\n');
	return strndup(start, end ? (size_t)(end - start) : strlen(start));
}

/* One corpus entry: 1 when every expected fact is there. */
static int check_one(const char *name, char *why, size_t len)
{
	char log[512], exp[512], line[512];
	FILE *f;
	char *obj;
	int ok = 1, want_exit = -1;

	snprintf(log, sizeof(log), "%s/%s.log", SPLATS, name);
	snprintf(exp, sizeof(exp), "%s/%s.expect", SPLATS, name);
	f = fopen(exp, "r");
	if (!f) {
		snprintf(why, len, "%s: no .expect", name);
		return 0;
	}
	TOOL(NULL, "--json", log);
	obj = first_splat(res.out);
	if (!obj) {
		snprintf(why, len, "%s: no splat object in:\n%.2000s", name,
			 res.out);
		fclose(f);
		return 0;
	}
	while (ok && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || !line[0])
			continue;
		if (!strncmp(line, "exit=", 5))
			want_exit = atoi(line + 5);
		else if (!strstr(obj, line)) {
			snprintf(why, len, "%s: missing %s in %.2000s", name,
				 line, obj);
			ok = 0;
		}
	}
	fclose(f);
	if (ok && want_exit >= 0 && res.status != want_exit) {
		snprintf(why, len, "%s: exit %d, expected %d", name, res.status,
			 want_exit);
		ok = 0;
	}
	free(obj);
	return ok;
}

static bool has_source(const char *name)
{
	char log[512], first[512] = "";
	FILE *f;

	snprintf(log, sizeof(log), "%s/%s.log", SPLATS, name);
	f = fopen(log, "r");
	if (!f)
		return false;
	if (!fgets(first, sizeof(first), f))
		first[0] = '\0';
	fclose(f);
	return !strncmp(first, "# source: http", 14);
}

/* Every real report is read right, and each one names its source. */
static void corpus_is_annotated(void **state)
{
	DIR *d = opendir(SPLATS);
	struct dirent *e;
	int total = 0, right = 0;
	char why[4096] = "", first_why[4096] = "";

	(void)state;
	assert_non_null(d);
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		char name[256];

		if (n < 5 || strcmp(e->d_name + n - 4, ".log"))
			continue;
		snprintf(name, sizeof(name), "%.*s", (int)(n - 4), e->d_name);
		total++;
		if (!has_source(name))
			fail_msg("%s.log has no '# source: URL' line", name);
		if (check_one(name, why, sizeof(why)))
			right++;
		else if (!first_why[0])
			snprintf(first_why, sizeof(first_why), "%s", why);
	}
	closedir(d);
	print_message("corpus: %d of %d splats annotated correctly\n", right,
		      total);
	assert_true(total >= 30);
	if (right != total)
		fail_msg("%d of %d wrong; first: %s", total - right, total,
			 first_why);
}

/* ---- the reader, called directly ---- */

static struct splat read_text(const char *text)
{
	static char buf[4096];
	const char *lines[32];
	size_t n = 0;
	struct splat s;

	snprintf(buf, sizeof(buf), "%s", text);
	for (char *p = strtok(buf, "\n"); p && n < 32; p = strtok(NULL, "\n"))
		lines[n++] = splat_strip(p);
	splat_read(lines, n, 0, &s);
	return s;
}

/* A pointer written over the count is flagged, never decoded. */
static void address_is_corrupt(void **state)
{
	struct splat s = read_text("BUG: scheduling while atomic: a/1/"
				   "0xc0a1f8c0\n");

	(void)state;
	assert_int_equal(s.verdict, SV_CORRUPT);
	assert_false(s.caller_known);
	assert_non_null(strstr(s.context, "corrupt"));
	s = read_text("BUG: workqueue leaked lock or atomic: "
		      "kworker/0:1/0x20000000/12\n");
	assert_int_equal(s.verdict, SV_CORRUPT);
}

/* The printer's own level: schedule() +1 or not, smp_processor_id old/new */
static void printer_contribution(void **state)
{
	struct splat s = read_text("BUG: scheduling while atomic: x/1/"
				   "0x00000201\n");

	(void)state;
	assert_int_equal(s.own, 1);
	assert_int_equal(s.caller, 0x200);
	s = read_text("BUG: scheduling while atomic: x/1/0x00000200\n");
	assert_int_equal(s.own, 0);
	assert_int_equal(s.caller, 0x200);
	s = read_text("BUG: using smp_processor_id() in preemptible "
		      "[00000001] code: a/1\n");
	assert_int_equal(s.verdict, SV_DECODED);
	assert_int_equal(s.caller, 0);
	assert_non_null(strstr(s.why, "older kernels"));
	s = read_text("BUG: using smp_processor_id() in preemptible "
		      "[00000003] code: a/1\n");
	assert_int_equal(s.verdict, SV_INCONSISTENT);
}

/* 2.6-era RT's count in brackets, arm64's raw 128, RCU nest depth. */
static void sleep_variants(void **state)
{
	struct splat s = read_text("BUG: sleeping function called from invalid "
				   "context at x.c:1\n"
				   "in_atomic():1 [00000002], "
				   "irqs_disabled():0\n");

	(void)state;
	assert_int_equal(s.verdict, SV_DECODED);
	assert_int_equal(s.caller, 2);
	s = read_text(
		"BUG: sleeping function called from invalid context at "
		"x.c:1\n"
		"in_atomic(): 0, irqs_disabled(): 128, pid: 1, name: a\n");
	assert_int_equal(s.verdict, SV_NOT_PRINTED);
	assert_non_null(strstr(s.notes, "arm64"));
	s = read_text("BUG: sleeping function called from invalid context at "
		      "x.c:1\n"
		      "in_atomic(): 0, irqs_disabled(): 0, non_block: 0, pid: "
		      "1, name: irq/45-mmc0\n"
		      "preempt_count: 0, expected: 0\n"
		      "RCU nest depth: 1, expected: 0\n");
	assert_true(s.threaded_irq);
	assert_non_null(strstr(s.leak, "1 rcu_read_lock() too many"));
	s = read_text("BUG: sleeping function called from invalid context at "
		      "x.c:1\n"
		      "preempt_count: 0, expected: 1\n");
	assert_int_equal(s.verdict, SV_IMBALANCE);
	assert_int_equal(s.imbalance, -1);
}

/* The version line picks the layout; without one the fitting ones are listed */
static void old_layouts(void **state)
{
	struct splat s =
		read_text("BUG: scheduling while atomic: a/1/0x04010002\n"
			  "Pid: 1, comm: a Not tainted 3.2.0 #1\n");

	(void)state;
	/* 3.x: NMI is bit 26, hardirq 16-25 */
	assert_int_equal(s.verdict, SV_DECODED);
	assert_non_null(strstr(s.layout, "3.x"));
	assert_non_null(strstr(s.context, "NMI"));
	s = read_text("BUG: scheduling while atomic: a/1/0x00200001\n"
		      "CPU: 0 PID: 1 Comm: a Not tainted 4.1.0 #1\n");
	/* 3.13 to 4.3: PREEMPT_ACTIVE is bit 21 */
	assert_int_equal(s.preempt_active, 0x00200000);
	assert_int_equal(s.caller, 0);
	s = read_text("BUG: scheduling while atomic: a/1/0x00100001\n");
	/* no version: bit 20 is NMI in 3.13-4.3 and 2020, hardirq in 3.x */
	assert_non_null(strstr(s.layout, "3.x or 3.13-4.3 or 2020"));
}

/* cant_sleep(): the caller was preemptible; do_exit()'s count is decimal */
static void cant_sleep_and_exit(void **state)
{
	struct splat s =
		read_text("BUG: assuming atomic context at x.c:9\n"
			  "in_atomic(): 0, irqs_disabled(): 0, pid: 5, "
			  "name: kworker/0:1\n");

	(void)state;
	assert_int_equal(s.printer, SPLAT_CANT_SLEEP);
	assert_int_equal(s.in_atomic, 0);
	assert_non_null(strstr(s.context, "preemptible"));
	s = read_text("note: a.out[7] exited with preempt_count 512\n");
	assert_int_equal(s.printer, SPLAT_EXIT);
	assert_int_equal(s.caller, 0x200);
	assert_string_equal(s.comm, "a.out");
	assert_non_null(strstr(s.context, "bh disabled 1 level"));
}

static void prefixes_are_stripped(void **state)
{
	(void)state;
	assert_string_equal(splat_strip("<3>[   12.5] BUG: x"), "BUG: x");
	assert_string_equal(splat_strip("[  1.0] [    C1] BUG: x"), "BUG: x");
	assert_string_equal(splat_strip("[  1.0] [  T123] BUG: x"), "BUG: x");
	assert_string_equal(splat_strip("> > [ 1.0] BUG: x"), "BUG: x");
	assert_string_equal(splat_strip("4,622,406528882,-; #0: x"), "#0: x");
	assert_string_equal(splat_strip("Jun 16 20:40:39 host kernel: BUG: x"),
			    "BUG: x");
	assert_string_equal(splat_strip("2011-06-13T12:59:32.897951+02:00 "
					"(none) kernel: preempt_count: 1"),
			    "preempt_count: 1");
	assert_string_equal(splat_strip("\xd0\xba\xd0\xb2\xd1\x96 09 19:54:36 "
					"spock kernel: caller is f+0x1"),
			    "caller is f+0x1");
	/* text that only looks like a prefix stays */
	assert_string_equal(splat_strip("3.15.0 #406 Not tainted"),
			    "3.15.0 #406 Not tainted");
}

static void held_lock_lines(void **state)
{
	char name[64], text[768];
	const char *role;

	(void)state;
	assert_true(splat_held_lock("#0: ffff888012345678 (&lock_a){+.-.}-"
				    "{2:2}, at: func+0x12/0x30",
				    WAIT_NUM_UNKNOWN, &role, name, sizeof(name),
				    text, sizeof(text)));
	assert_string_equal(role, "held_lock");
	assert_string_equal(name, "&lock_a");
	assert_non_null(strstr(text, "hardirq with irqs enabled, never in "
				     "irq;"));
	assert_non_null(strstr(text, "hardirq-read never in irq, never with "
				     "irqs enabled;"));
	assert_non_null(strstr(text, "softirq in irq, never with irqs "
				     "enabled;"));
	assert_non_null(strstr(text, "outer spinning (raw_spinlock_t; "
				     "spinlock_t too without "
				     "CONFIG_PROVE_RAW_LOCK_NESTING)"));
	assert_false(splat_held_lock("#0: nothing here", WAIT_NUM_UNKNOWN,
				     &role, name, sizeof(name), text,
				     sizeof(text)));
	/* a task-ish line that is no lock line */
	assert_false(splat_held_lock("ffff888012345678 is not a lock",
				     WAIT_NUM_UNKNOWN, &role, name,
				     sizeof(name), text, sizeof(text)));
}

/* Written here in the kernel's format (not a captured report): an invalid
 * wait context with CONFIG_PROVE_RAW_LOCK_NESTING's numbering. */
static const char *const wait_splat[] = {
	"[ BUG: Invalid wait context ]",
	"swapper/0/1 is trying to lock:",
	"ffff888003a4c0d8 (&dev->lock){....}-{3:3}, at: probe+0x2c/0x80",
	"other info that might help us debug this:",
	"context-{5:5}",
	"1 lock held by swapper/0/1:",
	" #0: ffffffff82a0e118 (raw_lock){+.+.}-{2:2}, at: init+0x12/0x50",
	"-> #1 (&dev->mutex){+.+.}-{4:4}:",
};

static void wait_types_by_numbering(void **state)
{
	size_t n = sizeof(wait_splat) / sizeof(wait_splat[0]);
	const char *lines[8];
	char name[64], text[768];
	const char *role;

	(void)state;
	for (size_t i = 0; i < n; i++)
		lines[i] = splat_strip(wait_splat[i]);
	assert_int_equal(splat_wait_numbering(lines, n), WAIT_NUM_NESTING);
	assert_int_equal(splat_wait_numbering(lines, 3), WAIT_NUM_UNKNOWN);
	/* a sleeping lock's {4:4} alone says it too */
	assert_int_equal(splat_wait_numbering(lines + 5, 3), WAIT_NUM_NESTING);
	assert_int_equal(splat_wait_numbering(lines + 4, 1), WAIT_NUM_NESTING);
	assert_true(splat_held_lock(lines[2], WAIT_NUM_NESTING, &role, name,
				    sizeof(name), text, sizeof(text)));
	assert_string_equal(role, "lock");
	assert_string_equal(name, "&dev->lock");
	assert_non_null(strstr(text, "outer spinlock_t-like (spins, sleeps on "
				     "PREEMPT_RT"));
	assert_true(splat_held_lock(lines[4], WAIT_NUM_NESTING, &role, name,
				    sizeof(name), text, sizeof(text)));
	assert_string_equal(role, "wait_context");
	assert_non_null(strstr(text, "wait context 5: the context allows "
				     "locks up to any (a task)"));
	assert_true(splat_held_lock(lines[6], WAIT_NUM_NESTING, &role, name,
				    sizeof(name), text, sizeof(text)));
	assert_string_equal(role, "held_lock");
	assert_non_null(strstr(text, "outer spinning (raw_spinlock_t, bit "
				     "spinlock)"));
	assert_true(splat_held_lock(lines[7], WAIT_NUM_NESTING, &role, name,
				    sizeof(name), text, sizeof(text)));
	assert_string_equal(role, "chain_lock");
	assert_non_null(strstr(text, "inner sleeping (mutex, rwsem)"));
	/* the same digits without the option: 3 is a sleeping lock */
	assert_true(splat_held_lock("#1: ffff888003a4c0d8 (&m){+.+.}-{3:3}, "
				    "at: f+0x1/0x2",
				    WAIT_NUM_CLASSIC, &role, name, sizeof(name),
				    text, sizeof(text)));
	assert_non_null(strstr(text, "outer sleeping (mutex, rwsem)"));
	assert_true(splat_held_lock("context-{4:4}", WAIT_NUM_UNKNOWN, &role,
				    name, sizeof(name), text, sizeof(text)));
	assert_non_null(strstr(text, "wait context 4: the context allows "
				     "locks up to any (a task)"));
	assert_true(splat_held_lock("context-{2:2}", WAIT_NUM_NESTING, &role,
				    name, sizeof(name), text, sizeof(text)));
	assert_non_null(strstr(text, "stays hard even on PREEMPT_RT"));
}

/* Binary input: no raw control bytes on stdout, exit 0. */
static void binary_input_prints_no_control_bytes(void **state)
{
	char path[] = "/tmp/test_splats_bin.XXXXXX";
	int fd = mkstemp(path);
	unsigned char junk[512];

	(void)state;
	assert_true(fd >= 0);
	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	assert_int_equal(write(fd, junk, sizeof(junk)), (ssize_t)sizeof(junk));
	close(fd);
	assert_int_equal(TOOL(NULL, path), 0);
	for (const char *p = res.out; *p; p++)
		if ((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t')
			fail_msg("control byte 0x%02x in output",
				 (unsigned char)*p);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(corpus_is_annotated),
		cmocka_unit_test(address_is_corrupt),
		cmocka_unit_test(printer_contribution),
		cmocka_unit_test(sleep_variants),
		cmocka_unit_test(old_layouts),
		cmocka_unit_test(cant_sleep_and_exit),
		cmocka_unit_test(prefixes_are_stripped),
		cmocka_unit_test(held_lock_lines),
		cmocka_unit_test(wait_types_by_numbering),
		cmocka_unit_test(binary_input_prints_no_control_bytes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
