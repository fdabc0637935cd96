// SPDX-License-Identifier: MIT
/*
 * A kernel-style module on libpreempt (docs/kernel.md's worked example):
 * a module parameter, an initcall, a timer, a kfifo and per-CPU
 * statistics, written against the linux/ tree only.  main() is the host
 * program around it: boot the machine (which runs the initcalls), let the
 * timer tick, shut down (which runs the exit call).
 *
 * Build it outside the tree with (docs/kernel.md):
 *   cc -O2 $(pkg-config --cflags libpreempt-kernel)
 *      -DKBUILD_MODNAME='"hello"' hello_module.c
 *      $(pkg-config --libs libpreempt-kernel)
 *   PREEMPT_CMDLINE="hello.ticks=5" ./a.out
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kfifo.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/timer.h>

static unsigned int ticks = 3;
module_param(ticks, uint, 0444);
MODULE_PARM_DESC(ticks, "how many timer ticks to log");

static DEFINE_PER_CPU(unsigned long, fired);
static DEFINE_KFIFO(log, unsigned int, 16);
static struct timer_list timer;
static unsigned int count;

/* Softirq context: no sleeping, so the kfifo (no lock: one producer). */
static void hello_tick(struct timer_list *t)
{
	this_cpu_inc(fired);
	kfifo_put(&log, jiffies_to_msecs(jiffies));
	if (++count < ticks)
		mod_timer(t, jiffies + msecs_to_jiffies(10));
}

static int __init hello_init(void)
{
	pr_info("loaded, %u ticks of 10 ms\n", ticks);
	timer_setup(&timer, hello_tick, 0);
	mod_timer(&timer, jiffies + msecs_to_jiffies(10));
	return 0;
}

static void __exit hello_exit(void)
{
	unsigned long total = 0;
	unsigned int ms;
	int cpu;

	timer_delete_sync(&timer);
	for_each_possible_cpu(cpu)
		total += per_cpu(fired, cpu);
	while (kfifo_get(&log, &ms))
		pr_info("tick logged\n");
	pr_info("unloaded after %lu timer runs\n", total);
}

module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("MIT");
MODULE_DESCRIPTION("libpreempt's kernel-style example");

/* ---- the host program: not kernel code, it drives the machine ---- */

#include <unistd.h>

int main(void)
{
	struct machine_config cfg = {.nr_cpus = 2, .hz = HZ, .model = -1};

	if (machine_boot(&cfg)) /* runs hello_init() before it returns */
		return 1;
	while (READ_ONCE(count) < ticks)
		usleep(1000);
	machine_shutdown(); /* runs hello_exit() */
	return count == ticks ? 0 : 1;
}
