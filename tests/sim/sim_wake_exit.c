// SPDX-License-Identifier: MIT
/*
 * The simulation tests' subject for a wake-up racing with its task's exit
 * (issue 19).  Round after round, a victim on CPU 1 announces a sleep
 * (TASK_INTERRUPTIBLE) and polls a flag; the driver on CPU 0 sets the
 * flag and wakes it (wake_up_state(TASK_INTERRUPTIBLE)), so the wake-up
 * finds the sleep announced while the victim, seeing the flag, takes it
 * back (or, every other round, sleeps it: the wake-up must end that),
 * sleeps TASK_UNINTERRUPTIBLE until a permit, then exits.  That wake-up
 * must not end the later, uninterruptible sleep, and no wake-up
 * may queue a dead task again: that returns into pk_task_exit()'s BUG()
 * (or, freed, into a garbage context).  Exit 0: every round ended clean.
 */
#include <stdbool.h>
#include <stdio.h>

#include <preempt/sched.h>
#include <preempt/sim.h>

#define ROUNDS 40

/* A shared access, as READ_ONCE()/WRITE_ONCE() are in kernel code. */
#define LOAD(x)                                                                \
	({                                                                     \
		pk_sim_hook(PK_SIM_ACCESS);                                    \
		__atomic_load_n(&(x), __ATOMIC_ACQUIRE);                       \
	})

static int go, permit, back;
static int rounds_done, spurious, lost;

/* Odd rounds: the sleep announced is slept, and the wake-up must end it. */
static int victim(void *arg)
{
	bool sleep_it = arg;

	set_current_state(TASK_INTERRUPTIBLE);
	while (!LOAD(go))
		; /* each load is a decision point */
	if (sleep_it) {
		schedule();
		__atomic_store_n(&back, 1, __ATOMIC_RELEASE);
	}
	__set_current_state(TASK_RUNNING);
	set_current_state(TASK_UNINTERRUPTIBLE);
	while (!LOAD(permit)) {
		schedule();
		if (!LOAD(permit))
			spurious++;
		set_current_state(TASK_UNINTERRUPTIBLE);
	}
	__set_current_state(TASK_RUNNING);
	return 0;
}

static void one_round(int i)
{
	struct task_struct *v;

	__atomic_store_n(&go, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&permit, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&back, 0, __ATOMIC_RELEASE);
	v = kthread_create_on_cpu(victim, (void *)(long)(i & 1), 1, "victim");
	get_task_struct(v);
	wake_up_process(v);
	while (LOAD(v->__state) != TASK_INTERRUPTIBLE)
		cond_resched();
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	wake_up_state(v, TASK_INTERRUPTIBLE);
	/* A tick for a wrong wake-up to show; a second (virtual) for a
	 * lost one. */
	schedule_timeout_uninterruptible(1);
	for (int t = 0; (i & 1) && !LOAD(back) && t < 1000; t++)
		schedule_timeout_uninterruptible(1);
	if ((i & 1) && !LOAD(back))
		lost++;
	__atomic_store_n(&permit, 1, __ATOMIC_RELEASE);
	kthread_stop(v);
	put_task_struct(v);
}

static int driver(void *arg)
{
	(void)arg;
	for (int i = 0; i < ROUNDS; i++) {
		one_round(i);
		__atomic_store_n(&rounds_done, i + 1, __ATOMIC_RELEASE);
	}
	while (!kthread_should_stop())
		schedule_timeout_uninterruptible(1);
	return 0;
}

int main(void)
{
	struct machine_config cfg = {.nr_cpus = 2, .model = -1};
	struct task_struct *d;

	if (machine_boot(&cfg))
		return 3;
	d = kthread_create_on_cpu(driver, NULL, 0, "driver");
	wake_up_process(d);
	while (__atomic_load_n(&rounds_done, __ATOMIC_ACQUIRE) < ROUNDS)
		schedule_timeout_uninterruptible(1);
	kthread_stop(d);
	machine_shutdown();
	printf("%d rounds, %d spurious wake-ups, %d lost\n", rounds_done,
	       spurious, lost);
	return rounds_done == ROUNDS && !spurious && !lost ? 0 : 1;
}
