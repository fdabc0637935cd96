// SPDX-License-Identifier: MIT
/*
 * `preempt latency`: the built tool run with short -l/-D values, its output
 * read back by a parser of cyclictest's formats written here from
 * cyclictest's printf strings (not from tools/latency.c).  Only structure
 * and consistency are checked, never latency values.
 */
#include <fcntl.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#define RUN_TOOL_OUT_MAX (1 << 20)
#define RUN_TOOL_ERR_MAX 4096
#include "run_tool.h"

#define MAX_T 8
#define MAX_ROWS 256

/* ---- running the tool ---------------------------------------------------- */

#define TOOL_ENV(env, ...)                                                     \
	run_tool_with(NULL, (env),                                             \
		      (const char *const[]){"preempt", "latency", __VA_ARGS__, \
					    NULL})
#define TOOL(...) TOOL_ENV(NULL, __VA_ARGS__)

/* ---- an independent parser of cyclictest's output ---------------------- */

struct tline {
	long idx, tid, prio, interval;
	unsigned long cycles;
	long min, act, avg, max;
};

struct parsed {
	int nr_t, nr_rows, nr_cols;
	struct tline t[MAX_T];
	unsigned long rows[MAX_ROWS][MAX_T + 1];
	bool has_total;
	unsigned long long total[MAX_T + 1];
	int nr_total;
	unsigned long min[MAX_T + 1], avg[MAX_T + 1], max[MAX_T + 1],
		ovf[MAX_T + 1];
	int nr_min, nr_avg, nr_max, nr_ovf;
};

/* " %05lu" values after @prefix, into @v; their count. */
static int parse_values(const char *line, const char *prefix, unsigned long *v)
{
	const char *p = line + strlen(prefix);
	int n = 0;

	while (*p == ' ' && n <= MAX_T) {
		char *end;

		v[n++] = strtoul(p + 1, &end, 10);
		assert_true(end > p + 1);
		p = end;
	}
	assert_true(*p == '\0');
	return n;
}

/*
 * Parse every line of @text that belongs to one model's block.  Lines that
 * are neither a thread line, a histogram row nor a known summary line must
 * be comments ('#'), cyclictest's "policy:" line or empty.
 */
