// SPDX-License-Identifier: MIT
/*
 * `preempt sim`: run a program under many simulation seeds in parallel,
 * stop at the first that fails, and reduce it to the shortest prefix of
 * the strategy's deviations that still fails (docs/sim.md).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

#define MAX_JOBS 64

struct sim_opts {
	unsigned long long first, last;
	const char *strategy; /* NULL: random (the default) */
	int jobs;
	int timeout_s;
	int dfs_bound;	   /* strategy "dfs": deviations per schedule */
	const char *trace; /* the failing run's trace, Chrome JSON */
	bool reduce;
	bool keep_going; /* count every failing seed instead of stopping */
	int seconds;	 /* stop starting seeds after this long; 0: never */
	char **argv;
};

struct run {
	pid_t pid;
	int fd; /* the child's stdout and stderr */
	char spec[160];
	struct timespec start;
};

struct outcome {
	int status; /* wait status; -1: timed out */
	unsigned long decisions, choices, deviations;
	char *log;
};

static int usage(void)
{
	fprintf(stderr,
		"usage: preempt sim [--seeds A-B] [--strategy random|pct:D[:K]|"
		"dfs[:B]]\n"
		"                   [--jobs N] [--timeout S] [--no-reduce] "
		"[--trace FILE]\n"
		"                   [--keep-going] [--seconds S]\n"
		"                   -- PROGRAM [ARG...]\n");
	return CLI_EXIT_USAGE;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool parse_seeds(const char *s, struct sim_opts *o)
{
	char *end;

	o->first = strtoull(s, &end, 10);
	if (end == s)
		return false;
	if (!*end) {
		o->last = o->first;
		return true;
	}
	if (*end != '-')
		return false;
	s = end + 1;
	o->last = strtoull(s, &end, 10);
	return end != s && !*end && o->last >= o->first;
}

static bool parse_int(const char *s, int lo, int hi, int *v)
{
	char *end;
	long n = strtol(s, &end, 10);

	if (end == s || *end || n < lo || n > hi)
		return false;
	*v = (int)n;
	return true;
}

static bool valid_strategy(const char *s, struct sim_opts *o)
{
	char *end;

	if (!strcmp(s, "random"))
		return true;
	if (!strncmp(s, "pct:", 4)) {
		long d = strtol(s + 4, &end, 10);

		if (end == s + 4 || d < 1 || d > 16)
			return false;
		if (*end == ':')
			return strtoul(end + 1, &end, 10) > 0 && !*end;
		return !*end;
	}
	if (!strcmp(s, "dfs"))
		return true;
	if (!strncmp(s, "dfs:", 4))
		return parse_int(s + 4, 1, 3, &o->dfs_bound);
	return false;
}

static int parse(int argc, char **argv, struct sim_opts *o)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	*o = (struct sim_opts){.first = 1,
			       .last = 100,
			       .timeout_s = 60,
			       .reduce = true,
			       .dfs_bound = 2,
			       .jobs = cpus > 0 ? (int)cpus : 1};
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--")) {
			o->argv = argv + i + 1;
			break;
		}
		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage();
			return 0;
		}
		if (!strcmp(a, "--no-reduce")) {
			o->reduce = false;
			continue;
		}
		if (!strcmp(a, "--keep-going")) {
			o->keep_going = true;
			continue;
		}
		if (i + 1 >= argc)
			return cli_usage_error("sim", "%s needs a value", a);
		if (!strcmp(a, "--seeds")) {
			if (!parse_seeds(argv[++i], o))
				return cli_usage_error(
					"sim", "--seeds %s: expected A or A-B",
					argv[i]);
		} else if (!strcmp(a, "--strategy")) {
			o->strategy = argv[++i];
			if (!valid_strategy(o->strategy, o))
				return cli_usage_error(
					"sim",
					"--strategy %s: expected random, "
					"pct:D[:K] or dfs[:B]",
					o->strategy);
		} else if (!strcmp(a, "--seconds")) {
			if (!parse_int(argv[++i], 1, 86400, &o->seconds))
				return cli_usage_error(
					"sim", "--seconds %s: expected seconds",
					argv[i]);
		} else if (!strcmp(a, "--trace")) {
			o->trace = argv[++i];
		} else if (!strcmp(a, "--jobs")) {
			if (!parse_int(argv[++i], 1, MAX_JOBS, &o->jobs))
				return cli_usage_error(
					"sim", "--jobs %s: expected 1-%d",
					argv[i], MAX_JOBS);
		} else if (!strcmp(a, "--timeout")) {
			if (!parse_int(argv[++i], 1, 86400, &o->timeout_s))
				return cli_usage_error(
					"sim", "--timeout %s: expected seconds",
					argv[i]);
		} else {
			return cli_usage_error("sim", "unknown option %s", a);
		}
	}
	if (!o->argv || !o->argv[0])
		return cli_usage_error("sim", "no program (after --)");
	return -1;
}

