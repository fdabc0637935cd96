// SPDX-License-Identifier: MIT
/*
 * The simulation's throughput (issue 20, docs/sim.md): decision points per
 * second of host time inside one simulated run, beside the same workload
 * on real threads.  The workload is the catalogue's shape: tasks on two
 * vCPUs updating shared state under a spinlock with instrumented accesses
 * (built with -DCONFIG_PREEMPT_SIM=1), a wake-up per round.
 *
 *   bench_sim [ROUNDS]
 *
 * Prints the simulated run (decisions, host time, decisions/s: the
 * simulation runs on one host core at a time), the real-thread run's time
 * per round, and an @verdict line for the 1 M decisions/s target.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <preempt/sched.h>
#include <preempt/sim.h>
#include <preempt/spinlock.h>

#define TASKS 4

static DEFINE_SPINLOCK(lock);
static long shared[8];
static long rounds = 20000;

#define LOAD(x)                                                                \
	({                                                                     \
		__typeof__(x) __v = (x);                                       \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		__v;                                                           \
	})
#define STORE(x, v)                                                            \
	do {                                                                   \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		(x) = (v);                                                     \
	} while (0)

static int worker(void *arg)
{
	long id = (long)arg;

	for (long i = 0; i < rounds; i++) {
		spin_lock(&lock);
		STORE(shared[id], LOAD(shared[id]) + 1);
		spin_unlock(&lock);
		STORE(shared[4 + id], LOAD(shared[4 + id]) + 1);
		cond_resched();
	}
	return 0;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* One machine, the workload, shut down: host seconds for the workload. */
static double run(const char *sim)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = -1, .sim = sim};
	struct task_struct *t[TASKS];
	double t0;

	if (machine_boot(&cfg)) {
		fprintf(stderr, "bench_sim: machine_boot failed\n");
		exit(1);
	}
	t0 = now_s();
	for (long i = 0; i < TASKS; i++) {
		t[i] = kthread_create(worker, (void *)i, "worker/%ld", i);
		kthread_bind(t[i], (int)(i % 2));
		wake_up_process(t[i]);
	}
	machine_shutdown();
	(void)t;
	return now_s() - t0;
}

int main(int argc, char **argv)
{
	unsigned long before, decisions;
	double sim_s, real_s, rate;

	if (argc > 1)
		rounds = atol(argv[1]);
	if (rounds <= 0) {
		fprintf(stderr, "bench_sim: ROUNDS must be positive\n");
		return 2;
	}
	real_s = run(NULL);
	before = pk_sim_decisions();
	sim_s = run("1");
	decisions = pk_sim_decisions() - before;
	rate = (double)decisions / sim_s;
	printf("workload: %d tasks on 2 vCPUs, %ld rounds each (spinlock, "
	       "4 accesses, cond_resched())\n",
	       TASKS, rounds);
	printf("%-34s %12.1f ms  %10.1f ns/round\n",
	       "real threads (full model)", real_s * 1e3,
	       real_s * 1e9 / (double)(rounds * TASKS));
	printf("%-34s %12.1f ms  %10.1f ns/round\n",
	       "simulated (PREEMPT_SIM=1, random)", sim_s * 1e3,
	       sim_s * 1e9 / (double)(rounds * TASKS));
	printf("decisions: %lu, %.0f per host second (one core at a time)\n",
	       decisions, rate);
	printf("@verdict target=20; what=simulation decisions per host "
	       "core-second; ours=%.2f M/s; anchor=1.00 M/s; ratio=%.2f; "
	       "verdict=%s\n",
	       rate / 1e6, rate / 1e6, rate >= 1e6 ? "met" : "missed");
	return 0;
}