static void parse_block(const char *text, bool nsecs, struct parsed *p)
{
	regex_t tre, rowre;
	char *copy = strdup(text), *save = NULL;

	memset(p, 0, sizeof(*p));
	assert_int_equal(
		regcomp(&tre,
			"^T: *([0-9]+) \\( *([0-9]+)\\) P: *([0-9]+) "
			"I:([0-9]+) C: *([0-9]+) Min: *(-?[0-9]+) "
			"Act: *(-?[0-9]+) Avg: *(-?[0-9]+) Max: *(-?[0-9]+)$",
			REG_EXTENDED),
		0);
	assert_int_equal(regcomp(&rowre, "^[0-9]{6} [0-9]{6}(\t[0-9]{6})*$",
				 REG_EXTENDED | REG_NOSUB),
			 0);
	for (char *l = strtok_r(copy, "\n", &save); l;
	     l = strtok_r(NULL, "\n", &save)) {
		regmatch_t m[10];

		/* A status redraw: cursor up over the last block ("ESC[nA"),
		 * whose thread lines the new block replaces. */
		if (l[0] == '\033') {
			assert_true(l[1] == '[');
			l += 2 + strspn(l + 2, "0123456789");
			assert_true(*l == 'A');
			l++;
		}
		if (!strncmp(l, "policy: ", 8))
			p->nr_t = 0;

		if (!regexec(&tre, l, 10, m, 0)) {
			struct tline *t = &p->t[p->nr_t++];
			char again[256];
			long f[9];

			assert_true(p->nr_t <= MAX_T);
			for (int i = 0; i < 9; i++)
				f[i] = strtol(l + m[i + 1].rm_so, NULL, 10);
			*t = (struct tline){
				f[0], f[1], f[2], f[3], (unsigned long)f[4],
				f[5], f[6], f[7], f[8]};
			/* Byte for byte as cyclictest's printf. */
			if (nsecs)
				snprintf(again, sizeof(again),
					 "T:%2d (%5d) P:%2d I:%ld C:%7lu "
					 "Min:%7ld Act:%8ld Avg:%8ld Max:%8ld",
					 (int)t->idx, (int)t->tid, (int)t->prio,
					 t->interval, t->cycles, t->min, t->act,
					 t->avg, t->max);
			else
				snprintf(again, sizeof(again),
					 "T:%2d (%5d) P:%2d I:%ld C:%7lu "
					 "Min:%7ld Act:%5ld Avg:%5ld Max:%8ld",
					 (int)t->idx, (int)t->tid, (int)t->prio,
					 t->interval, t->cycles, t->min, t->act,
					 t->avg, t->max);
			assert_string_equal(again, l);
		} else if (!regexec(&rowre, l, 0, NULL, 0)) {
			char *end;
			int c = 0;

			assert_int_equal(strtol(l, &end, 10), p->nr_rows);
			assert_true(p->nr_rows < MAX_ROWS);
			for (const char *q = end + 1; *q; c++) {
				assert_true(c <= MAX_T);
				p->rows[p->nr_rows][c] = strtoul(q, &end, 10);
				q = *end ? end + 1 : end;
			}
			if (p->nr_rows)
				assert_int_equal(c, p->nr_cols);
			p->nr_cols = c;
			p->nr_rows++;
		} else if (!strncmp(l, "# Total:", 8)) {
			unsigned long v[MAX_T + 1];

			p->has_total = true;
			p->nr_total = parse_values(l, "# Total:", v);
			for (int i = 0; i < p->nr_total; i++)
				p->total[i] = v[i];
		} else if (!strncmp(l, "# Min Latencies:", 16)) {
			p->nr_min = parse_values(l, "# Min Latencies:", p->min);
		} else if (!strncmp(l, "# Avg Latencies:", 16)) {
			p->nr_avg = parse_values(l, "# Avg Latencies:", p->avg);
		} else if (!strncmp(l, "# Max Latencies:", 16)) {
			p->nr_max = parse_values(l, "# Max Latencies:", p->max);
		} else if (!strncmp(l, "# Histogram Overflows:", 22)) {
			p->nr_ovf = parse_values(
				l, "# Histogram Overflows:", p->ovf);
		} else if (l[0] != '#' && strncmp(l, "policy: ", 8)) {
			fail_msg("unexpected line: \"%s\"", l);
		}
	}
	regfree(&tre);
	regfree(&rowre);
	free(copy);
}

/* The structure every run must have: @threads lines, C == @loops. */
static void check_threads(const struct parsed *p, int threads,
			  unsigned long loops, long prio, long interval,
			  long distance)
{
	assert_int_equal(p->nr_t, threads);
	for (int i = 0; i < threads; i++) {
		const struct tline *t = &p->t[i];

		assert_int_equal(t->idx, i);
		assert_true(t->tid > 0);
		assert_int_equal(t->prio, prio);
		assert_int_equal(t->interval, interval + i * distance);
		if (loops)
			assert_int_equal(t->cycles, loops);
		else
			assert_true(t->cycles > 0);
		assert_true(t->min <= t->avg);
		assert_true(t->avg <= t->max);
		assert_true(t->min <= t->act && t->act <= t->max);
	}
}

/* Histogram: @buckets rows, columns sum to cycles - overflows. */
static void check_hist(const struct parsed *p, int threads, long buckets,
		       bool all_column)
{
	int cols = threads + (all_column && threads > 1);

	assert_int_equal(p->nr_rows, buckets);
	assert_int_equal(p->nr_cols, cols);
	assert_true(p->has_total);
	assert_int_equal(p->nr_total, cols);
	assert_int_equal(p->nr_min, threads);
	assert_int_equal(p->nr_avg, threads);
	assert_int_equal(p->nr_max, cols);
	assert_int_equal(p->nr_ovf, cols);
	for (int j = 0; j < cols; j++) {
		unsigned long long sum = 0;

		for (int i = 0; i < p->nr_rows; i++)
			sum += p->rows[i][j];
		assert_int_equal(sum, p->total[j]);
	}
	for (int j = 0; j < threads; j++) {
		const struct tline *t = &p->t[j];

		assert_int_equal(p->total[j] + p->ovf[j], t->cycles);
		assert_int_equal(p->min[j], t->min);
		assert_int_equal(p->avg[j], t->avg);
		assert_int_equal(p->max[j], t->max);
		/* The latencies fall in the buckets they say. */
		if (t->max < buckets)
			assert_int_equal(p->ovf[j], 0);
		if (t->min >= buckets)
			assert_int_equal(p->total[j], 0);
		for (long i = 0; i < buckets; i++)
			if (p->rows[i][j])
				assert_true(i >= t->min && i <= t->max);
	}
	if (cols > threads) {
		unsigned long maxmax = 0, ovf = 0;

		for (int j = 0; j < threads; j++) {
			maxmax = p->max[j] > maxmax ? p->max[j] : maxmax;
			ovf += p->ovf[j];
		}
		for (int i = 0; i < p->nr_rows; i++) {
			unsigned long s = 0;

			for (int j = 0; j < threads; j++)
				s += p->rows[i][j];
			assert_int_equal(p->rows[i][threads], s);
		}
		assert_int_equal(p->max[threads], maxmax);
		assert_int_equal(p->ovf[threads], ovf);
	}
}

