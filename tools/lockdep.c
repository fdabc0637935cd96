// SPDX-License-Identifier: MIT
/*
 * `preempt lockdep`: the lock validator's statistics (the kernel's
 * /proc/lockdep_stats) after a workload, or one of its reports produced
 * on purpose (--scenario), as docs/lockdep.md shows them.
 */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <preempt/interrupt.h>
#include <preempt/lockdep.h>
#include <preempt/mutex.h>
#include <preempt/rcupdate.h>
#include <preempt/rwsem.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>
#include <preempt/srcu.h>

#include "cli.h"

#define LINE 14

static void usage(FILE *out)
{
	fprintf(out,
		"usage: preempt lockdep [--demo] [--scenario NAME]\n"
		"\n"
		"Runs a workload under the lock validator and prints its\n"
		"statistics (classes, dependencies, chains, ...); --demo runs\n"
		"`preempt demo --seconds 1` as the workload.  --scenario runs\n"
		"one mistake instead, for its report: abba, cycle, recursive,\n"
		"inconsistent, safe-unsafe, inversion, unlock, held, rwsem,\n"
		"user, wait, srcu.\n"
		"PREEMPT_LOCKDEP=off|keep_going changes what a report does.\n");
}

struct dev {
	spinlock_t lock_a, lock_b, lock_c;
	raw_spinlock_t raw;
	struct mutex mutex;
	struct rw_semaphore sem;
	rwlock_t rw;
};

static struct dev devs[2];
static DEFINE_SPINLOCK(big_lock);

static void dev_init(struct dev *dev)
{
	spin_lock_init(&dev->lock_a);
	spin_lock_init(&dev->lock_b);
	spin_lock_init(&dev->lock_c);
	raw_spin_lock_init(&dev->raw);
	mutex_init(&dev->mutex);
	init_rwsem(&dev->sem);
	rwlock_init(&dev->rw);
}

static __attribute__((noinline)) void take_two(spinlock_t *first,
					       spinlock_t *second)
{
	spin_lock(first);
	spin_lock(second);
	spin_unlock(second);
	spin_unlock(first);
}

static void *task_ab(void *arg)
{
	struct dev *dev = arg;

	take_two(&dev->lock_a, &dev->lock_b);
	return NULL;
}

static void *task_ba(void *arg)
{
	struct dev *dev = arg;

	take_two(&dev->lock_b, &dev->lock_a);
	return NULL;
}

static void in_thread(void *(*fn)(void *), void *arg)
{
	pthread_t t;

	if (!pthread_create(&t, NULL, fn, arg))
		pthread_join(t, NULL);
}

static spinlock_t *irq_target;

static irqreturn_t lockdep_irq(int irq, void *dev_id)
{
	(void)irq;
	(void)dev_id;
	if (irq_target) {
		spin_lock(irq_target);
		spin_unlock(irq_target);
	}
	read_lock(&devs[0].rw);
	read_unlock(&devs[0].rw);
	return IRQ_HANDLED;
}

static int irq_cpu = -1;

/* A hardirq on this thread (a CPU of its own), its reports flushed. */
static void hardirq(spinlock_t *target)
{
	if (irq_cpu < 0) {
		irq_cpu = pk_irq_cpu_register();
		if (irq_cpu < 0 ||
		    request_irq(LINE, lockdep_irq, 0, "lockdep", NULL)) {
			fprintf(stderr,
				"preempt: lockdep: no interrupt line\n");
			return;
		}
	}
	irq_target = target;
	irq_raise(LINE, irq_cpu);
	pk_report_flush();
}

