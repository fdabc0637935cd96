// SPDX-License-Identifier: MIT
/*
 * bench_sched: how long a SCHED_FIFO task waits for the CPU under each
 * preemption model (none, voluntary, full, lazy, rt), one machine booted
 * and shut down per model, in one run.
 *
 *   bench_sched [--ms N] [--model NAME]... [--part N]...
 *       --ms: each model's run in each part, default 1500 ms
 *       --model: only these models (none, voluntary, full, lazy, rt)
 *       --part: only these parts (1, 2, 3)
 *
 * Part 1, preemption latency: 1 vCPU, HZ 1000.  A normal "hog" spins in
 * bursts of HOG_BURST_MS with no preemption point inside a burst, then calls
 * cond_resched() once and starts the next.  A FIFO task ("high", rt
 * priority 50) sleeps 2 ticks at a time, as msleep(1) does, on a timer of
 * its own whose function (TIMER_SOFTIRQ, at the tick) reads
 * CLOCK_MONOTONIC and then calls wake_up_process(): that reading is the
 * moment the task became runnable.  The task reads the clock again as soon
 * as schedule() returns in it.  Sample: the difference, i.e. wake-up to
 * running, what a preemption model decides.
 *
 * Parts 2 and 3, wake-up latency in cyclictest's terms: 2 vCPUs, HZ 1000,
 * three normal hogs that spin and call cond_resched() every HOG_RESCHED_MS
 * of work, and a FIFO task (priority 50, bound to vCPU 0, as cyclictest
 * -a 0) with an interval of 1000 µs.  Period k starts at base + k ms on
 * CLOCK_MONOTONIC; the task sleeps until then on a timer of its own and on
 * waking takes "actual - period start" (cyclictest's latency) and "actual -
 * timer function" (the scheduling part).  A period whose start has passed
 * when the task wakes is skipped and counted as an overrun, as cyclictest
 * does.
 *
 *   part 2: an hrtimer, HRTIMER_MODE_ABS at the period start (cyclictest's
 *           clock_nanosleep(TIMER_ABSTIME)); its function runs in hardirq
 *           context on the vCPU.  Resolution: the host's timers.
 *   part 3: a timer_list on the tick.  The periods start at jiffy
 *           boundaries (found at the start by watching jiffies_now()
 *           change, to ~0.1 µs); the timer fires from TIMER_SOFTIRQ at vCPU
 *           0's first tick at or after the boundary, whose phase against
 *           the boundaries is fixed for a boot and anywhere in 0..1000 µs:
 *           tick resolution, and every sample carries that phase.
 *
 * The hogs spin in this program's own code and read the clock only every
 * SPIN_CHUNK iterations (~70 µs): an interrupt that lands in the vDSO's
 * clock_gettime() is no safe point, and the preemption then waits for the
 * next tick (counted as "deferred").  Each table comes with the scheduler's
 * counters and the share of the host's CPUs that other processes and the
 * hypervisor took meanwhile: the vCPUs are host threads, and a busy host
 * delays their ticks and wake-ups.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/hrtimer.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>
#include <preempt/timer.h>

#define HZ 1000
#define TICK_NS (1000000000L / HZ)
#define HOG_BURST_MS 20	  /* part 1: spin this long between cond_resched() */
#define HOG_RESCHED_MS 5  /* part 2: cond_resched() after this much work */
#define NR_CYCLIC_HOGS 3  /* part 2: normal tasks on 2 vCPUs */
#define SPIN_CHUNK 65536  /* iterations between clock reads, ~70 µs */
#define MAX_SAMPLES 65536 /* per task and model */

static unsigned int model_mask = ~0U; /* --model */
static unsigned int part_mask = ~0U;  /* --part */

static const enum preempt_model models[] = {
	PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY, PREEMPT_MODEL_FULL,
	PREEMPT_MODEL_LAZY, PREEMPT_MODEL_RT,
};
#define NR_MODELS (int)(sizeof(models) / sizeof(models[0]))

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* ---- samples ------------------------------------------------------------ */

