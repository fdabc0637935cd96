// SPDX-License-Identifier: MIT
/*
 * `preempt torture`: a long randomized run of the whole machine, the
 * hardening issue's acceptance test.  Boot after boot (rt and not, in
 * turn), for as long as asked:
 *
 *   - tasks in malloc/snprintf/free loops that check every block they
 *     wrote (heap corruption, the safe-point rule);
 *   - tasks and an interrupt handler adding to counters under an irq-safe
 *     spinlock, tasks under a mutex: the sums must match;
 *   - an interrupt storm from a host thread on every vCPU in turn, whose
 *     handler also schedules a tasklet;
 *   - host threads (not vCPUs) and tasks handing completions back and
 *     forth: each side waits for the other, so a lost wake-up hangs;
 *   - sleepers (msleep, wait_event_timeout) and, on non-rt boots, a task
 *     switching the model among none, voluntary, full and lazy.
 *
 * Every boot ends with kthread_stop() of every task, which must return 0,
 * and the counts checked.  A report (splat) counts as a failure.  The seed
 * is printed; the same seed gives the same choices, not the same
 * interleaving (the host schedules the vCPU threads).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <preempt/debug.h>
#include <preempt/delay.h>
#include <preempt/interrupt.h>
#include <preempt/mutex.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/wait.h>

#include "cli.h"
#include "irqsource.h"

#define TORTURE_IRQ 11
#define ROUND_SECONDS 20
#define NR_LIBC 4
#define NR_LOCKERS 4
#define NR_PAIRS 2
#define NR_SLEEPERS 2

struct options {
	double seconds;
	int cpus;
	unsigned long seed;
};

static DEFINE_SPINLOCK(irq_safe_lock);
static DEFINE_MUTEX(task_mutex);
static DECLARE_WAIT_QUEUE_HEAD(sleepers_wq);

static struct round {
	unsigned long spin_sum, mutex_sum; /* under their locks */
	unsigned long irq_adds, tasklet_runs;
	unsigned long locker_spin[NR_LOCKERS], locker_mutex[NR_LOCKERS];
	struct completion to_task[NR_PAIRS], to_host[NR_PAIRS];
	unsigned long host_rounds[NR_PAIRS], task_rounds[NR_PAIRS];
	int stop_hosts;
	unsigned long model_switches;
	struct tasklet_struct tasklet;
} r;

static unsigned long reports;

static bool count_report(const struct pk_report *report, void *arg)
{
	(void)report;
	(void)arg;
	__atomic_add_fetch(&reports, 1, __ATOMIC_RELAXED);
	return false; /* printed as well */
}

