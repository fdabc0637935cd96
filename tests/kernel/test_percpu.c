// SPDX-License-Identifier: MIT
/*
 * CPU masks and per-CPU data in the offset model: static and dynamic
 * per-CPU variables, this_cpu_*() atomic against interrupts on the same
 * CPU, and DEBUG_PREEMPT's check of __this_cpu_*() in preemptible code.
 */

#include <pthread.h>

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/interrupt.h>
#include <linux/kernel.h>
#include <linux/local_lock.h>
#include <linux/percpu.h>
#include <linux/sched.h>

#include "pk_kernel_test.h"

struct stats {
	long packets;
	long bytes;
};
static DEFINE_PER_CPU(struct stats, stats);
static DEFINE_PER_CPU(int, initialized) = 42;
DEFINE_PER_CPU_ALIGNED(long, aligned_counter);

static void test_static_percpu(void **state)
{
	int cpu;
	long sum = 0;

	(void)state;
	/* Every CPU's copy starts from the initializer. */
	for_each_possible_cpu(cpu)
		assert_int_equal(per_cpu(initialized, cpu), 42);
	for_each_possible_cpu(cpu) {
		per_cpu(stats, cpu).packets = cpu;
		per_cpu_ptr(&stats, cpu)->bytes = 10L * cpu;
	}
	for_each_possible_cpu(cpu)
		sum += per_cpu(stats.packets, cpu) + per_cpu(stats, cpu).bytes;
	assert_int_equal(sum,
			 11L * (long)nr_cpu_ids * ((long)nr_cpu_ids - 1) / 2);
	/* Distinct instances, none of them the variable itself. */
	assert_ptr_not_equal(per_cpu_ptr(&stats, 0), per_cpu_ptr(&stats, 1));
	assert_ptr_not_equal(per_cpu_ptr(&stats, 0), &stats);
	assert_int_equal((unsigned long)per_cpu_ptr(&aligned_counter, 1) % 64,
			 0);
}

static void test_dynamic_percpu(void **state)
{
	struct stats __percpu *p = alloc_percpu(struct stats);
	long __percpu *q = alloc_percpu_gfp(long, GFP_KERNEL);
	int cpu;

	(void)state;
	assert_non_null(p);
	assert_non_null(q);
	for_each_possible_cpu(cpu) {
		assert_int_equal(per_cpu_ptr(p, cpu)->packets, 0); /* zeroed */
		per_cpu_ptr(p, cpu)->packets = cpu + 1;
		*per_cpu_ptr(q, cpu) = -1;
	}
	for_each_possible_cpu(cpu)
		assert_int_equal(per_cpu_ptr(p, cpu)->packets, cpu + 1);
	free_percpu(p);
	p = alloc_percpu(struct stats); /* reused, zeroed again */
	for_each_possible_cpu(cpu)
		assert_int_equal(per_cpu_ptr(p, cpu)->packets, 0);
	free_percpu(p);
	free_percpu(q);
	free_percpu(NULL);
}

