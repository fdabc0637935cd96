// SPDX-License-Identifier: MIT
/*
 * `preempt latency`: cyclictest inside the machine.
 *
 * Each measuring thread is a task of a booted machine (SCHED_FIFO at -p,
 * SCHED_NORMAL with -p 0, as cyclictest) that sleeps on an hrtimer until
 * the absolute start of its next period (HRTIMER_MODE_ABS, cyclictest's
 * clock_nanosleep(TIMER_ABSTIME)) and takes "woke - period start" on
 * CLOCK_MONOTONIC.  A period that has passed when the thread wakes is
 * skipped, as cyclictest does.  The per-thread lines and the histogram are
 * printed in cyclictest's formats; docs/latency.md has the details.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <preempt/hrtimer.h>
#include <preempt/interrupt.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>

#include "cli.h"
#include "irqsource.h"

#define CMD "latency"
#define MAX_THREADS 64
#define MAX_LOAD 64
#define MAX_HIST 1000000
#define LOAD_IRQ 40	 /* the interrupt-load line */
#define LOAD_IRQ_US 200L /* default: one raise per vCPU per 200 µs, mean */
#define LOAD_BURST_NS 5000000L /* CPU-bound tasks: cond_resched() per 5 ms */
#define PLOT_DEFAULT_HIST 1000
#define REFRESH_US 10000	/* cyclictest's status refresh without -q */
#define RT_TESTS_VERSION "2.40" /* the rt-tests whose formats we print */

#define BREAKDOWN_US 1000 /* --breakdown's buckets */

struct lat_thread {
	int index, prio, tid, cpu, bind; /* bind: vCPU, -1 none */
	long interval_ns;
	unsigned long cycles, overflow;
	long min, max, act; /* ns */
	long long sum;	    /* ns */
	unsigned long *hist;
	unsigned long *outliers; /* overflow cycle numbers, -h of them */
	unsigned long nr_outliers;
	int done; /* reached -l; atomic */
	struct task_struct *task;
	/* --breakdown: 1-us buckets, the last one "or more" */
	unsigned long to_fn[BREAKDOWN_US], fn_to_task[BREAKDOWN_US];
};

static struct opts {
	int prio, threads, load, model; /* model: -1 all */
	long load_irq_us; /* --load's interrupt period per vCPU, 0: none */
	long interval_us, distance_us, duration_s;
	unsigned long loops;
	long hist; /* buckets, 0: none */
	bool histofall, quiet, nsecs, mlock, affinity, breakdown;
	const char *plot, *histfile, *json;
	const char *cpuset; /* -a's CPUSET, NULL: thread i on vCPU i */
} o;

static struct lat_thread threads[MAX_THREADS];
static volatile sig_atomic_t interrupted;

/* Per model, the histogram summed over its threads, for --plot. */
static unsigned long *model_hist[PREEMPT_MODEL_NR];
static unsigned long model_ovf[PREEMPT_MODEL_NR];
static long model_max[PREEMPT_MODEL_NR]; /* ns */
static bool model_ran[PREEMPT_MODEL_NR];

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* ---- the measuring threads ---------------------------------------------- */

static void record(struct lat_thread *t, long lat)
{
	long bucket = lat < 0 ? 0 : lat / 1000;

	if (!t->cycles || lat < t->min)
		t->min = lat;
	if (!t->cycles || lat > t->max)
		t->max = lat;
	t->act = lat;
	t->sum += lat;
	if (o.hist) {
		if (bucket < o.hist) {
			t->hist[bucket]++;
		} else {
			if (t->nr_outliers < (unsigned long)o.hist)
				t->outliers[t->nr_outliers++] = t->cycles;
			t->overflow++;
		}
	}
	t->cycles++;
}

/*
 * schedule_hrtimeout()'s sleep, with the time its timer function ran kept:
 * --breakdown splits each latency there.
 */
struct lat_sleeper {
	struct hrtimer timer;
	struct task_struct *task;
	ktime_t fired;
};

static enum hrtimer_restart lat_timer_fn(struct hrtimer *timer)
{
	struct lat_sleeper *s = (struct lat_sleeper *)timer; /* its first */
	struct task_struct *task = s->task;

	s->fired = ktime_get();
	s->task = NULL;
	wake_up_process(task);
	return HRTIMER_NORESTART;
}

/* Task context, state set: 0 when the timer woke it, else -EINTR. */
static int sleep_until(ktime_t until, ktime_t *fired)
{
	struct lat_sleeper s = {.task = current};

	hrtimer_setup(&s.timer, lat_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS);
	hrtimer_start(&s.timer, until, HRTIMER_MODE_ABS);
	schedule();
	hrtimer_cancel(&s.timer);
	*fired = s.fired;
	return s.task ? -EINTR : 0;
}

static void breakdown_add(unsigned long *hist, long ns)
{
	long us = ns < 0 ? 0 : ns / 1000;

	hist[us < BREAKDOWN_US ? us : BREAKDOWN_US - 1]++;
}

