// SPDX-License-Identifier: MIT
/*
 * `preempt decode`: the decoder's fields and predicates called directly,
 * then the built tool end to end (exit statuses, stdout/stderr, log mode).
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

#define RUN_TOOL_ERR_MAX 8192
#include "run_tool.h"

#include "cli.h"
#include "decode.h"

/* ---- the decoder, called directly ---- */

static struct decoded decode(const char *text, enum decode_layout layout,
			     bool raw_x86)
{
	struct decode_number num;
	struct decoded d;

	assert_int_equal(decode_parse_number(text, false, &num),
			 DECODE_PARSE_OK);
	assert_int_equal(decode_word(num, layout, raw_x86, &d), 0);
	return d;
}

/* A predicate's value, or -1 when the word does not say. */
static int64_t pred(const struct decoded *d, enum decode_pred which)
{
	struct decode_pred_value p[DP_NR];

	decode_predicates(d, p);
	return p[which].known ? (int64_t)p[which].value : -1;
}

static void assert_context(const struct decoded *d, const char *want)
{
	char ctx[256];

	decode_context(d, ctx, sizeof(ctx));
	assert_string_equal(ctx, want);
}

static void numbers_parse_as_the_kernel_prints_them(void **state)
{
	struct decode_number n;

	(void)state;
	assert_int_equal(decode_parse_number("201", false, &n),
			 DECODE_PARSE_OK);
	assert_int_equal(n.value, 0x201);
	assert_false(n.wide);
	assert_int_equal(decode_parse_number("0X201", false, &n),
			 DECODE_PARSE_OK);
	assert_int_equal(n.value, 0x201);
	assert_int_equal(decode_parse_number("513", true, &n), DECODE_PARSE_OK);
	assert_int_equal(n.value, 513);
	assert_int_equal(decode_parse_number("0x201", true, &n),
			 DECODE_PARSE_OK);
	assert_int_equal(n.value, 0x201);
	/* 16 digits is a 64-bit word even when it would fit in 32 bits. */
	assert_int_equal(decode_parse_number("0000000000000201", false, &n),
			 DECODE_PARSE_OK);
	assert_true(n.wide);
	assert_int_equal(decode_parse_number("4294967296", true, &n),
			 DECODE_PARSE_OK);
	assert_true(n.wide);
	assert_int_equal(decode_parse_number("ffffffffffffffff", false, &n),
			 DECODE_PARSE_OK);
	assert_true(n.value == UINT64_MAX);
	assert_int_equal(decode_parse_number("10000000000000000", false, &n),
			 DECODE_PARSE_OVERFLOW);
	assert_int_equal(decode_parse_number("ff", true, &n), DECODE_PARSE_BAD);
	assert_int_equal(decode_parse_number("0x", false, &n),
			 DECODE_PARSE_BAD);
	assert_int_equal(decode_parse_number("", false, &n), DECODE_PARSE_BAD);
	assert_int_equal(decode_parse_number("-1", false, &n),
			 DECODE_PARSE_BAD);
	assert_int_equal(decode_parse_number("12 ", false, &n),
			 DECODE_PARSE_BAD);
}

static void bh_disabled_with_preemption_off(void **state)
{
	struct decoded d = decode("201", DECODE_LAYOUT_2020, false);

	(void)state;
	assert_string_equal(d.layout, "2020");
	assert_int_equal(d.width, 32);
	assert_int_equal(d.preempt, 1);
	assert_int_equal(d.softirq, 2);
	assert_int_equal(d.hardirq, 0);
	assert_int_equal(d.nmi, 0);
	assert_int_equal(d.irq_disable, -1);
	assert_int_equal(pred(&d, DP_SOFTIRQ_COUNT), 0x200);
	assert_int_equal(pred(&d, DP_IRQ_COUNT), 0x200);
	assert_int_equal(pred(&d, DP_IN_SOFTIRQ), 1);
	assert_int_equal(pred(&d, DP_IN_SERVING_SOFTIRQ), 0);
	assert_int_equal(pred(&d, DP_IN_INTERRUPT), 1);
	assert_int_equal(pred(&d, DP_IN_TASK), 1);
	assert_int_equal(pred(&d, DP_IN_ATOMIC), 1);
	assert_int_equal(pred(&d, DP_IN_ATOMIC_PREEMPT_OFF), 1);
	assert_int_equal(pred(&d, DP_PREEMPTIBLE), 0);
	assert_int_equal(pred(&d, DP_IRQS_DISABLED), -1);
	assert_int_equal(pred(&d, DP_INTERRUPT_CONTEXT_LEVEL), 0);
	assert_context(&d, "task, bh disabled 1 level, preempt depth 1");
}