static void test_cpumask(void **state)
{
	cpumask_var_t m;
	cpumask_t n;
	int cpu, count = 0;

	(void)state;
	pk_boot(3, PREEMPT_MODEL_FULL);
	assert_int_equal(nr_cpu_ids, 3);
	assert_int_equal(num_possible_cpus(), 3);
	assert_int_equal(cpumask_weight(cpu_online_mask), 3);
	assert_true(cpu_online(2));
	assert_false(cpu_online(3));
	for_each_online_cpu(cpu)
		count++;
	assert_int_equal(count, 3);
	assert_true(zalloc_cpumask_var(&m, GFP_KERNEL));
	assert_true(cpumask_empty(m));
	cpumask_set_cpu(0, m);
	cpumask_set_cpu(2, m);
	assert_int_equal(cpumask_weight(m), 2);
	assert_int_equal(cpumask_first(m), 0);
	assert_int_equal(cpumask_next(0, m), 2);
	assert_int_equal(cpumask_next(2, m), nr_cpu_ids);
	cpumask_complement(&n, m);
	assert_int_equal(cpumask_first(&n), 1);
	assert_true(cpumask_subset(m, cpu_online_mask));
	assert_true(cpumask_test_cpu(1, cpumask_of(1)));
	assert_int_equal(cpumask_weight(cpumask_of(1)), 1);
	assert_true(cpumask_test_and_clear_cpu(2, m));
	assert_false(cpumask_test_cpu(2, m));
	cpumask_setall(&n);
	assert_true(cpumask_full(&n));
	/* m = {0}, n = all: spread over the common CPUs, then none. */
	cpumask_set_cpu(2, m);
	assert_int_equal(cpumask_weight_and(m, &n), 2);
	assert_int_equal(cpumask_weight_and(m, cpumask_of(1)), 0);
	{
		unsigned int a = cpumask_any_and_distribute(m, &n);
		unsigned int b = cpumask_any_and_distribute(m, &n);

		assert_true(a != b && (a | b) == 2 && a < 3 && b < 3);
		assert_int_equal(cpumask_any_and_distribute(m, &n), a);
		assert_true(cpumask_any_and_distribute(m, cpumask_of(1)) >=
			    nr_cpu_ids);
		b = cpumask_any_distribute(cpu_online_mask);
		assert_true(b < 3 && cpumask_any_distribute(cpu_online_mask) ==
					     (b + 1) % 3);
	}
	free_cpumask_var(m);
	machine_shutdown();
}

/*
 * this_cpu_inc() from a task while an interrupt handler on the same CPU
 * does this_cpu_add(): no increment is lost.  The line is raised on the
 * task's own CPU from another thread, again and again.
 */
static DEFINE_PER_CPU(long, hits);
static long irq_adds;
static volatile int stop_raising;

static irqreturn_t adder(int irq, void *dev)
{
	this_cpu_add(hits, 1000);
	irq_adds++;
	return IRQ_HANDLED;
}

/*
 * Increments until 200 interrupts have landed (a wide cap of 60 s for a
 * loaded host).  At -O0 the increment is a load, add and store, which an
 * interrupt can split: only this_cpu_*()'s own protection keeps it whole.
 */
static long task_incs;

__attribute__((__optimize__("O0"))) static int inc_task(void *arg)
{
	unsigned long end = jiffies_now() + 60 * HZ;

	(void)arg;
	task_incs = 0;
	while (READ_ONCE(irq_adds) < 200 && time_before(jiffies_now(), end)) {
		for (int i = 0; i < 1000; i++)
			this_cpu_inc(hits);
		task_incs += 1000;
	}
	return 0;
}

static void *raiser(void *arg)
{
	(void)arg;
	while (!stop_raising) {
		irq_raise(9, pk_vcpu_irq_cpu(0));
		usleep(50);
	}
	return NULL;
}

static void this_cpu_vs_irq(enum preempt_model model)
{
	pthread_t th;
	struct task_struct *t;
	int cpu;
	long total = 0;

	for_each_possible_cpu(cpu)
		per_cpu(hits, cpu) = 0;
	irq_adds = 0;
	stop_raising = 0;
	pk_boot(1, model);
	/* The handler stays in hardirq context, also under rt. */
	assert_int_equal(request_irq(9, adder, IRQF_NO_THREAD, "adder", &hits),
			 0);
	pthread_create(&th, NULL, raiser, NULL);
	t = kthread_run(inc_task, NULL, "inc");
	kthread_stop(t);
	stop_raising = 1;
	pthread_join(th, NULL);
	free_irq(9, &hits);
	machine_shutdown();
	for_each_possible_cpu(cpu)
		total += per_cpu(hits, cpu);
	assert_true(irq_adds >= 200);
	assert_int_equal(total, task_incs + 1000 * irq_adds);
}

static void test_this_cpu_atomic_vs_irq(void **state)
{
	(void)state;
	this_cpu_vs_irq(PREEMPT_MODEL_FULL);
	this_cpu_vs_irq(PREEMPT_MODEL_RT);
	preempt_model_set(PREEMPT_MODEL_FULL);
}

static DEFINE_PER_CPU(int, plain);