/*
 * A simulated run uses one host CPU at a time (src/port/sim.c pins its
 * threads to the CPU it starts on): job @slot starts on the slot-th CPU
 * it may use, so parallel jobs do not share one.
 */
static void pin_job(int slot)
{
	cpu_set_t set, one;
	int n, k = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return;
	n = CPU_COUNT(&set);
	if (n <= 0)
		return;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, &set) || k++ != slot % n)
			continue;
		CPU_ZERO(&one);
		CPU_SET(c, &one);
		sched_setaffinity(0, sizeof(one), &one);
		return;
	}
}

static bool start_run(struct run *r, int slot, char **argv, const char *spec)
{
	int fd = memfd_create("preempt-sim", 0);

	if (fd < 0)
		return false;
	snprintf(r->spec, sizeof(r->spec), "%s", spec);
	clock_gettime(CLOCK_MONOTONIC, &r->start);
	r->pid = fork();
	if (r->pid < 0) {
		close(fd);
		return false;
	}
	if (!r->pid) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		setenv("PREEMPT_SIM", spec, 1);
		pin_job(slot);
		execvp(argv[0], argv);
		fprintf(stderr, "exec %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	r->fd = fd;
	return true;
}

static char *slurp(int fd)
{
	off_t len = lseek(fd, 0, SEEK_END);
	char *buf = malloc(len > 0 ? (size_t)len + 1 : 1);

	if (!buf)
		return NULL;
	if (len > 0 && pread(fd, buf, (size_t)len, 0) != len)
		len = 0;
	buf[len > 0 ? len : 0] = '\0';
	return buf;
}

static void parse_summary(struct outcome *out)
{
	const char *p = out->log ? strstr(out->log, " decisions, ") : NULL;

	if (!p)
		return;
	while (p > out->log && p[-1] != ' ')
		p--;
	sscanf(p, "%lu decisions, %lu choice points, %lu deviations",
	       &out->decisions, &out->choices, &out->deviations);
}

static void finish_run(struct run *r, int status, struct outcome *out)
{
	*out = (struct outcome){.status = status};
	out->log = slurp(r->fd);
	close(r->fd);
	r->pid = 0;
	parse_summary(out);
}

static bool timed_out(const struct run *r, int timeout_s)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec - r->start.tv_sec >= timeout_s;
}

/* Reap one finished (or overdue) run of @runs; false if none is left. */
static bool reap(struct run *runs, int n, int timeout_s, int *which,
		 struct outcome *out)
{
	for (;;) {
		bool any = false;

		for (int i = 0; i < n; i++) {
			int status;
			pid_t pid;

			if (!runs[i].pid)
				continue;
			any = true;
			pid = waitpid(runs[i].pid, &status, WNOHANG);
			if (pid == runs[i].pid) {
				*which = i;
				finish_run(&runs[i], status, out);
				return true;
			}
			if (timed_out(&runs[i], timeout_s)) {
				kill(runs[i].pid, SIGKILL);
				waitpid(runs[i].pid, &status, 0);
				*which = i;
				finish_run(&runs[i], -1, out);
				return true;
			}
		}
		if (!any)
			return false;
		usleep(2000);
	}
}

static bool failed(const struct outcome *o)
{
	return o->status == -1 || !WIFEXITED(o->status) ||
	       WEXITSTATUS(o->status) != 0;
}