static void hardirq_in_serving_softirq(void **state)
{
	struct decoded d = decode("0x10100", DECODE_LAYOUT_2020, false);
	struct decoded e = decode("10302", DECODE_LAYOUT_2020, false);
	struct decode_notes n;

	(void)state;
	assert_int_equal(d.hardirq, 1);
	assert_int_equal(d.softirq, 1);
	assert_int_equal(pred(&d, DP_HARDIRQ_COUNT), 0x10000);
	assert_int_equal(pred(&d, DP_IN_HARDIRQ), 1);
	assert_int_equal(pred(&d, DP_IN_SERVING_SOFTIRQ), 1);
	assert_int_equal(pred(&d, DP_IN_TASK), 0);
	assert_int_equal(pred(&d, DP_INTERRUPT_CONTEXT_LEVEL), 2);
	assert_context(&d, "hardirq (nesting 1) that interrupted a softirq "
			   "being served");
	/* Serving and bh-disabled at once is legitimate: no flag. */
	assert_context(&e, "hardirq (nesting 1) that interrupted a softirq "
			   "being served, bh disabled 1 level, preempt depth "
			   "2");
	decode_check(&e, &n);
	assert_false(n.impossible);
	assert_int_equal(n.nr, 0);
}

static void nmi_is_level_3(void **state)
{
	struct decoded d = decode("100000", DECODE_LAYOUT_2020, false);
	struct decoded e = decode("110000", DECODE_LAYOUT_2020, false);
	struct decode_notes n;

	(void)state;
	assert_int_equal(d.nmi, 1);
	assert_int_equal(pred(&d, DP_IN_NMI), 1);
	assert_int_equal(pred(&d, DP_NMI_COUNT), 0x100000);
	assert_int_equal(pred(&d, DP_IN_TASK), 0);
	assert_int_equal(pred(&d, DP_INTERRUPT_CONTEXT_LEVEL), 3);
	assert_context(&d, "NMI (nesting 1)");
	/* nmi_enter() adds a hardirq offset too: without it, say so. */
	decode_check(&d, &n);
	assert_false(n.impossible);
	assert_int_equal(n.nr, 1);
	assert_contains(n.text[0], "hardirq offset");
	/* With it, the hardirq offset is the NMI's own. */
	assert_context(&e, "NMI (nesting 1)");
	decode_check(&e, &n);
	assert_int_equal(n.nr, 0);
}

static void need_resched_plain_and_inverted(void **state)
{
	struct decoded plain = decode("80000000", DECODE_LAYOUT_2020, false);
	struct decoded raw = decode("80000000", DECODE_LAYOUT_2020, true);
	struct decoded raw_owed = decode("1", DECODE_LAYOUT_2020, true);

	(void)state;
	assert_true(plain.need_resched);
	assert_int_equal(plain.count, 0);
	assert_int_equal(pred(&plain, DP_NEED_RESCHED), 1);
	assert_int_equal(pred(&plain, DP_IN_ATOMIC), 0);
	/* Count zero: preemptible hangs on the irq state, not in 2020. */
	assert_int_equal(pred(&plain, DP_PREEMPTIBLE), -1);
	assert_context(
		&plain,
		"task, preemptible if irqs are enabled, reschedule owed");
	assert_false(raw.need_resched);
	assert_int_equal(raw.count, 0);
	assert_int_equal(pred(&raw, DP_NEED_RESCHED), 0);
	assert_true(raw.raw_x86);
	assert_true(raw_owed.need_resched);
	assert_int_equal(pred(&raw_owed, DP_IN_ATOMIC_PREEMPT_OFF), 0);
}