struct series {
	long v[MAX_SAMPLES]; /* ns */
	int n;
	long overruns;
};

static void record(struct series *s, long ns)
{
	if (s->n < MAX_SAMPLES)
		s->v[s->n++] = ns;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

struct summary {
	int n;
	double min, avg, p50, p99, max, last; /* µs */
};

/* Nearest-rank percentiles; sorts @s.  last: the newest (cyclictest's Act). */
static struct summary summarize(struct series *s)
{
	struct summary r = {.n = s->n};
	double sum = 0;

	if (!s->n)
		return r;
	r.last = (double)s->v[s->n - 1] / 1e3;
	for (int i = 0; i < s->n; i++)
		sum += (double)s->v[i];
	qsort(s->v, (size_t)s->n, sizeof(s->v[0]), cmp_long);
	r.min = (double)s->v[0] / 1e3;
	r.max = (double)s->v[s->n - 1] / 1e3;
	r.avg = sum / s->n / 1e3;
	r.p50 = (double)s->v[(s->n + 1) / 2 - 1] / 1e3;
	r.p99 = (double)s->v[(99 * (long)s->n + 99) / 100 - 1] / 1e3;
	return r;
}

/* ---- the host: what else ran during a measurement ---------------------- */

struct host_sample {
	unsigned long long busy, steal; /* /proc/stat, all CPUs, USER_HZ */
	long self_us;			/* our own user + system time */
	long wall_ns;
	long nvcsw; /* our threads' involuntary switches in the host */
};

/* Sum of nonvoluntary_ctxt_switches over this process's threads. */
static long host_nvcsw(void)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	long sum = 0;

	if (!d)
		return 0;
	while ((e = readdir(d))) {
		char path[64], line[128];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%.20s/status",
			 e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		while (fgets(line, sizeof(line), f))
			if (!strncmp(line, "nonvoluntary_ctxt_switches:", 27))
				sum += strtol(line + 27, NULL, 10);
		fclose(f);
	}
	closedir(d);
	return sum;
}

static struct host_sample host_now(void)
{
	struct host_sample h = {.wall_ns = now_ns(), .nvcsw = host_nvcsw()};
	unsigned long long v[8] = {0};
	struct rusage ru;
	FILE *f = fopen("/proc/stat", "r");

	if (f) {
		if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu",
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6],
			   &v[7]) == 8) {
			/* user nice system idle iowait irq softirq steal */
			h.busy = v[0] + v[1] + v[2] + v[5] + v[6];
			h.steal = v[7];
		}
		fclose(f);
	}
	if (!getrusage(RUSAGE_SELF, &ru))
		h.self_us =
			(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000L +
			ru.ru_utime.tv_usec + ru.ru_stime.tv_usec;
	return h;
}

/*
 * Percent of the host's CPU time between @a and @b used by other processes
 * (all CPUs' busy time less ours), and stolen by the hypervisor.
 */
static void host_other(const struct host_sample *a, const struct host_sample *b,
		       double *other, double *steal)
{
	double tick_us = 1e6 / (double)sysconf(_SC_CLK_TCK);
	double cap_us = (double)sysconf(_SC_NPROCESSORS_ONLN) *
			(double)(b->wall_ns - a->wall_ns) / 1e3;
	double busy_us = (double)(b->busy - a->busy) * tick_us;

	*other = busy_us - (double)(b->self_us - a->self_us);
	*other = *other < 0 ? 0 : 100 * *other / cap_us;
	*steal = 100 * (double)(b->steal - a->steal) * tick_us / cap_us;
}

/* ---- sleeping on a timer of our own ------------------------------------- */

struct bench_sleeper {
	struct timer_list timer; /* on the tick: TIMER_SOFTIRQ */
	struct hrtimer hrtimer;	 /* high resolution: hardirq */
	struct task_struct *task;
	long fired_ns; /* when the timer function ran, 0 before */
};

static void sleeper_fire(struct bench_sleeper *bs)
{
	__atomic_store_n(&bs->fired_ns, now_ns(), __ATOMIC_RELEASE);
	wake_up_process(bs->task);
}

