// SPDX-License-Identifier: MIT
/*
 * Per-CPU threads (linux/smpboot.h), for kernel code such as
 * kernel/irq_work.c under PREEMPT_RT: a kthread bound to each online CPU
 * runs thread_fn() while thread_should_run() says so, and sleeps
 * otherwise.  Registered threads stop at machine_shutdown(), before the
 * exit calls (init.c calls pk_smpboot_shutdown()).
 */

#include <linux/cpumask.h>
#include <linux/kthread.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/smpboot.h>

/* Called by init.c at machine_shutdown(), when this object is linked. */
void pk_smpboot_shutdown(void);

struct smpboot_arg {
	struct smp_hotplug_thread *ht;
	unsigned int cpu;
};

static LIST_HEAD(hotplug_threads);
static DEFINE_MUTEX(smpboot_lock);

static int smpboot_thread_fn(void *data)
{
	struct smpboot_arg arg = *(struct smpboot_arg *)data;
	struct smp_hotplug_thread *ht = arg.ht;

	kfree(data);
	if (ht->setup)
		ht->setup(arg.cpu);
	for (;;) {
		set_current_state(TASK_INTERRUPTIBLE);
		preempt_disable();
		if (kthread_should_stop()) {
			__set_current_state(TASK_RUNNING);
			preempt_enable();
			if (ht->cleanup)
				ht->cleanup(arg.cpu, true);
			return 0;
		}
		if (!ht->thread_should_run(arg.cpu)) {
			preempt_enable_no_resched();
			schedule();
		} else {
			__set_current_state(TASK_RUNNING);
			preempt_enable();
			ht->thread_fn(arg.cpu);
		}
	}
}

static void stop_threads(struct smp_hotplug_thread *ht)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct task_struct *t = *per_cpu_ptr(ht->store, cpu);

		if (t) {
			kthread_stop(t);
			*per_cpu_ptr(ht->store, cpu) = NULL;
		}
	}
}

int smpboot_register_percpu_thread(struct smp_hotplug_thread *ht)
{
	unsigned int cpu;

	mutex_lock(&smpboot_lock);
	for_each_online_cpu(cpu) {
		struct smpboot_arg *arg = kmalloc(sizeof(*arg), GFP_KERNEL);
		struct task_struct *t;

		if (!arg)
			goto fail;
		*arg = (struct smpboot_arg){.ht = ht, .cpu = cpu};
		t = kthread_create(smpboot_thread_fn, arg, ht->thread_comm,
				   cpu);
		if (IS_ERR(t)) {
			kfree(arg);
			goto fail;
		}
		kthread_bind(t, cpu);
		*per_cpu_ptr(ht->store, cpu) = t;
		if (ht->create)
			ht->create(cpu);
		wake_up_process(t);
	}
	list_add(&ht->list, &hotplug_threads);
	mutex_unlock(&smpboot_lock);
	return 0;
fail:
	stop_threads(ht);
	mutex_unlock(&smpboot_lock);
	return -ENOMEM;
}

void smpboot_unregister_percpu_thread(struct smp_hotplug_thread *ht)
{
	mutex_lock(&smpboot_lock);
	list_del(&ht->list);
	stop_threads(ht);
	mutex_unlock(&smpboot_lock);
}

void pk_smpboot_shutdown(void)
{
	struct smp_hotplug_thread *ht, *n;

	mutex_lock(&smpboot_lock);
	list_for_each_entry_safe(ht, n, &hotplug_threads, list)
	{
		list_del(&ht->list);
		stop_threads(ht);
	}
	mutex_unlock(&smpboot_lock);
}