/* ---- the tests ---------------------------------------------------------- */

static struct parsed p;

/* Without -q, the last status block's thread lines, then the histogram. */
static void threads_then_histogram(void **state)
{
	static const char head[] = "# /dev/cpu_dma_latency set to 0us\n"
				   "policy: other/other: loadavg: ";
	const char *hist;

	(void)state;
	assert_int_equal(TOOL("-l", "100", "-i", "200", "-t", "2", "-h", "60",
			      "--model", "full"),
			 0);
	assert_string_equal(res.err, "");
	parse_block(res.out, false, &p);
	/* cyclictest: SCHED_OTHER by default, one interval with -h. */
	check_threads(&p, 2, 100, 0, 200, 0);
	check_hist(&p, 2, 60, false);
	assert_true(!strncmp(res.out, head, sizeof(head) - 1));
	hist = strstr(res.out, "# Histogram\n");
	assert_non_null(hist);
	assert_null(strstr(hist, "\nT:"));
	assert_true(!strcmp(res.out + strlen(res.out) - 2, "\n\n"));
}

/* -q -h prints the histogram and no thread line, as cyclictest. */
static void quiet_histogram_has_no_thread_lines(void **state)
{
	(void)state;
	assert_int_equal(
		TOOL("-q", "-l", "100", "-i", "200", "-t", "2", "-h", "60"), 0);
	parse_block(res.out, false, &p);
	assert_int_equal(p.nr_t, 0);
	assert_int_equal(p.nr_rows, 60);
	assert_int_equal(p.total[0] + p.ovf[0], 100);
	assert_int_equal(p.total[1] + p.ovf[1], 100);
	assert_null(strstr(res.out, "policy:"));
	assert_null(strstr(res.out, "T:"));
}

static void overflows_are_counted(void **state)
{
	(void)state;
	/* One 1-µs bucket: nearly every sample overflows. */
	assert_int_equal(TOOL("-l", "50", "-i", "300", "-h", "1", "-p", "70",
			      "-d", "0", "-t", "2"),
			 0);
	parse_block(res.out, false, &p);
	check_threads(&p, 2, 50, 70, 300, 0);
	check_hist(&p, 2, 1, false);
	assert_contains(res.out, "policy: fifo: loadavg:");
	/* At most -h cycle numbers listed, as cyclictest; the rest counted. */
	for (int j = 0; j < 2; j++) {
		char want[64];

		snprintf(want, sizeof(want),
			 "# Thread %d: 00000 # %05lu others\n", j,
			 p.ovf[j] - 1);
		if (p.ovf[j] > 1 && p.rows[0][j] == 0)
			assert_contains(res.out, want);
	}
}

static void histofall_adds_a_column(void **state)
{
	(void)state;
	assert_int_equal(TOOL("-l", "40", "-i", "250", "-t", "3", "-H", "30",
			      "--model", "rt", "--load", "1"),
			 0);
	parse_block(res.out, false, &p);
	check_threads(&p, 3, 40, 0, 250, 0);
	check_hist(&p, 3, 30, true);
	assert_contains(res.out, "policy: other/other: loadavg:");
}

/*
 * --load-irq 0 leaves the CPU-bound tasks alone; the default raises the
 * line every 200 us on average per vCPU, some 1500 times in 300 ms: one
 * raise is all it takes, a wide margin.
 */
