// SPDX-License-Identifier: MIT
/*
 * bench_scale: the scaling tables of issue 19.
 *
 *   1. tasks: 1,000 / 10,000 / 100,000 tasks on 2 vCPUs, each yield()ing
 *      in turn: switches per second, and the memory each task costs
 *      (resident and mapped, from /proc/self/statm around their creation,
 *      16 KiB stacks);
 *   2. vCPUs: 1 to 32 vCPUs on the host's CPUs, two yielding tasks on
 *      each: switches per second, all vCPUs together;
 *   3. contended locks: one spinlock shared by one task on each of 1 to
 *      8 vCPUs (a counter increment inside), beside as many host threads
 *      on one pthread_mutex: acquisitions per second.
 *
 * Linked with the library's debug checks compiled out (bench/CMakeLists.txt).
 *
 * Usage: bench_scale [MS]  (MS: wall time per row of tables 2 and 3,
 * default 500).  Wall-clock figures on a shared machine: read them
 * against the load average in bench-facts.txt.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <preempt/kthread.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

#include "bench_util.h"

static int stop;
static long total_ops;
static int started, finished;

static void boot(int cpus, size_t stack)
{
	struct machine_config cfg = {.nr_cpus = cpus,
				     .hz = 1000,
				     .model = PREEMPT_MODEL_FULL,
				     .stack_size = stack};

	if (machine_boot(&cfg)) {
		fprintf(stderr, "bench_scale: machine_boot(%d vCPUs) failed\n",
			cpus);
		exit(1);
	}
}

/* Resident and mapped bytes of the process (/proc/self/statm). */
static void statm(double *rss, double *vm)
{
	long pages_vm = 0, pages_rss = 0;
	FILE *f = fopen("/proc/self/statm", "r");

	if (f) {
		if (fscanf(f, "%ld %ld", &pages_vm, &pages_rss) != 2)
			pages_vm = pages_rss = 0;
		fclose(f);
	}
	*vm = (double)pages_vm * (double)sysconf(_SC_PAGESIZE);
	*rss = (double)pages_rss * (double)sysconf(_SC_PAGESIZE);
}

static void wait_count(int *counter, int n)
{
	while (__atomic_load_n(counter, __ATOMIC_ACQUIRE) < n)
		usleep(1000);
}

/* ---- 1. many tasks ---- */

static int go;
static long rounds;

static int yielder(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		schedule_timeout_uninterruptible(1);
	for (long i = 0; i < rounds; i++)
		yield();
	__atomic_add_fetch(&total_ops, rounds, __ATOMIC_RELAXED);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return 0;
}

static void many_tasks(int n)
{
	double rss0, vm0, rss1, vm1, t0, t1;

	boot(2, 16384);
	started = finished = 0;
	total_ops = 0;
	go = 0;
	/* About two million switches in all, at least 20 per task. */
	rounds = 2000000 / n > 20 ? 2000000 / n : 20;
	statm(&rss0, &vm0);
	for (int i = 0; i < n; i++)
		wake_up_process(kthread_create(yielder, NULL, "y%d", i));
	wait_count(&started, n);
	statm(&rss1, &vm1);
	t0 = bench_now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	wait_count(&finished, n);
	t1 = bench_now_ns();
	machine_shutdown();
	printf("%8d tasks %10.0f switches/s %9.1f KiB resident %9.1f KiB "
	       "mapped per task\n",
	       n, (double)total_ops / ((t1 - t0) / 1e9),
	       (rss1 - rss0) / n / 1024, (vm1 - vm0) / n / 1024);
	fflush(stdout);
}

/* ---- 2. vCPUs ---- */

static int spin_yielder(void *arg)
{
	long n = 0;

	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	/* Counting starts with the clock, not as each task starts: the
	 * first of 32 vCPUs' tasks would yield alone for a long while. */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		schedule_timeout_uninterruptible(1);
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		yield();
		n++;
	}
	__atomic_add_fetch(&total_ops, n, __ATOMIC_RELAXED);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return 0;
}