static void pk_word_keeps_irq_disable_depth(void **state)
{
	struct decoded d = decode("0x01000000", DECODE_LAYOUT_PK, false);
	struct decoded z = decode("0", DECODE_LAYOUT_PK, false);
	struct decode_notes n;

	(void)state;
	assert_string_equal(d.layout, "pk");
	assert_int_equal(d.irq_disable, 1);
	assert_int_equal(pred(&d, DP_IRQS_DISABLED), 1);
	assert_int_equal(pred(&d, DP_IN_ATOMIC), 1);
	assert_int_equal(pred(&d, DP_PREEMPTIBLE), 0);
	assert_int_equal(pred(&d, DP_IN_TASK), 1);
	assert_context(&d, "task, irqs disabled (depth 1)");
	decode_check(&d, &n);
	assert_false(n.impossible); /* bits 24-30 are ours, not reserved */
	/* Here the word knows the irq state, so zero is preemptible. */
	assert_int_equal(pred(&z, DP_PREEMPTIBLE), 1);
	assert_int_equal(pred(&z, DP_IRQS_DISABLED), 0);
	assert_context(&z, "task, preemptible");
}

static void layout_2026_32_and_64_bit(void **state)
{
	struct decoded d = decode("0x01010000", DECODE_LAYOUT_2026, false);
	struct decoded w =
		decode("0x8000000000000201", DECODE_LAYOUT_2026, false);
	struct decoded r =
		decode("0x8000000000000201", DECODE_LAYOUT_2026, true);
	struct decoded nmi = decode("11000000", DECODE_LAYOUT_2026, false);

	(void)state;
	assert_int_equal(d.width, 32);
	assert_int_equal(d.hardirq, 1);
	assert_int_equal(d.irq_disable, 1);
	assert_int_equal(pred(&d, DP_HARDIRQ_COUNT), 0x01000000);
	assert_int_equal(pred(&d, DP_IRQS_DISABLED), 1);
	assert_int_equal(pred(&d, DP_INTERRUPT_CONTEXT_LEVEL), 2);
	assert_context(&d, "hardirq (nesting 1), irqs disabled (depth 1)");
	assert_int_equal(w.width, 64);
	assert_true(w.need_resched);
	assert_int_equal(w.count, 0x201);
	assert_int_equal(w.preempt, 1);
	assert_int_equal(w.softirq, 2);
	assert_int_equal(w.reserved, 0);
	assert_false(r.need_resched);
	assert_int_equal(nmi.nmi, 1);
	assert_int_equal(pred(&nmi, DP_INTERRUPT_CONTEXT_LEVEL), 3);
}

static void wide_values_do_not_fit_2020_or_pk(void **state)
{
	struct decode_number num = {UINT64_C(0x100000000), true};
	struct decoded d;

	(void)state;
	assert_int_equal(decode_word(num, DECODE_LAYOUT_2020, false, &d), -1);
	assert_int_equal(decode_word(num, DECODE_LAYOUT_PK, false, &d), -1);
	assert_int_equal(decode_word(num, DECODE_LAYOUT_2026, false, &d), 0);
}

static void reserved_bits_are_impossible(void **state)
{
	struct decoded a = decode("7f000001", DECODE_LAYOUT_2020, false);
	struct decoded b = decode("20000000", DECODE_LAYOUT_2026, false);
	/* Once need-resched has moved to bit 63, bit 31 is reserved. */
	struct decoded c =
		decode("0000000080000000", DECODE_LAYOUT_2026, false);
	struct decode_notes n;

	(void)state;
	decode_check(&a, &n);
	assert_true(n.impossible);
	assert_contains(n.text[0], "reserved bits 24-30");
	assert_int_equal(a.reserved, 0x7f000000);
	decode_check(&b, &n);
	assert_true(n.impossible);
	assert_contains(n.text[0], "reserved bits 29-30");
	decode_check(&c, &n);
	assert_true(n.impossible);
	assert_false(c.need_resched);
	assert_contains(n.text[0], "reserved bits 29-62");
}

