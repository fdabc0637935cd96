// SPDX-License-Identifier: MIT
/*
 * The simulation tests' subject: two tasks on two vCPUs add to a shared
 * counter with a load and a store (a data race: an update can be lost).
 * -DFIXED takes a spinlock around the update.  Exit 0: no update lost;
 * exit 1: lost.  With "sleep" as argument, a task first sleeps 1000 jiffies
 * (virtual time) and the program prints how long that took by ktime_get().
 * With "usleep", main sleeps on the host's clock once (nondeterminism the
 * simulation notes).  With "affinity", it prints how many host CPUs main
 * may use before boot, in the run and after shutdown.
 */
#define _GNU_SOURCE /* sched_getaffinity() */
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <preempt/hrtimer.h>
#include <preempt/sched.h>
#include <preempt/sim.h>
#include <preempt/spinlock.h>

#define ROUNDS 50

/* A shared access, as READ_ONCE()/WRITE_ONCE() are in kernel code. */
#define LOAD(x)                                                                \
	({                                                                     \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		(x);                                                           \
	})
#define STORE(x, v)                                                            \
	do {                                                                   \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		(x) = (v);                                                     \
	} while (0)

static int counter;
static DEFINE_SPINLOCK(lock);

static int adder(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
#ifdef FIXED
		spin_lock(&lock);
#endif
		int v = LOAD(counter);

		STORE(counter, v + 1);
#ifdef FIXED
		spin_unlock(&lock);
#endif
	}
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

static int sleeper(void *arg)
{
	(void)arg;
	schedule_timeout_uninterruptible(1000);
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

/* Host CPUs this thread may run on. */
static int nr_allowed(void)
{
	cpu_set_t set;

	return sched_getaffinity(0, sizeof(set), &set) ? -1 : CPU_COUNT(&set);
}

int main(int argc, char **argv)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = -1};
	bool sleep = argc > 1 && !strcmp(argv[1], "sleep");
	struct task_struct *t[2];
	bool affinity = argc > 1 && !strcmp(argv[1], "affinity");
	int cpus_before = nr_allowed(), cpus_during;
	ktime_t start;

	if (machine_boot(&cfg))
		return 3;
	cpus_during = nr_allowed();
	start = ktime_get();
	if (argc > 1 && !strcmp(argv[1], "usleep"))
		usleep(100);
	if (sleep) {
		t[0] = kthread_run(sleeper, NULL, "sleeper");
		kthread_stop(t[0]);
		printf("slept %lld us\n",
		       (long long)(ktime_get() - start) / 1000);
	} else {
		for (int i = 0; i < 2; i++)
			t[i] = kthread_run(adder, NULL, "adder/%d", i);
		for (int i = 0; i < 2; i++)
			kthread_stop(t[i]);
	}
	machine_shutdown();
	if (affinity)
		printf("host cpus: before %d during %d after %d\n", cpus_before,
		       cpus_during, nr_allowed());
	printf("counter %d of %d\n", counter, sleep ? 0 : 2 * ROUNDS);
	return counter == (sleep ? 0 : 2 * ROUNDS) ? 0 : 1;
}
