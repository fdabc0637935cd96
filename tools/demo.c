// SPDX-License-Identifier: MIT
/*
 * `preempt demo`: one reference workload under every preemption model, one
 * machine booted and shut down per model, and one table to compare them.
 *
 * The workload, per model:
 *   - hogs: nr_cpus + 1 normal tasks spinning in this program's code, taking
 *     a spinlock_t around a shared counter every chunk of work and a mutex
 *     every burst, and calling cond_resched() once per HOG_BURST_MS burst;
 *   - cyclic: a SCHED_FIFO task (prio 50) bound to vCPU 0 that wakes every
 *     CYCLE_NS on an hrtimer (HRTIMER_MODE_ABS) and records its wake-up
 *     latency, cyclictest's "actual wake-up minus period start";
 *   - an interrupt source: a host thread raising line DEMO_IRQ on every vCPU
 *     each IRQ_PERIOD_NS; the handler raises NET_RX_SOFTIRQ, whose action
 *     counts packets;
 *   - probe: a normal task that walks the probe script (pk_probe_apply over
 *     pk_probe_script) every PROBE_MS and compares every pk_context_read()
 *     snapshot with the first walk of the run (the first model's).
 *
 * Every number printed comes from this run: the samples, the tasks' own
 * counters, and the library's (pk_sched_cpu_stats, pk_irq_stats,
 * pk_report_count) as deltas over the model's boot.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <preempt/debug.h>
#include <preempt/delay.h>
#include <preempt/hrtimer.h>
#include <preempt/interrupt.h>
#include <preempt/mutex.h>
#include <preempt/preempt.h>
#include <preempt/probe.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "cli.h"
#include "irqsource.h"

#define DEMO_HZ 1000
#define DEMO_IRQ 10	      /* the interrupt source's line */
#define IRQ_PERIOD_NS 500000L /* the source raises every 500 µs */
#define CYCLE_NS 1000000L     /* the cyclic task's period, 1000 µs */
#define HOG_BURST_MS 10	      /* hogs: cond_resched() this rarely */
#define HOG_CHUNK 16384	      /* loop iterations between clock reads */
#define PROBE_MS 50	      /* a context walk this often */
#define MAX_STEPS 64	      /* probe script steps compared */
#define DEFAULT_SECONDS 6.0   /* per model */

static const enum preempt_model all_models[] = {
	PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY, PREEMPT_MODEL_FULL,
	PREEMPT_MODEL_LAZY, PREEMPT_MODEL_RT,
};
#define NR_ALL_MODELS (int)(sizeof(all_models) / sizeof(all_models[0]))

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

#define load(x) __atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define store(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
#define add(x, v) __atomic_fetch_add(&(x), (v), __ATOMIC_RELAXED)

/* ---- one model's results ---- */

struct demo_row {
	enum preempt_model model;
	bool context_ok;
	unsigned long walks, walk_mismatches;
	int samples;
	long overruns;
	double lat_min, lat_p50, lat_p99, lat_max; /* µs */
	double seconds;				   /* measured wall time */
	unsigned long hog_loops;		   /* iterations, all hogs */
	double mloops_per_s;
	unsigned long lock_ops, irqs_raised, packets;
	unsigned long switches, resched[PK_RESCHED_NR];
	unsigned long softirq_inline, softirq_ksoftirqd;
	unsigned long reports;
};

/* ---- shared state of the workload (reset per model) ---- */

static DEFINE_SPINLOCK(demo_lock);
static DEFINE_MUTEX(demo_mutex);
static unsigned long shared_counter; /* under demo_lock */
static unsigned long mutex_counter;  /* under demo_mutex */
static unsigned long hog_loops, lock_ops, packets;
static volatile unsigned long spin_sink;

static long *samples;
static int nr_samples, max_samples;
static long overruns;

/* The first walk of a non-rt model and of rt: under rt the bh steps
 * differ as PREEMPT_RT says (pk_context_rt()), and only so. */
