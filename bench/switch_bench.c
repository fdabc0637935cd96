// SPDX-License-Identifier: MIT
/*
 * bench_switch: the port layer's context switch beside the two ways user
 * space kernels usually switch tasks, in one run:
 *
 *   pk_context_switch   two contexts on one thread, ping-pong
 *   swapcontext         the same with glibc's ucontext (a signal-mask
 *                       syscall per switch)
 *   Boost.Context       a boost::context::fiber and its caller (when
 *                       libboost-context-dev was found at build time)
 *   condvar hand-off    two threads passing a turn with a mutex and
 *                       condition variables, the way FreeRTOS' POSIX port
 *                       and Zephyr's native_sim run one task at a time;
 *                       both threads on one CPU, then on two
 *
 *   bench_switch [--ms N] [--reps N]   the table (default 100 ms, 5 reps)
 *   bench_switch --callgrind N CASE    N round trips of CASE (pk or
 *                                      ucontext) and nothing else, for
 *                                      valgrind: switch_run.sh subtracts
 *                                      a run of N from one of 2N
 *
 * Every figure is per switch (per hand-off): a round trip is two. Each
 * case is calibrated to about --ms, the cases run once per round, --reps
 * rounds, and the median is reported, so drift hits every case alike.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include "../src/port/switch.h"
#include "bench_util.h"

#define TASK_STACK (64 * 1024)

/* --- pk_context_switch --------------------------------------------------- */

static struct pk_context pk_main, pk_task;
static struct pk_stack pk_stack;

static void pk_partner(void *arg)
{
	(void)arg;
	for (;;)
		pk_context_switch(&pk_task, &pk_main);
}

/* Out of line, so that callgrind and perf see the loop by name. */
static void __attribute__((noinline)) bench_pk_switch(long n)
{
	for (long i = 0; i < n; i++)
		pk_context_switch(&pk_main, &pk_task);
}

/*
 * The same through a shared schedule(), as in a scheduler: every switch
 * happens at one call site, three frames down, and returns up them. The
 * "run queue" is a variable, so the compiler cannot specialise schedule()
 * per caller and give each side a call site of its own.
 */
static struct pk_context sched_main, sched_task;
static struct pk_stack sched_stack;
static struct pk_context *sched_curr = &sched_main;

static void __attribute__((noinline))
context_switch(struct pk_context *prev, struct pk_context *next)
{
	pk_context_switch(prev, next);
	__asm__ __volatile__(""); /* a real return, not a tail call */
}

static void __attribute__((noinline)) __schedule(void)
{
	struct pk_context *prev = sched_curr;
	struct pk_context *next =
		prev == &sched_main ? &sched_task : &sched_main;

	sched_curr = next;
	context_switch(prev, next);
	__asm__ __volatile__("");
}

static void __attribute__((noinline)) schedule(void)
{
	__schedule();
	__asm__ __volatile__("");
}

static void sched_partner(void *arg)
{
	(void)arg;
	for (;;)
		schedule();
}

static void __attribute__((noinline)) bench_pk_schedule(long n)
{
	for (long i = 0; i < n; i++)
		schedule();
}

/* --- swapcontext --------------------------------------------------------- */

static ucontext_t uc_main, uc_task;
static struct pk_stack uc_stack;

static void uc_partner(void)
{
	for (;;)
		swapcontext(&uc_task, &uc_main);
}

static void __attribute__((noinline)) bench_swapcontext(long n)
{
	for (long i = 0; i < n; i++)
		swapcontext(&uc_main, &uc_task);
}

/* --- condvar hand-off ---------------------------------------------------- */

struct handoff {
	pthread_mutex_t lock;
	pthread_cond_t wake[2];
	int turn;	 /* whose turn: 0 the caller, 1 the partner, -1 stop */
	int partner_cpu; /* -1: same CPU as the caller */
};

static struct handoff ho = {
	.lock = PTHREAD_MUTEX_INITIALIZER,
	.wake = {PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER},
};

static void *handoff_partner(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&ho.lock);
	for (;;) {
		while (ho.turn == 0)
			pthread_cond_wait(&ho.wake[1], &ho.lock);
		if (ho.turn < 0)
			break;
		ho.turn = 0;
		pthread_cond_signal(&ho.wake[0]);
	}
	pthread_mutex_unlock(&ho.lock);
	return NULL;
}