static unsigned long next_rand(unsigned long *s)
{
	/* xorshift64: the choices depend on the seed alone. */
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void torture_tasklet(unsigned long data)
{
	(void)data;
	__atomic_add_fetch(&r.tasklet_runs, 1, __ATOMIC_RELAXED);
}

static irqreturn_t torture_interrupt(int irq, void *dev)
{
	(void)irq;
	(void)dev;
	spin_lock(&irq_safe_lock);
	r.spin_sum++;
	r.irq_adds++;
	spin_unlock(&irq_safe_lock);
	tasklet_schedule(&r.tasklet);
	return IRQ_HANDLED;
}

static volatile unsigned long sink;

static int libc_task(void *arg)
{
	unsigned long seed = (unsigned long)arg;
	char line[160];

	while (!kthread_should_stop()) {
		size_t size = sizeof(line) + next_rand(&seed) % 16384;
		char *p = malloc(size);
		int n;

		if (!p)
			return -ENOMEM;
		n = snprintf(line, sizeof(line), "%s %lu %zu", current->comm,
			     seed, size);
		memcpy(p, line, (size_t)n + 1);
		for (int i = 0; i < 1000 + (int)(seed % 2000); i++)
			sink += (unsigned long)p[i % n];
		if (memcmp(p, line, (size_t)n + 1))
			return -EFAULT; /* someone else wrote our block */
		free(p);
		cond_resched(); /* kernel-style: none and voluntary need it */
	}
	return 0;
}

static int locker_task(void *arg)
{
	long id = (long)arg;
	unsigned long seed = (unsigned long)id * 2654435761UL + 1;

	while (!kthread_should_stop()) {
		unsigned long flags;

		if (next_rand(&seed) & 1) {
			spin_lock_irqsave(&irq_safe_lock, flags);
			r.spin_sum++;
			spin_unlock_irqrestore(&irq_safe_lock, flags);
			r.locker_spin[id]++;
		} else {
			mutex_lock(&task_mutex);
			r.mutex_sum++;
			if (next_rand(&seed) % 64 == 0)
				msleep(1); /* sleep holding it: waiters queue */
			mutex_unlock(&task_mutex);
			r.locker_mutex[id]++;
		}
		if (next_rand(&seed) % 256 == 0)
			cond_resched();
	}
	return 0;
}

/* The task half of a host-thread ping-pong. */
static int pair_task(void *arg)
{
	long i = (long)arg;

	while (!kthread_should_stop()) {
		if (!wait_for_completion_timeout(&r.to_task[i],
						 msecs_to_jiffies(100)))
			continue; /* the host side may have stopped */
		r.task_rounds[i]++;
		complete(&r.to_host[i]);
	}
	return 0;
}

/* The host half: a plain thread, no vCPU, waiting on and waking a task. */
static void *pair_host(void *arg)
{
	long i = (long)arg;

	while (!__atomic_load_n(&r.stop_hosts, __ATOMIC_ACQUIRE)) {
		complete(&r.to_task[i]);
		wait_for_completion(&r.to_host[i]);
		r.host_rounds[i]++;
	}
	return NULL;
}

static int sleeper_task(void *arg)
{
	unsigned long seed = (unsigned long)arg;

	while (!kthread_should_stop()) {
		if (next_rand(&seed) & 1)
			msleep((unsigned int)(next_rand(&seed) % 3));
		else
			wait_event_timeout(sleepers_wq, kthread_should_stop(),
					   1 + next_rand(&seed) % 3);
	}
	return 0;
}

static int model_task(void *arg)
{
	unsigned long seed = (unsigned long)arg;

	while (!kthread_should_stop()) {
		msleep(20 + (unsigned int)(next_rand(&seed) % 200));
		if (!preempt_model_set((enum preempt_model)(next_rand(&seed) %
							    PREEMPT_MODEL_RT)))
			r.model_switches++;
	}
	return 0;
}

static struct task_struct *spawn(int (*fn)(void *), long arg, const char *name,
				 long i)
{
	return kthread_run(fn, (void *)arg, "%s/%ld", name, i);
}

static int check(bool ok, const char *what, int *failed)
{
	if (!ok) {
		printf("  FAILED: %s\n", what);
		*failed = 1;
	}
	return ok;
}

/* The whole run's place, for the status line on a terminal. */
static struct {
	int round;
	double done, total; /* seconds */
} at;

/* @seconds of the workload, the status line redrawn meanwhile. */
static void wait_round(double seconds)
{
	struct timespec t0, t;
	double s = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (s < seconds) {
		cli_progress("torture: %.0f/%.0f s, round %d, %lu irqs, "
			     "%lu reports",
			     at.done + s, at.total, at.round,
			     __atomic_load_n(&r.irq_adds, __ATOMIC_RELAXED),
			     __atomic_load_n(&reports, __ATOMIC_RELAXED));
		usleep((useconds_t)(seconds - s < 0.25 ? (seconds - s) * 1e6
						       : 250000));
		clock_gettime(CLOCK_MONOTONIC, &t);
		s = (double)(t.tv_sec - t0.tv_sec) +
		    (double)(t.tv_nsec - t0.tv_nsec) / 1e9;
	}
	cli_progress_clear();
}

/* One boot: the workload for @seconds, then every check. */
static int run_round(const struct options *o, bool rt, double seconds,
		     unsigned long *seed)
{
	struct machine_config cfg = {.nr_cpus = o->cpus,
				     .hz = 1000,
				     .model = rt ? PREEMPT_MODEL_RT
						 : PREEMPT_MODEL_FULL};
	struct irq_source src = {
		.irq = TORTURE_IRQ, .period_ns = 20000, .round_robin = true};
	struct task_struct *t[64];
	pthread_t hosts[NR_PAIRS];
	unsigned long spin_expected = 0, mutex_expected = 0;
	int n = 0, failed = 0, err;
	unsigned long before = reports;

	memset(&r, 0, sizeof(r));
	tasklet_init(&r.tasklet, torture_tasklet, 0);
	for (int i = 0; i < NR_PAIRS; i++) {
		init_completion(&r.to_task[i]);
		init_completion(&r.to_host[i]);
	}
	err = machine_boot(&cfg);
	if (err) {
		printf("  FAILED: machine_boot: %s\n", strerror(-err));
		return 1;
	}
	request_irq(TORTURE_IRQ, torture_interrupt, 0, "torture", &r);
	for (long i = 0; i < NR_LIBC; i++)
		t[n++] = spawn(libc_task, (long)next_rand(seed), "libc", i);
	for (long i = 0; i < NR_LOCKERS; i++)
		t[n++] = spawn(locker_task, i, "locker", i);
	for (long i = 0; i < NR_PAIRS; i++)
		t[n++] = spawn(pair_task, i, "pair", i);
	for (long i = 0; i < NR_SLEEPERS; i++)
		t[n++] = spawn(sleeper_task, (long)next_rand(seed), "sleeper",
			       i);
	if (!rt)
		t[n++] = spawn(model_task, (long)next_rand(seed), "model", 0);
	for (long i = 0; i < NR_PAIRS; i++)
		pthread_create(&hosts[i], NULL, pair_host, (void *)i);
	irq_source_start(&src);

	wait_round(seconds);

	irq_source_stop(&src);
	__atomic_store_n(&r.stop_hosts, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < NR_PAIRS; i++) {
		complete(&r.to_host[i]); /* in case it waits for a stopped task
					  */
		pthread_join(hosts[i], NULL);
	}
	for (int i = 0; i < n; i++) {
		int code = kthread_stop(t[i]);
		char what[64];

		snprintf(what, sizeof(what), "task %d exited with %d", i, code);
		check(code == 0, what, &failed);
	}
	free_irq(TORTURE_IRQ, &r);
	tasklet_kill(&r.tasklet);
	machine_shutdown();
	for (int i = 0; i < NR_LOCKERS; i++) {
		spin_expected += r.locker_spin[i];
		mutex_expected += r.locker_mutex[i];
	}
	check(r.spin_sum == spin_expected + r.irq_adds,
	      "irq-safe spinlock sum (tasks + handler)", &failed);
	check(r.mutex_sum == mutex_expected, "mutex sum", &failed);
	for (int i = 0; i < NR_PAIRS; i++)
		check(r.task_rounds[i] >= r.host_rounds[i] &&
			      r.task_rounds[i] <= r.host_rounds[i] + 1,
		      "host/task completion ping-pong", &failed);
	check(reports == before, "no reports", &failed);
	printf("  %s: %lu irqs (%lu tasklets), %lu spin + %lu mutex, %lu "
	       "ping-pongs, %lu model switches: %s\n",
	       rt ? "rt  " : "dyn ", r.irq_adds, r.tasklet_runs, spin_expected,
	       mutex_expected, r.host_rounds[0] + r.host_rounds[1],
	       r.model_switches, failed ? "FAILED" : "ok");
	return failed;
}

static void usage(FILE *out)
{
	fprintf(out,
		"usage: preempt torture [--seconds N] [--cpus N] [--seed S]\n"
		"\n"
		"Boots the machine again and again (rt and dynamic models in "
		"turn,\n%d s each) under interrupt storms, model switches, "
		"libc-heavy\ntasks, lock users and host threads waking tasks; "
		"checks every count\nafter each boot. Exit 0 when all held, "
		"1 otherwise.\n",
		ROUND_SECONDS);
}

static int parse_number(const char *opt, const char *v, double lo, double hi,
			double *out)
{
	char *end;

	errno = 0;
	*out = v ? strtod(v, &end) : 0;
	if (!v || errno || *end || !(*out >= lo) || *out > hi)
		return cli_usage_error("torture", "%s wants %g..%g, not '%s'",
				       opt, lo, hi, v ? v : "");
	return 0;
}

static int parse(int argc, char **argv, struct options *o)
{
	for (int i = 1; i < argc; i++) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;
		double x;
		int err;

		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return -1;
		}
		if (!strcmp(argv[i], "--seconds"))
			err = parse_number(argv[i], v, 1, 86400, &o->seconds);
		else if (!strcmp(argv[i], "--cpus")) {
			err = parse_number(argv[i], v, 1, PK_NR_CPUS, &x);
			o->cpus = (int)x;
		} else if (!strcmp(argv[i], "--seed")) {
			err = parse_number(argv[i], v, 1, 1e18, &x);
			o->seed = (unsigned long)x;
		} else {
			return cli_usage_error("torture", "unknown option '%s'",
					       argv[i]);
		}
		if (err)
			return err;
		i++;
	}
	return 0;
}

int cmd_torture(int argc, char **argv)
{
	struct options o = {.seconds = 60, .cpus = 2};
	double left;
	int err, failed = 0, round = 0;
	unsigned long seed;

	err = parse(argc, argv, &o);
	if (err)
		return err < 0 ? 0 : err;
	if (!o.seed)
		o.seed = (unsigned long)time(NULL);
	seed = o.seed;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("preempt torture: %.0f s on %d vCPUs, seed %lu\n", o.seconds,
	       o.cpus, o.seed);
	pk_set_report_hook(count_report, NULL);
	for (left = o.seconds; left > 0 && !failed; left -= ROUND_SECONDS) {
		double s = left < ROUND_SECONDS ? left : ROUND_SECONDS;

		printf("round %d (%.0f s):\n", ++round, s);
		at.round = round;
		at.done = o.seconds - left;
		at.total = o.seconds;
		failed = run_round(&o, round % 2 == 0, s, &seed);
	}
	pk_set_report_hook(NULL, NULL);
	printf("%s after %d rounds, %lu reports (reproduce with --seed %lu)\n",
	       failed ? "FAILED" : "passed", round, reports, o.seed);
	return failed;
}
