// SPDX-License-Identifier: MIT
/*
 * `preempt trace`: run a built-in workload on a machine under one of the
 * latency tracers and print what it kept, in ftrace's latency format or as
 * Chrome trace-event JSON.
 *
 * The workloads are built in, so that what the report names is known:
 *   irqs-off [US]     one task disables interrupts for US µs (default
 *                     5000) in hold_irqs_off(), while noise tasks open
 *                     50 µs sections of both kinds and a source interrupts
 *                     every vCPU every 500 µs
 *   preempt-off [US]  the same with preemption, in hold_preempt_off()
 *   demo [MS]         a short `preempt demo`: hogs taking a spinlock,
 *                     a SCHED_FIFO task on a 1 ms hrtimer period, the
 *                     interrupt source raising NET_RX, for MS ms (1000)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/irqflags.h>
#include <preempt/preempt.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/trace.h>

#include "cli.h"
#include "irqsource.h"

#define CMD "trace"
#define TRACE_IRQ 12
#define IRQ_PERIOD_NS 500000L
#define NOISE_US 50
#define MAX_TASKS (PK_NR_CPUS + 4)

struct trace_opts {
	int tracer, cpus, model;
	bool chrome;
	unsigned int buffer;
	const char *output;
	const struct workload *wl;
	long arg;
};

struct workload {
	const char *name;
	long def, max; /* the argument: µs, or ms for demo */
	int (*run)(const struct trace_opts *o, int nr_cpus);
};

static DEFINE_SPINLOCK(trace_lock);
static unsigned long shared_counter;
static volatile unsigned long sink;
static int long_done;

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* Busy for @us µs: no preemption point in it. */
static __attribute__((noinline)) void spin_us(long us)
{
	long end = now_ns() + us * 1000;

	while (now_ns() < end)
		sink++;
}

/* ---- the sections the reports should name ---- */

static __attribute__((noinline)) void hold_irqs_off(long us)
{
	local_irq_disable();
	spin_us(us);
	local_irq_enable();
}

static __attribute__((noinline)) void hold_preempt_off(long us)
{
	preempt_disable();
	spin_us(us);
	preempt_enable();
}

static __attribute__((noinline)) void short_sections(void)
{
	unsigned long flags;

	local_irq_save(flags);
	spin_us(NOISE_US);
	local_irq_restore(flags);
	preempt_disable();
	spin_us(NOISE_US);
	preempt_enable();
}

static int noise(void *arg)
{
	(void)arg;
	while (!kthread_should_stop()) {
		short_sections();
		msleep(1);
	}
	return 0;
}

static int long_section(void *arg)
{
	const struct trace_opts *o = arg;

	msleep(20); /* let the noise come first */
	if (!strcmp(o->wl->name, "irqs-off"))
		hold_irqs_off(o->arg);
	else
		hold_preempt_off(o->arg);
	__atomic_store_n(&long_done, 1, __ATOMIC_RELEASE);
	while (!kthread_should_stop())
		msleep(1);
	return 0;
}

/* ---- the demo's ingredients ---- */

static int hog(void *arg)
{
	(void)arg;
	while (!kthread_should_stop()) {
		for (int i = 0; i < 64; i++) {
			spin_us(20);
			spin_lock(&trace_lock);
			shared_counter++;
			spin_unlock(&trace_lock);
		}
		cond_resched();
	}
	return 0;
}

static int cyclic(void *arg)
{
	(void)arg;
	while (!kthread_should_stop())
		usleep_range(1000, 1000);
	return 0;
}

static void net_rx_action(void)
{
	sink++;
}

static irqreturn_t trace_interrupt(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	raise_softirq(NET_RX_SOFTIRQ);
	return IRQ_HANDLED;
}

static struct task_struct *start(int (*fn)(void *), void *arg, const char *name,
				 bool fifo)
{
	struct task_struct *k = kthread_create(fn, arg, "%s", name);

	if (!k)
		return NULL;
	if (fifo)
		sched_set_fifo(k);
	wake_up_process(k);
	return k;
}

static void stop_all(struct task_struct **tasks, int n)
{
	for (int i = 0; i < n; i++)
		if (tasks[i])
			kthread_stop(tasks[i]);
}

/* ---- the workloads ---- */

