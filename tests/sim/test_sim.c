// SPDX-License-Identifier: MIT
/*
 * The deterministic simulation (docs/sim.md): a seed replays exactly,
 * seeds differ, a race and a deadlock are found and reported with the
 * reproduction line, time is virtual, and `preempt sim` finds, reduces and
 * passes what it should.  The subjects are separate programs
 * (tests/sim/sim_*.c), since a simulation is chosen at boot.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

struct result {
	int status; /* exit status, 128 + signal */
	char out[65536];
};

/* Run @argv with $PREEMPT_SIM=@spec (NULL: unset); stdout and stderr. */
static void run(const char *spec, char *const argv[], struct result *r)
{
	int fd = memfd_create("sim-test", 0), status;
	ssize_t n;
	pid_t pid;

	assert_true(fd >= 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		dup2(fd, 1);
		dup2(fd, 2);
		if (spec)
			setenv("PREEMPT_SIM", spec, 1);
		else
			unsetenv("PREEMPT_SIM");
		pk_execv(argv[0], argv);
		_exit(127);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	r->status = WIFEXITED(status) ? WEXITSTATUS(status)
				      : 128 + WTERMSIG(status);
	n = pread(fd, r->out, sizeof(r->out) - 1, 0);
	r->out[n > 0 ? n : 0] = '\0';
	close(fd);
}

static void run_prog(const char *prog, const char *spec, struct result *r)
{
	char *argv[] = {(char *)prog, NULL};

	run(spec, argv, r);
}

/* The trace hash line's value, or "" if the run printed none. */
static const char *hash_of(const struct result *r, char *buf, size_t len)
{
	const char *p = strstr(r->out, "sim: trace hash ");

	buf[0] = '\0';
	if (p)
		sscanf(p + 16, "%63s", buf);
	(void)len;
	return buf;
}

/* After `--`: the program, through the cross build's emulator if any. */
#define PROG(path)                                                             \
	(char *)(PK_TEST_EMULATOR[0] ? PK_TEST_EMULATOR : (path)),             \
		(char *)(PK_TEST_EMULATOR[0] ? (path) : NULL)

static struct result *res(void)
{
	static struct result r[2];
	static int i;

	return &r[i++ & 1];
}

static void same_seed_replays_exactly(void **state)
{
	struct result *a = res(), *b = res();
	char ha[64], hb[64];

	(void)state;
	for (int seed = 1; seed <= 5; seed++) {
		char spec[16];

		snprintf(spec, sizeof(spec), "%d", seed);
		run_prog(SIM_RACE, spec, a);
		run_prog(SIM_RACE, spec, b);
		assert_string_not_equal(hash_of(a, ha, sizeof(ha)), "");
		assert_string_equal(ha, hash_of(b, hb, sizeof(hb)));
		assert_int_equal(a->status, b->status);
		/* The whole output, counter and event trace included. */
		assert_string_equal(a->out, b->out);
	}
}

static void seeds_give_different_interleavings(void **state)
{
	char hashes[8][64];
	int distinct = 0;

	(void)state;
	for (int seed = 0; seed < 8; seed++) {
		struct result *r = res();
		char spec[16];
		bool seen = false;

		snprintf(spec, sizeof(spec), "%d", seed + 100);
		run_prog(SIM_RACE, spec, r);
		hash_of(r, hashes[seed], sizeof(hashes[seed]));
		for (int i = 0; i < seed; i++)
			seen |= !strcmp(hashes[i], hashes[seed]);
		distinct += !seen;
	}
	assert_true(distinct >= 4);
}

static void race_is_found_and_reproduced(void **state)
{
	struct result *r = res(), *again = res();
	char spec[16], line[64], h1[64], h2[64];
	int seed;

	(void)state;
	for (seed = 1; seed <= 50; seed++) {
		snprintf(spec, sizeof(spec), "%d", seed);
		run_prog(SIM_RACE, spec, r);
		if (r->status)
			break;
	}
	assert_true(seed <= 50);
	assert_int_equal(r->status, 1);
	snprintf(line, sizeof(line), "reproduce with PREEMPT_SIM=%d\n", seed);
	assert_non_null(strstr(r->out, line));
	assert_non_null(strstr(r->out, "sim: last events:"));
	run_prog(SIM_RACE, spec, again);
	assert_int_equal(again->status, 1);
	assert_string_equal(hash_of(r, h1, sizeof(h1)),
			    hash_of(again, h2, sizeof(h2)));
}

static void fixed_race_passes_every_seed(void **state)
{
	struct result *r = res();

	(void)state;
	for (int seed = 1; seed <= 60; seed++) {
		char spec[16];

		snprintf(spec, sizeof(spec), "%d", seed);
		run_prog(SIM_RACE_FIXED, spec, r);
		if (r->status)
			print_error("seed %d:\n%s\n", seed, r->out);
		assert_int_equal(r->status, 0);
		assert_null(strstr(r->out, "reproduce with"));
	}
}

/*
 * A wake-up that found a sleep announced claims it only if the task still
 * sleeps as asked: the victim took it back, slept uninterruptibly or died
 * meanwhile in every seed's interleaving (sim_wake_exit.c; issue 19).
 */
static void wake_up_never_undoes_a_later_state(void **state)
{
	struct result *r = res();

	(void)state;
	for (int seed = 1; seed <= 20; seed++) {
		char spec[16];

		snprintf(spec, sizeof(spec), "%d", seed);
		run_prog(SIM_WAKE_EXIT, spec, r);
		if (r->status)
			print_error("seed %d:\n%s\n", seed, r->out);
		assert_int_equal(r->status, 0);
		assert_non_null(strstr(r->out, "0 spurious wake-ups, 0 lost"));
	}
}

static void deadlock_is_reported(void **state)
{
	struct result *r = res();

	(void)state;
	run_prog(SIM_DEADLOCK, "7", r);
	assert_int_not_equal(r->status, 0);
	assert_non_null(strstr(r->out, "BUG: deadlock"));
	assert_non_null(strstr(r->out, "task:waiter"));
	assert_non_null(strstr(r->out, "reproduce with PREEMPT_SIM=7\n"));
	assert_non_null(strstr(r->out, "sim: trace hash "));
}

static void time_is_virtual(void **state)
{
	struct result *r = res();
	char *argv[] = {(char *)SIM_RACE, (char *)"sleep", NULL};
	long long slept = 0;
	const char *p;

	(void)state;
	run("3", argv, r);
	assert_int_equal(r->status, 0);
	p = strstr(r->out, "slept ");
	assert_non_null(p);
	sscanf(p, "slept %lld us", &slept);
	/* 1000 jiffies at HZ 1000 on the virtual clock: 1 s, less the part
	 * of the first jiffy gone at the call. */
	assert_true(slept >= 999000);
	assert_true(slept < 1100000);
}

/*
 * Only the baton's holder runs, so a simulated run keeps its threads on
 * one host CPU, and main gets its own CPUs back at shutdown.
 */
static void run_shares_one_host_cpu(void **state)
{
	struct result *r = res();
	char *argv[] = {(char *)SIM_RACE, (char *)"affinity", NULL};
	int before = 0, during = 0, after = 0;
	const char *p;

	(void)state;
	run("3", argv, r);
	p = strstr(r->out, "host cpus: ");
	assert_non_null(p);
	assert_int_equal(sscanf(p, "host cpus: before %d during %d after %d",
				&before, &during, &after),
			 3);
	assert_int_equal(during, 1);
	assert_int_equal(after, before);
}

static void host_sleep_is_noted_as_nondeterminism(void **state)
{
	struct result *r = res();
	char *argv[] = {(char *)SIM_RACE, (char *)"usleep", NULL};

	(void)state;
	run("3", argv, r);
	assert_non_null(strstr(r->out, "sim: nondeterminism: usleep() waits on "
				       "the host's clock"));
	assert_non_null(
		strstr(r->out, "1 kinds of nondeterministic host call"));
	/* Without the call, nothing is noted. */
	run_prog(SIM_RACE, "3", r);
	assert_null(strstr(r->out, "nondeterminism"));
}

static void strategies_replay_too(void **state)
{
	static const char *const specs[] = {"5,pct:3", "5,pct:2:500",
					    "5,dfs:3.9", "5,limit=2"};
	char h1[64], h2[64];

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct result *a = res(), *b = res();

		run_prog(SIM_RACE, specs[i], a);
		run_prog(SIM_RACE, specs[i], b);
		assert_string_not_equal(hash_of(a, h1, sizeof(h1)), "");
		assert_string_equal(h1, hash_of(b, h2, sizeof(h2)));
	}
}