static int lat_fn(void *arg)
{
	struct lat_thread *t = arg;
	ktime_t next;

	t->tid = task_pid_nr(current);
	next = ktime_get() + t->interval_ns;
	while (!kthread_should_stop()) {
		ktime_t now, fired;
		int err;

		set_current_state(TASK_INTERRUPTIBLE);
		err = sleep_until(next, &fired);
		now = ktime_get();
		if (err && now < next)
			continue; /* woken early: kthread_stop(), or spurious */
		t->cpu = raw_smp_processor_id();
		if (!err) {
			breakdown_add(t->to_fn, (long)(fired - next));
			breakdown_add(t->fn_to_task, (long)(now - fired));
		}
		record(t, (long)(now - next));
		if (o.loops && t->cycles >= o.loops) {
			__atomic_store_n(&t->done, 1, __ATOMIC_RELEASE);
			break;
		}
		next += t->interval_ns;
		while (next <= now)
			next += t->interval_ns;
	}
	/* Wait for kthread_stop(), as a kthread must. */
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (kthread_should_stop())
			break;
		schedule();
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

/* ---- --load: CPU-bound tasks and an interrupt line ---------------------- */

static volatile unsigned long spin_sink;

static int load_fn(void *arg)
{
	unsigned long x = spin_sink | 1;

	(void)arg;
	while (!kthread_should_stop()) {
		long until = now_ns() + LOAD_BURST_NS;

		while (now_ns() < until)
			for (int i = 0; i < 65536; i++) {
				x = x * 6364136223846793005UL +
				    1442695040888963407UL;
				__asm__ __volatile__("" : "+r"(x));
			}
		cond_resched();
	}
	spin_sink = x;
	return 0;
}

static irqreturn_t load_irq(int irq, void *dev_id)
{
	unsigned long x = spin_sink;

	(void)irq;
	(void)dev_id;
	for (int i = 0; i < 2000; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		__asm__ __volatile__("" : "+r"(x));
	}
	spin_sink = x;
	return IRQ_HANDLED;
}

/* ---- output in cyclictest's formats ------------------------------------- */

/* The @pct-th percentile of a --breakdown histogram, in us. */
static long breakdown_pct(const unsigned long *hist, int pct)
{
	unsigned long n = 0, seen = 0;

	for (int i = 0; i < BREAKDOWN_US; i++)
		n += hist[i];
	for (int i = 0; i < BREAKDOWN_US; i++) {
		seen += hist[i];
		if (n && seen * 100 >= n * (unsigned long)pct)
			return i;
	}
	return 0;
}

/*
 * --breakdown, on stderr: each latency split where the timer function ran.
 * Before it: the host's timer, its signal to the vCPU thread and the
 * interrupt's way in; after it: the wake-up, interrupt return and the
 * switch to the task.
 */
static void print_breakdown(const struct lat_thread *t)
{
	unsigned long n = 0;

	for (int i = 0; i < BREAKDOWN_US; i++)
		n += t->to_fn[i];
	fprintf(stderr,
		"# T:%2d %lu samples; "
		"period start to timer function: p50 %ld p90 %ld p99 %ld us; "
		"timer function to task: p50 %ld p90 %ld p99 %ld us\n",
		t->index, n, breakdown_pct(t->to_fn, 50),
		breakdown_pct(t->to_fn, 90), breakdown_pct(t->to_fn, 99),
		breakdown_pct(t->fn_to_task, 50),
		breakdown_pct(t->fn_to_task, 90),
		breakdown_pct(t->fn_to_task, 99));
}

static long unit(long ns)
{
	return o.nsecs ? ns : ns / 1000;
}

static long avg_ns(const struct lat_thread *t)
{
	return t->cycles ? (long)(t->sum / (long long)t->cycles) : 0;
}

/* A thread that has not measured yet shows cyclictest's initial values. */
static void print_stat(const struct lat_thread *t)
{
	long min = t->cycles ? unit(t->min) : 1000000;

	if (o.nsecs)
		printf("T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%8ld "
		       "Avg:%8ld Max:%8ld\n",
		       t->index, t->tid, t->prio, t->interval_ns / 1000,
		       t->cycles, min, unit(t->act), unit(avg_ns(t)),
		       unit(t->max));
	else
		printf("T:%2d (%5d) P:%2d I:%ld C:%7lu Min:%7ld Act:%5ld "
		       "Avg:%5ld Max:%8ld\n",
		       t->index, t->tid, t->prio, t->interval_ns / 1000,
		       t->cycles, min, unit(t->act), unit(avg_ns(t)),
		       unit(t->max));
}

static void print_hist_summary(FILE *f, int n, bool all)
{
	unsigned long maxmax = 0, alloverflows = 0;

	fprintf(f, "\n# Min Latencies:");
	for (int j = 0; j < n; j++)
		fprintf(f, " %05lu", (unsigned long)unit(threads[j].min));
	fprintf(f, "\n# Avg Latencies:");
	for (int j = 0; j < n; j++)
		fprintf(f, " %05lu", (unsigned long)unit(avg_ns(&threads[j])));
	fprintf(f, "\n# Max Latencies:");
	for (int j = 0; j < n; j++) {
		fprintf(f, " %05lu", (unsigned long)unit(threads[j].max));
		if ((unsigned long)unit(threads[j].max) > maxmax)
			maxmax = (unsigned long)unit(threads[j].max);
	}
	if (all)
		fprintf(f, " %05lu", maxmax);
	fprintf(f, "\n# Histogram Overflows:");
	for (int j = 0; j < n; j++) {
		fprintf(f, " %05lu", threads[j].overflow);
		alloverflows += threads[j].overflow;
	}
	if (all)
		fprintf(f, " %05lu", alloverflows);
	/* As cyclictest, at most -h cycle numbers per thread. */
	fprintf(f, "\n# Histogram Overflow at cycle number:\n");
	for (int j = 0; j < n; j++) {
		const struct lat_thread *t = &threads[j];

		fprintf(f, "# Thread %d:", j);
		for (unsigned long k = 0; k < t->nr_outliers; k++)
			fprintf(f, " %05lu", t->outliers[k]);
		if (t->nr_outliers < t->overflow)
			fprintf(f, " # %05lu others",
				t->overflow - t->nr_outliers);
		fprintf(f, "\n");
	}
	/* cyclictest ends the histogram with an empty line. */
	fprintf(f, "\n");
}

static void print_hist(FILE *f, int n)
{
	unsigned long long total[MAX_THREADS + 1] = {0};
	bool all = o.histofall && n > 1;

	fprintf(f, "# Histogram\n");
	for (long i = 0; i < o.hist; i++) {
		unsigned long long allthreads = 0;

		fprintf(f, "%06ld ", i);
		for (int j = 0; j < n; j++) {
			fprintf(f, "%06lu", threads[j].hist[i]);
			if (j < n - 1)
				fprintf(f, "\t");
			total[j] += threads[j].hist[i];
			allthreads += threads[j].hist[i];
		}
		if (all) {
			fprintf(f, "\t%06llu", allthreads);
			total[n] += allthreads;
		}
		fprintf(f, "\n");
	}
	fprintf(f, "# Total:");
	for (int j = 0; j < n + all; j++)
		fprintf(f, " %09llu", total[j]);
	print_hist_summary(f, n, all);
}

/* The histogram to --histfile, or to stdout; 0, or 1 on error. */
static int write_hist(void)
{
	FILE *f = o.histfile ? fopen(o.histfile, "w") : stdout;

	if (!f) {
		fprintf(stderr, "preempt: %s: --histfile %s: %s\n", CMD,
			o.histfile, strerror(errno));
		return 1;
	}
	print_hist(f, o.threads);
	if (f != stdout && fclose(f)) {
		fprintf(stderr, "preempt: %s: --histfile %s: %s\n", CMD,
			o.histfile, strerror(errno));
		return 1;
	}
	return 0;
}

/*
 * Without -q, cyclictest redraws a status block every REFRESH_US: the
 * policy line, an empty line and the thread lines, each redraw first
 * moving the cursor up over the previous one.
 */
static void print_status(bool first)
{
	char buf[128] = "";
	FILE *f = fopen("/proc/loadavg", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	buf[strcspn(buf, "\n")] = '\0';
	if (!first)
		printf("\033[%dA", o.threads + 2);
	printf("policy: %s: loadavg: %s          \n\n",
	       o.prio ? "fifo" : "other/other", buf);
	for (int i = 0; i < o.threads; i++)
		print_stat(&threads[i]);
	fflush(stdout);
}

/* ---- one model ---------------------------------------------------------- */

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

/* -a/-S: thread @i's vCPU, round robin over -a's set; -1: not pinned. */
static int thread_cpu(int i)
{
	int cpus[MAX_THREADS], n = 0, nr = num_online_cpus();
	const char *p = o.cpuset;

	if (!o.affinity || nr < 1)
		return -1;
	if (!p)
		return i % nr;
	while (*p && n < MAX_THREADS) {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && n < MAX_THREADS; c++)
			if (c >= 0 && c < nr)
				cpus[n++] = (int)c;
		p = *end == ',' ? end + 1 : end;
	}
	return n ? cpus[i % n] : -1;
}

/*
 * With -q on a terminal, a run with -D draws one status line on stderr,
 * redrawn in place; nothing when stderr is not a terminal (cli_progress).
 */
static void progress(long start, long deadline)
{
	unsigned long cycles = 0;

	if (!deadline)
		return;
	for (int i = 0; i < o.threads; i++)
		cycles += threads[i].cycles;
	cli_progress("%ld/%ld s, %lu cycles", (now_ns() - start) / 1000000000L,
		     (deadline - start) / 1000000000L, cycles);
}

static void json_keep_model(enum preempt_model model);

static int run_model(enum preempt_model model, bool header)
{
	struct machine_config cfg = {
		.nr_cpus = 0, .hz = 0, .model = (int)model};
	struct task_struct *load[MAX_LOAD];
	/* One raise per vCPU per LOAD_IRQ_NS on average, the vCPUs in turn. */
	struct irq_source raiser = {.irq = LOAD_IRQ,
				    .period_ns = o.load_irq_us * 1000L,
				    .round_robin = true};
	long start = now_ns();
	long deadline = o.duration_s ? start + o.duration_s * 1000000000L : 0;
	int err;

	err = machine_boot(&cfg);
	if (err) {
		fprintf(stderr, "preempt: %s: machine_boot: %s\n", CMD,
			strerror(-err));
		return 1;
	}
	if (header)
		printf("# model: %s\n", preempt_model_str(model));
	for (int i = 0; i < o.load; i++) {
		load[i] = kthread_create(load_fn, NULL, "load/%d", i);
		if (load[i])
			wake_up_process(load[i]);
	}
	if (o.load && o.load_irq_us &&
	    !request_irq(LOAD_IRQ, load_irq, 0, "load", &o))
		irq_source_start(&raiser);
	for (int i = 0; i < o.threads; i++) {
		struct lat_thread *t = &threads[i];

		memset(t->hist, 0, (size_t)o.hist * sizeof(*t->hist));
		*t = (struct lat_thread){
			.index = i,
			.prio = o.prio,
			.bind = thread_cpu(i),
			.interval_ns =
				(o.interval_us + i * o.distance_us) * 1000L,
			.hist = t->hist,
			.outliers = t->outliers,
		};
		t->task = kthread_create(lat_fn, t, "cyclic/%d", i);
		if (!t->task) {
			fprintf(stderr, "preempt: %s: kthread_create failed\n",
				CMD);
			exit(1);
		}
		if (t->bind >= 0)
			kthread_bind(t->task, t->bind);
		if (o.prio)
			pk_sched_setscheduler(t->task, SCHED_FIFO, o.prio);
	}
	if (!o.quiet)
		print_status(true);
	for (int i = 0; i < o.threads; i++)
		wake_up_process(threads[i].task);
	if (o.quiet)
		progress(start, deadline); /* drawn at once, however late */
	for (;;) {
		int done = 0;

		for (int i = 0; i < o.threads; i++)
			done += __atomic_load_n(&threads[i].done,
						__ATOMIC_ACQUIRE);
		if ((o.loops && done == o.threads) || interrupted ||
		    (deadline && now_ns() >= deadline))
			break;
		usleep(REFRESH_US);
		if (!o.quiet)
			print_status(false);
		else
			progress(start, deadline);
	}
	for (int i = 0; i < o.threads; i++)
		kthread_stop(threads[i].task);
	irq_source_stop(&raiser);
	if (o.load && o.load_irq_us)
		free_irq(LOAD_IRQ, &o);
	if (o.load)
		fprintf(stderr,
			"# load: %d CPU-bound tasks, interrupt line %d raised "
			"%lu times\n",
			o.load, LOAD_IRQ, irq_source_raised(&raiser));
	for (int i = 0; i < o.load; i++)
		if (load[i])
			kthread_stop(load[i]);
	machine_shutdown();
	cli_progress_clear();
	for (int i = 0; o.breakdown && i < o.threads; i++)
		print_breakdown(&threads[i]);

	/* cyclictest's order: the last status block, or with -q the thread
	 * lines unless there is a histogram; then the histogram. */
	if (!o.quiet)
		print_status(false);
	else if (!o.hist)
		for (int i = 0; i < o.threads; i++)
			print_stat(&threads[i]);
	fflush(stdout);
	if (o.hist) {
		err = write_hist();
		for (int i = 0; i < o.threads; i++) {
			for (long b = 0; b < o.hist; b++)
				model_hist[model][b] += threads[i].hist[b];
			model_ovf[model] += threads[i].overflow;
			if (threads[i].max > model_max[model])
				model_max[model] = threads[i].max;
		}
	}
	model_ran[model] = true;
	if (o.json && o.model < 0)
		json_keep_model(model);
	fflush(stdout);
	return err;
}

/* ---- --plot ------------------------------------------------------------- */

/* $PREEMPT_GNUPLOT when set (an empty or bad one: not found), else $PATH. */
static bool find_gnuplot(char *path, size_t len)
{
	const char *env = getenv("PREEMPT_GNUPLOT");
	const char *p = getenv("PATH");

	if (env) {
		snprintf(path, len, "%s", env);
		return *env && !access(path, X_OK);
	}
	while (p && *p) {
		size_t n = strcspn(p, ":");

		snprintf(path, len, "%.*s/gnuplot", (int)n, n ? p : ".");
		if (!access(path, X_OK))
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

static void plot_quote(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++)
		if (*s == '\'')
			fputs("''", f);
		else
			fputc(*s, f);
	fputc('\'', f);
}

/* One curve of the plot: a thread's or a model's histogram. */
struct curve {
	const unsigned long *hist;
	unsigned long overflow;
	long max_us;
	const char *title;
	const char *color;
};

/* A colour per model, the same in every plot; threads take them in turn. */
static const char *const colors[] = {"#1f77b4", "#ff7f0e", "#2ca02c",
				     "#9467bd", "#d62728", "#8c564b",
				     "#17becf", "#7f7f7f"};

/*
 * The data file: bucket, then one column per curve.  Samples beyond the
 * histogram are counted in its last bucket, so none is dropped; the plot
 * says so in a note.
 */
static void plot_data(FILE *df, const struct curve *c, int n)
{
	for (long b = 0; b < o.hist; b++) {
		fprintf(df, "%ld", b);
		for (int i = 0; i < n; i++)
			fprintf(df, " %lu",
				c[i].hist[b] +
					(b == o.hist - 1 ? c[i].overflow : 0));
		fprintf(df, "\n");
	}
}

/* The x axis ends a little after the panel's last sample, not at -h. */
static long plot_xmax(const struct curve *c, int n)
{
	long last = 0, x;

	for (int i = 0; i < n; i++) {
		if (c[i].overflow)
			return o.hist;
		for (long b = o.hist - 1; b > last; b--)
			if (c[i].hist[b]) {
				last = b;
				break;
			}
	}
	x = (last + 1) * 6 / 5 + 1;
	return x < 10 ? (o.hist < 10 ? o.hist : 10) : x > o.hist ? o.hist : x;
}

/* One panel: log counts, the maximum marked, overflows noted. */
static void plot_panel(FILE *sf, const char *data, const char *title,
		       const struct curve *c, int n, int col0)
{
	long xmax = plot_xmax(c, n), max = -1;
	unsigned long ovf = 0;
	int who = 0;
	/*
	 * Over more than three decades of µs a linear axis squeezes the
	 * fast samples into its first pixels: then the axis is logarithmic,
	 * each bucket drawn at its upper edge (bucket b holds b..b+1 µs).
	 */
	int logx = xmax > 1000;

	for (int i = 0; i < n; i++) {
		ovf += c[i].overflow;
		if (c[i].max_us > max) {
			max = c[i].max_us;
			who = i;
		}
	}
	/* A panel per model is titled by it: no key to cover the notes. */
	fprintf(sf,
		"unset arrow\nunset label\nset title \"%s\"\n%s\n"
		"set xrange [%d:%ld]\n%s\n",
		title, logx ? "set logscale x" : "unset logscale x", logx,
		xmax + logx, n > 1 ? "set key top left" : "unset key");
	if (max >= 0 && max < o.hist)
		fprintf(sf,
			"set arrow from %ld, graph 0 to %ld, graph 1 nohead "
			"dt 2 lc rgb \"%s\"\n"
			"set label \"max %ld us\" at %ld, graph 0.93 right "
			"offset -0.5,0 tc rgb \"%s\"\n",
			max + logx, max + logx, c[who].color, max, max + logx,
			c[who].color);
	else if (max >= 0)
		fprintf(sf,
			"set label \"max %ld us (beyond the axis)\" at graph "
			"0.98, graph 0.93 right tc rgb \"%s\"\n",
			max, c[who].color);
	if (ovf)
		fprintf(sf,
			"set label \"last bin: %lu samples >= %ld us\" at "
			"graph 0.98, graph 0.84 right\n",
			ovf, o.hist);
	fprintf(sf, "plot ");
	for (int i = 0; i < n; i++) {
		fprintf(sf, "%s", i ? ", " : "");
		plot_quote(sf, data);
		fprintf(sf,
			" using ($1+%d):%d title \"%s\" with histeps lw 2 lc "
			"rgb \"%s\"",
			logx, col0 + i, c[i].title, c[i].color);
	}
	fprintf(sf, "\n");
}

static int plot(const char *gnuplot)
{
	char data[] = "/tmp/preempt_latency_data.XXXXXX";
	char script[] = "/tmp/preempt_latency_plot.XXXXXX";
	int dfd = mkstemp(data), sfd = mkstemp(script), status = 1, n = 0;
	FILE *df = dfd >= 0 ? fdopen(dfd, "w") : NULL;
	FILE *sf = sfd >= 0 ? fdopen(sfd, "w") : NULL;
	bool per_thread = o.model >= 0;
	struct curve c[MAX_THREADS > PREEMPT_MODEL_NR ? MAX_THREADS
						      : PREEMPT_MODEL_NR];
	char names[MAX_THREADS][24];
	int rows, cols;
	pid_t pid;

	if (!df || !sf) {
		fprintf(stderr, "preempt: %s: --plot: temporary files: %s\n",
			CMD, strerror(errno));
		goto out;
	}
	/* One model: a curve per thread.  --model all: a panel per model. */
	for (int i = 0; i < (per_thread ? o.threads : PREEMPT_MODEL_NR); i++) {
		if (per_thread) {
			snprintf(names[i], sizeof(names[i]), "thread %d", i);
			c[n++] = (struct curve){
				threads[i].hist, threads[i].overflow,
				threads[i].cycles ? threads[i].max / 1000 : -1,
				names[i], colors[i % 8]};
		} else if (model_ran[i]) {
			c[n++] = (struct curve){
				model_hist[i], model_ovf[i],
				model_max[i] / 1000,
				preempt_model_str((enum preempt_model)i),
				colors[i]};
		}
	}
	plot_data(df, c, n);
	rows = per_thread ? 1 : (n + 1) / 2;
	cols = per_thread || n < 2 ? 1 : 2;
	fprintf(sf, "set terminal png size %d,%d\nset output ", cols * 640,
		rows * 360 + 40);
	plot_quote(sf, o.plot);
	fprintf(sf,
		"\nset xlabel \"Latency (us)\"\n"
		"set ylabel \"Number of latency samples\"\n"
		"set logscale y\nset yrange [0.8:*]\nset grid\n"
		"set multiplot layout %d,%d title \"preempt latency: I:%ld "
		"us, %d thread(s), %s\"\n",
		rows, cols, o.interval_us, o.threads,
		per_thread ? preempt_model_str((enum preempt_model)o.model)
			   : "every model");
	if (per_thread)
		plot_panel(sf, data,
			   preempt_model_str((enum preempt_model)o.model), c, n,
			   2);
	else
		for (int i = 0; i < n; i++)
			plot_panel(sf, data, c[i].title, &c[i], 1, 2 + i);
	fprintf(sf, "unset multiplot\n");
	fflush(df);
	fflush(sf);
	pid = fork();
	if (!pid) {
		execl(gnuplot, "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
	    !WEXITSTATUS(status))
		status = 0;
	else
		fprintf(stderr, "preempt: %s: --plot: %s failed\n", CMD,
			gnuplot);
	status = status ? 1 : 0;
out:
	if (df)
		fclose(df);
	else if (dfd >= 0)
		close(dfd);
	if (sf)
		fclose(sf);
	else if (sfd >= 0)
		close(sfd);
	unlink(data);
	unlink(script);
	return status;
}

/* ---- --json: rt-tests 2.x's file ---------------------------------------- */

static void json_time(char *buf, size_t len, time_t t)
{
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(buf, len, "%a, %d %b %Y %T %z", &tm);
}

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++)
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", *s);
		else
			fputc(*s, f);
	fputc('"', f);
}

/* One thread's entry, every line after @in (the nesting's indentation). */
static void json_thread(FILE *f, const struct lat_thread *t, bool last,
			const char *in)
{
	bool any = false;

	fprintf(f, "%s    \"%d\": {\n%s      \"histogram\": {", in, t->index,
		in);
	for (long b = 0; b < o.hist; b++) {
		if (!t->hist[b])
			continue;
		fprintf(f, "%s%s        \"%ld\": %lu", any ? ",\n" : "\n", in,
			b, t->hist[b]);
		any = true;
	}
	fprintf(f, "%s%s      },\n", any ? "\n" : "", any ? in : "");
	fprintf(f,
		"%s      \"cycles\": %lu,\n%s      \"min\": %ld,\n"
		"%s      \"max\": %ld,\n%s      \"avg\": %.2f,\n"
		"%s      \"cpu\": %d,\n%s      \"node\": 0\n%s    }%s\n",
		in, t->cycles, in, unit(t->min), in, unit(t->max), in,
		t->cycles ? (double)unit(t->sum) / (double)t->cycles : 0.0, in,
		t->cpu, in, in, last ? "" : ",");
}

/*
 * --model all: each model's "thread" object, kept as text when the model
 * has run (the threads' histograms are reused by the next model), for
 * the file's "models" object.
 */
static char *model_json[PREEMPT_MODEL_NR];

static void json_keep_model(enum preempt_model model)
{
	size_t len;
	FILE *f = open_memstream(&model_json[model], &len);

	if (!f)
		return;
	for (int i = 0; i < o.threads; i++)
		json_thread(f, &threads[i], i == o.threads - 1, "    ");
	fclose(f);
}

static void json_models(FILE *f)
{
	bool first = true;

	fprintf(f, ",\n  \"models\": {");
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		if (!model_json[m])
			continue;
		fprintf(f, "%s\n    ", first ? "" : ",");
		json_string(f, preempt_model_str((enum preempt_model)m));
		fprintf(f, ": {\n      \"thread\": {\n%s      }\n    }",
			model_json[m]);
		first = false;
	}
	fprintf(f, "\n  }");
}

