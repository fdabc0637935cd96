/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_CPU_H
#define _LINUX_CPU_H

/*
 * CPU hotplug, on a machine whose CPUs never go offline: the read lock
 * that keeps CPUs online has nothing to exclude (it may still sleep, as
 * the kernel's percpu rw-semaphore may), and a hotplug state's startup
 * callback runs once for each online CPU when the state is set up — in a
 * kthread bound to that CPU, as the kernel's AP states run — and its
 * teardown when it is removed.  Task context.
 */

#include <linux/cpumask.h>
#include <linux/kernel.h>
#include <linux/smp.h>

static inline void cpus_read_lock(void)
{
	might_sleep();
}
static inline void cpus_read_unlock(void)
{
}
static inline int cpus_read_trylock(void)
{
	return 1;
}
#define lockdep_assert_cpus_held()                                             \
	do {                                                                   \
	} while (0)
#define get_online_cpus() cpus_read_lock()
#define put_online_cpus() cpus_read_unlock()
#define cpu_hotplug_disable()                                                  \
	do {                                                                   \
	} while (0)
#define cpu_hotplug_enable()                                                   \
	do {                                                                   \
	} while (0)
#define cpu_is_hotpluggable(cpu) ((void)(cpu), false)

/* The states kernel code names; the order is the kernel's idea only. */
enum cpuhp_state {
	CPUHP_INVALID = -1,
	CPUHP_OFFLINE = 0,
	CPUHP_BP_PREPARE_DYN = 1,
	CPUHP_BP_PREPARE_DYN_END = CPUHP_BP_PREPARE_DYN + 20,
	CPUHP_AP_ONLINE,
	CPUHP_AP_ONLINE_DYN,
	CPUHP_AP_ONLINE_DYN_END = CPUHP_AP_ONLINE_DYN + 30,
	CPUHP_ONLINE,
};

/*
 * Returns 0, or for a _DYN state the state allocated (> 0), or a
 * startup's error after tearing down the CPUs already set up.
 */
int __cpuhp_setup_state(enum cpuhp_state state, const char *name, bool invoke,
			int (*startup)(unsigned int cpu),
			int (*teardown)(unsigned int cpu), bool multi_instance);
void __cpuhp_remove_state(enum cpuhp_state state, bool invoke);

#define cpuhp_setup_state(state, name, startup, teardown)                      \
	__cpuhp_setup_state(state, name, true, startup, teardown, false)
#define cpuhp_setup_state_nocalls(state, name, startup, teardown)              \
	__cpuhp_setup_state(state, name, false, startup, teardown, false)
#define cpuhp_setup_state_cpuslocked(state, name, startup, teardown)           \
	cpuhp_setup_state(state, name, startup, teardown)
#define cpuhp_remove_state(state) __cpuhp_remove_state(state, true)
#define cpuhp_remove_state_nocalls(state) __cpuhp_remove_state(state, false)

/*
 * Multi-instance states: the callbacks take an instance (@node, embedded
 * in the caller's object) as well as the CPU.  Setting the state up runs
 * nothing; adding an instance runs its startup on every online CPU (each
 * on its CPU; a failure tears the CPUs done down again and the instance
 * is not added); removing one runs its teardowns.  Removing the state
 * with instances left is a warning, as in the kernel.  Task context.
 */
struct hlist_node;
int __cpuhp_state_add_instance(enum cpuhp_state state, struct hlist_node *node,
			       bool invoke);
int __cpuhp_state_remove_instance(enum cpuhp_state state,
				  struct hlist_node *node, bool invoke);

static inline int cpuhp_setup_state_multi(
	enum cpuhp_state state, const char *name,
	int (*startup)(unsigned int cpu, struct hlist_node *node),
	int (*teardown)(unsigned int cpu, struct hlist_node *node))
{
	return __cpuhp_setup_state(state, name, false, (void *)startup,
				   (void *)teardown, true);
}
#define cpuhp_state_add_instance(state, node)                                  \
	__cpuhp_state_add_instance(state, node, true)
#define cpuhp_state_add_instance_nocalls(state, node)                          \
	__cpuhp_state_add_instance(state, node, false)
#define cpuhp_state_remove_instance(state, node)                               \
	__cpuhp_state_remove_instance(state, node, true)
#define cpuhp_state_remove_instance_nocalls(state, node)                       \
	__cpuhp_state_remove_instance(state, node, false)
#define cpuhp_remove_multi_state(state) __cpuhp_remove_state(state, false)

#endif /* _LINUX_CPU_H */