static struct pk_context reference[MAX_STEPS], rt_reference[MAX_STEPS];
static bool have_reference, have_rt_reference;
static unsigned long walks, walk_mismatches;

/* ---- hogs ---- */

/* HOG_CHUNK iterations in this program's code: no preemption point. */
static __attribute__((noinline)) void spin_chunk(void)
{
	unsigned long x = spin_sink | 1;

	for (int i = 0; i < HOG_CHUNK; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ __volatile__("" : "+r"(x));
	}
	spin_sink = x;
}

static int hog(void *arg)
{
	unsigned long loops = 0, locks = 0;

	(void)arg;
	while (!kthread_should_stop()) {
		long end = now_ns() + HOG_BURST_MS * 1000000L;

		while (now_ns() < end) {
			spin_chunk();
			loops += HOG_CHUNK;
			spin_lock(&demo_lock);
			shared_counter++;
			spin_unlock(&demo_lock);
			locks++;
		}
		mutex_lock(&demo_mutex);
		mutex_counter++;
		mutex_unlock(&demo_mutex);
		locks++;
		add(hog_loops, loops);
		add(lock_ops, locks);
		loops = locks = 0;
		cond_resched();
	}
	return 0;
}

/* ---- the cyclic task: wake-up latency on an hrtimer ---- */

struct sleeper {
	struct hrtimer hrtimer;
	struct task_struct *task;
	int fired;
};

/* Hardirq context on the vCPU. */
static enum hrtimer_restart sleeper_fn(struct hrtimer *t)
{
	struct sleeper *s =
		(struct sleeper *)((char *)t -
				   offsetof(struct sleeper, hrtimer));

	store(s->fired, 1);
	wake_up_process(s->task);
	return HRTIMER_NORESTART;
}

/* Sleep until @when on CLOCK_MONOTONIC; false when stopped first. */
static bool sleep_until(long when)
{
	struct sleeper s = {.task = current};
	bool fired;

	hrtimer_setup(&s.hrtimer, sleeper_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS);
	set_current_state(TASK_UNINTERRUPTIBLE);
	hrtimer_start(&s.hrtimer, when, HRTIMER_MODE_ABS);
	for (;;) {
		schedule();
		fired = load(s.fired);
		if (fired || kthread_should_stop())
			break;
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (load(s.fired))
			__set_current_state(TASK_RUNNING);
	}
	hrtimer_cancel(&s.hrtimer);
	return fired;
}

static int cyclic(void *arg)
{
	long base = (now_ns() / CYCLE_NS + 1) * CYCLE_NS, k = 1;

	(void)arg;
	while (!kthread_should_stop()) {
		long start = base + k * CYCLE_NS;

		if (!sleep_until(start))
			break;
		if (nr_samples < max_samples)
			samples[nr_samples++] = now_ns() - start;
		/* The next period that has not begun: skip the missed ones. */
		for (k++; base + k * CYCLE_NS <= now_ns(); k++)
			overruns++;
	}
	return 0;
}

/* ---- the interrupt source ---- */

static void net_rx_action(void)
{
	add(packets, 1);
}

/* Hardirq context (a thread under rt, as forced threading does). */
static irqreturn_t demo_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	raise_softirq(NET_RX_SOFTIRQ);
	return IRQ_HANDLED;
}

/* ---- the context probes, inside the workload ---- */

static int walk(struct pk_context *seen)
{
	struct pk_probe_state st = {0};
	size_t n = pk_probe_script_len < MAX_STEPS ? pk_probe_script_len
						   : MAX_STEPS;

	for (size_t i = 0; i < n; i++) {
		if (pk_probe_apply(&st, pk_probe_script[i].op))
			return -1;
		memset(&seen[i], 0, sizeof(seen[i]));
		pk_context_read(&seen[i]);
		seen[i].need_resched = false; /* the tick's business */
	}
	return (int)n;
}

/* Once both references exist: do they differ exactly as rt says? */
static bool references_agree(int n)
{
	struct pk_context want;

	if (!have_reference || !have_rt_reference)
		return true;
	for (int i = 0; i < n; i++) {
		want = reference[i];
		pk_context_rt(&want);
		if (memcmp(&want, &rt_reference[i], sizeof(want)))
			return false;
	}
	return true;
}