static int raw_ops(void *arg)
{
	int *result = arg;

	/* Preemption off: no report. */
	preempt_disable();
	__this_cpu_add(plain, 5);
	__this_cpu_inc(plain);
	result[0] = __this_cpu_read(plain);
	preempt_enable();
	result[1] = (int)captured.nr;
	/* Preemptible: DEBUG_PREEMPT reports. */
	__this_cpu_add(plain, 1);
	result[2] = this_cpu_read(plain);
	result[3] = this_cpu_cmpxchg(plain, 7, 9);
	result[4] = this_cpu_xchg(plain, 1);
	result[5] = this_cpu_add_return(plain, 2);
	return 0;
}

static void test_this_cpu_debug_check(void **state)
{
	int r[6];

	(void)state;
	for (int c = 0; c < NR_CPUS; c++)
		per_cpu(plain, c) = 0;
	capture_reset();
	pk_boot(1, PREEMPT_MODEL_FULL);
	run_on_machine(raw_ops, r);
	machine_shutdown();
	capture_stop();
	assert_int_equal(r[0], 6);
	assert_int_equal(r[1], 0);
	assert_int_equal(r[2], 7);
	assert_int_equal(r[3], 7);
	assert_int_equal(r[4], 9);
	assert_int_equal(r[5], 3);
#if CONFIG_DEBUG_PREEMPT
	assert_int_equal(captured.nr, 1);
	assert_report_contains("BUG: using __this_cpu_add() in preemptible "
			       "[00000000] code: ktest/");
#else
	assert_int_equal(captured.nr, 0);
#endif
}

/* Affinity with a struct cpumask: the task ends up on the CPU it allows. */
static int pin_to_cpu1(void *arg)
{
	int *where = arg;

	if (set_cpus_allowed_ptr(current, cpumask_of(1)))
		return 1;
	msleep(2); /* woken where it may run */
	where[0] = raw_smp_processor_id();
	where[1] = current->pk_cpus_allowed == (1ULL << 1);
	return 0;
}

static void test_set_cpus_allowed(void **state)
{
	int where[2] = {-1, 0};

	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(pin_to_cpu1, where), 0);
	machine_shutdown();
	assert_int_equal(where[0], 1);
	assert_true(where[1]);
}

/* local_lock_t per CPU, initialized for every CPU, in full and rt. */
static DEFINE_PER_CPU(local_lock_t, llock);
static DEFINE_PER_CPU(long, guarded);

static int local_locker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		local_lock(&llock);
		__this_cpu_inc(guarded); /* no report: the lock pins the CPU */
		local_unlock(&llock);
	}
	return 0;
}

static void test_local_lock(void **state)
{
	long total = 0;
	int cpu;

	(void)state;
	local_lock_init(&llock);
	for (int m = 0; m < 2; m++) {
		capture_reset();
		pk_boot(2, m ? PREEMPT_MODEL_RT : PREEMPT_MODEL_FULL);
		run_on_machine(local_locker, NULL);
		machine_shutdown();
		capture_stop();
		assert_int_equal(captured.nr, 0);
	}
	for_each_possible_cpu(cpu)
		total += per_cpu(guarded, cpu);
	assert_int_equal(total, 2000);
	preempt_model_set(PREEMPT_MODEL_FULL);
}

/* Hotplug states: startup per online CPU, on it; teardown on removal. */
static DEFINE_PER_CPU(int, hp_up);
static int hp_fail_cpu = -1;

static int hp_startup(unsigned int cpu)
{
	if ((int)cpu == hp_fail_cpu)
		return -EIO;
	per_cpu(hp_up, cpu) = smp_processor_id() == (int)cpu ? 1 : -1;
	return 0;
}

static int hp_teardown(unsigned int cpu)
{
	per_cpu(hp_up, cpu) = smp_processor_id() == (int)cpu ? 0 : -2;
	return 0;
}