/* TIMER_SOFTIRQ: at the tick, on the vCPU or in its ksoftirqd. */
static void sleeper_timer_fn(struct timer_list *t)
{
	struct bench_sleeper *bs = from_timer(bs, t, timer);

	sleeper_fire(bs);
}

/* PK_HRTIMER_IRQ, hardirq context on the vCPU. */
static enum hrtimer_restart sleeper_hrtimer_fn(struct hrtimer *t)
{
	struct bench_sleeper *bs = from_timer(bs, t, hrtimer);

	sleeper_fire(bs);
	return HRTIMER_NORESTART;
}

enum clock_kind { ON_TICK, ON_HRTIMER };

/*
 * Sleep until jiffy @when (ON_TICK) or until @when ns on CLOCK_MONOTONIC
 * (ON_HRTIMER), or kthread_stop().  Returns the time the timer function
 * ran, or 0 when stopped first; *@woke_ns: when this task ran again, read
 * first thing after schedule().
 */
static long sleep_until(enum clock_kind kind, long when, long *woke_ns)
{
	struct bench_sleeper bs = {.task = current};
	long fired = 0;

	timer_setup(&bs.timer, sleeper_timer_fn, 0);
	hrtimer_setup(&bs.hrtimer, sleeper_hrtimer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS);
	set_current_state(TASK_UNINTERRUPTIBLE);
	if (kind == ON_TICK)
		mod_timer(&bs.timer, (unsigned long)when);
	else
		hrtimer_start(&bs.hrtimer, when, HRTIMER_MODE_ABS);
	for (;;) {
		schedule();
		*woke_ns = now_ns();
		fired = __atomic_load_n(&bs.fired_ns, __ATOMIC_ACQUIRE);
		if (fired || kthread_should_stop())
			break;
		set_current_state(TASK_UNINTERRUPTIBLE);
		if (__atomic_load_n(&bs.fired_ns, __ATOMIC_ACQUIRE))
			__set_current_state(TASK_RUNNING);
	}
	if (kind == ON_TICK)
		del_timer_sync(&bs.timer);
	else
		hrtimer_cancel(&bs.hrtimer);
	return fired;
}

/* The start of some jiffy on CLOCK_MONOTONIC: *@j, returned in ns. */
static long jiffy_boundary(unsigned long *j)
{
	unsigned long j0 = jiffies_now(), j1;
	long before = now_ns(), after;

	for (;;) {
		long t = now_ns();

		j1 = jiffies_now();
		after = now_ns();
		if (j1 != j0)
			break;
		before = t;
	}
	/* jiffies_now() read the clock between @before and @after. */
	*j = j1;
	return before + (after - before) / 2;
}

/* ---- the hogs ----------------------------------------------------------- */

static volatile unsigned long spin_sink;

/* Spin in this program's code until @deadline (ns); no preemption point. */
static __attribute__((noinline)) void spin_until(long deadline)
{
	unsigned long x = spin_sink | 1;

	while (now_ns() < deadline)
		for (int i = 0; i < SPIN_CHUNK; i++) {
			x = x * 6364136223846793005UL + 1442695040888963407UL;
			__asm__ __volatile__("" : "+r"(x));
		}
	spin_sink = x;
}

/* Bursts of @arg ms of spinning, each followed by one cond_resched(). */
static int hog(void *arg)
{
	long burst_ns = (long)(size_t)arg * 1000000L;

	while (!kthread_should_stop()) {
		spin_until(now_ns() + burst_ns);
		cond_resched();
	}
	return 0;
}

/* ---- the machine -------------------------------------------------------- */

static void boot(int cpus, enum preempt_model model)
{
	struct machine_config cfg = {
		.nr_cpus = cpus, .hz = HZ, .model = (int)model};
	int err = machine_boot(&cfg);

	if (err) {
		fprintf(stderr, "bench_sched: machine_boot: %s\n",
			strerror(-err));
		exit(1);
	}
	if (preempt_model() != model || pk_machine_hz() != HZ) {
		fprintf(stderr, "bench_sched: booted %s at %d Hz, not %s\n",
			preempt_model_str(preempt_model()), pk_machine_hz(),
			preempt_model_str(model));
		exit(1);
	}
}