/*
 * The keys, their order and layout as rt-tests 2.x's --json writes them,
 * its "cmdline:" and "rt_test_version:" (colon inside the key) included.
 * With --model all, "thread" is the last model's (where rt-tests' parsers
 * look) and one more key, "models", holds every model's threads.
 */
static int write_json(int argc, char **argv, time_t start, int status)
{
	FILE *f = fopen(o.json, "w");
	struct utsname u;
	char t0[64], t1[64], cmd[4096] = "";
	size_t len = 0;

	if (!f) {
		fprintf(stderr, "preempt: %s: --json %s: %s\n", CMD, o.json,
			strerror(errno));
		return 1;
	}
	for (int i = 0; i < argc && len < sizeof(cmd); i++)
		len += (size_t)snprintf(cmd + len, sizeof(cmd) - len, "%s%s",
					i ? " " : "", argv[i]);
	json_time(t0, sizeof(t0), start);
	json_time(t1, sizeof(t1), time(NULL));
	if (uname(&u))
		memset(&u, 0, sizeof(u));
	fprintf(f, "{\n  \"file_version\": 1,\n  \"cmdline:\": ");
	json_string(f, cmd);
	fprintf(f,
		",\n  \"rt_test_version:\": \"" RT_TESTS_VERSION "\",\n"
		"  \"start_time\": \"%s\",\n  \"end_time\": \"%s\",\n"
		"  \"return_code\": %d,\n  \"sysinfo\": {\n",
		t0, t1, status);
	fprintf(f, "    \"sysname\": ");
	json_string(f, u.sysname);
	fprintf(f, ",\n    \"nodename\": ");
	json_string(f, u.nodename);
	fprintf(f, ",\n    \"release\": ");
	json_string(f, u.release);
	fprintf(f, ",\n    \"version\": ");
	json_string(f, u.version);
	fprintf(f, ",\n    \"machine\": ");
	json_string(f, u.machine);
	/* "realtime": the host kernel's, as cyclictest reports it. */
	fprintf(f,
		",\n    \"realtime\": %d\n  },\n  \"num_threads\": %d,\n"
		"  \"resolution_in_ns\": 0,\n  \"thread\": {\n",
		access("/sys/kernel/realtime", F_OK) == 0, o.threads);
	for (int i = 0; i < o.threads; i++)
		json_thread(f, &threads[i], i == o.threads - 1, "");
	fprintf(f, "  }");
	if (o.model < 0)
		json_models(f);
	fprintf(f, "\n}\n");
	if (fclose(f)) {
		fprintf(stderr, "preempt: %s: --json %s: %s\n", CMD, o.json,
			strerror(errno));
		return 1;
	}
	return 0;
}

