// SPDX-License-Identifier: MIT
/*
 * `preempt trace`: the built tool end to end.  The latency report's
 * ftrace layout (header lines, legend, event columns) for a known section,
 * Chrome JSON that parses, and bad input: exit 2 with one line on stderr.
 * The lower bound on the latency is exact; a host stall that makes a
 * short section the longest is retried.
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

#include <preempt/preempt.h>

#define RUN_TOOL_OUT_MAX (1 << 20)
#include "run_tool.h"

#define TRACE(...)                                                             \
	run_tool_with(                                                         \
		NULL, NULL,                                                    \
		(const char *const[]){"preempt", "trace", __VA_ARGS__, NULL})

#define TRIES 3
/*
 * The known section, in µs: long beside the library's own irqs-off and
 * preempt-off sections even when a loaded host (qemu, a busy CI machine)
 * stalls one of those for tens of ms.
 */
#define SECTION_US 200000
#define SECTION_ARG "200000"

/* One line on stderr, exit 2, nothing on stdout. */
static void assert_usage_error(const char *needle)
{
	assert_int_equal(res.status, 2);
	assert_contains(res.err, needle);
	assert_non_null(strchr(res.err, '\n'));
	assert_null(strchr(strchr(res.err, '\n') + 1, '\n'));
	assert_string_equal(res.out, "");
}

static void test_bad_input(void **state)
{
	(void)state;
	TRACE("--tracer", "wakeup", "--", "demo");
	assert_usage_error("unknown tracer 'wakeup'");
	TRACE("--format=xml", "--", "demo");
	assert_usage_error("unknown format 'xml'");
	TRACE("--tracer", "irqsoff");
	assert_usage_error("no workload");
	TRACE("--", "sleep", "1");
	assert_usage_error("unknown workload 'sleep'");
	TRACE("--", "irqs-off", "-5");
	assert_usage_error("bad irqs-off argument '-5'");
	TRACE("--", "irqs-off", "10", "20");
	assert_usage_error("too many arguments");
	TRACE("--cpus", "0", "--", "demo");
	assert_usage_error("bad --cpus '0'");
	TRACE("--model", "fast", "--", "demo");
	assert_usage_error("unknown model 'fast'");
	TRACE("--tracer", "nop", "--", "demo", "10");
	assert_usage_error("nop keeps no section");
}

/* The latency of the report's header line, or -1. */
static long header_latency(const char *text)
{
	const char *p = strstr(text, "# latency: ");

	return p ? strtol(p + strlen("# latency: "), NULL, 10) : -1;
}

static void assert_layout(const char *tracer)
{
	char line[64];

	snprintf(line, sizeof(line), "# tracer: %s\n#\n", tracer);
	assert_contains(res.out, line);
	assert_contains(res.out, " us, #");
	assert_contains(res.out, ", CPU#");
	assert_contains(res.out, " | (M:preempt VP:0, KP:0, SP:0 HP:0 #P:2)\n");
	assert_contains(res.out, "#    -----------------\n#    | task: ");
	assert_contains(res.out, " (uid:0 nice:0 policy:0 rt_prio:0)\n");
	assert_contains(res.out, "#                    _------=> CPU#");
	assert_contains(res.out, "#                   / _-----=> irqs-off");
	assert_contains(res.out,
			"#                  |||| / _-=> migrate-disable");
	assert_contains(res.out, "#  cmd     pid     |||||| time  |   caller");
}

/* "comm-pid  cpu#flags  time: event" with the flags in their columns. */
static void assert_event_line(const char *event, char irqs, char depth)
{
	const char *p = strstr(res.out, event), *line;

	if (!p)
		fail_msg("no \"%s\" in:\n%s", event, res.out);
	for (line = p; line > res.out && line[-1] != '\n'; line--)
		;
	assert_true(p - line > 30);
	assert_int_equal(line[8], '-');
	assert_true(line[19] >= '0' && line[19] <= '9'); /* CPU# */
	assert_int_equal(line[20], irqs);
	assert_int_equal(line[23], depth);
	assert_int_equal(line[25], ' ');
	assert_true(strstr(line + 26, "us") < p);
}

/*
 * The preemptirq event names its caller's caller (parent=long_section, the
 * task that calls the hold_* function), and the report ends with ftrace's
 * stack block, from that same function outwards.
 */
static void assert_parent_and_stack(const char *event)
{
	const char *p = strstr(res.out, event), *stack;

	assert_non_null(p);
	p += strlen(event);
	p += strcspn(p, " \n");
	assert_true(!strncmp(p, " parent=long_section+0x", 23));
	stack = strstr(res.out, " : <stack trace>\n");
	assert_non_null(stack);
	assert_true(!strncmp(stack + strlen(" : <stack trace>\n"),
			     " => long_section\n => ",
			     strlen(" => long_section\n => ")));
}