static void malformed_spec_is_a_usage_error(void **state)
{
	static const char *const bad[] = {"x", "1,pct:0", "1,dfs:a",
					  "1,limit=-1", "1,fast"};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result *r = res();

		run_prog(SIM_RACE, bad[i], r);
		assert_int_equal(r->status, 2);
		assert_non_null(strstr(r->out, "PREEMPT_SIM="));
		assert_null(strchr(strchr(r->out, '\n') + 1, '\n'));
	}
}

static bool read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return false;
	n = fread(buf, 1, len - 1, f);
	buf[n] = '\0';
	fclose(f);
	return true;
}

/* $PREEMPT_SIM_TRACE: Chrome JSON, the same bytes on a replay. */
static void trace_is_json_and_replays(void **state)
{
	static char a[1 << 20], b[1 << 20];
	char path[2][64];
	struct result *r = res();

	(void)state;
	for (int i = 0; i < 2; i++) {
		snprintf(path[i], sizeof(path[i]), "/tmp/sim-trace-%d-%d.json",
			 (int)getpid(), i);
		setenv("PREEMPT_SIM_TRACE", path[i], 1);
		run_prog(SIM_RACE, "4", r);
		unsetenv("PREEMPT_SIM_TRACE");
	}
	assert_true(read_file(path[0], a, sizeof(a)));
	assert_true(read_file(path[1], b, sizeof(b)));
	unlink(path[0]);
	unlink(path[1]);
	assert_string_equal(a, b);
	assert_memory_equal(a, "[\n", 2);
	assert_non_null(strstr(a, "\"args\":{\"name\":\"vcpu/1\"}"));
	assert_non_null(strstr(a, "\"ph\":\"B\",\"pid\":1,\"tid\":1,"));
	assert_non_null(strstr(a, "\"name\":\"switch\"") ? a
							 : strstr(a, "run"));
	assert_string_equal(a + strlen(a) - 4, "{}]\n");
}