static void implausible_nesting_is_noted(void **state)
{
	struct decoded d = decode("0x230000", DECODE_LAYOUT_2020, false);
	struct decoded p = decode("0xfa", DECODE_LAYOUT_2020, false);
	struct decode_notes n;

	(void)state;
	decode_check(&d, &n);
	assert_false(n.impossible);
	assert_int_equal(n.nr, 1);
	assert_contains(n.text[0], "NMI nesting 2");
	assert_context(&d, "NMI (nesting 2) that interrupted a hardirq "
			   "(nesting 1)");
	decode_check(&p, &n);
	assert_int_equal(n.nr, 1);
	assert_contains(n.text[0], "preempt depth 250");
}

static void cmd_decode_rejects_bad_options(void **state)
{
	char *bad[] = {"decode", "--bogus", NULL};
	char *none[] = {"decode", NULL};

	(void)state;
	assert_int_equal(cmd_decode(2, bad), CLI_EXIT_USAGE);
	assert_int_equal(cmd_decode(1, none), CLI_EXIT_USAGE);
}

/* ---- the tool, end to end ---- */

#define TOOL(in, ...)                                                          \
	run_tool_with(                                                         \
		(in), NULL,                                                    \
		(const char *const[]){"preempt", "decode", __VA_ARGS__, NULL})

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void write_temp(const char *text, char *path)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
}

static void text_output_has_fields_context_predicates(void **state)
{
	(void)state;
	assert_int_equal(TOOL(NULL, "201"), 0);
	assert_string_equal(res.err, "");
	assert_contains(res.out, "preempt_count 0x00000201  layout 2020");
	assert_contains(res.out, "  preempt       0-7    1 ");
	assert_contains(res.out, "  softirq       8-15   0x02   bh disabled 1");
	assert_contains(res.out, "  reserved      24-30  0x0    must be 0");
	assert_contains(res.out,
			"  context: task, bh disabled 1 level, preempt depth "
			"1\n");
	assert_contains(res.out, "softirq_count       0x200 ");
	assert_contains(res.out, "irqs_disabled            ? (not in word)");
	assert_contains(res.out, "in_atomic                1\n");
}

static void text_output_says_raw_x86(void **state)
{
	(void)state;
	assert_int_equal(TOOL(NULL, "--raw-x86", "80000000"), 0);
	assert_contains(res.out, "raw x86 word: need-resched (bit 31)");
	assert_contains(res.out, "no reschedule owed");
	assert_contains(res.out, "need_resched             0\n");
	assert_int_equal(TOOL(NULL, "80000000"), 0);
	assert_contains(res.out, "context: task, preemptible if irqs are "
				 "enabled, reschedule owed\n");
	assert_contains(res.out, "preemptible              1 if irqs on\n");
}

static void several_values_and_decimal(void **state)
{
	(void)state;
	assert_int_equal(TOOL(NULL, "--dec", "513", "0x10100", "--json"), 0);
	assert_int_equal(count_lines(res.out), 2);
	assert_contains(res.out, "{\"value\":\"0x00000201\"");
	assert_contains(res.out, "{\"value\":\"0x00010100\"");
}

static void impossible_values_print_and_exit_1(void **state)
{
	(void)state;
	assert_int_equal(TOOL(NULL, "1", "7f000000"), 1);
	assert_string_equal(res.err, "");
	assert_contains(res.out, "preempt_count 0x00000001");
	assert_contains(res.out, "FLAG: impossible: reserved bits 24-30 set");
	assert_int_equal(TOOL(NULL, "--layout=pk", "7f000000"), 0);
	assert_int_equal(TOOL(NULL, "--layout=2026", "--json", "60000000"), 1);
	assert_contains(res.out, "\"impossible\":true");
}

static void expect_usage_error(const char *what)
{
	if (res.status != CLI_EXIT_USAGE || res.out[0] ||
	    count_lines(res.err) != 1 ||
	    strncmp(res.err, "preempt: decode: ", 17))
		fail_msg("%s: status %d, stdout \"%s\", stderr \"%s\"", what,
			 res.status, res.out, res.err);
}