static void run_section(const char *tracer, const char *workload,
			const char *fn)
{
	char start[96];
	int i;

	snprintf(start, sizeof(start), "#  => started at: %s\n", fn);
	for (i = 0; i < TRIES; i++) {
		assert_int_equal(
			TRACE("--tracer", tracer, "--", workload, SECTION_ARG),
			0);
		if (strstr(res.out, start))
			break;
		print_message("not in %s (a host stall?):\n%s", fn, res.out);
	}
	assert_true(i < TRIES);
	snprintf(start, sizeof(start), "#  => ended at:   %s\n", fn);
	assert_contains(res.out, start);
	assert_true(header_latency(res.out) >= SECTION_US);
	assert_layout(tracer);
}

static void test_irqsoff(void **state)
{
	(void)state;
	if (!CONFIG_DEBUG_PREEMPT) {
		TRACE("--tracer", "irqsoff", "--", "irqs-off");
		assert_usage_error("needs the debug build");
		return; /* the refusal is all this build has to show */
	}
	run_section("irqsoff", "irqs-off", "hold_irqs_off");
	assert_contains(res.out, "| task: irqs-off-");
	assert_event_line("irq_disable: caller=hold_irqs_off", 'd', '.');
	assert_event_line("irq_enable: caller=hold_irqs_off", 'd', '.');
	assert_parent_and_stack("irq_enable: caller=hold_irqs_off");
}

static void test_preemptoff(void **state)
{
	(void)state;
	run_section("preemptoff", "preempt-off", "hold_preempt_off");
	assert_event_line("preempt_disable: caller=hold_preempt_off", '.', '1');
	assert_parent_and_stack("preempt_disable: caller=hold_preempt_off");
}

/* M: names the model as the kernel's print_trace_header() does. */
static void test_model_names(void **state)
{
	static const char *const models[][2] = {
		{"none", "server"},   {"voluntary", "desktop"},
		{"full", "preempt"},  {"lazy", "lazy"},
		{"rt", "preempt_rt"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(models) / sizeof(models[0]); i++) {
		char want[64];

		assert_int_equal(TRACE("--tracer", "preemptoff", "--model",
				       models[i][0], "--", "preempt-off",
				       "2000"),
				 0);
		snprintf(want, sizeof(want), " | (M:%s VP:0, KP:0, SP:0 HP:0 ",
			 models[i][1]);
		assert_contains(res.out, want);
	}
}

/* Structural check when python3 is missing: balanced, quoted, closed. */
static void assert_json_shape(const char *text)
{
	int depth = 0;
	bool in_str = false;

	for (const char *p = text; *p; p++) {
		if (in_str) {
			if (*p == '\\')
				p++;
			else if (*p == '"')
				in_str = false;
			continue;
		}
		if (*p == '"')
			in_str = true;
		else if (*p == '{' || *p == '[')
			depth++;
		else if (*p == '}' || *p == ']')
			assert_true(--depth >= 0);
	}
	assert_false(in_str);
	assert_int_equal(depth, 0);
}

static void test_chrome(void **state)
{
	char path[] = "/tmp/test_trace_json.XXXXXX", cmd[128];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	/* A small ring keeps the file within the test's buffer. */
	assert_int_equal(TRACE("--tracer", "nop", "--format=chrome",
			       "--buffer-size", "1024", "-o", path, "--",
			       "demo", "100"),
			 0);
	assert_string_equal(res.out, "");
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	slurp(fd, res.out, sizeof(res.out));
	assert_int_equal(strncmp(res.out, "{\"traceEvents\":[", 16), 0);
	assert_contains(res.out, "\"displayTimeUnit\":\"ns\"}");
	assert_contains(res.out, "\"name\":\"CPU 0\"");
	assert_contains(res.out, "\"cat\":\"task\",\"ph\":\"X\"");
	assert_contains(res.out, "\"cat\":\"hardirq\",\"ph\":\"B\"");
	assert_contains(res.out, "\"cat\":\"softirq\",\"ph\":\"B\"");
	assert_json_shape(res.out);
	snprintf(cmd, sizeof(cmd),
		 "python3 -m json.tool %s >/dev/null", /* scripts/deps.sh */
		 path);
	assert_int_equal(system(cmd), 0);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input),
		cmocka_unit_test(test_irqsoff),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   cmocka_unit_test(test_preemptoff)),
		pk_only_if(CONFIG_DEBUG_PREEMPT,
			   cmocka_unit_test(test_model_names)),
		cmocka_unit_test(test_chrome),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
