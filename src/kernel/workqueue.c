// SPDX-License-Identifier: MIT
/*
 * Workqueues for kernel code that does not bring kernel/workqueue.c: the
 * kernel form's names (linux/workqueue.h labels them pk_kernel_*) on the
 * library's workqueues, on the same memory (the two layouts agree, static
 * assertions in both headers).  This object defines only names the
 * kernel's file defines, so a program's copy of that file replaces it
 * whole; the machine's boot reaches it through workqueue_init_early(),
 * which copies the library's system queues into the kernel form's.
 *
 * The library's own functions are reached under their plain names through
 * asm labels below (this file sees only the kernel form).  Differences
 * from the kernel's file: the BH queues (system_bh_wq, WQ_BH) run their
 * items in task context on the highpri pools; nothing can be disabled
 * (enable_work() and friends are the kernel file's only).
 */

#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/hardirq.h>
#include <linux/kernel.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/workqueue.h>

#define PK_LIB(name) __asm__(#name)

/* The library's workqueue (preempt/workqueue.h) on the same layout. */
extern struct workqueue_struct *lib_system_wq PK_LIB(system_wq);
extern struct workqueue_struct *lib_system_highpri_wq PK_LIB(system_highpri_wq);
extern struct workqueue_struct *lib_system_long_wq PK_LIB(system_long_wq);
extern struct workqueue_struct *lib_system_unbound_wq PK_LIB(system_unbound_wq);
extern struct workqueue_struct *
	lib_system_freezable_wq PK_LIB(system_freezable_wq);
extern struct workqueue_struct *
	lib_system_power_efficient_wq PK_LIB(system_power_efficient_wq);
struct workqueue_struct *lib_alloc_workqueue(const char *fmt,
					     unsigned int flags, int max_active,
					     ...) PK_LIB(alloc_workqueue);
void lib_destroy_workqueue(struct workqueue_struct *wq)
	PK_LIB(destroy_workqueue);
bool lib_queue_work_on(int cpu, struct workqueue_struct *wq,
		       struct work_struct *work) PK_LIB(queue_work_on);
bool lib_queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			       struct delayed_work *dwork, unsigned long delay)
	PK_LIB(queue_delayed_work_on);
bool lib_mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			     struct delayed_work *dwork, unsigned long delay)
	PK_LIB(mod_delayed_work_on);
void lib_delayed_work_timer_fn(struct timer_list *t)
	PK_LIB(delayed_work_timer_fn);
bool lib_flush_work(struct work_struct *work) PK_LIB(flush_work);
bool lib_flush_delayed_work(struct delayed_work *dwork)
	PK_LIB(flush_delayed_work);
void lib_flush_workqueue(struct workqueue_struct *wq) PK_LIB(flush_workqueue);
void lib_drain_workqueue(struct workqueue_struct *wq) PK_LIB(drain_workqueue);
bool lib_cancel_work(struct work_struct *work) PK_LIB(cancel_work);
bool lib_cancel_work_sync(struct work_struct *work) PK_LIB(cancel_work_sync);
bool lib_cancel_delayed_work(struct delayed_work *dwork)
	PK_LIB(cancel_delayed_work);
bool lib_cancel_delayed_work_sync(struct delayed_work *dwork)
	PK_LIB(cancel_delayed_work_sync);
struct work_struct *lib_current_work(void) PK_LIB(current_work);

/* The library's queue_work_on() takes the same "any CPU" value. */
_Static_assert(WORK_CPU_UNBOUND == 64, "the library's WORK_CPU_UNBOUND");

struct workqueue_struct *system_wq;
struct workqueue_struct *system_highpri_wq;
struct workqueue_struct *system_long_wq;
struct workqueue_struct *system_unbound_wq;
struct workqueue_struct *system_freezable_wq;
struct workqueue_struct *system_power_efficient_wq;
struct workqueue_struct *system_freezable_power_efficient_wq;
struct workqueue_struct *system_bh_wq;
struct workqueue_struct *system_bh_highpri_wq;

/**
 * workqueue_init_early() - the kernel form's system queues are the
 * library's (made at machine_boot()).  Boot, in task context.
 */
void __init workqueue_init_early(void)
{
	system_wq = lib_system_wq;
	system_highpri_wq = lib_system_highpri_wq;
	system_long_wq = lib_system_long_wq;
	system_unbound_wq = lib_system_unbound_wq;
	system_freezable_wq = lib_system_freezable_wq;
	system_power_efficient_wq = lib_system_power_efficient_wq;
	system_freezable_power_efficient_wq = lib_system_power_efficient_wq;
	/* No BH pools here: task context, ahead of the normal items. */
	system_bh_wq = lib_system_highpri_wq;
	system_bh_highpri_wq = lib_system_highpri_wq;
}

/** workqueue_init() - nothing more: the library's pools are up.  Boot. */
void __init workqueue_init(void)
{
}

/** workqueue_init_topology() - one pod of CPUs here.  Boot. */
void __init workqueue_init_topology(void)
{
}