static void bad_input_exits_2_with_one_line(void **state)
{
	(void)state;
	TOOL(NULL, NULL);
	expect_usage_error("no arguments");
	TOOL(NULL, "--json");
	expect_usage_error("options only");
	TOOL(NULL, "--bogus", "201");
	expect_usage_error("unknown option");
	TOOL(NULL, "-5");
	expect_usage_error("negative number");
	TOOL(NULL, "zzz");
	expect_usage_error("not a number");
	TOOL(NULL, "--dec", "ff");
	expect_usage_error("hex in decimal mode");
	TOOL(NULL, "--layout");
	expect_usage_error("missing layout");
	TOOL(NULL, "--layout=1999", "201");
	expect_usage_error("unknown layout");
	TOOL(NULL, "--layout", "", "201");
	expect_usage_error("empty layout");
	TOOL(NULL, "100000000");
	expect_usage_error("too wide for 2020");
	TOOL(NULL, "--layout=pk", "0x0000000000000001");
	expect_usage_error("too wide for pk");
	TOOL(NULL, "--layout=2026", "10000000000000000");
	expect_usage_error("more than 64 bits");
	TOOL(NULL, "/nonexistent/preempt.log");
	expect_usage_error("missing file");
	TOOL(NULL, "/");
	expect_usage_error("directory");
	/* One bad value spoils the lot: nothing printed for the good one. */
	TOOL(NULL, "201", "zzz");
	expect_usage_error("good then bad");
}

static void help_goes_to_stdout(void **state)
{
	(void)state;
	assert_int_equal(TOOL(NULL, "--help"), 0);
	assert_string_equal(res.err, "");
	assert_contains(res.out, "usage: preempt decode");
	assert_contains(res.out, "--layout=NAME");
}

static void json_has_every_key(void **state)
{
	(void)state;
	assert_int_equal(TOOL(NULL, "--json", "201"), 0);
	assert_int_equal(count_lines(res.out), 1);
	assert_true(res.out[0] == '{');
	assert_contains(res.out, "}\n");
	assert_contains(res.out, "\"layout\":\"2020\"");
	assert_contains(res.out, "\"fields\":{\"preempt\":1,\"softirq\":2,");
	assert_contains(res.out, "\"bh_disable\":1");
	assert_contains(res.out, "\"irq_disable\":null");
	assert_contains(res.out, "\"context\":\"task, bh disabled 1 level, "
				 "preempt depth 1\"");
	assert_contains(res.out, "\"in_atomic\":1");
	assert_contains(res.out, "\"preemptible\":0");
	assert_contains(res.out, "\"irqs_disabled\":null");
	assert_contains(res.out, "\"softirq_count\":512");
	assert_contains(res.out, "\"interrupt_context_level\":0");
	assert_contains(res.out, "\"impossible\":false,\"flags\":[]");
	assert_int_equal(TOOL(NULL, "--json", "--layout=pk", "1000000"), 0);
	assert_contains(res.out, "\"irqs_disabled\":1");
	assert_contains(res.out, "\"irq_disable\":1");
}

static const char kernel_log[] =
	"[   12.3] BUG: sleeping function called from invalid context at "
	"kernel/foo.c:42\n"
	"[   12.3] in_atomic(): 1, irqs_disabled(): 0, non_block: 0, pid: 42, "
	"name: worker\n"
	"[   12.3] preempt_count: 201, expected: 0\n"
	"[   13.0] BUG: scheduling while atomic: kworker/0:1/1234/0x00000002\n"
	"[   14.0] BUG: using smp_processor_id() in preemptible [00000000] "
	"code: a.out/123\n"
	"[   15.0] huh, entered softirq 3 NET_RX 00000000deadbeef with "
	"preempt_count 00000100, exited with 00000101?\n"
	"preempt_count: 10100\n"
	"nothing here";