static struct task_struct *start(int (*fn)(void *), void *arg, const char *name,
				 bool fifo, int cpu)
{
	struct task_struct *k = kthread_create(fn, arg, "%s", name);

	if (!k) {
		fprintf(stderr, "bench_sched: kthread_create failed\n");
		exit(1);
	}
	if (fifo)
		sched_set_fifo(k);
	if (cpu >= 0)
		kthread_bind(k, cpu);
	wake_up_process(k);
	return k;
}

struct cpu_counts {
	unsigned long irq_return, cond_resched, deferred, switches;
	double other, steal; /* % of the host: other processes, stolen */
	long nvcsw;	     /* host preemptions of our threads */
};

static struct cpu_counts counts(int cpus)
{
	struct cpu_counts c = {0};

	for (int i = 0; i < cpus; i++) {
		struct pk_sched_stats s = pk_sched_cpu_stats(i);

		c.irq_return += s.resched[PK_RESCHED_IRQ_RETURN];
		c.cond_resched += s.resched[PK_RESCHED_COND_RESCHED];
		c.deferred += s.deferred_unsafe;
		c.switches += s.nr_switches;
	}
	return c;
}

/* Let the machine run for @ms; its counters and what else ran meanwhile. */
static struct cpu_counts measure(long ms, int cpus)
{
	struct host_sample a = host_now(), b;
	struct cpu_counts c;

	usleep((useconds_t)ms * 1000);
	b = host_now();
	c = counts(cpus);
	host_other(&a, &b, &c.other, &c.steal);
	c.nvcsw = b.nvcsw - a.nvcsw;
	return c;
}

/* ---- the tables --------------------------------------------------------- */

struct result {
	enum preempt_model model;
	struct summary a, b; /* two measures of the same wake-ups */
	struct cpu_counts c;
	long overruns;
};

static struct result results[NR_MODELS];
static int nr_results;

static void print_tables(const char *a, const char *b, bool overruns)
{
	printf("\n%-10s %7s %8s | %-35s | %s\n", "", "", "", a, b);
	printf("%-10s %7s %8s |", "model", "samples",
	       overruns ? "overruns" : "");
	for (int i = 0; i < 2; i++)
		printf(" %8s %8s %8s %8s |", "min", "p50", "p99", "max");
	printf("\n");
	for (int i = 0; i < nr_results; i++) {
		const struct result *r = &results[i];

		printf("%-10s %7d ", preempt_model_str(r->model), r->a.n);
		if (overruns)
			printf("%8ld |", r->overruns);
		else
			printf("%8s |", "");
		printf(" %8.1f %8.1f %8.1f %8.1f |", r->a.min, r->a.p50,
		       r->a.p99, r->a.max);
		printf(" %8.1f %8.1f %8.1f %8.1f |\n", r->b.min, r->b.p50,
		       r->b.p99, r->b.max);
	}
	printf("\n%-10s %8s %8s %8s %9s %7s %7s %8s\n", "model", "irq-ret",
	       "cond_rs", "deferred", "switches", "other%", "steal%",
	       "host-inv");
	for (int i = 0; i < nr_results; i++) {
		const struct result *r = &results[i];

		printf("%-10s %8lu %8lu %8lu %9lu %7.1f %7.1f %8ld\n",
		       preempt_model_str(r->model), r->c.irq_return,
		       r->c.cond_resched, r->c.deferred, r->c.switches,
		       r->c.other, r->c.steal, r->c.nvcsw);
	}
	printf("\nirq-ret, cond_rs: reschedules taken at interrupt return and "
	       "in cond_resched(),\nall vCPUs; deferred: interrupt-return "
	       "preemptions put off because the\ninterrupted code was no safe "
	       "point; switches: context switches.  other%%: host\nCPU time "
	       "used by other processes, steal%%: taken by the hypervisor, "
	       "in percent\nof all host CPUs over the run (/proc/stat less "
	       "our own getrusage()); host-inv:\nthe host's involuntary "
	       "context switches of this process's threads (vCPUs\nincluded) "
	       "over the run.\n");
}