static int (*worker_fn)(void *);

/* @per_cpu tasks of worker_fn on each of @cpus vCPUs for @ms: ops/s. */
static double run_tasks(int cpus, int per_cpu, long ms)
{
	struct task_struct *k[64];
	int n = cpus * per_cpu;
	double t0, t1;

	boot(cpus, 0);
	started = finished = 0;
	total_ops = 0;
	stop = 0;
	go = 0;
	for (int i = 0; i < n; i++) {
		k[i] = kthread_create(worker_fn, NULL, "w%d", i);
		kthread_bind(k[i], i % cpus);
		wake_up_process(k[i]);
	}
	wait_count(&started, n);
	t0 = bench_now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	usleep((useconds_t)ms * 1000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	wait_count(&finished, n);
	t1 = bench_now_ns();
	for (int i = 0; i < n; i++)
		kthread_stop(k[i]);
	machine_shutdown();
	return (double)total_ops / ((t1 - t0) / 1e9);
}

/* ---- 3. contended locks ---- */

static DEFINE_SPINLOCK(lock);
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static volatile long shared;

static int lock_worker(void *arg)
{
	long n = 0;

	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	/* Counted from go on: ops before it would run without contention. */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		spin_lock(&lock);
		shared++;
		spin_unlock(&lock);
		n++;
	}
	__atomic_add_fetch(&total_ops, n, __ATOMIC_RELAXED);
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return 0;
}

static void *mutex_worker(void *arg)
{
	long n = 0;

	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	/* Counted from go on: ops before it would run without contention. */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		pthread_mutex_lock(&mutex);
		shared++;
		pthread_mutex_unlock(&mutex);
		n++;
	}
	__atomic_add_fetch(&total_ops, n, __ATOMIC_RELAXED);
	return NULL;
}

/*
 * Two anchors on host threads for what fairness costs: a ticket lock
 * (first come, first served, as the kernel's queued spinlock: every
 * acquisition under contention moves the lock's cache line to the other
 * CPU) and a test-and-test-and-set lock (whoever gets there first: the
 * releasing CPU usually takes it back while the line is still its own, as
 * pthread_mutex lets it).
 */
static inline void relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

static struct {
	unsigned int next, owner;
} ticket __attribute__((aligned(64)));
static int tas __attribute__((aligned(64)));

static void *ticket_worker(void *arg)
{
	long n = 0;

	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	/* Counted from go on: ops before it would run without contention. */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		unsigned int me =
			__atomic_fetch_add(&ticket.next, 1, __ATOMIC_RELAXED);

		while (__atomic_load_n(&ticket.owner, __ATOMIC_ACQUIRE) != me)
			relax();
		shared++;
		__atomic_store_n(&ticket.owner, me + 1, __ATOMIC_RELEASE);
		n++;
	}
	__atomic_add_fetch(&total_ops, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *tas_worker(void *arg)
{
	long n = 0;

	(void)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_RELEASE);
	/* Counted from go on: ops before it would run without contention. */
	while (!__atomic_load_n(&go, __ATOMIC_ACQUIRE))
		;
	while (!__atomic_load_n(&stop, __ATOMIC_ACQUIRE)) {
		while (__atomic_exchange_n(&tas, 1, __ATOMIC_ACQUIRE))
			while (__atomic_load_n(&tas, __ATOMIC_RELAXED))
				relax();
		shared++;
		__atomic_store_n(&tas, 0, __ATOMIC_RELEASE);
		n++;
	}
	__atomic_add_fetch(&total_ops, n, __ATOMIC_RELAXED);
	return NULL;
}

static void *(*thread_fn)(void *) = mutex_worker;