static void load_irq_sets_the_interrupt_load(void **state)
{
	(void)state;
	assert_int_equal(
		TOOL("-l", "300", "-q", "--load", "1", "--load-irq", "0"), 0);
	assert_contains(res.err,
			"# load: 1 CPU-bound tasks, interrupt line 40 raised 0 "
			"times");
	assert_int_equal(TOOL("-l", "300", "-q", "--load", "1"), 0);
	assert_contains(res.err, "# load: 1 CPU-bound tasks, interrupt line");
	assert_null(strstr(res.err, "raised 0 times"));
}

/* --breakdown: every sample split in two, each part's percentiles in order. */
static void breakdown_splits_every_sample(void **state)
{
	long n, a[3], b[3];
	const char *line;

	(void)state;
	assert_int_equal(TOOL("-l", "50", "-i", "500", "-q", "--breakdown"), 0);
	line = strstr(res.err, "# T: 0 ");
	assert_non_null(line);
	assert_int_equal(sscanf(line,
				"# T: 0 %ld samples; period start to timer "
				"function: p50 %ld p90 %ld p99 %ld us; timer "
				"function to task: p50 %ld p90 %ld p99 %ld us",
				&n, &a[0], &a[1], &a[2], &b[0], &b[1], &b[2]),
			 7);
	assert_int_equal(n, 50);
	assert_true(a[0] <= a[1] && a[1] <= a[2]);
	assert_true(b[0] <= b[1] && b[1] <= b[2]);
}

static void nanoseconds(void **state)
{
	(void)state;
	assert_int_equal(TOOL("-N", "-l", "30", "-i", "500", "-h", "40"), 0);
	parse_block(res.out, true, &p);
	check_threads(&p, 1, 30, 0, 500, 0);
	/* The histogram stays in µs, its summary lines follow -N. */
	assert_int_equal(p.nr_rows, 40);
	assert_int_equal(p.total[0] + p.ovf[0], 30);
	assert_int_equal(p.min[0], p.t[0].min);
	assert_int_equal(p.max[0], p.t[0].max);
}

static void every_model_in_turn(void **state)
{
	static const char *const names[] = {"none", "voluntary", "full", "lazy",
					    "rt"};
	const char *at;

	(void)state;
	assert_int_equal(
		TOOL("--model", "all", "-l", "20", "-i", "200", "-h", "20"), 0);
	at = res.out;
	for (int m = 0; m < 5; m++) {
		char header[64], *block;
		const char *next;

		snprintf(header, sizeof(header), "# model: %s\n", names[m]);
		at = strstr(at, header);
		assert_non_null(at);
		at += strlen(header);
		next = strstr(at, "# model: ");
		block = strndup(at, next ? (size_t)(next - at) : strlen(at));
		parse_block(block, false, &p);
		free(block);
		check_threads(&p, 1, 20, 0, 200, 0);
		check_hist(&p, 1, 20, false);
	}
}

/*
 * --json with --model all describes every model (tests/tools/
 * latency_json_check.py reads the file with a JSON parser); one model
 * writes rt-tests' keys alone.
 */
static void json_describes_every_model(void **state)
{
	char path[] = "/tmp/test_latency_json.XXXXXX", opt[64], cmd[512];
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	snprintf(opt, sizeof(opt), "--json=%s", path);
	assert_int_equal(TOOL("--model", "all", "-q", "-l", "20", "-i", "200",
			      "-t", "2", "-h", "20", opt),
			 0);
	snprintf(cmd, sizeof(cmd),
		 "python3 %s/tests/tools/latency_json_check.py %s 20 2 "
		 "none voluntary full lazy rt",
		 PREEMPT_SOURCE_DIR, path);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(TOOL("--model", "rt", "-q", "-l", "20", "-i", "200",
			      "-h", "20", opt),
			 0);
	snprintf(cmd, sizeof(cmd), "grep -q '\"models\"' %s", path);
	assert_int_not_equal(system(cmd), 0);
	unlink(path);
}