struct workqueue_struct *alloc_workqueue(const char *fmt, unsigned int flags,
					 int max_active, ...)
{
	char name[WORKER_DESC_LEN];
	va_list args;

	va_start(args, max_active);
	vsnprintf(name, sizeof(name), fmt, args);
	va_end(args);
	if (flags & WQ_BH)
		flags = (flags & ~WQ_BH) | WQ_HIGHPRI;
	return lib_alloc_workqueue("%s", flags, max_active, name);
}

void destroy_workqueue(struct workqueue_struct *wq)
{
	lib_destroy_workqueue(wq);
}

bool queue_work_on(int cpu, struct workqueue_struct *wq,
		   struct work_struct *work)
{
	return lib_queue_work_on(cpu, wq, work);
}

bool queue_work_node(int node, struct workqueue_struct *wq,
		     struct work_struct *work)
{
	(void)node; /* one node */
	return lib_queue_work_on(WORK_CPU_UNBOUND, wq, work);
}

bool queue_delayed_work_on(int cpu, struct workqueue_struct *wq,
			   struct delayed_work *dwork, unsigned long delay)
{
	return lib_queue_delayed_work_on(cpu, wq, dwork, delay);
}

bool mod_delayed_work_on(int cpu, struct workqueue_struct *wq,
			 struct delayed_work *dwork, unsigned long delay)
{
	return lib_mod_delayed_work_on(cpu, wq, dwork, delay);
}

void delayed_work_timer_fn(struct timer_list *t)
{
	lib_delayed_work_timer_fn(t);
}

void __flush_workqueue(struct workqueue_struct *wq)
{
	lib_flush_workqueue(wq);
}

void drain_workqueue(struct workqueue_struct *wq)
{
	lib_drain_workqueue(wq);
}

bool flush_work(struct work_struct *work)
{
	return lib_flush_work(work);
}

bool flush_delayed_work(struct delayed_work *dwork)
{
	return lib_flush_delayed_work(dwork);
}

bool cancel_work(struct work_struct *work)
{
	return lib_cancel_work(work);
}

bool cancel_work_sync(struct work_struct *work)
{
	return lib_cancel_work_sync(work);
}

bool cancel_delayed_work(struct delayed_work *dwork)
{
	return lib_cancel_delayed_work(dwork);
}

bool cancel_delayed_work_sync(struct delayed_work *dwork)
{
	return lib_cancel_delayed_work_sync(dwork);
}

struct work_struct *current_work(void)
{
	return lib_current_work();
}

bool current_is_workqueue_rescuer(void)
{
	return false; /* the library's pools never run short of workers */
}

void workqueue_set_min_active(struct workqueue_struct *wq, int min_active)
{
	/* Accepted: an unbound queue runs up to its max_active at once. */
	(void)wq;
	(void)min_active;
}

/* On each CPU's pool of system_wq, waited for. */
int schedule_on_each_cpu(work_func_t func)
{
	struct work_struct *works;
	int cpu;

	works = kcalloc(nr_cpu_ids, sizeof(*works), GFP_KERNEL);
	if (!works)
		return -ENOMEM;
	for (cpu = 0; cpu < (int)nr_cpu_ids; cpu++) {
		INIT_WORK(&works[cpu], func);
		if (cpu_online(cpu))
			queue_work_on(cpu, system_wq, &works[cpu]);
	}
	for (cpu = 0; cpu < (int)nr_cpu_ids; cpu++)
		flush_work(&works[cpu]);
	kfree(works);
	return 0;
}

int execute_in_process_context(work_func_t fn, struct execute_work *ew)
{
	if (!in_interrupt()) {
		fn(&ew->work);
		return 0;
	}
	INIT_WORK(&ew->work, fn);
	schedule_work(&ew->work);
	return 1;
}

struct work_for_cpu {
	struct work_struct work;
	long (*fn)(void *);
	void *arg;
	long ret;
};

static void work_for_cpu_fn(struct work_struct *work)
{
	struct work_for_cpu *wfc =
		container_of(work, struct work_for_cpu, work);

	wfc->ret = wfc->fn(wfc->arg);
}

long work_on_cpu_key(int cpu, long (*fn)(void *), void *arg,
		     struct lock_class_key *key)
{
	struct work_for_cpu wfc = {.fn = fn, .arg = arg};

	INIT_WORK_ONSTACK_KEY(&wfc.work, work_for_cpu_fn, key);
	queue_work_on(cpu, system_wq, &wfc.work);
	flush_work(&wfc.work);
	destroy_work_on_stack(&wfc.work);
	return wfc.ret;
}

long work_on_cpu_safe_key(int cpu, long (*fn)(void *), void *arg,
			  struct lock_class_key *key)
{
	long ret = -ENODEV;

	cpus_read_lock();
	if (cpu_online(cpu))
		ret = work_on_cpu_key(cpu, fn, arg, key);
	cpus_read_unlock();
	return ret;
}