/* `preempt sim` */
static void tool_finds_reduces_and_reproduces(void **state)
{
	static char trace_path[64];
	struct result *r = res(), *again = res();
	char *argv[] = {(char *)PREEMPT_TOOL_PATH,
			(char *)"sim",
			(char *)"--seeds",
			(char *)"1-50",
			(char *)"--jobs",
			(char *)"2",
			(char *)"--trace",
			trace_path,
			(char *)"--",
			PROG(SIM_RACE),
			NULL};
	char spec[64], head[4] = "";
	const char *p, *q;
	FILE *f;

	(void)state;
	snprintf(trace_path, sizeof(trace_path), "/tmp/sim-tool-%d.json",
		 (int)getpid());
	run(NULL, argv, r);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->out, "sim: the first "));
	/* The tool's own line is the last one (the run's output is above). */
	for (p = NULL, q = r->out;
	     (q = strstr(q, "reproduce with PREEMPT_SIM=")); q++)
		p = q;
	assert_non_null(p);
	sscanf(p + strlen("reproduce with PREEMPT_SIM="), "%63s", spec);
	f = fopen(trace_path, "r");
	assert_non_null(f);
	assert_non_null(fgets(head, sizeof(head), f));
	fclose(f);
	unlink(trace_path);
	assert_string_equal(head, "[\n");
	assert_non_null(strstr(spec, ",limit="));
	/* The reduced schedule fails on its own. */
	run_prog(SIM_RACE, spec, again);
	assert_int_equal(again->status, 1);
}