static void duration_stops_the_run(void **state)
{
	(void)state;
	assert_int_equal(TOOL("-q", "-D", "1", "-i", "1000", "-p", "0"), 0);
	parse_block(res.out, false, &p);
	/* The duration is checked, not the work done in it: a loaded host
	 * (qemu-user in CI) may not give the thread one cycle in 1 s. */
	assert_int_equal(p.nr_t, 1);
	assert_true(p.t[0].cycles <= 1100);
	if (p.t[0].cycles)
		check_threads(&p, 1, 0, 0, 1000, 500);
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void assert_usage_error(void)
{
	assert_int_equal(res.status, 2);
	assert_string_equal(res.out, "");
	assert_int_equal(count_lines(res.err), 1);
	assert_contains(res.err, "preempt: latency: ");
}

static void bad_input_is_one_line_and_2(void **state)
{
	(void)state;
	TOOL("-p", "100");
	assert_usage_error();
	TOOL("-i", "0");
	assert_usage_error();
	TOOL("-i", "abc");
	assert_usage_error();
	TOOL("-x");
	assert_usage_error();
	TOOL("--model", "bogus");
	assert_usage_error();
	TOOL("-l");
	assert_usage_error();
	TOOL("-D", "5x");
	assert_usage_error();
	TOOL("-h", "0");
	assert_usage_error();
	TOOL("-t", "0");
	assert_usage_error();
	TOOL("--load", "-1");
	assert_usage_error();
	TOOL("--load-irq", "-5");
	assert_usage_error();
	TOOL("--load-irq", "2x");
	assert_usage_error();
	TOOL("-l", "5", "extra");
	assert_usage_error();
}

static void plot_without_gnuplot(void **state)
{
	(void)state;
	TOOL_ENV("PREEMPT_GNUPLOT=/nonexistent/gnuplot", "--plot",
		 "/tmp/test_latency.png", "-l", "5");
	assert_usage_error();
	assert_contains(res.err, "gnuplot");
	TOOL_ENV("PREEMPT_GNUPLOT=", "--plot", "/tmp/test_latency.png", "-l",
		 "5");
	assert_usage_error();
}

/* A stand-in gnuplot that keeps the script it was given. */
static void plot_script_has_one_curve_per_model(void **state)
{
	char dir[] = "/tmp/test_latency_plot.XXXXXX", fake[128], kept[128];
	char env[160], script[8192] = "", png[128];
	FILE *f;
	size_t n;
	int curves = 0;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(fake, sizeof(fake), "%s/gnuplot", dir);
	snprintf(kept, sizeof(kept), "%s/script", dir);
	snprintf(png, sizeof(png), "%s/out.png", dir);
	f = fopen(fake, "w");
	assert_non_null(f);
	fprintf(f, "#!/bin/sh\ncp \"$1\" '%s'\n", kept);
	fclose(f);
	assert_int_equal(chmod(fake, 0755), 0);
	snprintf(env, sizeof(env), "PREEMPT_GNUPLOT=%s", fake);
	assert_int_equal(TOOL_ENV(env, "--plot", png, "--model", "all", "-q",
				  "-l", "10", "-i", "200", "-h", "2"),
			 0);
	f = fopen(kept, "r");
	assert_non_null(f);
	n = fread(script, 1, sizeof(script) - 1, f);
	script[n] = '\0';
	fclose(f);
	assert_contains(script, "set logscale y");
	assert_contains(script, png);
	for (const char *s = script; (s = strstr(s, "with histeps")); s++)
		curves++;
	assert_int_equal(curves, 5);
	assert_contains(script, "title \"rt\"");
	/* No sample dropped: each model's overflows are in a note. */
	{
		unsigned long printed = 0, noted = 0;

		for (const char *o = res.out;
		     (o = strstr(o, "# Histogram Overflows: ")); o++)
			printed += strtoul(o + 23, NULL, 10);
		for (const char *o = script; (o = strstr(o, "last bin: ")); o++)
			noted += strtoul(o + 10, NULL, 10);
		assert_int_equal(noted, printed);
	}
	unlink(kept);
	unlink(fake);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(threads_then_histogram),
		cmocka_unit_test(quiet_histogram_has_no_thread_lines),
		cmocka_unit_test(overflows_are_counted),
		cmocka_unit_test(histofall_adds_a_column),
		cmocka_unit_test(nanoseconds),
		cmocka_unit_test(load_irq_sets_the_interrupt_load),
		cmocka_unit_test(breakdown_splits_every_sample),
		cmocka_unit_test(every_model_in_turn),
		cmocka_unit_test(json_describes_every_model),
		cmocka_unit_test(duration_stops_the_run),
		cmocka_unit_test(bad_input_is_one_line_and_2),
		cmocka_unit_test(plot_without_gnuplot),
		cmocka_unit_test(plot_script_has_one_curve_per_model),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