/* ---- options ------------------------------------------------------------ */

static bool parse_long(const char *s, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return s[0] && !*end && !errno && *v >= min && *v <= max;
}

/* cyclictest's -D: a number with an optional s, m, h or d suffix. */
static bool parse_duration(const char *s, long *v)
{
	char *end;
	long mul = 1;

	errno = 0;
	*v = strtol(s, &end, 10);
	if (!s[0] || errno || *v <= 0 || end == s)
		return false;
	switch (*end) {
	case '\0':
	case 's':
	case 'S':
		break;
	case 'm':
	case 'M':
		mul = 60;
		break;
	case 'h':
	case 'H':
		mul = 3600;
		break;
	case 'd':
	case 'D':
		mul = 86400;
		break;
	default:
		return false;
	}
	if (*end && end[1])
		return false;
	if (*v > LONG_MAX / mul / 1000000000L)
		return false;
	*v *= mul;
	return true;
}

static void usage(void)
{
	printf("usage: preempt latency [options]   (or: preempt cyclictest, "
	       "or the tool named cyclictest)\n"
	       "cyclictest on a booted machine: tasks sleep on an hrtimer "
	       "until the next period\nand report wake time minus intended "
	       "time, in cyclictest's output formats.\n\n"
	       "  -p, --priority N    SCHED_FIFO priority (1..99); default 0: "
	       "SCHED_OTHER\n"
	       "  -i, --interval US   base interval, default 1000\n"
	       "  -d, --distance US   interval added per thread, default 500 "
	       "(0 with -h)\n"
	       "  -t, --threads [N]   measuring threads (no N: one per vCPU)\n"
	       "  -a, --affinity [L]  pin thread i to vCPU i, or round robin "
	       "over the list L (0-2,4)\n"
	       "  -S, --smp           -a -t: a thread per vCPU, each pinned\n"
	       "  -l, --loops N       cycles per thread (0: endless)\n"
	       "  -D, --duration T    run time, N[s|m|h|d]\n"
	       "  -h, --histogram N   histogram of N 1-us buckets\n"
	       "  -H, --histofall N   same, plus an all-threads column\n"
	       "      --histfile=F    the histogram into F instead of stdout\n"
	       "      --json=F        the summary as rt-tests 2.x's JSON\n"
	       "  -q, --quiet         print only the summary at the end\n"
	       "  -N, --nsecs         report latencies in ns\n"
	       "  -m, --mlockall      lock this process's memory\n"
	       "  -u, --unbuffered    unbuffered stdout\n"
	       "Not in cyclictest:\n"
	       "      --model NAME    none, voluntary, full (default), lazy, "
	       "rt, or all\n"
	       "      --load N        N CPU-bound tasks and interrupt load\n"
	       "      --load-irq US   --load's interrupts: one per vCPU per US "
	       "on average\n"
	       "                      (default 200; 0: CPU-bound tasks only)\n"
	       "      --breakdown     on stderr: each latency split where "
	       "the timer function ran\n"
	       "      --plot FILE.png draw the histogram with gnuplot "
	       "($PREEMPT_GNUPLOT)\n"
	       "vCPUs: $PREEMPT_NR_CPUS, default the host's CPUs.\n");
}