static void tool_passes_the_fixed_program(void **state)
{
	struct result *r = res();
	char *argv[] = {(char *)PREEMPT_TOOL_PATH,
			(char *)"sim",
			(char *)"--seeds",
			(char *)"1-40",
			(char *)"--",
			PROG(SIM_RACE_FIXED),
			NULL};

	(void)state;
	run(NULL, argv, r);
	assert_int_equal(r->status, 0);
	assert_non_null(strstr(r->out, "sim: 40 seeds passed"));
}

static void tool_exhaustive_search_finds_the_race(void **state)
{
	struct result *r = res();
	char *argv[] = {(char *)PREEMPT_TOOL_PATH,
			(char *)"sim",
			(char *)"--strategy",
			(char *)"dfs:1",
			(char *)"--",
			PROG(SIM_RACE),
			NULL};

	(void)state;
	run(NULL, argv, r);
	assert_int_equal(r->status, 1);
	assert_non_null(strstr(r->out, "reproduce with PREEMPT_SIM=0,dfs:"));
}

static void tool_keep_going_counts_failing_seeds(void **state)
{
	struct result *r = res();
	char *argv[] = {(char *)PREEMPT_TOOL_PATH,
			(char *)"sim",
			(char *)"--seeds",
			(char *)"1-6",
			(char *)"--keep-going",
			(char *)"--",
			PROG(SIM_RACE),
			NULL};
	unsigned long failed = 0, total = 0;
	const char *p;

	(void)state;
	run(NULL, argv, r);
	assert_int_equal(r->status, 1);
	p = strstr(r->out, "sim: ");
	assert_non_null(p);
	assert_int_equal(
		sscanf(p, "sim: %lu of %lu seeds failed", &failed, &total), 2);
	assert_int_equal(total, 6);
	assert_true(failed >= 1 && failed <= 6);
}

static void tool_bad_input_exits_2(void **state)
{
	static const char *const bad[][3] = {
		{"--seeds", "9-1", "--"}, {"--strategy", "fifo", "--"},
		{"--jobs", "0", "--"},	  {"--seconds", "x", "--"},
		{"--", NULL, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct result *r = res();
		char *argv[8] = {(char *)PREEMPT_TOOL_PATH, (char *)"sim"};
		int n = 2;

		for (int j = 0; j < 3 && bad[i][j]; j++)
			argv[n++] = (char *)bad[i][j];
		argv[n] = NULL;
		run(NULL, argv, r);
		assert_int_equal(r->status, 2);
		assert_non_null(strstr(r->out, "preempt: sim: "));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_seed_replays_exactly),
		cmocka_unit_test(seeds_give_different_interleavings),
		cmocka_unit_test(race_is_found_and_reproduced),
		cmocka_unit_test(fixed_race_passes_every_seed),
		cmocka_unit_test(deadlock_is_reported),
		cmocka_unit_test(time_is_virtual),
		cmocka_unit_test(run_shares_one_host_cpu),
		cmocka_unit_test(host_sleep_is_noted_as_nondeterminism),
		cmocka_unit_test(strategies_replay_too),
		cmocka_unit_test(malformed_spec_is_a_usage_error),
		cmocka_unit_test(trace_is_json_and_replays),
		cmocka_unit_test(tool_finds_reduces_and_reproduces),
		cmocka_unit_test(tool_passes_the_fixed_program),
		cmocka_unit_test(tool_exhaustive_search_finds_the_race),
		cmocka_unit_test(tool_keep_going_counts_failing_seeds),
		cmocka_unit_test(tool_bad_input_exits_2),
		cmocka_unit_test(wake_up_never_undoes_a_later_state),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