static double run_threads(int n, long ms)
{
	pthread_t t[8];
	double t0, t1;

	started = 0;
	total_ops = 0;
	stop = 0;
	go = 0;
	for (int i = 0; i < n; i++)
		pthread_create(&t[i], NULL, thread_fn, NULL);
	wait_count(&started, n);
	t0 = bench_now_ns();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	usleep((useconds_t)ms * 1000);
	__atomic_store_n(&stop, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	t1 = bench_now_ns();
	return (double)total_ops / ((t1 - t0) / 1e9);
}

int main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 500;
	static const int tasks[] = {1000, 10000, 100000};
	static const int cpus[] = {1, 2, 4, 8, 16, 32};
	double base = 0, two = 0, two_ops = 0, eight = 0, ticket2, tas2;

	if (ms <= 0) {
		fprintf(stderr, "usage: bench_scale [MS]\n");
		return 2;
	}
	printf("host CPUs: %ld; %ld ms per row of tables 2 and 3\n\n",
	       sysconf(_SC_NPROCESSORS_ONLN), ms);
	printf("-- 1. tasks on 2 vCPUs, each yield()ing (16 KiB stacks) --\n");
	for (unsigned i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++)
		many_tasks(tasks[i]);

	printf("\n-- 2. vCPUs, two yield()ing tasks on each --\n");
	worker_fn = spin_yielder;
	for (unsigned i = 0; i < sizeof(cpus) / sizeof(cpus[0]); i++) {
		double r = run_tasks(cpus[i], 2, ms);

		if (i == 0)
			base = r;
		printf("%3d vCPUs %12.0f switches/s  %5.2fx 1 vCPU\n", cpus[i],
		       r, base > 0 ? r / base : 0);
		fflush(stdout);
	}

	printf("\n-- 3. contended: one lock, one worker per vCPU or thread "
	       "--\n");
	printf("%-9s %16s %16s %8s\n", "workers", "spin_lock ops/s",
	       "pthread ops/s", "ratio");
	worker_fn = lock_worker;
	for (int n = 1; n <= 8; n *= 2) {
		double s = run_tasks(n, 1, ms), m = run_threads(n, ms);

		if (n == 2) {
			two = s / m;
			two_ops = s;
		}
		if (n == 8)
			eight = s;
		if (n == 1)
			base = s;
		printf("%-9d %16.0f %16.0f %7.2fx\n", n, s, m,
		       m > 0 ? s / m : 0);
		fflush(stdout);
	}
	thread_fn = ticket_worker;
	ticket2 = run_threads(2, ms);
	thread_fn = tas_worker;
	tas2 = run_threads(2, ms);
	thread_fn = mutex_worker;
	printf("\nanchors, 2 host threads: ticket lock (fair) %.0f ops/s, "
	       "test-and-test-and-set (unfair) %.0f ops/s\n",
	       ticket2, tas2);
	printf("@verdict target=6; what=contended spin_lock throughput, 2 "
	       "vCPUs (scaling table); ours=%.2fx pthread_mutex; "
	       "anchor=pthread_mutex, 2 threads; ratio=%.2fx; verdict=%s\n",
	       two, two, two >= 1.0 ? "met" : "missed");
	printf("@verdict target=6; what=contended spin_lock, 2 vCPUs, vs a "
	       "fair "
	       "ticket lock on 2 host threads (the FIFO floor); ours=%.0f "
	       "ops/s; anchor=%.0f ops/s; ratio=%.2fx; verdict=%s\n",
	       two_ops, ticket2, ticket2 > 0 ? two_ops / ticket2 : 0,
	       ticket2 > 0 && two_ops / ticket2 >= 0.9 ? "at the floor"
						       : "below the floor");
	printf("@verdict target=6; what=no collapse: 8 vCPUs on the host's "
	       "CPUs keep the 2-vCPU throughput (scaling table); ours=%.0f "
	       "ops/s at 8; anchor=%.0f ops/s at 2; ratio=%.2fx; verdict=%s\n",
	       eight, two_ops, two_ops > 0 ? eight / two_ops : 0,
	       two_ops > 0 && eight >= two_ops ? "met" : "missed");
	return 0;
}
