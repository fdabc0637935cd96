// SPDX-License-Identifier: MIT
/*
 * bench_locks: what an uncontended lock round trip costs (issue 5).
 *
 *   bench_locks [--ms N] [--reps N]   timings, two tables:
 *     1. on a plain thread, our locks beside glibc's pthread_spin_lock and
 *        pthread_mutex_lock, every case in each of the interleaved rounds;
 *     2. inside a task of a booted machine, under full and under rt, the
 *        locks whose implementation rt changes (spinlock_t becomes an
 *        rt_mutex, bottom halves take the CPU's bh lock).
 *   bench_locks --callgrind N         table 1's loops, N iterations each,
 *                                     for callgrind to count instructions.
 *
 * Each loop is a noinline function named bench_lk_<case>, so callgrind
 * charges it by name; a loop body is one lock and one unlock.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <preempt/bottom_half.h>
#include <preempt/mutex.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "bench_util.h"

static DEFINE_RAW_SPINLOCK(raw);
/* The same lock the validator does not track: the difference between the
 * two rows is lockdep's cost per lock/unlock pair (debug build). */
static raw_spinlock_t raw_untracked = __PK_RAW_SPIN_LOCK_INIT(NULL, 0);
static DEFINE_SPINLOCK(spin);
static DEFINE_RWLOCK(rw);
static DEFINE_MUTEX(mtx);
static pthread_spinlock_t pspin;
static pthread_mutex_t pmutex = PTHREAD_MUTEX_INITIALIZER;

#define LOOP(name, body)                                                       \
	static __attribute__((noinline)) void bench_lk_##name(long n)          \
	{                                                                      \
		for (long i = 0; i < n; i++) {                                 \
			body;                                                  \
			barrier();                                             \
		}                                                              \
	}

LOOP(empty, )
LOOP(pthread_spin, pthread_spin_lock(&pspin); pthread_spin_unlock(&pspin))
LOOP(pthread_mutex, pthread_mutex_lock(&pmutex); pthread_mutex_unlock(&pmutex))
LOOP(raw_spin, raw_spin_lock(&raw); raw_spin_unlock(&raw))
LOOP(raw_untracked, raw_spin_lock(&raw_untracked);
     raw_spin_unlock(&raw_untracked))
LOOP(spin, spin_lock(&spin); spin_unlock(&spin))
LOOP(spin_irqsave, unsigned long flags; spin_lock_irqsave(&spin, flags);
     spin_unlock_irqrestore(&spin, flags))
LOOP(spin_bh, spin_lock_bh(&spin); spin_unlock_bh(&spin))
LOOP(local_bh, local_bh_disable(); local_bh_enable())
LOOP(read_lock, read_lock(&rw); read_unlock(&rw))
LOOP(mutex, mutex_lock(&mtx); mutex_unlock(&mtx))

struct lk_case {
	const char *name;
	void (*loop)(long n);
	bool in_task; /* also in table 2 */
};

static const struct lk_case cases[] = {
	{"empty loop (control)", bench_lk_empty, true},
	{"pthread_spin_lock+unlock", bench_lk_pthread_spin, false},
	{"pthread_mutex_lock+unlock", bench_lk_pthread_mutex, false},
	{"raw_spin_lock+unlock", bench_lk_raw_spin, true},
	{"raw_spin_lock+unlock, no lockdep", bench_lk_raw_untracked, true},
	{"spin_lock+unlock", bench_lk_spin, true},
	{"spin_lock_irqsave+irqrestore", bench_lk_spin_irqsave, true},
	{"spin_lock_bh+unlock_bh", bench_lk_spin_bh, true},
	{"local_bh_disable+enable", bench_lk_local_bh, true},
	{"read_lock+unlock", bench_lk_read_lock, true},
	{"mutex_lock+unlock", bench_lk_mutex, true},
};

#define NR_CASES (sizeof(cases) / sizeof(cases[0]))

static double loop_ns(const void *c, long iters)
{
	double t0 = bench_now_ns();

	((const struct lk_case *)c)->loop(iters);
	return bench_now_ns() - t0;
}

struct run {
	long ms;
	int reps;
	bool task_cases_only;
	double median[NR_CASES], lo[NR_CASES], hi[NR_CASES];
};

