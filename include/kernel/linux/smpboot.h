/* SPDX-License-Identifier: MIT */
#ifndef _LINUX_SMPBOOT_H
#define _LINUX_SMPBOOT_H

/*
 * Per-CPU kernel threads (kernel/smpboot.c's model): one thread bound to
 * each online CPU, calling @thread_fn whenever @thread_should_run says so
 * and sleeping otherwise; woken by wake_up_process() on the task stored
 * in the per-CPU @store.  No CPU goes offline here, so the park and
 * unpark callbacks are never called.  The threads stop at
 * machine_shutdown(), before the exit calls.
 */

#include <linux/list.h>
#include <linux/percpu.h>
#include <linux/types.h>

struct task_struct;

struct smp_hotplug_thread {
	struct task_struct *__percpu *store;
	struct list_head list;
	int (*thread_should_run)(unsigned int cpu);
	void (*thread_fn)(unsigned int cpu);
	void (*create)(unsigned int cpu);
	void (*setup)(unsigned int cpu);
	void (*cleanup)(unsigned int cpu, bool online);
	void (*park)(unsigned int cpu);
	void (*unpark)(unsigned int cpu);
	bool selfparking;
	const char *thread_comm;
};

/**
 * smpboot_register_percpu_thread() - start @plug_thread's thread on every
 * online CPU; 0 or -errno.  Task context, after machine_boot().
 */
int smpboot_register_percpu_thread(struct smp_hotplug_thread *plug_thread);
/** smpboot_unregister_percpu_thread() - stop them.  Task context. */
void smpboot_unregister_percpu_thread(struct smp_hotplug_thread *plug_thread);

#endif