/* ---- part 1: preemption latency ----------------------------------------- */

static struct series wake_to_run, due_to_run;

static int latency_high(void *arg)
{
	unsigned long base_j, expires;
	long base_ns, woke;

	(void)arg;
	base_ns = jiffy_boundary(&base_j);
	while (!kthread_should_stop()) {
		long fired;

		expires = jiffies_now() + 2; /* 2 ticks, as msleep(1) */
		fired = sleep_until(ON_TICK, (long)expires, &woke);
		if (!fired)
			break;
		record(&wake_to_run, woke - fired);
		record(&due_to_run,
		       woke - (base_ns + (long)(expires - base_j) * TICK_NS));
	}
	return 0;
}

static void part1(long ms)
{
	printf("== part 1: preemption latency, 1 vCPU, HZ %d, %ld ms per model "
	       "==\n",
	       HZ, ms);
	printf("A normal hog spins in %d ms bursts, no preemption point "
	       "inside, cond_resched()\nbetween bursts.  A SCHED_FIFO task "
	       "(prio 50) sleeps 2 ticks at a time on its\nown timer.  "
	       "wake->run: its timer function's wake_up_process() to the "
	       "task\nrunning.  due->run: the jiffy boundary it slept until "
	       "to the task running\n(tick resolution: adds the tick's "
	       "phase and the timer softirq).  In µs.\n",
	       HOG_BURST_MS);
	nr_results = 0;
	for (int m = 0; m < NR_MODELS; m++) {
		struct result *r = &results[nr_results];
		struct task_struct *high, *h;

		if (!(model_mask & (1U << models[m])))
			continue;
		wake_to_run.n = due_to_run.n = 0;
		boot(1, models[m]);
		high = start(latency_high, NULL, "high", true, -1);
		usleep(5000); /* high is asleep before the hog starts */
		h = start(hog, (void *)(size_t)HOG_BURST_MS, "hog", false, -1);
		r->c = measure(ms, 1);
		kthread_stop(high);
		kthread_stop(h);
		machine_shutdown();
		r->model = models[m];
		r->a = summarize(&wake_to_run);
		r->b = summarize(&due_to_run);
		nr_results++;
	}
	print_tables("wake->run (us)", "due->run (us)", false);
}

/* ---- parts 2 and 3: cyclictest
 * ------------------------------------------------- */

static struct series from_start, from_timer_fn;
static int cyclic_tid;

/* Period start @k on CLOCK_MONOTONIC, and what to sleep until for it. */
struct period {
	enum clock_kind kind;
	long base_ns;	      /* start of period 0 */
	unsigned long base_j; /* ON_TICK: the jiffy period 0 starts */
};

static long period_start(const struct period *p, long k)
{
	return p->base_ns + k * TICK_NS;
}

static long period_until(const struct period *p, long k)
{
	return p->kind == ON_TICK ? (long)p->base_j + k : period_start(p, k);
}

static int cyclic_high(void *arg)
{
	struct period p = {.kind = (enum clock_kind)(size_t)arg};
	long k = 1, woke;

	cyclic_tid = task_pid_nr(current);
	if (p.kind == ON_TICK)
		p.base_ns = jiffy_boundary(&p.base_j);
	else /* a whole millisecond: cyclictest aligns its periods too */
		p.base_ns = (now_ns() / TICK_NS + 1) * TICK_NS;
	while (!kthread_should_stop()) {
		long fired = sleep_until(p.kind, period_until(&p, k), &woke);

		if (!fired)
			break;
		record(&from_start, woke - period_start(&p, k));
		record(&from_timer_fn, woke - fired);
		/* The next period that has not begun yet. */
		k++;
		while (period_start(&p, k) <= now_ns()) {
			k++;
			from_start.overruns++;
		}
	}
	return 0;
}