static int hotplug_states(void *arg)
{
	int state, cpu;

	(void)arg;
	cpus_read_lock();
	cpus_read_unlock();
	state = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "test:online",
				  hp_startup, hp_teardown);
	if (state < CPUHP_AP_ONLINE_DYN)
		return -1;
	for_each_online_cpu(cpu)
		if (per_cpu(hp_up, cpu) != 1)
			return -2;
	cpuhp_remove_state(state);
	for_each_online_cpu(cpu)
		if (per_cpu(hp_up, cpu) != 0)
			return -3;
	/* CPU 1 refuses: CPU 0 is torn down again, the error returned. */
	hp_fail_cpu = 1;
	if (cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "test:fail", hp_startup,
			      hp_teardown) != -EIO)
		return -4;
	return per_cpu(hp_up, 0) == 0 ? 0 : -5;
}

static void test_cpuhp_states(void **state)
{
	(void)state;
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(hotplug_states, NULL), 0);
	machine_shutdown();
}

/* A multi-instance state: each instance set up and torn down per CPU. */
struct hp_dev {
	struct hlist_node node;
	int up[2];    /* per CPU: 1 started on it, 0 torn down, <0 wrong CPU */
	int fail_cpu; /* this instance's startup refuses that CPU */
};

static int hp_multi_startup(unsigned int cpu, struct hlist_node *node)
{
	struct hp_dev *d = hlist_entry(node, struct hp_dev, node);

	if ((int)cpu == d->fail_cpu)
		return -EBUSY;
	d->up[cpu] = smp_processor_id() == (int)cpu ? 1 : -1;
	return 0;
}

static int hp_multi_teardown(unsigned int cpu, struct hlist_node *node)
{
	struct hp_dev *d = hlist_entry(node, struct hp_dev, node);

	d->up[cpu] = smp_processor_id() == (int)cpu ? 0 : -2;
	return 0;
}

static int hotplug_multi(void *arg)
{
	struct hp_dev a = {.fail_cpu = -1}, b = {.fail_cpu = 1},
		      c = {.fail_cpu = -1, .up = {7, 7}};
	int state;

	(void)arg;
	state = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "test:multi",
					hp_multi_startup, hp_multi_teardown);
	if (state < CPUHP_AP_ONLINE_DYN)
		return -1;
	if (cpuhp_state_add_instance(state, &a.node) || a.up[0] != 1 ||
	    a.up[1] != 1)
		return -2;
	/* b refuses CPU 1: CPU 0 torn down again, b not added. */
	if (cpuhp_state_add_instance(state, &b.node) != -EBUSY || b.up[0] != 0)
		return -3;
	/* Without the calls: added, nothing run. */
	if (cpuhp_state_add_instance_nocalls(state, &c.node) || c.up[0] != 7)
		return -4;
	if (cpuhp_state_remove_instance(state, &a.node) || a.up[0] != 0 ||
	    a.up[1] != 0)
		return -5;
	if (cpuhp_state_remove_instance_nocalls(state, &c.node) || c.up[1] != 7)
		return -6;
	cpuhp_remove_multi_state(state);
	/* Removed with an instance left: the kernel's warning. */
	state = cpuhp_setup_state_multi(CPUHP_AP_ONLINE_DYN, "test:left",
					hp_multi_startup, hp_multi_teardown);
	if (state < CPUHP_AP_ONLINE_DYN ||
	    cpuhp_state_add_instance_nocalls(state, &c.node))
		return -7;
	cpuhp_remove_multi_state(state);
	return 0;
}

static void test_cpuhp_multi_instance(void **state)
{
	(void)state;
	capture_reset();
	pk_boot(2, PREEMPT_MODEL_FULL);
	assert_int_equal(run_on_machine(hotplug_multi, NULL), 0);
	machine_shutdown();
	assert_int_equal(captured.nr, 1); /* the second state's only */
	assert_report_contains("which has instances left");
	capture_stop();
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_static_percpu),
		cmocka_unit_test(test_dynamic_percpu),
		cmocka_unit_test(test_cpumask),
		cmocka_unit_test(test_this_cpu_atomic_vs_irq),
		cmocka_unit_test(test_this_cpu_debug_check),
		cmocka_unit_test(test_local_lock),
		cmocka_unit_test(test_set_cpus_allowed),
		cmocka_unit_test(test_cpuhp_states),
		cmocka_unit_test(test_cpuhp_multi_instance),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