/* Correct locking of every kind: classes, orders, irq states. */
static void workload(void)
{
	unsigned long flags;

	for (int i = 0; i < 2; i++) {
		struct dev *dev = &devs[i];

		in_thread(task_ab, dev);
		spin_lock_irqsave(&dev->lock_c, flags);
		spin_lock(&big_lock);
		spin_unlock(&big_lock);
		spin_unlock_irqrestore(&dev->lock_c, flags);
		mutex_lock(&dev->mutex);
		down_read(&dev->sem);
		write_lock_irqsave(&dev->rw, flags);
		write_unlock_irqrestore(&dev->rw, flags);
		up_read(&dev->sem);
		mutex_unlock(&dev->mutex);
		down_write(&dev->sem);
		spin_lock_bh(&dev->lock_b);
		spin_unlock_bh(&dev->lock_b);
		up_write(&dev->sem);
	}
	hardirq(&devs[0].lock_c);
	hardirq(NULL);
}

static void scenario_irq_inconsistent(void)
{
	hardirq(&devs[0].lock_c);
	spin_lock(&devs[0].lock_c);
	spin_unlock(&devs[0].lock_c);
}

static void scenario_safe_unsafe(void)
{
	unsigned long flags;

	hardirq(&devs[0].lock_c);
	spin_lock(&devs[0].lock_a);
	spin_unlock(&devs[0].lock_a);
	spin_lock_irqsave(&devs[0].lock_c, flags);
	spin_lock(&devs[0].lock_a);
	spin_unlock(&devs[0].lock_a);
	spin_unlock_irqrestore(&devs[0].lock_c, flags);
}

static void scenario_inversion(void)
{
	unsigned long flags;

	spin_lock_irqsave(&devs[0].lock_c, flags);
	spin_lock(&devs[0].lock_a);
	spin_unlock(&devs[0].lock_a);
	spin_unlock_irqrestore(&devs[0].lock_c, flags);
	hardirq(&devs[0].lock_c);
	spin_lock(&devs[0].lock_a);
	spin_unlock(&devs[0].lock_a);
}

static void scenario_rwsem(void)
{
	struct dev *dev = &devs[0];

	down_read(&dev->sem);
	mutex_lock(&dev->mutex);
	mutex_unlock(&dev->mutex);
	up_read(&dev->sem);
	mutex_lock(&dev->mutex);
	down_write(&dev->sem);
	up_write(&dev->sem);
	mutex_unlock(&dev->mutex);
}

static void scenario_cycle(void)
{
	struct dev *dev = &devs[0];

	take_two(&dev->lock_a, &dev->lock_b);
	take_two(&dev->lock_b, &dev->lock_c);
	take_two(&dev->lock_c, &dev->lock_a);
}

static void scenario_recursive(void)
{
	spin_lock(&devs[0].lock_a);
	spin_lock(&devs[1].lock_a); /* same class, no subclass */
	spin_unlock(&devs[1].lock_a);
	spin_unlock(&devs[0].lock_a);
}

/* A lockdep_map of its own: what a lock without own checks reports. */
static void scenario_unlock(void)
{
	static struct lock_class_key key;
	static struct lockdep_map resource;

	lockdep_init_map(&resource, "my_resource", &key, 0);
	lock_map_acquire(&resource);
	lock_map_release(&resource);
	lock_map_release(&resource);
}

static void *exit_holding(void *arg)
{
	(void)arg;
	mutex_lock(&devs[0].mutex);
	debug_check_no_locks_held();
	mutex_unlock(&devs[0].mutex);
	return NULL;
}

static void scenario_held(void)
{
	in_thread(exit_holding, NULL);
}

/* Back to "user" code with a mutex and an RCU reader still held. */
static __attribute__((noinline)) void syscall_leaking(void)
{
	mutex_lock(&devs[0].mutex);
	rcu_read_lock();
}

static void scenario_user(void)
{
	syscall_leaking();
	enter_user();
	exit_user();
	rcu_read_unlock();
	mutex_unlock(&devs[0].mutex);
}

/* spinlock_t sleeps under rt: not inside a raw spinning lock. */
static void scenario_wait(void)
{
	raw_spin_lock(&devs[0].raw);
	spin_lock(&devs[0].lock_a);
	spin_unlock(&devs[0].lock_a);
	raw_spin_unlock(&devs[0].raw);
}

DEFINE_STATIC_SRCU(dev_srcu);