static int run_sections(const struct trace_opts *o, int nr_cpus)
{
	struct task_struct *tasks[MAX_TASKS];
	int n = 0;

	long_done = 0;
	for (int i = 0; i < nr_cpus && n < MAX_TASKS - 1; i++)
		tasks[n++] = start(noise, NULL, "noise", false);
	tasks[n] = start(long_section, (void *)o, o->wl->name, false);
	while (tasks[n] && !__atomic_load_n(&long_done, __ATOMIC_ACQUIRE))
		usleep(1000);
	if (!tasks[n++]) {
		stop_all(tasks, n);
		return 1;
	}
	usleep(20000); /* and some noise after it */
	stop_all(tasks, n);
	return 0;
}

static int run_demo(const struct trace_opts *o, int nr_cpus)
{
	struct task_struct *tasks[MAX_TASKS];
	int n = 0;

	tasks[n++] = start(cyclic, NULL, "cyclic", true);
	for (int i = 0; i <= nr_cpus && n < MAX_TASKS; i++)
		tasks[n++] = start(hog, NULL, "hog", false);
	nanosleep(&(struct timespec){.tv_sec = o->arg / 1000,
				     .tv_nsec = o->arg % 1000 * 1000000L},
		  NULL);
	stop_all(tasks, n);
	return 0;
}

static const struct workload workloads[] = {
	{"irqs-off", 5000, 1000000, run_sections},
	{"preempt-off", 5000, 1000000, run_sections},
	{"demo", 1000, 60000, run_demo},
};

/* ---- running one ---- */

static int run_machine(const struct trace_opts *o)
{
	struct machine_config cfg = {
		.nr_cpus = o->cpus, .hz = 1000, .model = o->model};
	struct irq_source src = {.irq = TRACE_IRQ, .period_ns = IRQ_PERIOD_NS};
	int err = machine_boot(&cfg), ret = 1;

	if (err) {
		fprintf(stderr, "preempt: %s: machine_boot: %s\n", CMD,
			strerror(-err));
		return 1;
	}
	err = request_irq(TRACE_IRQ, trace_interrupt, 0, "trace-net", &src);
	if (!err) {
		if (!irq_source_start(&src))
			ret = o->wl->run(o, src.nr_cpus);
		irq_source_stop(&src);
		free_irq(TRACE_IRQ, &src);
	}
	machine_shutdown();
	return ret;
}

static int write_report(const struct trace_opts *o)
{
	FILE *out = o->output ? fopen(o->output, "w") : stdout;
	int err;

	if (!out)
		return cli_usage_error(CMD, "cannot write %s: %s", o->output,
				       strerror(errno));
	err = o->chrome ? pk_trace_print_chrome(out)
			: pk_trace_print_latency(out);
	if (o->output && fclose(out))
		err = -EIO;
	if (err == -ENODATA)
		fprintf(stderr, "preempt: %s: %s recorded no section\n", CMD,
			pk_tracer_str(o->tracer));
	else if (err)
		fprintf(stderr, "preempt: %s: writing the report: %s\n", CMD,
			strerror(-err));
	return err ? 1 : 0;
}

static int run_trace(const struct trace_opts *o)
{
	struct pk_trace_config cfg = {.tracer = o->tracer,
				      .buffer_events = o->buffer};
	int err, ret;

	open_softirq(NET_RX_SOFTIRQ, net_rx_action);
	err = pk_trace_start(&cfg);
	if (err) {
		fprintf(stderr, "preempt: %s: cannot start tracing: %s\n", CMD,
			strerror(-err));
		return 1;
	}
	ret = run_machine(o);
	pk_trace_stop();
	open_softirq(NET_RX_SOFTIRQ, NULL);
	return ret ? ret : write_report(o);
}

/* ---- options ---- */

static void usage(FILE *out)
{
	fprintf(out,
		"usage: preempt trace [--tracer NAME] [--format=latency|chrome]"
		" [-o FILE]\n"
		"                     [--cpus N] [--model M] [--buffer-size N]"
		" [--] WORKLOAD [ARG]\n\n"
		"  --tracer NAME    irqsoff, preemptoff, preemptirqsoff"
		" (default), nop\n"
		"  --format FMT     latency: ftrace's latency report of the"
		" longest section;\n"
		"                   chrome: every buffered event as Chrome"
		" trace-event JSON\n"
		"  -o FILE          write there instead of stdout\n"
		"  --cpus N         vCPUs (default 2)\n"
		"  --model M        none, voluntary, full (default), lazy, rt\n"
		"  --buffer-size N  events per CPU ring (default 16384)\n\n"
		"workloads:\n"
		"  irqs-off [US]     a task disables interrupts for US us"
		" (5000) amid 50 us noise\n"
		"  preempt-off [US]  the same with preemption\n"
		"  demo [MS]         hogs, a SCHED_FIFO task, interrupts"
		" and softirqs for MS ms (1000)\n\n"
		"The tracers need the debug build (CONFIG_DEBUG_PREEMPT,"
		" CONFIG_TRACE_IRQFLAGS).\n");
}