enum {
	OPT_MODEL = 256,
	OPT_LOAD,
	OPT_LOAD_IRQ,
	OPT_BREAKDOWN,
	OPT_PLOT,
	OPT_HELP,
	OPT_HISTFILE,
	OPT_JSON,
	OPT_NOOP
};

static const struct option long_opts[] = {
	{"priority", required_argument, NULL, 'p'},
	{"interval", required_argument, NULL, 'i'},
	{"distance", required_argument, NULL, 'd'},
	{"threads", optional_argument, NULL, 't'},
	{"loops", required_argument, NULL, 'l'},
	{"duration", required_argument, NULL, 'D'},
	{"histogram", required_argument, NULL, 'h'},
	{"histofall", required_argument, NULL, 'H'},
	{"quiet", no_argument, NULL, 'q'},
	{"nsecs", no_argument, NULL, 'N'},
	{"mlockall", no_argument, NULL, 'm'},
	{"model", required_argument, NULL, OPT_MODEL},
	{"load", required_argument, NULL, OPT_LOAD},
	{"load-irq", required_argument, NULL, OPT_LOAD_IRQ},
	{"breakdown", no_argument, NULL, OPT_BREAKDOWN},
	{"plot", required_argument, NULL, OPT_PLOT},
	{"help", no_argument, NULL, OPT_HELP},
	{"affinity", optional_argument, NULL, 'a'},
	{"smp", no_argument, NULL, 'S'},
	{"histfile", required_argument, NULL, OPT_HISTFILE},
	{"json", required_argument, NULL, OPT_JSON},
	{"unbuffered", no_argument, NULL, 'u'},
	/* cyclictest tunes the host here; a machine has nothing to tune. */
	{"default-system", no_argument, NULL, OPT_NOOP},
	{NULL, 0, NULL, 0},
};