/* A reader takes the mutex; the mutex's holder waits for the readers. */
static void scenario_srcu(void)
{
	int idx = srcu_read_lock(&dev_srcu);

	mutex_lock(&devs[0].mutex);
	mutex_unlock(&devs[0].mutex);
	srcu_read_unlock(&dev_srcu, idx);
	mutex_lock(&devs[0].mutex);
	synchronize_srcu(&dev_srcu);
	mutex_unlock(&devs[0].mutex);
}

static void scenario_abba(void)
{
	in_thread(task_ab, &devs[0]);
	in_thread(task_ba, &devs[0]);
}

static const struct scenario {
	const char *name;
	void (*run)(void);
} scenarios[] = {
	{"abba", scenario_abba},
	{"cycle", scenario_cycle},
	{"recursive", scenario_recursive},
	{"inconsistent", scenario_irq_inconsistent},
	{"safe-unsafe", scenario_safe_unsafe},
	{"inversion", scenario_inversion},
	{"unlock", scenario_unlock},
	{"held", scenario_held},
	{"rwsem", scenario_rwsem},
	{"user", scenario_user},
	{"wait", scenario_wait},
	{"srcu", scenario_srcu},
};

static void print_stats(void)
{
	struct pk_lockdep_stats st;

	pk_lockdep_stats(&st);
	printf(" lock-classes:                  %6lu [max: %lu]\n",
	       st.lock_classes, st.max_lock_classes);
	printf(" direct dependencies:           %6lu [max: %lu]\n",
	       st.direct_dependencies, st.max_dependencies);
	printf(" dependency chains:             %6lu [max: %lu]\n",
	       st.lock_chains, st.max_lock_chains);
	printf(" in-hardirq chains:             %6lu\n", st.irq_context_chains);
	printf(" stack-trace entries:           %6lu [max: %lu]\n",
	       st.stack_trace_entries, st.max_stack_trace_entries);
	printf(" hardirq-safe locks:            %6lu\n", st.hardirq_safe);
	printf(" hardirq-unsafe locks:          %6lu\n", st.hardirq_unsafe);
	printf(" softirq-safe locks:            %6lu\n", st.softirq_safe);
	printf(" softirq-unsafe locks:          %6lu\n", st.softirq_unsafe);
	printf(" read locks:                    %6lu\n", st.read_locks);
	printf(" max locking depth:             %6lu\n", st.max_locking_depth);
	printf(" max bfs queue depth:           %6lu\n",
	       st.max_bfs_queue_depth);
	printf(" acquisitions:                  %6lu\n", st.acquisitions);
	printf(" chain lookup hits:             %6lu\n", st.chain_lookup_hits);
	printf(" chain lookup misses:           %6lu\n",
	       st.chain_lookup_misses);
	printf(" reports:                       %6lu\n", st.reports);
	printf(" debug_locks:                   %6d\n", st.debug_locks);
}

int cmd_lockdep(int argc, char **argv)
{
	const struct scenario *sc = NULL;
	bool demo = false;
	int status = 0;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--demo")) {
			demo = true;
		} else if (!strcmp(argv[i], "--scenario") && i + 1 < argc) {
			i++;
			for (size_t j = 0;
			     j < sizeof(scenarios) / sizeof(scenarios[0]); j++)
				if (!strcmp(argv[i], scenarios[j].name))
					sc = &scenarios[j];
			if (!sc)
				return cli_usage_error(
					"lockdep", "no scenario '%s'", argv[i]);
		} else {
			return cli_usage_error("lockdep", "unknown option '%s'",
					       argv[i]);
		}
	}
	if (!CONFIG_LOCKDEP) {
		fprintf(stderr, "preempt: lockdep: compiled out (nodebug)\n");
		return 1;
	}
	for (int i = 0; i < 2; i++)
		dev_init(&devs[i]);
	if (sc) {
		sc->run();
		pk_report_flush();
		return 0;
	}
	if (demo) {
		char *args[] = {"demo", "--seconds", "1", NULL};

		status = cmd_demo(3, args);
	}
	workload();
	print_stats();
	return status || !debug_locks;
}