static void describe(const struct outcome *o, char *buf, size_t len)
{
	if (o->status == -1)
		snprintf(buf, len, "timed out");
	else if (WIFSIGNALED(o->status))
		snprintf(buf, len, "killed by signal %d", WTERMSIG(o->status));
	else
		snprintf(buf, len, "exit %d", WEXITSTATUS(o->status));
}

/* One run, waited for. */
static void run_one(const struct sim_opts *o, const char *spec,
		    struct outcome *out)
{
	struct run r = {0};
	int which;

	if (!start_run(&r, 0, o->argv, spec)) {
		*out = (struct outcome){.status = -1};
		return;
	}
	reap(&r, 1, o->timeout_s, &which, out);
}

static void spec_of(char *buf, size_t len, unsigned long long seed,
		    const char *strategy, long limit)
{
	int n = snprintf(buf, len, "%llu", seed);

	if (strategy)
		n += snprintf(buf + n, len - (size_t)n, ",%s", strategy);
	if (limit >= 0)
		snprintf(buf + n, len - (size_t)n, ",limit=%ld", limit);
}

/*
 * The shortest prefix of deviations that still fails: a run with limit=L
 * follows the seed's first L deviations and none after.  Binary search
 * over L, then the answer is run once more to be sure.
 */
static long reduce(const struct sim_opts *o, unsigned long long seed,
		   unsigned long deviations, struct outcome *best)
{
	long lo = 0, hi = (long)deviations, runs = 0;
	char spec[160];

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;
		struct outcome out;

		spec_of(spec, sizeof(spec), seed, o->strategy, mid);
		run_one(o, spec, &out);
		runs++;
		if (failed(&out)) {
			hi = mid;
			free(best->log);
			*best = out;
		} else {
			lo = mid + 1;
			free(out.log);
		}
	}
	printf("sim: reduced in %ld runs\n", runs);
	return hi;
}

static void print_log_tail(const char *log, int lines)
{
	const char *p = log + strlen(log);
	int n = 0;

	while (p > log && n <= lines)
		if (*--p == '\n')
			n++;
	printf("--- output of the failing run%s ---\n%s",
	       p > log ? " (tail)" : "", p > log ? p + 1 : p);
	if (*log && log[strlen(log) - 1] != '\n')
		printf("\n");
	printf("---\n");
}

/* The reproduction once more, with its trace written (docs/sim.md). */
static void write_trace(const struct sim_opts *o, const char *spec)
{
	struct outcome out;

	setenv("PREEMPT_SIM_TRACE", o->trace, 1);
	run_one(o, spec, &out);
	unsetenv("PREEMPT_SIM_TRACE");
	free(out.log);
	printf("sim: the failing run's trace is in %s (Chrome trace-event "
	       "JSON: open it in Perfetto)\n",
	       o->trace);
}

static int report_failure(const struct sim_opts *o, unsigned long long seed,
			  struct outcome *out)
{
	unsigned long deviations = out->deviations;
	char how[64], spec[160];
	long limit = -1;

	describe(out, how, sizeof(how));
	printf("sim: seed %llu fails (%s) after %lu decisions, %lu "
	       "deviations\n",
	       seed, how, out->decisions, deviations);
	if (o->reduce && out->status != -1 && deviations > 0) {
		limit = reduce(o, seed, deviations, out);
		printf("sim: the first %ld of %lu deviations suffice\n", limit,
		       deviations);
	}
	print_log_tail(out->log ? out->log : "", 40);
	spec_of(spec, sizeof(spec), seed, o->strategy, limit);
	if (o->trace)
		write_trace(o, spec);
	printf("reproduce with PREEMPT_SIM=%s\n", spec);
	free(out->log);
	return 1;
}

static unsigned long long seed_of(const struct run *r)
{
	return strtoull(r->spec, NULL, 10);
}

/*
 * @out failed.  Runs of higher seeds are dropped; those of lower seeds
 * still running finish, and the lowest failing seed is the one reported,
 * so the answer does not depend on which run the host finished first.
 */
static int first_failure(const struct sim_opts *o, struct run *runs,
			 struct outcome *out, int which)
{
	unsigned long long seed = seed_of(&runs[which]);
	struct outcome other;

