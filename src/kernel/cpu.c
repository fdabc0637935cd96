// SPDX-License-Identifier: MIT
/*
 * CPU hotplug states on a machine without hotplug: setting a state up
 * runs its startup once per online CPU, on that CPU, and remembers its
 * teardown for removal.  Task context: it creates kthreads and sleeps.
 */

#include <linux/cpu.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/mutex.h>

#define PK_CPUHP_STATES (CPUHP_ONLINE + 1)

typedef int (*cpuhp_multi_fn)(unsigned int cpu, struct hlist_node *node);

static int (*teardowns[PK_CPUHP_STATES])(unsigned int cpu);
static bool used[PK_CPUHP_STATES];
/* Multi-instance states: their callbacks and instances. */
static bool multi[PK_CPUHP_STATES];
static cpuhp_multi_fn multi_startups[PK_CPUHP_STATES];
static struct hlist_head instances[PK_CPUHP_STATES];
static DEFINE_MUTEX(cpuhp_mutex);

struct pk_cpuhp_call {
	int (*fn)(unsigned int cpu);
	cpuhp_multi_fn multi_fn;
	struct hlist_node *node;
	unsigned int cpu;
};

static int cpuhp_thread(void *arg)
{
	struct pk_cpuhp_call *c = arg;

	return c->multi_fn ? c->multi_fn(c->cpu, c->node) : c->fn(c->cpu);
}

static int call_in_thread(struct pk_cpuhp_call *c)
{
	struct task_struct *t =
		kthread_create(cpuhp_thread, c, "cpuhp/%u", c->cpu);

	if (IS_ERR(t))
		return (int)PTR_ERR(t);
	kthread_bind(t, c->cpu);
	wake_up_process(t);
	return kthread_stop(t);
}

/* @fn(@cpu, @node) in a kthread bound to @cpu; its result. */
static int call_multi_on(cpuhp_multi_fn fn, unsigned int cpu,
			 struct hlist_node *node)
{
	struct pk_cpuhp_call c = {.multi_fn = fn, .node = node, .cpu = cpu};

	return call_in_thread(&c);
}

/* @fn(@cpu) in a kthread bound to @cpu; its result. */
static int call_on(int (*fn)(unsigned int), unsigned int cpu)
{
	struct pk_cpuhp_call c = {.fn = fn, .cpu = cpu};

	return call_in_thread(&c);
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
	if (WARN_ON_ONCE(state <= CPUHP_OFFLINE || state >= PK_CPUHP_STATES))
		return -EINVAL;
	mutex_lock(&cpuhp_mutex);
	if (state == CPUHP_AP_ONLINE_DYN)
		s = dyn_state(CPUHP_AP_ONLINE_DYN, CPUHP_AP_ONLINE_DYN_END);
	else if (state == CPUHP_BP_PREPARE_DYN)
		s = dyn_state(CPUHP_BP_PREPARE_DYN, CPUHP_BP_PREPARE_DYN_END);
	if (s < 0)
		goto out;
	for_each_online_cpu(cpu) {
		if (!invoke || !startup || multi_instance)
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
	multi[s] = multi_instance;
	multi_startups[s] =
		multi_instance ? (cpuhp_multi_fn)(void *)startup : NULL;
	INIT_HLIST_HEAD(&instances[s]);
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
	if (multi[state]) {
		WARN(!hlist_empty(&instances[state]),
		     "Error: Removing state %d which has instances left.\n",
		     state);
		invoke = false;
	}
	for_each_online_cpu(cpu) {
		if (!invoke || !teardowns[state])
			break;
		call_on(teardowns[state], (unsigned int)cpu);
	}
	used[state] = false;
	multi[state] = false;
	teardowns[state] = NULL;
	mutex_unlock(&cpuhp_mutex);
}

/* Is @state a multi-instance state that is set up?  Warns if not. */
static bool multi_state(enum cpuhp_state state)
{
	return !WARN_ON_ONCE(state <= CPUHP_OFFLINE ||
			     state >= PK_CPUHP_STATES || !used[state] ||
			     !multi[state]);
}

int __cpuhp_state_add_instance(enum cpuhp_state state, struct hlist_node *node,
			       bool invoke)
{
	cpuhp_multi_fn startup, teardown;
	int cpu, err = 0;

	if (!multi_state(state))
		return -EINVAL;
	mutex_lock(&cpuhp_mutex);
	startup = multi_startups[state];
	teardown = (cpuhp_multi_fn)(void *)teardowns[state];
	for_each_online_cpu(cpu) {
		if (!invoke || !startup)
			break;
		err = call_multi_on(startup, (unsigned int)cpu, node);
		if (!err)
			continue;
		for (int c = 0; c < cpu; c++)
			if (cpu_online(c) && teardown)
				call_multi_on(teardown, (unsigned int)c, node);
		goto out;
	}
	hlist_add_head(node, &instances[state]);
out:
	mutex_unlock(&cpuhp_mutex);
	return err;
}

int __cpuhp_state_remove_instance(enum cpuhp_state state,
				  struct hlist_node *node, bool invoke)
{
	cpuhp_multi_fn teardown;
	int cpu;

	if (!multi_state(state))
		return -EINVAL;
	mutex_lock(&cpuhp_mutex);
	teardown = (cpuhp_multi_fn)(void *)teardowns[state];
	for_each_online_cpu(cpu) {
		if (!invoke || !teardown)
			break;
		call_multi_on(teardown, (unsigned int)cpu, node);
	}
	hlist_del(node);
	mutex_unlock(&cpuhp_mutex);
	return 0;
}