static const struct option long_opts[] = {
	{"tracer", required_argument, NULL, 't'},
	{"format", required_argument, NULL, 'f'},
	{"output", required_argument, NULL, 'o'},
	{"cpus", required_argument, NULL, 'c'},
	{"model", required_argument, NULL, 'm'},
	{"buffer-size", required_argument, NULL, 'b'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static bool parse_long(const char *s, long min, long max, long *val)
{
	char *end;

	errno = 0;
	*val = strtol(s, &end, 10);
	return !errno && end != s && !*end && *val >= min && *val <= max;
}

static int parse_opt(struct trace_opts *o, int c, const char *arg)
{
	long v;

	switch (c) {
	case 't':
		o->tracer = pk_tracer_parse(arg);
		return o->tracer < 0 ? cli_usage_error(CMD,
						       "unknown tracer "
						       "'%s'",
						       arg)
				     : 0;
	case 'f':
		if (strcmp(arg, "latency") && strcmp(arg, "chrome"))
			return cli_usage_error(CMD, "unknown format '%s'", arg);
		o->chrome = !strcmp(arg, "chrome");
		return 0;
	case 'o':
		o->output = arg;
		return 0;
	case 'c':
		if (!parse_long(arg, 1, PK_NR_CPUS, &v))
			return cli_usage_error(CMD, "bad --cpus '%s'", arg);
		o->cpus = (int)v;
		return 0;
	case 'm':
		o->model = preempt_model_parse(arg);
		return o->model < 0
			       ? cli_usage_error(CMD, "unknown model '%s'", arg)
			       : 0;
	case 'b':
		if (!parse_long(arg, 64, 1 << 24, &v))
			return cli_usage_error(CMD, "bad --buffer-size '%s'",
					       arg);
		o->buffer = (unsigned int)v;
		return 0;
	default:
		return cli_usage_error(CMD, "bad option (try --help)");
	}
}

static int parse_workload(struct trace_opts *o, int argc, char **argv)
{
	if (argc < 1)
		return cli_usage_error(CMD, "no workload (try --help)");
	for (size_t i = 0; i < sizeof(workloads) / sizeof(workloads[0]); i++)
		if (!strcmp(argv[0], workloads[i].name))
			o->wl = &workloads[i];
	if (!o->wl)
		return cli_usage_error(CMD, "unknown workload '%s'", argv[0]);
	o->arg = o->wl->def;
	if (argc > 2)
		return cli_usage_error(CMD, "too many arguments");
	if (argc == 2 && !parse_long(argv[1], 1, o->wl->max, &o->arg))
		return cli_usage_error(CMD, "bad %s argument '%s'", o->wl->name,
				       argv[1]);
	return 0;
}

/* The tracer must be able to see its sections in this build. */
static int check_build(const struct trace_opts *o)
{
	if (!CONFIG_DEBUG_PREEMPT && o->tracer != PK_TRACER_NOP)
		return cli_usage_error(CMD,
				       "%s needs the debug build "
				       "(CONFIG_DEBUG_PREEMPT)",
				       pk_tracer_str(o->tracer));
	if (!o->chrome && o->tracer == PK_TRACER_NOP)
		return cli_usage_error(CMD, "nop keeps no section: use "
					    "--format=chrome");
	return 0;
}

int cmd_trace(int argc, char **argv)
{
	struct trace_opts o = {.tracer = PK_TRACER_PREEMPTIRQSOFF,
			       .cpus = 2,
			       .model = PREEMPT_MODEL_FULL};
	int c, err;

	optind = 1;
	while ((c = getopt_long(argc, argv, "+t:f:o:h", long_opts, NULL)) !=
	       -1) {
		if (c == 'h') {
			usage(stdout);
			return 0;
		}
		err = parse_opt(&o, c, optarg);
		if (err)
			return err;
	}
	err = parse_workload(&o, argc - optind, argv + optind);
	if (!err)
		err = check_build(&o);
	return err ? err : run_trace(&o);
}