static void check_annotated_log(void)
{
	const char *p = res.out;
	static const char *const in_order[] = {
		"kernel/foo.c:42\n    => splat: sleeping function called from "
		"invalid context (__might_resched)\n",
		"caller held 0x201\n",
		"\n[   12.3] in_atomic(): 1,",
		"[   12.3] preempt_count: 201, expected: 0\n"
		"    => preempt_count 0x201 (expected 0x0): task, bh disabled "
		"1 level, preempt depth 1; in_task=1 in_atomic=1 "
		"preemptible=0 irqs_disabled=? level=0\n",
		"kworker/0:1/1234/0x00000002\n    => splat: scheduling while "
		"atomic (__schedule_bug, printed inside the scheduler)\n",
		"printed 0x00000002; printer's own level 1; caller held 0x1\n"
		"    =>   context: task, preempt depth 1\n",
		"a.out/123\n    => splat: smp_processor_id()/this_cpu in "
		"preemptible code",
		"printed 0x00000000; printer's own level 1; caller held 0x0\n",
		"exited with 00000101?\n    => splat: softirq handler changed "
		"the count",
		"    =>   leak: the handler leaked 0x1\n",
		"preempt_count: 10100\n    => preempt_count 0x10100: hardirq "
		"(nesting 1) that interrupted a softirq being served; "
		"in_task=0 in_atomic=1 preemptible=0 irqs_disabled=? level=2\n",
		"nothing here\n",
	};

	for (size_t i = 0; i < sizeof(in_order) / sizeof(in_order[0]); i++) {
		const char *at = strstr(p, in_order[i]);

		if (!at)
			fail_msg("missing (in order) \"%s\" in:\n%s",
				 in_order[i], res.out);
		p = at + strlen(in_order[i]);
	}
	/* 8 lines echoed, 2 count annotations, 20 lines of 4 splats */
	assert_int_equal(count_lines(res.out), 30);
	assert_string_equal(res.err, "");
}

/* might_sleep()'s RCU line (PREEMPT_RCU) is explained, not decoded. */
static void rcu_nest_depth_line_is_annotated(void **state)
{
	char path[] = "/tmp/test_decode_rcu.XXXXXX";

	(void)state;
	write_temp("preempt_count: 0, expected: 0\n"
		   "RCU nest depth: 1, expected: 0\n",
		   path);
	assert_int_equal(TOOL(NULL, path), 0);
	if (!strstr(res.out, "RCU nest depth: 1, expected: 0\n"
			     "    => RCU nest depth 1 (expected 0): 1 "
			     "rcu_read_lock() section more than the caller "
			     "allows;"))
		fail_msg("no RCU annotation in:\n%s", res.out);
	assert_int_equal(TOOL(NULL, "--json", path), 0);
	if (!strstr(res.out, "\"role\":\"rcu_nest_depth\",\"depth\":1,"
			     "\"expected\":0}"))
		fail_msg("no RCU JSON in:\n%s", res.out);
	unlink(path);
}

static void log_from_a_file(void **state)
{
	char path[] = "/tmp/test_decode_log.XXXXXX";

	(void)state;
	write_temp(kernel_log, path);
	assert_int_equal(TOOL(NULL, path), 0);
	check_annotated_log();
	unlink(path);
}

static void log_from_stdin(void **state)
{
	char path[] = "/tmp/test_decode_log.XXXXXX";

	(void)state;
	write_temp(kernel_log, path);
	assert_int_equal(TOOL(path, "-"), 0);
	check_annotated_log();
	unlink(path);
}

static void log_as_json_lines(void **state)
{
	char path[] = "/tmp/test_decode_log.XXXXXX";

	(void)state;
	write_temp(kernel_log, path);
	assert_int_equal(TOOL(path, "--json", "-"), 0);
	unlink(path);
	/* one object per count: 1 + 1 + 1 + 2 + 1 */
	assert_int_equal(count_lines(res.out), 6);
	assert_contains(
		res.out,
		"{\"source\":\"<stdin>\",\"line\":3,\"match\":"
		"\"preempt_count: 201, expected: 0\",\"role\":\"count\","
		"\"expected\":\"0x0\",\"value\":\"0x00000201\"");
	assert_contains(res.out, "\"line\":4,\"role\":\"splat\",\"printer\":"
				 "\"scheduling_while_atomic\"");
	assert_contains(res.out, "\"printed\":\"0x2\",\"own\":1,"
				 "\"caller_count\":\"0x1\"");
	assert_contains(res.out, "\"line\":5,\"role\":\"splat\",\"printer\":"
				 "\"smp_processor_id\"");
	assert_contains(res.out, "\"line\":6,\"role\":\"splat\",\"printer\":"
				 "\"softirq_leak\"");
	assert_contains(res.out, "\"leak\":\"the handler leaked 0x1\"");
	assert_contains(res.out, "\"line\":7,");
	assert_true(strstr(res.out, "nothing here") == NULL);
}

