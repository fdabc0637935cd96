// SPDX-License-Identifier: MIT
/* The README's second example: a machine with two tasks. */
#include <stdio.h>

#include <preempt/delay.h>
#include <preempt/sched.h>
#include <preempt/wait.h>

static DECLARE_COMPLETION(ready);

static int producer(void *data)
{
	msleep(10); /* on the vCPU's tick; meanwhile the CPU idles */
	printf("%s on cpu %d, preemptible: %d\n", current->comm,
	       raw_smp_processor_id(), preemptible());
	complete(&ready); /* wakes the consumer, maybe on the other vCPU */
	return 1;
}

static int consumer(void *data)
{
	wait_for_completion(&ready); /* TASK_UNINTERRUPTIBLE until complete() */
	printf("%s woke on cpu %d\n", current->comm, raw_smp_processor_id());
	return 2;
}

int main(void)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = PREEMPT_MODEL_FULL};
	struct task_struct *c, *p;

	machine_boot(&cfg); /* two vCPU threads, each with a 1000 Hz tick */
	c = kthread_run(consumer, NULL, "consumer");
	p = kthread_run(producer, NULL, "producer");
	printf("exit codes: %d %d\n", kthread_stop(p), kthread_stop(c));
	machine_shutdown();
	return 0;
}