static void cyclic(int part, enum clock_kind kind, long ms)
{
	printf("\n== part %d: cyclictest %s, 2 vCPUs, HZ %d, %ld ms per "
	       "model ==\n",
	       part, kind == ON_TICK ? "on the tick" : "on an hrtimer", HZ, ms);
	printf("%d normal hogs call cond_resched() every %d ms of spinning.  A "
	       "SCHED_FIFO\ntask (prio 50, bound to vCPU 0) wakes every 1000 "
	       "µs (I:1000).  Latency, as\ncyclictest: its wake-up minus the "
	       "period's start on CLOCK_MONOTONIC.  ",
	       NR_CYCLIC_HOGS, HOG_RESCHED_MS);
	if (kind == ON_TICK)
		printf("Periods\nstart at jiffy boundaries; the task sleeps on "
		       "a "
		       "timer_list, which fires at\nvCPU 0's tick "
		       "(TIMER_SOFTIRQ): tick resolution, and the tick's phase "
		       "against\nthe boundaries is in every sample.  In "
		       "µs.\n\n");
	else
		printf("The\ntask sleeps on an hrtimer (HRTIMER_MODE_ABS, as "
		       "cyclictest's\nclock_nanosleep(TIMER_ABSTIME)), whose "
		       "function runs in hardirq context at the\nperiod start. "
		       " "
		       "In µs.\n\n");
	nr_results = 0;
	for (int m = 0; m < NR_MODELS; m++) {
		struct result *r = &results[nr_results];
		struct task_struct *high, *h[NR_CYCLIC_HOGS];

		if (!(model_mask & (1U << models[m])))
			continue;
		from_start.n = from_timer_fn.n = 0;
		from_start.overruns = 0;
		boot(2, models[m]);
		for (int i = 0; i < NR_CYCLIC_HOGS; i++)
			h[i] = start(hog, (void *)(size_t)HOG_RESCHED_MS, "hog",
				     false, -1);
		high = start(cyclic_high, (void *)(size_t)kind, "cyclic", true,
			     0);
		r->c = measure(ms, 2);
		kthread_stop(high);
		for (int i = 0; i < NR_CYCLIC_HOGS; i++)
			kthread_stop(h[i]);
		machine_shutdown();
		r->model = models[m];
		r->overruns = from_start.overruns;
		r->a = summarize(&from_start);
		r->b = summarize(&from_timer_fn);
		printf("%-10s T: 0 (%5d) P:50 I:1000 C: %6d Min: %7.0f Act: "
		       "%7.0f Avg: %7.0f Max: %7.0f\n",
		       preempt_model_str(models[m]), cyclic_tid, r->a.n,
		       r->a.min, r->a.last, r->a.avg, r->a.max);
		nr_results++;
	}
	print_tables("from period start (us)", "from timer function (us)",
		     true);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_sched [--ms N] [--model NAME]... "
			"[--part N]...\n");
	return 2;
}

int main(int argc, char **argv)
{
	long ms = 1500;

	for (int i = 1; i < argc; i++) {
		char *end;

		if (i + 1 < argc && !strcmp(argv[i], "--ms")) {
			errno = 0;
			ms = strtol(argv[++i], &end, 10);
			if (errno || *end || ms <= 0 || ms > 600000)
				return usage();
		} else if (i + 1 < argc && !strcmp(argv[i], "--model")) {
			int m = preempt_model_parse(argv[++i]);

			if (m < 0)
				return usage();
			model_mask =
				(model_mask == ~0U ? 0 : model_mask) | 1U << m;
		} else if (i + 1 < argc && !strcmp(argv[i], "--part")) {
			long n = strtol(argv[++i], &end, 10);

			if (*end || n < 1 || n > 3)
				return usage();
			part_mask =
				(part_mask == ~0U ? 0 : part_mask) | 1U << n;
		} else {
			return usage();
		}
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (part_mask & 1U << 1)
		part1(ms);
	if (part_mask & 1U << 2)
		cyclic(2, ON_HRTIMER, ms);
	if (part_mask & 1U << 3)
		cyclic(3, ON_TICK, ms);
	return 0;
}
