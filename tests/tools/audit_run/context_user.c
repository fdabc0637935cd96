// SPDX-License-Identifier: MIT
/*
 * A program for `preempt audit --run` (tests/tools/test_audit.c), built
 * with -DCONFIG_PREEMPT_AUDIT=1.  The line after each "EXPECT-RUN rule..."
 * marker must be reported with those rules, and no other line.
 */
#include <preempt/bottom_half.h>
#include <preempt/irqflags.h>
#include <preempt/kthread.h>
#include <preempt/rcupdate.h>
#include <preempt/sched.h>
#include <preempt/spinlock.h>

static DEFINE_SPINLOCK(lock);

static int under_locks(void)
{
	int seen = 0;

	spin_lock(&lock); /* PREEMPT_RT: a sleeping lock, the count untouched */
	/* EXPECT-RUN legacy-count model-dependent */
	seen += in_atomic();
	/* EXPECT-RUN legacy-count model-dependent */
	seen += preemptible();
	spin_unlock(&lock);
	preempt_disable();
	/* EXPECT-RUN legacy-count */
	seen += in_atomic();
	preempt_enable();
	rcu_read_lock(); /* preempt_disable() unless PREEMPT_RCU */
	/* EXPECT-RUN legacy-count model-dependent */
	seen += in_atomic();
	rcu_read_unlock();
	return seen;
}

static int plain(void)
{
	unsigned long flags;
	int seen = 0;

	/* EXPECT-RUN legacy-count */
	seen += preemptible();
	seen += in_interrupt(); /* 0 everywhere, with and without the count */
	local_irq_save(flags);
	seen += irqs_disabled(); /* the irq state is counted in every build */
	local_irq_restore(flags);
	local_bh_disable();
	seen += in_softirq(); /* bh disabled counts everywhere */
	local_bh_enable();
	return seen;
}

static int task(void *arg)
{
	(void)arg;
	return under_locks() + plain();
}

int main(void)
{
	struct machine_config cfg = {.nr_cpus = 1, .model = -1};
	int seen;

	if (machine_boot(&cfg))
		return 1;
	seen = kthread_stop(kthread_run(task, NULL, "audited"));
	machine_shutdown();
	return seen > 0 ? 0 : 1;
}
