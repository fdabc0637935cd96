// SPDX-License-Identifier: MIT
/*
 * A kernel-style driver on libpreempt, written against the linux/ tree
 * only: "pkdev", a sampling device with a one-entry data register.  Its
 * interrupt handler reads the register into a kfifo and counts per CPU;
 * a workqueue drains the kfifo and judges each sample against a
 * configuration published under RCU; a timer polls a status register
 * every 10 ms and, when the device asks for it, has the configuration
 * replaced (a work item: the timer may not sleep, the replacement takes a
 * mutex and frees the old configuration after a grace period).
 *
 * main() is the host program around the module: it plays the hardware,
 * one sample per interrupt, and boots the machine once per preemption
 * model.  Built as a PREEMPT_DYNAMIC kernel (libpreempt-kernel) it runs
 * none, voluntary, full and lazy; built against libpreempt-kernel-rt, rt
 * (docs/kernel.md).  `make run` runs both after the demo.
 *
 *   cc -O2 $(pkg-config --cflags libpreempt-kernel) -DKBUILD_MODNAME='"pkdev"'
 *      pkdev_driver.c $(pkg-config --libs libpreempt-kernel)
 *   PREEMPT_CMDLINE="pkdev.samples=500" ./a.out
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/interrupt.h>
#include <linux/kfifo.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/workqueue.h>

#define PKDEV_IRQ 11

static unsigned int samples = 200;
module_param(samples, uint, 0444);
MODULE_PARM_DESC(samples, "how many samples the hardware sends per boot");

/* ---- the device's registers, which the hardware (main()) drives ---- */

struct pkdev_regs {
	unsigned int data; /* the sample */
	int full;	   /* data holds a sample the driver has not read */
	int reconfig;	   /* status: the device wants the next configuration */
};

static struct pkdev_regs regs;

/* ---- the driver ---- */

struct pkdev_config {
	unsigned int version;
	unsigned int threshold; /* samples at or above it are "high" */
	struct rcu_head rcu;
};

struct pkdev_stats {
	unsigned long irqs;
	unsigned long dropped;
};

static DEFINE_PER_CPU(struct pkdev_stats, pkdev_stats);
static DEFINE_SPINLOCK(fifo_lock);
static DEFINE_KFIFO(fifo, unsigned int, 64);
static DEFINE_MUTEX(config_mutex);
static struct pkdev_config __rcu *config;

static struct workqueue_struct *pkdev_wq;
static struct work_struct drain_work;
static struct work_struct reconfig_work;
static struct timer_list tick_timer;

/* Written by the work items and the timer; main() polls some of them. */
static unsigned long processed, high, ticks, versions_seen;
static unsigned int last_version, config_version;
static bool version_went_back;

/* What the module saw, for main() to check after unload. */
static struct pkdev_result {
	unsigned long irqs, dropped, processed, high, ticks, versions_seen;
	unsigned int version;
	bool version_went_back;
} result;

/* Hardirq context (a forced thread under rt): read, queue, acknowledge. */
static irqreturn_t pkdev_interrupt(int irq, void *dev_id)
{
	struct pkdev_regs *r = dev_id;
	unsigned int sample;

	if (!READ_ONCE(r->full))
		return IRQ_NONE;
	sample = READ_ONCE(r->data);
	smp_store_release(&r->full, 0); /* the register is free again */
	this_cpu_inc(pkdev_stats.irqs);
	if (!kfifo_in_spinlocked(&fifo, &sample, 1, &fifo_lock))
		this_cpu_inc(pkdev_stats.dropped);
	queue_work(pkdev_wq, &drain_work);
	return IRQ_HANDLED;
}

/* Process context: the samples, judged by the configuration of the moment. */
static void pkdev_drain(struct work_struct *work)
{
	unsigned int sample;

	while (kfifo_out_spinlocked(&fifo, &sample, 1, &fifo_lock)) {
		const struct pkdev_config *cfg;

		rcu_read_lock();
		cfg = rcu_dereference(config);
		if (sample >= cfg->threshold)
			high++;
		if (cfg->version < last_version)
			version_went_back = true;
		if (cfg->version != last_version)
			versions_seen++;
		last_version = cfg->version;
		rcu_read_unlock();
		WRITE_ONCE(processed, processed + 1);
	}
}

/* Process context: publish a new configuration, free the old one later. */
static void pkdev_reconfig(struct work_struct *work)
{
	struct pkdev_config *new = kmalloc(sizeof(*new), GFP_KERNEL);
	struct pkdev_config *old;

	if (!new)
		return;
	mutex_lock(&config_mutex);
	old = rcu_dereference_protected(config, lockdep_is_held(&config_mutex));
	new->version = old->version + 1;
	new->threshold = old->threshold + 50;
	rcu_assign_pointer(config, new);
	WRITE_ONCE(config_version, new->version);
	mutex_unlock(&config_mutex);
	kfree_rcu(old, rcu); /* readers may still hold it */
}

/* Softirq context: no sleeping, so reconfiguring is left to a work item. */
static void pkdev_tick(struct timer_list *t)
{
	WRITE_ONCE(ticks, ticks + 1);
	if (xchg(&regs.reconfig, 0))
		queue_work(pkdev_wq, &reconfig_work);
	mod_timer(t, jiffies + msecs_to_jiffies(10));
}