static void log_flags_impossible_values(void **state)
{
	char path[] = "/tmp/test_decode_log.XXXXXX";

	(void)state;
	write_temp("BUG: scheduling while atomic: a\"b/1/0x40000001\n"
		   "preempt_count: 123456789\n",
		   path);
	assert_int_equal(TOOL(NULL, path), 1);
	/* no version line: only the 3.x layout fits, with ARM's
	 * PREEMPT_ACTIVE in bit 30, and schedule()'s own level comes off */
	assert_contains(res.out, "caller held 0x0\n");
	assert_contains(res.out, "Bit 30 is PREEMPT_ACTIVE on 32-bit ARM");
	assert_contains(res.out, "    => preempt_count 0x123456789: cannot "
				 "decode: wider than this layout's 32-bit "
				 "word (layout 2020) [impossible]\n");
	assert_int_equal(TOOL(NULL, "--json", path), 1);
	/* the comm's quote is escaped */
	assert_contains(res.out, "\"comm\":\"a\\\"b\"");
	assert_contains(res.out, "\"error\":\"wider than this layout's "
				 "32-bit word\",\"impossible\":true");
	/* the 2026 layout takes a 64-bit word from the log */
	assert_int_equal(TOOL(NULL, "--layout=2026", path), 1);
	assert_contains(res.out,
			"0x123456789: hardirq (nesting 3) that interrupted a "
			"softirq being served, bh disabled 51 levels, irqs "
			"disabled (depth 69), preempt depth 137;");
	assert_contains(res.out, "[impossible: reserved bits 29-62 set "
				 "(0x120000000)]");
	unlink(path);
}

static void values_and_logs_mix(void **state)
{
	char path[] = "/tmp/test_decode_log.XXXXXX";

	(void)state;
	write_temp("preempt_count: 1\n", path);
	assert_int_equal(TOOL(NULL, "201", path), 0);
	assert_contains(res.out, "preempt_count 0x00000201  layout 2020");
	assert_contains(res.out, "\n\npreempt_count: 1\n    => preempt_count "
				 "0x1: task, preempt depth 1;");
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_parse_as_the_kernel_prints_them),
		cmocka_unit_test(bh_disabled_with_preemption_off),
		cmocka_unit_test(hardirq_in_serving_softirq),
		cmocka_unit_test(nmi_is_level_3),
		cmocka_unit_test(need_resched_plain_and_inverted),
		cmocka_unit_test(pk_word_keeps_irq_disable_depth),
		cmocka_unit_test(layout_2026_32_and_64_bit),
		cmocka_unit_test(wide_values_do_not_fit_2020_or_pk),
		cmocka_unit_test(reserved_bits_are_impossible),
		cmocka_unit_test(implausible_nesting_is_noted),
		cmocka_unit_test(cmd_decode_rejects_bad_options),
		cmocka_unit_test(text_output_has_fields_context_predicates),
		cmocka_unit_test(text_output_says_raw_x86),
		cmocka_unit_test(several_values_and_decimal),
		cmocka_unit_test(impossible_values_print_and_exit_1),
		cmocka_unit_test(bad_input_exits_2_with_one_line),
		cmocka_unit_test(help_goes_to_stdout),
		cmocka_unit_test(json_has_every_key),
		cmocka_unit_test(log_from_a_file),
		cmocka_unit_test(rcu_nest_depth_line_is_annotated),
		cmocka_unit_test(log_from_stdin),
		cmocka_unit_test(log_as_json_lines),
		cmocka_unit_test(log_flags_impossible_values),
		cmocka_unit_test(values_and_logs_mix),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
