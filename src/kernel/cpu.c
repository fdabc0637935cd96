// SPDX-License-Identifier: MIT
/*
 * CPU hotplug states on a machine without hotplug: setting a state up
 * runs its startup once per online CPU, on that CPU, and remembers its
 * teardown for removal.  Task context: it creates kthreads and sleeps.
 */

#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/mutex.h>

#define PK_CPUHP_STATES (CPUHP_ONLINE + 1)

static int (*teardowns[PK_CPUHP_STATES])(unsigned int cpu);
static bool used[PK_CPUHP_STATES];
static DEFINE_MUTEX(cpuhp_mutex);

struct pk_cpuhp_call {
	int (*fn)(unsigned int cpu);
	unsigned int cpu;
};

static int cpuhp_thread(void *arg)
{
	struct pk_cpuhp_call *c = arg;

	return c->fn(c->cpu);
}

/* @fn(@cpu) in a kthread bound to @cpu; its result. */
static int call_on(int (*fn)(unsigned int), unsigned int cpu)
{
	struct pk_cpuhp_call c = {.fn = fn, .cpu = cpu};
	struct task_struct *t =
		kthread_create(cpuhp_thread, &c, "cpuhp/%u", cpu);

	if (IS_ERR(t))
		return (int)PTR_ERR(t);
	kthread_bind(t, cpu);
	wake_up_process(t);
	return kthread_stop(t);
}

static int dyn_state(enum cpuhp_state first, enum cpuhp_state last)
{
	for (int s = first; s < last; s++)
		if (!used[s])
			return s;
	return -ENOSPC;
}

int __cpuhp_setup_state(enum cpuhp_state state, const char *name, bool invoke,
			int (*startup)(unsigned int cpu),
			int (*teardown)(unsigned int cpu), bool multi_instance)
{
	int s = state, cpu, err = 0;

	(void)name;
	if (WARN_ON_ONCE(multi_instance || state <= CPUHP_OFFLINE ||
			 state >= PK_CPUHP_STATES))
		return -EINVAL;
	mutex_lock(&cpuhp_mutex);
	if (state == CPUHP_AP_ONLINE_DYN)
		s = dyn_state(CPUHP_AP_ONLINE_DYN, CPUHP_AP_ONLINE_DYN_END);
	else if (state == CPUHP_BP_PREPARE_DYN)
		s = dyn_state(CPUHP_BP_PREPARE_DYN, CPUHP_BP_PREPARE_DYN_END);
	if (s < 0)
		goto out;
	for_each_online_cpu(cpu) {
		if (!invoke || !startup)
			break;
		err = call_on(startup, (unsigned int)cpu);
		if (!err)
			continue;
		/* Undo the CPUs before this one. */
		for (int c = 0; c < cpu; c++)
			if (cpu_online(c) && teardown)
				call_on(teardown, (unsigned int)c);
		s = err;
		goto out;
	}
	used[s] = true;
	teardowns[s] = teardown;
out:
	mutex_unlock(&cpuhp_mutex);
	/* Dynamic states return their number, fixed ones 0. */
	if (s >= 0 && state != CPUHP_AP_ONLINE_DYN &&
	    state != CPUHP_BP_PREPARE_DYN)
		return 0;
	return s;
}

void __cpuhp_remove_state(enum cpuhp_state state, bool invoke)
{
	int cpu;

	if (WARN_ON_ONCE(state <= CPUHP_OFFLINE || state >= PK_CPUHP_STATES))
		return;
	mutex_lock(&cpuhp_mutex);
	for_each_online_cpu(cpu) {
		if (!invoke || !teardowns[state])
			break;
		call_on(teardowns[state], (unsigned int)cpu);
	}
	used[state] = false;
	teardowns[state] = NULL;
	mutex_unlock(&cpuhp_mutex);
}