/* One walk against its model's reference, which the first walk sets. */
static bool walk_matches(const struct pk_context *seen, int n)
{
	bool rt = pk_machine_rt();
	struct pk_context *ref = rt ? rt_reference : reference;
	bool *have = rt ? &have_rt_reference : &have_reference;

	if (!*have) {
		memcpy(ref, seen, sizeof(seen[0]) * (size_t)n);
		*have = true;
		return references_agree(n);
	}
	return !memcmp(ref, seen, sizeof(seen[0]) * (size_t)n);
}

static int probe(void *arg)
{
	struct pk_context seen[MAX_STEPS];

	(void)arg;
	while (!kthread_should_stop()) {
		int n = walk(seen);

		if (n < 0 || preempt_count() || !walk_matches(seen, n))
			walk_mismatches++;
		walks++;
		msleep(PROBE_MS);
	}
	return 0;
}

/* ---- running one model ---- */

struct options {
	double seconds;
	int cpus; /* 0: the host's */
	bool json;
	int nr_models;
	enum preempt_model models[16];
};

struct counters {
	struct pk_sched_stats sched;
	unsigned long softirq_inline, softirq_ksoftirqd, reports;
};

static struct counters read_counters(int nr_cpus)
{
	struct counters c = {.reports = pk_report_count()};

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		struct pk_sched_stats s = pk_sched_cpu_stats(cpu);
		struct pk_irq_stats is = pk_irq_stats(pk_vcpu_irq_cpu(cpu));

		for (int k = 0; k < PK_RESCHED_NR; k++)
			c.sched.resched[k] += s.resched[k];
		c.sched.nr_switches += s.nr_switches;
		c.softirq_inline += is.softirq_inline;
		c.softirq_ksoftirqd += is.softirq_ksoftirqd;
	}
	return c;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

static void summarize(struct demo_row *r)
{
	r->samples = nr_samples;
	r->overruns = overruns;
	if (!nr_samples)
		return;
	qsort(samples, (size_t)nr_samples, sizeof(samples[0]), cmp_long);
	r->lat_min = (double)samples[0] / 1e3;
	r->lat_p50 = (double)samples[(nr_samples + 1) / 2 - 1] / 1e3;
	r->lat_p99 = (double)samples[(99L * nr_samples + 99) / 100 - 1] / 1e3;
	r->lat_max = (double)samples[nr_samples - 1] / 1e3;
}

static bool is_tty;

static void progress(const struct options *o, int i, double left)
{
	if (is_tty)
		fprintf(stderr, "\rdemo: model %d/%d %-9s %4.1f s left\033[K",
			i + 1, o->nr_models, preempt_model_str(o->models[i]),
			left);
	else
		fprintf(stderr, "demo: model %d/%d %s, %.1f s\n", i + 1,
			o->nr_models, preempt_model_str(o->models[i]), left);
}

static struct task_struct *start(int (*fn)(void *), const char *name, bool fifo,
				 int cpu)
{
	struct task_struct *k = kthread_create(fn, NULL, "%s", name);

	if (!k)
		return NULL;
	if (fifo)
		sched_set_fifo(k);
	if (cpu >= 0)
		kthread_bind(k, cpu);
	wake_up_process(k);
	return k;
}

#define MAX_TASKS (PK_NR_CPUS + 3)