	for (int i = 0; i < o->jobs; i++) {
		if (runs[i].pid && seed_of(&runs[i]) > seed) {
			kill(runs[i].pid, SIGKILL);
			waitpid(runs[i].pid, NULL, 0);
			close(runs[i].fd);
			runs[i].pid = 0;
		}
	}
	while (reap(runs, o->jobs, o->timeout_s, &which, &other)) {
		if (failed(&other) && seed_of(&runs[which]) < seed) {
			free(out->log);
			*out = other;
			seed = seed_of(&runs[which]);
		} else {
			free(other.log);
		}
	}
	return report_failure(o, seed, out);
}

static int run_seeds(const struct sim_opts *o)
{
	struct run runs[MAX_JOBS] = {0};
	unsigned long long next = o->first, done = 0, total_decisions = 0;
	unsigned long long nfailed = 0, first_failed = 0;
	double t0 = now_s();
	struct outcome out;
	int which;

	for (;;) {
		while (next <= o->last &&
		       (!o->seconds || now_s() - t0 < o->seconds)) {
			int slot = -1;
			char spec[160];

			for (int i = 0; i < o->jobs; i++)
				if (!runs[i].pid)
					slot = i;
			if (slot < 0)
				break;
			spec_of(spec, sizeof(spec), next, o->strategy, -1);
			if (!start_run(&runs[slot], slot, o->argv, spec))
				return cli_usage_error("sim", "fork: %s",
						       strerror(errno));
			next++;
		}
		if (!reap(runs, o->jobs, o->timeout_s, &which, &out))
			break;
		done++;
		total_decisions += out.decisions;
		cli_progress("sim: %llu of %llu seeds", done,
			     o->last - o->first + 1);
		if (failed(&out) && o->keep_going) {
			unsigned long long seed = seed_of(&runs[which]);

			if (!nfailed++ || seed < first_failed)
				first_failed = seed;
		} else if (failed(&out)) {
			cli_progress_clear();
			return first_failure(o, runs, &out, which);
		}
		free(out.log);
	}
	cli_progress_clear();
	if (nfailed) {
		printf("sim: %llu of %llu seeds failed (the lowest: %llu), in "
		       "%.1f s\n",
		       nfailed, done, first_failed, now_s() - t0);
		return 1;
	}
	printf("sim: %llu seeds passed (%llu-%llu), %llu decisions, %.0f "
	       "decisions/s\n",
	       done, o->first, o->last, total_decisions,
	       (double)total_decisions / (now_s() - t0));
	return 0;
}

/*
 * Exhaustive search with a bound on deviations (preemption bounding): the
 * schedule with none, then with one at each choice point the run offers,
 * then with two...  For very small programs only.
 */
static int run_dfs(const struct sim_opts *o, const char *prefix, int depth,
		   unsigned long from, unsigned long *runs)
{
	char spec[160];
	struct outcome out;

	snprintf(spec, sizeof(spec), "0,dfs:%s", prefix);
	run_one(o, spec, &out);
	(*runs)++;
	cli_progress("sim: %lu schedules", *runs);
	if (failed(&out)) {
		cli_progress_clear();
		print_log_tail(out.log ? out.log : "", 40);
		printf("sim: schedule dfs:%s fails\nreproduce with "
		       "PREEMPT_SIM=%s\n",
		       prefix, spec);
		free(out.log);
		return 1;
	}
	free(out.log);
	if (depth == o->dfs_bound)
		return 0;
	for (unsigned long i = from; i < out.choices; i++) {
		char sub[160];

		snprintf(sub, sizeof(sub), "%s%s%lu", prefix,
			 *prefix ? "." : "", i);
		if (run_dfs(o, sub, depth + 1, i + 1, runs))
			return 1;
	}
	return 0;
}

int cmd_sim(int argc, char **argv)
{
	struct sim_opts o;
	int ret = parse(argc, argv, &o);
	unsigned long runs = 0;

	if (ret >= 0)
		return ret;
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (o.strategy && !strncmp(o.strategy, "dfs", 3)) {
		ret = run_dfs(&o, "", 0, 0, &runs);
		cli_progress_clear();
		if (!ret)
			printf("sim: all %lu schedules with at most %d "
			       "deviations passed\n",
			       runs, o.dfs_bound);
		return ret;
	}
	return run_seeds(&o);
}