static int __init pkdev_init(void)
{
	struct pkdev_config *cfg = kzalloc(sizeof(*cfg), GFP_KERNEL);
	int err;

	if (!cfg)
		return -ENOMEM;
	cfg->version = 1;
	config_version = 1;
	RCU_INIT_POINTER(config, cfg);
	processed = high = ticks = versions_seen = 0;
	last_version = 0;
	version_went_back = false;
	INIT_WORK(&drain_work, pkdev_drain);
	INIT_WORK(&reconfig_work, pkdev_reconfig);
	pkdev_wq = alloc_workqueue("pkdev", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!pkdev_wq) {
		err = -ENOMEM;
		goto free_cfg;
	}
	err = request_irq(PKDEV_IRQ, pkdev_interrupt, 0, "pkdev", &regs);
	if (err)
		goto free_wq;
	timer_setup(&tick_timer, pkdev_tick, 0);
	mod_timer(&tick_timer, jiffies + msecs_to_jiffies(10));
	pr_info("probed: irq %d, %u samples\n", PKDEV_IRQ, samples);
	return 0;

free_wq:
	destroy_workqueue(pkdev_wq);
free_cfg:
	kfree(cfg);
	pr_err("probe failed: %pe\n", ERR_PTR(err));
	return err;
}

static void __exit pkdev_exit(void)
{
	unsigned long irqs = 0, dropped = 0;
	const struct pkdev_config *cfg;
	char percpu[64];
	int cpu, n = 0;

	free_irq(PKDEV_IRQ, &regs);
	timer_delete_sync(&tick_timer);
	flush_workqueue(pkdev_wq);
	destroy_workqueue(pkdev_wq);
	for_each_online_cpu(cpu) {
		const struct pkdev_stats *st = per_cpu_ptr(&pkdev_stats, cpu);

		n += scnprintf(percpu + n, sizeof(percpu) - n, "%scpu%d %lu",
			       n ? ", " : "", cpu, st->irqs);
		irqs += st->irqs;
		dropped += st->dropped;
	}
	for_each_possible_cpu(cpu) /* the next boot starts from zero */
		per_cpu(pkdev_stats, cpu) = (struct pkdev_stats){0};
	cfg = rcu_dereference_protected(config, true);
	pr_info("%lu interrupts (%s), %lu dropped, %lu processed, %lu high, "
		"config v%u, %lu ticks\n",
		irqs, percpu, dropped, processed, high, cfg->version, ticks);
	result = (struct pkdev_result){
		irqs,  dropped,	      processed,    high,
		ticks, versions_seen, cfg->version, version_went_back};
	kfree(cfg);
	rcu_barrier(); /* the replaced configurations, freed before unload */
}

module_init(pkdev_init);
module_exit(pkdev_exit);
MODULE_LICENSE("MIT");
MODULE_DESCRIPTION("libpreempt's example driver: irq, workqueue, timer, kfifo, "
		   "per-CPU, RCU");

/* ---- the host program: the hardware, and one boot per model ---- */

#include <unistd.h>

static int send(unsigned int from, unsigned int to)
{
	for (unsigned int i = from; i < to; i++) {
		WRITE_ONCE(regs.data, i % 100);
		smp_store_release(&regs.full, 1);
		if (irq_raise(PKDEV_IRQ, pk_vcpu_irq_cpu((int)(i % 2))))
			return -1;
		while (smp_load_acquire(&regs.full)) /* one sample at a time */
			usleep(50);
	}
	return 0;
}

static unsigned long dropped_now(void)
{
	unsigned long sum = 0;
	int cpu;

	for_each_possible_cpu(cpu)
		sum += READ_ONCE(per_cpu(pkdev_stats, cpu).dropped);
	return sum;
}

/*
 * Half the samples under the first configuration, a reconfiguration the
 * timer notices, the other half under the second: a sample is "high" at
 * threshold 0, then at 50 or more.
 */
static int hardware(void)
{
	unsigned int half = samples / 2;

	if (send(0, half))
		return -1;
	while (READ_ONCE(processed) + dropped_now() < half)
		usleep(1000);
	WRITE_ONCE(regs.reconfig, 1);
	while (READ_ONCE(config_version) < 2)
		usleep(1000);
	return send(half, samples);
}

/* The module's account against what the hardware did. */
static bool pkdev_consistent(unsigned int half)
{
	const struct pkdev_result *r = &result;
	unsigned long want_high = half;

	for (unsigned int i = half; i < samples; i++)
		want_high += i % 100 >= 50;
	return r->irqs == samples && r->processed + r->dropped == samples &&
	       r->version == 2 && r->versions_seen == 2 &&
	       !r->version_went_back && r->ticks > 0 &&
	       (r->dropped || r->high == want_high);
}

static int run(enum preempt_model model)
{
	struct machine_config cfg = {.nr_cpus = 2, .hz = HZ, .model = model};
	int err;

	pr_info("== model %s\n", preempt_model_str(model));
	if (machine_boot(&cfg)) /* runs pkdev_init() before it returns */
		return 1;
	err = hardware();
	machine_shutdown(); /* runs pkdev_exit() */
	if (err || !pkdev_consistent(samples / 2)) {
		pr_err("model %s: FAILED\n", preempt_model_str(model));
		return 1;
	}
	pr_info("model %s: ok\n", preempt_model_str(model));
	return 0;
}

int main(void)
{
	static const enum preempt_model dynamic[] = {
		PREEMPT_MODEL_NONE, PREEMPT_MODEL_VOLUNTARY, PREEMPT_MODEL_FULL,
		PREEMPT_MODEL_LAZY};
	int failed = 0;

	if (IS_ENABLED(CONFIG_PREEMPT_RT))
		return run(PREEMPT_MODEL_RT);
	for (size_t i = 0; i < ARRAY_SIZE(dynamic); i++)
		failed |= run(dynamic[i]);
	return failed;
}