/* Returns 0, or 1 after a line on stderr when the machine would not run. */
static int run_model(const struct options *o, int idx, struct demo_row *r,
		     int *cpus_out)
{
	struct machine_config cfg = {.nr_cpus = o->cpus,
				     .hz = DEMO_HZ,
				     .model = (int)o->models[idx]};
	struct task_struct *tasks[MAX_TASKS];
	struct irq_source src = {.irq = DEMO_IRQ, .period_ns = IRQ_PERIOD_NS};
	struct counters a, b;
	int err, nr_cpus, nr_tasks = 0, ret = 0;
	long t0, t1, end;

	memset(r, 0, sizeof(*r));
	r->model = o->models[idx];
	nr_samples = 0;
	overruns = 0;
	walks = walk_mismatches = 0;
	hog_loops = lock_ops = packets = 0;

	err = machine_boot(&cfg);
	if (err) {
		fprintf(stderr, "preempt: demo: machine_boot: %s\n",
			strerror(-err));
		return 1;
	}
	nr_cpus = num_online_cpus();
	*cpus_out = nr_cpus;
	err = request_irq(DEMO_IRQ, demo_interrupt, 0, "demo-net", &src);
	if (err) {
		fprintf(stderr, "preempt: demo: request_irq: %s\n",
			strerror(-err));
		machine_shutdown();
		return 1;
	}
	a = read_counters(nr_cpus);
	t0 = now_ns();
	tasks[nr_tasks++] = start(cyclic, "cyclic", true, 0);
	tasks[nr_tasks++] = start(probe, "probe", false, -1);
	for (int i = 0; i <= nr_cpus && nr_tasks < MAX_TASKS; i++)
		tasks[nr_tasks++] = start(hog, "hog", false, -1);
	if (irq_source_start(&src)) {
		fprintf(stderr, "preempt: demo: no interrupt source thread\n");
		ret = 1;
	}
	end = t0 + (long)(o->seconds * 1e9);
	if (!is_tty)
		progress(o, idx, o->seconds);
	for (long now = now_ns(); now < end && !ret; now = now_ns()) {
		long nap = end - now < 100000000L ? end - now : 100000000L;

		if (is_tty)
			progress(o, idx, (double)(end - now) / 1e9);
		usleep((useconds_t)(nap / 1000));
	}
	t1 = now_ns();
	b = read_counters(nr_cpus);
	r->hog_loops = load(hog_loops);
	r->irqs_raised = irq_source_raised(&src);
	irq_source_stop(&src);
	for (int i = 0; i < nr_tasks; i++)
		if (tasks[i])
			kthread_stop(tasks[i]);
		else
			ret = 1;
	free_irq(DEMO_IRQ, &src);
	machine_shutdown();

	r->seconds = (double)(t1 - t0) / 1e9;
	r->mloops_per_s = (double)r->hog_loops / r->seconds / 1e6;
	r->lock_ops = load(lock_ops);
	r->packets = load(packets);
	r->walks = walks;
	r->walk_mismatches = walk_mismatches;
	r->context_ok = walks > 0 && !walk_mismatches;
	r->switches = b.sched.nr_switches - a.sched.nr_switches;
	for (int k = 0; k < PK_RESCHED_NR; k++)
		r->resched[k] = b.sched.resched[k] - a.sched.resched[k];
	r->softirq_inline = b.softirq_inline - a.softirq_inline;
	r->softirq_ksoftirqd = b.softirq_ksoftirqd - a.softirq_ksoftirqd;
	r->reports = b.reports - a.reports;
	summarize(r);
	if (ret)
		fprintf(stderr,
			"preempt: demo: could not start the workload\n");
	return ret;
}

/* ---- output ---- */