static void handoff_run(long n)
{
	pthread_t t;

	ho.turn = 0;
	if (pthread_create(&t, NULL, handoff_partner, NULL)) {
		perror("bench_switch: pthread_create");
		exit(1);
	}
	if (ho.partner_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(ho.partner_cpu, &set);
		pthread_setaffinity_np(t, sizeof(set), &set);
	}
	pthread_mutex_lock(&ho.lock);
	for (long i = 0; i < n; i++) {
		ho.turn = 1;
		pthread_cond_signal(&ho.wake[1]);
		while (ho.turn == 1)
			pthread_cond_wait(&ho.wake[0], &ho.lock);
	}
	ho.turn = -1;
	pthread_cond_signal(&ho.wake[1]);
	pthread_mutex_unlock(&ho.lock);
	pthread_join(t, NULL);
}

static int other_cpu = -1; /* a second CPU we may run on, if any */

static void __attribute__((noinline)) bench_handoff_1cpu(long n)
{
	ho.partner_cpu = -1;
	handoff_run(n);
}

static void __attribute__((noinline)) bench_handoff_2cpu(long n)
{
	ho.partner_cpu = other_cpu;
	handoff_run(n);
}

/* --- Boost.Context (bench/boost_switch.cpp) ------------------------------ */

#if BENCH_HAVE_BOOST
void bench_boost_fiber(long round_trips);
#endif

/* --- the table ----------------------------------------------------------- */

struct bench_case {
	const char *name;
	const char *key; /* of its @value line, and its --callgrind name */
	void (*fn)(long round_trips);
	long iters;
	double ns[BENCH_MAX_REPS]; /* per switch */
	double median;
};

/* The 2-CPU hand-off stays last: it is left out on one CPU. */
static struct bench_case cases[] = {
	{.name = "pk_context_switch", .key = "pk", .fn = bench_pk_switch},
	{.name = "pk, 3 frames down",
	 .key = "schedule",
	 .fn = bench_pk_schedule},
	{.name = "swapcontext", .key = "ucontext", .fn = bench_swapcontext},
#if BENCH_HAVE_BOOST
	{.name = "Boost.Context fiber",
	 .key = "boost",
	 .fn = bench_boost_fiber},
#endif
	{.name = "condvar hand-off, 1 CPU",
	 .key = "condvar1",
	 .fn = bench_handoff_1cpu},
	{.name = "condvar hand-off, 2 CPUs",
	 .key = "condvar2",
	 .fn = bench_handoff_2cpu},
};
#define NR_CASES (int)(sizeof(cases) / sizeof(cases[0]))

static double per_switch_ns(const struct bench_case *c, long iters)
{
	double start = bench_now_ns();

	c->fn(iters);
	return (bench_now_ns() - start) / (2.0 * (double)iters);
}

/* For bench_calibrate(): the time @iters round trips take. */
static double round_trips_ns(const void *c, long iters)
{
	return per_switch_ns(c, iters) * 2.0 * (double)iters;
}

/* Pin to the CPU we are on; remember another one for the 2-CPU case. */
static const char *pin(void)
{
	static char where[64];
	cpu_set_t allowed, set;
	int cpu = sched_getcpu();

	if (cpu < 0 || sched_getaffinity(0, sizeof(allowed), &allowed))
		return "not pinned";
	for (int c = 0; c < CPU_SETSIZE && other_cpu < 0; c++)
		if (c != cpu && CPU_ISSET(c, &allowed))
			other_cpu = c;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		return "not pinned";
	if (other_cpu >= 0)
		snprintf(where, sizeof(where), "pinned to CPU %d (partner %d)",
			 cpu, other_cpu);
	else
		snprintf(where, sizeof(where), "pinned to CPU %d", cpu);
	return where;
}

static const char *port_name(void)
{
	if (PK_PORT_USE_UCONTEXT)
		return PK_PORT_ASAN ? "ucontext, ASan" : "ucontext";
#if defined(__x86_64__)
	return PK_PORT_ASAN ? "x86-64 assembly, ASan" : "x86-64 assembly";
#else
	return PK_PORT_ASAN ? "arm64 assembly, ASan" : "arm64 assembly";
#endif
}