/* Every case once per round, so drift hits them alike. */
static void measure(struct run *r)
{
	static double ns[NR_CASES][BENCH_MAX_REPS];
	long iters[NR_CASES];

	for (size_t c = 0; c < NR_CASES; c++)
		if (!r->task_cases_only || cases[c].in_task)
			iters[c] = bench_calibrate(loop_ns, &cases[c], 1000,
						   1000, r->ms * 1000000.0);
	for (int rep = 0; rep < r->reps; rep++)
		for (size_t c = 0; c < NR_CASES; c++)
			if (!r->task_cases_only || cases[c].in_task)
				ns[c][rep] = loop_ns(&cases[c], iters[c]) /
					     (double)iters[c];
	for (size_t c = 0; c < NR_CASES; c++) {
		if (r->task_cases_only && !cases[c].in_task)
			continue;
		r->median[c] = bench_median(ns[c], r->reps);
		bench_range(ns[c], r->reps, &r->lo[c], &r->hi[c]);
	}
}

static int measure_task(void *arg)
{
	measure(arg);
	return 0;
}

/* Table 2's column for @model: measured inside a task on one vCPU. */
static int measure_in_machine(struct run *r, enum preempt_model model)
{
	struct machine_config cfg = {.nr_cpus = 1, .hz = 1000, .model = model};
	int err = machine_boot(&cfg);

	if (err) {
		fprintf(stderr, "bench_locks: machine_boot: %s\n",
			strerror(-err));
		return 1;
	}
	r->task_cases_only = true;
	kthread_stop(kthread_run(measure_task, r, "bench"));
	machine_shutdown();
	return 0;
}

static void print_host(const struct run *r)
{
	double pthread_spin = r->median[1], pthread_mutex = r->median[2];

	printf("-- 1. uncontended, on a plain thread (ns per lock+unlock) "
	       "--\n");
	printf("%-30s %8s %8s %8s %10s %10s\n", "case", "median", "min", "max",
	       "/pspin", "/pmutex");
	for (size_t c = 0; c < NR_CASES; c++)
		printf("%-30s %8.2f %8.2f %8.2f %9.2fx %9.2fx\n", cases[c].name,
		       r->median[c], r->lo[c], r->hi[c],
		       r->median[c] / pthread_spin,
		       r->median[c] / pthread_mutex);
}

static void print_models(const struct run *full, const struct run *rt)
{
	printf("\n-- 2. uncontended, in a task on one vCPU (ns per "
	       "lock+unlock) --\n");
	printf("%-30s %10s %10s %8s\n", "case", "full", "rt", "rt/full");
	for (size_t c = 0; c < NR_CASES; c++)
		if (cases[c].in_task)
			printf("%-30s %10.2f %10.2f %7.2fx\n", cases[c].name,
			       full->median[c], rt->median[c],
			       rt->median[c] / full->median[c]);
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_locks [--ms N] [--reps N] | "
			"--callgrind N\n");
	return 2;
}

/*
 * glibc skips the atomics of a pthread mutex while the process has one
 * thread; a lock is only worth timing where there could be a contender.
 */
static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	static struct run host, full, rt;
	pthread_t idle;
	long ms = 100;
	int reps = 5;

	pthread_spin_init(&pspin, PTHREAD_PROCESS_PRIVATE);
	if (pthread_create(&idle, NULL, idle_thread, NULL))
		return 1;
	if (argc == 3 && !strcmp(argv[1], "--callgrind")) {
		long n =
			bench_parse_long("bench_locks", argv[2], "--callgrind");

		for (size_t c = 0; c < NR_CASES; c++)
			cases[c].loop(n);
		return 0;
	}
	if (bench_timing_args("bench_locks", argc, argv, &ms, &reps) < 0)
		return usage();
	host = (struct run){.ms = ms, .reps = reps};
	full = rt = host;
	measure(&host);
	print_host(&host);
	if (measure_in_machine(&full, PREEMPT_MODEL_FULL) ||
	    measure_in_machine(&rt, PREEMPT_MODEL_RT))
		return 1;
	print_models(&full, &rt);
	return 0;
}