static void print_table(const struct options *o, const struct demo_row *rows,
			int n, int cpus)
{
	printf("libpreempt demo: %d vCPUs, HZ %d, %.1f s per model; %d hogs "
	       "(cond_resched() every %d ms),\n"
	       "a SCHED_FIFO task waking every %ld us on vCPU 0, line %d "
	       "raised on every vCPU every %ld us (NET_RX softirq)\n\n",
	       cpus, DEMO_HZ, o->seconds, cpus + 1, HOG_BURST_MS,
	       CYCLE_NS / 1000, DEMO_IRQ, IRQ_PERIOD_NS / 1000);
	printf("%-9s %-7s | %-33s | %8s | %8s | %-24s | %-17s |\n", "",
	       "context", "  wake-up latency (us)", "hogs", "context",
	       "    preemptions", "    softirqs");
	printf("%-9s %-7s | %6s %7s %8s %9s | %8s | %8s | %7s %7s %8s | %8s "
	       "%8s | %s\n",
	       "model", "checks", "min", "p50", "p99", "max", "Mloop/s",
	       "switches", "pr_enab", "irq_ret", "cond_rs", "in place",
	       "ksoftirq", "reports");
	for (int i = 0; i < n; i++) {
		const struct demo_row *r = &rows[i];

		printf("%-9s %-7s | %6.1f %7.1f %8.1f %9.1f | %8.1f | %8lu | "
		       "%7lu %7lu %8lu | %8lu %8lu | %lu\n",
		       preempt_model_str(r->model),
		       r->context_ok ? "ok" : "DIFFER", r->lat_min, r->lat_p50,
		       r->lat_p99, r->lat_max, r->mloops_per_s, r->switches,
		       r->resched[PK_RESCHED_PREEMPT_ENABLE],
		       r->resched[PK_RESCHED_IRQ_RETURN],
		       r->resched[PK_RESCHED_COND_RESCHED], r->softirq_inline,
		       r->softirq_ksoftirqd, r->reports);
	}
	printf("\ncontext checks: the probe script walked every %d ms inside "
	       "the workload, every\nsnapshot equal to the first model's (rt: "
	       "bh state out of the word, as\nPREEMPT_RT).  Mloop/s: the hogs' "
	       "work, millions of loop iterations per\nsecond, all hogs.  See "
	       "README.md, \"How to read `make run`\".\n",
	       PROBE_MS);
}

static void print_json(const struct options *o, const struct demo_row *rows,
		       int n, int cpus)
{
	printf("{\"seconds\": %.3f, \"cpus\": %d, \"hz\": %d, \"models\": [",
	       o->seconds, cpus, DEMO_HZ);
	for (int i = 0; i < n; i++) {
		const struct demo_row *r = &rows[i];

		printf("%s\n  {\"model\": \"%s\", \"context_checks\": \"%s\", "
		       "\"context_walks\": %lu, \"context_mismatches\": %lu,\n"
		       "   \"latency_us\": {\"samples\": %d, \"overruns\": "
		       "%ld, "
		       "\"min\": %.3f, \"p50\": %.3f, \"p99\": %.3f, \"max\": "
		       "%.3f},\n"
		       "   \"seconds\": %.3f, \"hog_loops\": %lu, "
		       "\"throughput_mloops_per_s\": %.3f, \"lock_ops\": %lu,\n"
		       "   \"context_switches\": %lu, \"preemptions\": "
		       "{\"preempt_enable\": %lu, \"irq_return\": %lu, "
		       "\"cond_resched\": %lu},\n"
		       "   \"irqs_raised\": %lu, \"softirqs\": {\"inline\": "
		       "%lu, "
		       "\"ksoftirqd\": %lu, \"net_rx_packets\": %lu}, "
		       "\"reports\": %lu}",
		       i ? "," : "", preempt_model_str(r->model),
		       r->context_ok ? "ok" : "DIFFER", r->walks,
		       r->walk_mismatches, r->samples, r->overruns, r->lat_min,
		       r->lat_p50, r->lat_p99, r->lat_max, r->seconds,
		       r->hog_loops, r->mloops_per_s, r->lock_ops, r->switches,
		       r->resched[PK_RESCHED_PREEMPT_ENABLE],
		       r->resched[PK_RESCHED_IRQ_RETURN],
		       r->resched[PK_RESCHED_COND_RESCHED], r->irqs_raised,
		       r->softirq_inline, r->softirq_ksoftirqd, r->packets,
		       r->reports);
	}
	printf("\n]}\n");
}