static void goal(const char *what, int met)
{
	printf("  %-44s %s\n", what, met ? "met" : "NOT met");
}

static int timing(long ms, int reps)
{
	const char *pinned = pin();
	int n = other_cpu >= 0 ? NR_CASES : NR_CASES - 1;
	double pk, uc, h1, h2 = 0;

	for (int i = 0; i < n; i++)
		cases[i].iters = bench_calibrate(round_trips_ns, &cases[i], 64,
						 64, (double)ms * 1e6);
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < n; i++)
			cases[i].ns[r] =
				per_switch_ns(&cases[i], cases[i].iters);
	for (int i = 0; i < n; i++)
		cases[i].median = bench_median(cases[i].ns, reps);

	printf("ns per switch (per hand-off): median of %d rounds, ~%ld ms "
	       "per case per round, %s; port: %s\n\n",
	       reps, ms, pinned, port_name());
	printf("%-26s %10s %10s %10s %12s\n", "case", "ns/switch", "min", "max",
	       "vs pk");
	for (int i = 0; i < n; i++) {
		struct bench_case *c = &cases[i];
		double lo, hi;

		bench_range(c->ns, reps, &lo, &hi);
		printf("%-26s %10.2f %10.2f %10.2f %11.1fx\n", c->name,
		       c->median, lo, hi, c->median / cases[0].median);
	}
	pk = cases[0].median;
	uc = cases[2].median;
	h1 = cases[NR_CASES - 2].median;
	if (n == NR_CASES)
		h2 = cases[NR_CASES - 1].median;
	printf("\n");
	for (int i = 0; i < n; i++)
		printf("@value switch.%s.ns=%.2f\n", cases[i].key,
		       cases[i].median);
	printf("\ngoals (the scheduler issue):\n");
	goal("pk_context_switch <= 30 ns", pk <= 30);
	goal("swapcontext / pk_context_switch >= 20x", uc / pk >= 20);
	goal("condvar hand-off, 1 CPU / pk >= 1000x", h1 / pk >= 1000);
	if (n == NR_CASES)
		goal("condvar hand-off, 2 CPUs / pk >= 1000x", h2 / pk >= 1000);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: bench_switch [--ms N] [--reps N] | "
			"--callgrind N pk|schedule|ucontext|boost\n");
	return 2;
}

/* Out of main(): getcontext() returns twice, which would make every local
 * of its caller suspect. */
static int setup_tasks(void)
{
	if (pk_stack_alloc(&pk_stack, TASK_STACK) ||
	    pk_stack_alloc(&uc_stack, TASK_STACK)) {
		fprintf(stderr, "bench_switch: cannot map the task stacks\n");
		return -1;
	}
	pk_context_init(&pk_task, &pk_stack, pk_partner, NULL);
	if (pk_stack_alloc(&sched_stack, TASK_STACK)) {
		fprintf(stderr, "bench_switch: cannot map the task stacks\n");
		return -1;
	}
	pk_context_init(&sched_task, &sched_stack, sched_partner, NULL);
	if (getcontext(&uc_task)) {
		perror("bench_switch: getcontext");
		return -1;
	}
	uc_task.uc_stack.ss_sp = uc_stack.base;
	uc_task.uc_stack.ss_size = uc_stack.size;
	uc_task.uc_link = NULL;
	makecontext(&uc_task, uc_partner, 0);
	return 0;
}

int main(int argc, char **argv)
{
	long ms = 100;
	int reps = 5;

	if (setup_tasks())
		return 1;
	if (argc == 4 && !strcmp(argv[1], "--callgrind")) {
		long n = bench_parse_long("bench_switch", argv[2],
					  "iteration count");

		if (!strcmp(argv[3], "pk"))
			bench_pk_switch(n);
		else if (!strcmp(argv[3], "schedule"))
			bench_pk_schedule(n);
		else if (!strcmp(argv[3], "ucontext"))
			bench_swapcontext(n);
#if BENCH_HAVE_BOOST
		else if (!strcmp(argv[3], "boost"))
			bench_boost_fiber(n);
#endif
		else
			return usage();
		return 0;
	}
	if (bench_timing_args("bench_switch", argc, argv, &ms, &reps))
		return usage();
	return timing(ms, reps);
}