/* A CPU list as -a takes it: N or N-M, comma separated. */
static bool valid_cpuset(const char *s)
{
	while (*s) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s || lo < 0)
			return false;
		if (*end == '-') {
			s = end + 1;
			hi = strtol(s, &end, 10);
			if (end == s || hi < lo)
				return false;
		}
		if (*end && *end != ',')
			return false;
		s = *end ? end + 1 : end;
	}
	return true;
}

static int default_threads(void)
{
	const char *env = getenv("PREEMPT_NR_CPUS");
	long n;

	if (env && parse_long(env, 1, MAX_THREADS, &n))
		return (int)n;
	n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n > MAX_THREADS ? MAX_THREADS : (int)n;
}

/* 0, 1 for --help, or the usage error's exit status. */
static int parse(int argc, char **argv)
{
	int c;
	long v;

	o = (struct opts){.threads = 1,
			  .model = PREEMPT_MODEL_FULL,
			  .interval_us = 1000,
			  .load_irq_us = LOAD_IRQ_US,
			  .distance_us = 500};
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, ":p:i:d:t::l:D:h:H:qNma::Su",
				long_opts, NULL)) != -1) {
		const char *arg = optarg;

		switch (c) {
		case 'p':
			if (!parse_long(arg, 0, 99, &v))
				return cli_usage_error(
					CMD, "bad -p '%s' (0..99)", arg);
			o.prio = (int)v;
			break;
		case 'i':
			if (!parse_long(arg, 1, 10000000, &v))
				return cli_usage_error(
					CMD, "bad -i '%s' (1..10000000 us)",
					arg);
			o.interval_us = v;
			break;
		case 'd':
			if (!parse_long(arg, 0, 10000000, &v))
				return cli_usage_error(
					CMD, "bad -d '%s' (0..10000000 us)",
					arg);
			o.distance_us = v;
			break;
		case 't':
			if (!arg && optind < argc && argv[optind][0] >= '0' &&
			    argv[optind][0] <= '9')
				arg = argv[optind++];
			if (!arg) {
				o.threads = default_threads();
				break;
			}
			if (!parse_long(arg, 1, MAX_THREADS, &v))
				return cli_usage_error(CMD,
						       "bad -t '%s' (1..%d)",
						       arg, MAX_THREADS);
			o.threads = (int)v;
			break;
		case 'l':
			if (!parse_long(arg, 0, LONG_MAX, &v))
				return cli_usage_error(CMD, "bad -l '%s'", arg);
			o.loops = (unsigned long)v;
			break;
		case 'D':
			if (!parse_duration(arg, &o.duration_s))
				return cli_usage_error(
					CMD, "bad -D '%s' (N[s|m|h|d])", arg);
			break;
		case 'h':
		case 'H':
			if (!parse_long(arg, 1, MAX_HIST, &v))
				return cli_usage_error(
					CMD, "bad -%c '%s' (1..%d buckets)", c,
					arg, MAX_HIST);
			o.hist = v;
			o.histofall |= c == 'H';
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'N':
			o.nsecs = true;
			break;
		case 'm':
			o.mlock = true;
			break;
		case OPT_MODEL:
			if (!strcmp(arg, "all")) {
				o.model = -1;
				break;
			}
			o.model = preempt_model_parse(arg);
			if (o.model < 0)
				return cli_usage_error(
					CMD,
					"unknown model '%s' (none, voluntary, "
					"full, lazy, rt, all)",
					arg);
			break;
		case OPT_LOAD:
			if (!parse_long(arg, 0, MAX_LOAD, &v))
				return cli_usage_error(
					CMD, "bad --load '%s' (0..%d)", arg,
					MAX_LOAD);
			o.load = (int)v;
			break;
		case OPT_LOAD_IRQ:
			if (!parse_long(arg, 0, 1000000, &v))
				return cli_usage_error(
					CMD,
					"bad --load-irq '%s' (0..1000000 us)",
					arg);
			o.load_irq_us = v;
			break;
		case OPT_BREAKDOWN:
			o.breakdown = true;
			break;
		case OPT_PLOT:
			if (!arg[0])
				return cli_usage_error(CMD,
						       "--plot needs a file");
			o.plot = arg;
			break;
		case OPT_HELP:
			usage();
			return 1;
		case 'a':
			if (!arg && optind < argc && argv[optind][0] >= '0' &&
			    argv[optind][0] <= '9')
				arg = argv[optind++];
			if (arg && !valid_cpuset(arg))
				return cli_usage_error(
					CMD, "bad -a '%s' (a CPU list: 0-2,4)",
					arg);
			o.affinity = true;
			o.cpuset = arg;
			break;
		case 'S':
			o.affinity = true;
			o.cpuset = NULL;
			o.threads = default_threads();
			break;
		case 'u':
			setvbuf(stdout, NULL, _IONBF, 0);
			break;
		case OPT_NOOP:
			break;
		case OPT_HISTFILE:
		case OPT_JSON:
			if (!arg[0])
				return cli_usage_error(CMD, "%s needs a file",
						       argv[optind - 1]);
			*(c == OPT_JSON ? &o.json : &o.histfile) = arg;
			break;
		case ':':
			return cli_usage_error(CMD, "option '%s' needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error(CMD, "unknown option '%s'",
					       argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(CMD, "unexpected argument '%s'",
				       argv[optind]);
	if (o.plot && !o.hist)
		o.hist = PLOT_DEFAULT_HIST;
	/* cyclictest: with a histogram every thread has the same interval. */
	if (o.hist)
		o.distance_us = 0;
	return 0;
}

int cmd_latency(int argc, char **argv)
{
	char gnuplot[4096];
	int err = parse(argc, argv), status = 0;
	time_t start = time(NULL);

	if (err)
		return err == 1 ? 0 : err;
	if (o.plot && !find_gnuplot(gnuplot, sizeof(gnuplot)))
		return cli_usage_error(CMD,
				       "--plot needs gnuplot, which was not "
				       "found (PATH or $PREEMPT_GNUPLOT)");
	if (o.mlock && mlockall(MCL_CURRENT | MCL_FUTURE))
		fprintf(stderr, "preempt: %s: warning: mlockall: %s\n", CMD,
			strerror(errno));
	for (int i = 0; i < o.threads; i++) {
		threads[i].hist = calloc((size_t)o.hist + 1, sizeof(long));
		threads[i].outliers = calloc((size_t)o.hist + 1, sizeof(long));
		if (!threads[i].hist || !threads[i].outliers) {
			fprintf(stderr, "preempt: %s: out of memory\n", CMD);
			return 1;
		}
	}
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		model_hist[m] = calloc((size_t)o.hist + 1, sizeof(long));
		if (!model_hist[m]) {
			fprintf(stderr, "preempt: %s: out of memory\n", CMD);
			return 1;
		}
	}
	signal(SIGINT, on_sigint);
	signal(SIGTERM, on_sigint);
	/* A machine has no power states; the line stays for the parsers. */
	printf("# /dev/cpu_dma_latency set to 0us\n");
	for (int m = 0; m < PREEMPT_MODEL_NR && !status; m++) {
		if (o.model >= 0 && m != o.model)
			continue;
		if (interrupted)
			break;
		status = run_model((enum preempt_model)m, o.model < 0);
	}
	if (!status && o.plot)
		status = plot(gnuplot);
	if (o.json && write_json(argc, argv, start, status))
		status = 1;
	for (int i = 0; i < o.threads; i++) {
		free(threads[i].hist);
		free(threads[i].outliers);
	}
	for (int m = 0; m < PREEMPT_MODEL_NR; m++) {
		free(model_hist[m]);
		free(model_json[m]);
	}
	return status;
}