/* ---- options ---- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: preempt demo [--seconds S] [--cpus N] "
		"[--models LIST] [--json]\n"
		"  --seconds S   each model's run, default %.0f (0.1..600)\n"
		"  --cpus N      vCPUs, default all host CPUs (1..%d)\n"
		"  --models LIST comma-separated, default "
		"none,voluntary,full,lazy,rt\n"
		"  --json        one JSON object on stdout instead of the "
		"table\n",
		DEFAULT_SECONDS, PK_NR_CPUS);
}

static int parse_models(struct options *o, const char *list)
{
	char buf[256], *save = NULL;

	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	o->nr_models = 0;
	for (char *t = strtok_r(buf, ",", &save); t;
	     t = strtok_r(NULL, ",", &save)) {
		int m = preempt_model_parse(t);

		if (m < 0 || o->nr_models >= 16)
			return -1;
		o->models[o->nr_models++] = (enum preempt_model)m;
	}
	return o->nr_models ? 0 : -1;
}

/* The value of option @name in argv[*i] ("--x V" or "--x=V"), or NULL. */
static const char *option_value(int argc, char **argv, int *i, const char *name,
				bool *matched)
{
	size_t len = strlen(name);

	*matched = false;
	if (strncmp(argv[*i], name, len))
		return NULL;
	if (argv[*i][len] == '=') {
		*matched = true;
		return argv[*i] + len + 1;
	}
	if (argv[*i][len])
		return NULL;
	*matched = true;
	return *i + 1 < argc ? argv[++*i] : NULL;
}

static int parse(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *v;
		char *end;
		bool m;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return -1;
		}
		if (!strcmp(argv[i], "--json")) {
			o->json = true;
			continue;
		}
		v = option_value(argc, argv, &i, "--seconds", &m);
		if (m) {
			errno = 0;
			o->seconds = v ? strtod(v, &end) : 0;
			if (!v || errno || *end || !(o->seconds >= 0.1) ||
			    o->seconds > 600)
				return cli_usage_error(
					"demo",
					"--seconds wants 0.1..600, not "
					"'%s'",
					v ? v : "");
			continue;
		}
		v = option_value(argc, argv, &i, "--cpus", &m);
		if (m) {
			long n;

			errno = 0;
			n = v ? strtol(v, &end, 10) : 0;
			if (!v || errno || *end || n < 1 || n > PK_NR_CPUS)
				return cli_usage_error(
					"demo", "--cpus wants 1..%d, not '%s'",
					PK_NR_CPUS, v ? v : "");
			o->cpus = (int)n;
			continue;
		}
		v = option_value(argc, argv, &i, "--models", &m);
		if (m) {
			if (!v || parse_models(o, v))
				return cli_usage_error(
					"demo",
					"--models wants a list of none, "
					"voluntary, full, lazy, rt; not '%s'",
					v ? v : "");
			continue;
		}
		return cli_usage_error("demo", "unknown option '%s'", argv[i]);
	}
	return 0;
}

int cmd_demo(int argc, char **argv)
{
	struct options o = {.seconds = DEFAULT_SECONDS};
	struct demo_row rows[16];
	int err, cpus = 0, status = 0, n = 0;

	for (int i = 0; i < NR_ALL_MODELS; i++)
		o.models[o.nr_models++] = all_models[i];
	err = parse(argc, argv, &o);
	if (err)
		return err < 0 ? 0 : err;
	is_tty = isatty(STDERR_FILENO);
	max_samples = (int)(o.seconds * 1e9 / CYCLE_NS) + 64;
	samples = calloc((size_t)max_samples, sizeof(samples[0]));
	if (!samples) {
		fprintf(stderr, "preempt: demo: out of memory\n");
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	open_softirq(NET_RX_SOFTIRQ, net_rx_action);
	have_reference = have_rt_reference = false;
	for (int i = 0; i < o.nr_models; i++, n++) {
		if (run_model(&o, i, &rows[i], &cpus)) {
			status = 1;
			break;
		}
		if (!rows[i].context_ok || !rows[i].samples)
			status = 1;
	}
	open_softirq(NET_RX_SOFTIRQ, NULL);
	if (is_tty)
		fprintf(stderr, "\r\033[K");
	if (o.json)
		print_json(&o, rows, n, cpus);
	else
		print_table(&o, rows, n, cpus);
	free(samples);
	return status;
}
