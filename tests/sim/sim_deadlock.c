// SPDX-License-Identifier: MIT
/*
 * The simulation tests' deadlock: a task waits for a completion nobody
 * completes, and main waits in kthread_stop() for it.  Every CPU is idle
 * and main blocked: the simulation must say deadlock.  Never exits 0.
 */
#include <preempt/wait.h>
#include <preempt/sched.h>

static DECLARE_COMPLETION(never);

static int waiter(void *arg)
{
	(void)arg;
	wait_for_completion(&never);
	return 0;
}

int main(void)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = -1};
	struct task_struct *t;

	if (machine_boot(&cfg))
		return 3;
	t = kthread_run(waiter, NULL, "waiter");
	kthread_stop(t);
	machine_shutdown();
	return 0;
}
